// What the person allowed others to spend or move: each ERC-20 allowance and
// NFT operator that still holds (the app checked each with a call), with its
// spender, its amount (unlimited in red) and when it was given; Revoke sends
// the withdrawal through the same review and PIN as any transaction.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type ActivityEntry, type ApprovalEntry, type CallQuote, type FeeSpeed } from '../../api';
import { useAction } from '../../hooks/useAction';
import { useEscape } from '../../hooks/useEscape';
import { useI18n } from '../../i18n';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ExpectedApprovals, ExpectedChanges } from '../../components/ExpectedChanges';
import { FeeFacts } from '../../components/FeeFacts';
import { FullAddress } from '../../components/FullAddress';
import { HighFeeNotice } from '../../components/HighFeeNotice';
import { Header } from '../../components/Header';
import { PinPrompt } from '../../components/Pin';
import { Skeleton } from '../../components/Skeleton';
import { displayAmount, shortAddress } from '../../lib/format';
import { SpeedPicker, optionFor } from '../send/SendReview';
import { POLL_EVERY } from '../wallet/Activity';

const keyOf = (a: ApprovalEntry) => `${a.network}:${a.contract}:${a.spender}:${a.kind}`;

export function Approvals({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  const [approvals, setApprovals] = useState<ApprovalEntry[] | null>(null);
  const [revoking, setRevoking] = useState<ApprovalEntry | null>(null);
  // Revocations sent and not yet read back as gone: shown as pending.
  const [sent, setSent] = useState<Record<string, ActivityEntry>>({});
  // Revocations whose transaction failed (or was dropped): the approval holds.
  const [failed, setFailed] = useState<string[]>([]);
  const { error, run } = useAction();
  useEscape(revoking ? () => setRevoking(null) : onBack);

  const load = useCallback(() => run(async () => setApprovals(await api.getApprovals()), { busy: false }), [run]);
  useEffect(() => {
    void load();
  }, [load]);

  // While a revocation is pending, its transaction is followed as Activity
  // follows it: once it ended the list is read again (mined, the approval no
  // longer holds and is gone); failed or dropped, the row says so and offers
  // Revoke again.
  const sentNow = useRef(sent);
  useEffect(() => {
    sentNow.current = sent;
  }, [sent]);
  const following = Object.keys(sent).length > 0;
  useEffect(() => {
    if (!following) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      timer = setTimeout(() => {
        api.getActivity().then(
          (list) => {
            if (!live) return;
            const following = Object.entries(sentNow.current);
            const ended = following.flatMap(([key, entry]) => {
              const status = list.find((e) => e.txHash === entry.txHash)?.status ?? 'pending';
              return status === 'pending' ? [] : [{ key, failed: status === 'failed' || status === 'dropped' }];
            });
            // Others still pending are followed on.
            if (ended.length < following.length) next();
            if (ended.length === 0) return;
            setSent((s) => Object.fromEntries(Object.entries(s).filter(([key]) => !ended.some((e) => e.key === key))));
            setFailed((f) => [...f, ...ended.filter((e) => e.failed).map((e) => e.key)]);
            void load();
          },
          () => {
            if (live) next();
          },
        );
      }, POLL_EVERY);
    };
    next();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [following, load]);

  if (revoking) {
    return (
      <Revoke
        approval={revoking}
        onBack={() => setRevoking(null)}
        onSent={(entry) => {
          setSent((s) => ({ ...s, [keyOf(revoking)]: entry }));
          setFailed((f) => f.filter((key) => key !== keyOf(revoking)));
          setRevoking(null);
        }}
      />
    );
  }
  return (
    <div className="subpage">
      <Header title={t('approvals.title')} onBack={onBack} />
      <main className="page">
        <p className="muted small">{t('approvals.intro')}</p>
        <ErrorNotice error={error} onRetry={load} />
        {approvals === null && !error && (
          <div className="card" aria-busy="true" aria-label={t('common.loading')}>
            <Skeleton height={16} />
            <Skeleton height={16} width="60%" />
          </div>
        )}
        {approvals?.length === 0 && (
          <div className="card muted" data-testid="approvals-empty">
            {t('approvals.none')}
          </div>
        )}
        {approvals && approvals.length > 0 && (
          <section className="card" aria-label={t('approvals.title')}>
            {approvals.map((a) => {
              const pending = sent[keyOf(a)];
              return (
                <div className="row approval" key={keyOf(a)} data-testid="approval" data-kind={a.kind} data-spender={a.spender}>
                  <span className="label">
                    <span>
                      {a.kind === 'operator' ? t('approvals.operator', { contract: shortAddress(a.contract) }) : (a.symbol ?? shortAddress(a.contract))}
                    </span>
                    <small>
                      {t('approvals.spender', { spender: a.spenderName ?? shortAddress(a.spender) })} · {t('approvals.block', { block: a.blockNumber })}
                    </small>
                  </span>
                  <span className={`amount${a.unlimited || a.kind === 'operator' ? ' danger-text' : ''}`} data-testid="approval-amount">
                    {a.kind === 'operator' ? t('approvals.allNfts') : a.unlimited ? t('approvals.unlimited') : `${displayAmount(a.amount ?? '0')}${a.symbol ? ` ${a.symbol}` : ''}`}
                  </span>
                  {pending ? (
                    <span className="muted small" data-testid="approval-revoking">
                      {t('approvals.revoking')}
                    </span>
                  ) : (
                    <span className="stack-end">
                      {failed.includes(keyOf(a)) && (
                        <small className="danger-text" role="alert" data-testid="approval-revoke-failed">
                          {t('approvals.revokeFailed')}
                        </small>
                      )}
                      <button type="button" className="secondary" onClick={() => setRevoking(a)} data-testid="approval-revoke">
                        {t('approvals.revoke')}
                      </button>
                    </span>
                  )}
                </div>
              );
            })}
          </section>
        )}
      </main>
    </div>
  );
}

function Revoke({ approval, onBack, onSent }: { approval: ApprovalEntry; onBack: () => void; onSent: (entry: ActivityEntry) => void }) {
  const { t } = useI18n();
  const [prepared, setPrepared] = useState<CallQuote | null>(null);
  const [speed, setSpeed] = useState<FeeSpeed>('normal');
  const [acceptedHighFee, setAcceptedHighFee] = useState(false);
  const { error, run } = useAction();
  useEffect(() => {
    void run(async () =>
      setPrepared(
        await api.prepareRevoke({
          network: approval.network,
          account: approval.account,
          contract: approval.contract,
          spender: approval.spender,
          kind: approval.kind,
        }),
      ),
    );
  }, [run, approval]);
  const quote = prepared?.quote;
  const option = quote ? optionFor(quote, speed) : undefined;
  const highFee = option?.highFee;
  return (
    <div className="subpage">
      <Header title={t('approvals.revokeTitle')} onBack={onBack} />
      <main className="page">
        <ErrorNotice error={error} />
        <section className="card review" aria-labelledby="revoke-heading">
          <h2 id="revoke-heading" data-testid="revoke-summary">
            {approval.kind === 'operator'
              ? t('approvals.revokeOperator', { spender: approval.spenderName ?? shortAddress(approval.spender) })
              : t('approvals.revokeAllowance', { spender: approval.spenderName ?? shortAddress(approval.spender), symbol: approval.symbol ?? shortAddress(approval.contract) })}
          </h2>
          <dl className="facts">
            <dt>{t('approvals.spenderLabel')}</dt>
            <dd>
              <FullAddress address={approval.spender} className="compact" />
            </dd>
            <dt>{t('approvals.contractLabel')}</dt>
            <dd>
              <FullAddress address={approval.contract} className="compact" />
            </dd>
          </dl>
          {prepared && quote && option && (
            <>
              {prepared.changes !== undefined && prepared.changes.length > 0 && <ExpectedChanges changes={prepared.changes} />}
              {prepared.approvals && <ExpectedApprovals approvals={prepared.approvals} testId="revoke-approvals" />}
              <SpeedPicker speed={speed} onChange={setSpeed} />
              <dl className="facts">
                <FeeFacts quote={quote} option={option} />
              </dl>
              {highFee && <HighFeeNotice id="revoke" highFee={highFee} quote={quote} option={option} accepted={acceptedHighFee} onAccept={setAcceptedHighFee} />}
              <PinPrompt
                id="revoke-pin"
                framed={false}
                label={t('send.pinLabel')}
                submitLabel={t('approvals.revoke')}
                disabled={!option.enough || (highFee !== undefined && !acceptedHighFee)}
                onSubmit={async (pin) =>
                  onSent(await api.confirmSend({ quoteId: quote.quoteId, speed: option.speed, pin, acceptHighFee: highFee !== undefined && acceptedHighFee }))
                }
                onCancel={onBack}
                testIds={{ field: 'revoke-pin', submit: 'revoke-submit' }}
              />
            </>
          )}
        </section>
      </main>
    </div>
  );
}
