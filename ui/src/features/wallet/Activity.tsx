import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useAction } from '../../hooks/useAction';
import { api, type ActivityEntry, type ReplaceAction, type SendQuote } from '../../api';
import { useI18n, type Translate } from '../../i18n';
import { Amount } from '../../components/Amount';
import { CopyButton } from '../../components/CopyButton';
import { FullAddress } from '../../components/FullAddress';
import { NamedAddress } from '../../components/NamedAddress';
import { StatusBadge } from '../../components/StatusBadge';
import { SendReview } from '../send/SendReview';
import { useTrackedEntry } from '../../hooks/useTrackedEntry';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { Skeleton } from '../../components/Skeleton';
import { useEscape } from '../../hooks/useEscape';
import { SaveAddress } from '../settings/SaveAddress';
import { dateTime, displayAmount, shortAddress } from '../../lib/format';

/** How often the activity is read while a transaction in it is pending. */
export const POLL_EVERY = 3000;

/**
 * "Sent 0.1 ETH to 0x12…cd", "Received 5 USDC from 0x…", "Cancelled transaction",
 * "Called contract 0x…", "Deployed a contract at 0x…" (what the device signed).
 */
export function describeEntry(entry: ActivityEntry, t: Translate, exact = false): string {
  if (entry.isCancel) return t('activity.cancelled');
  const address = shortAddress(entry.counterparty);
  if (entry.kind === 'deployment') return t('activity.deployed', { address });
  if (entry.kind === 'contractCall') return t('activity.called', { address });
  if (entry.kind === 'nftTransfer' && entry.nft) {
    const { tokenId: id, amount } = entry.nft;
    return amount === '1' ? t('activity.sentNft', { id, address }) : t('activity.sentNfts', { id, amount, address });
  }
  const amount = exact ? entry.amount : displayAmount(entry.amount);
  const vars = { amount, symbol: entry.symbol, address };
  return entry.direction === 'sent' ? t('activity.sent', vars) : t('activity.received', vars);
}

function useDate(seconds: number): string {
  const { language } = useI18n();
  return dateTime(seconds, language);
}

function DirectionIcon({ entry }: { entry: ActivityEntry }) {
  const kind = entry.isCancel ? 'cancel' : entry.direction;
  return (
    <span className={`tx-icon ${kind}`} aria-hidden="true">
      {kind === 'cancel' ? '×' : kind === 'sent' ? '↑' : '↓'}
    </span>
  );
}

function Row({ entry, onOpen }: { entry: ActivityEntry; onOpen: (entry: ActivityEntry) => void }) {
  const { t } = useI18n();
  const date = useDate(entry.createdAt);
  return (
    <li>
      <button
        type="button"
        className="activity-row"
        data-testid="activity-row"
        data-status={entry.status}
        data-hash={entry.txHash}
        onClick={() => onOpen(entry)}
      >
        <DirectionIcon entry={entry} />
        <span className="label">
          <span title={describeEntry(entry, t, true)}>{describeEntry(entry, t)}</span>
          <small>
            {date} · {entry.network}
          </small>
        </span>
        <span className="side">
          <StatusBadge status={entry.status} />
          {entry.direction === 'sent' && entry.fee !== undefined && (
            <small title={`${entry.fee} ${entry.coinSymbol}`}>{t('activity.fee', { fee: displayAmount(entry.fee), symbol: entry.coinSymbol })}</small>
          )}
        </span>
      </button>
    </li>
  );
}

/**
 * The wallet's transactions, newest first: what it sent and received, each with
 * its status; a row opens its detail (`onOpen`). While one is pending the list is
 * read again every 3 s, and only then. `focus`: the heading takes the focus (the
 * send page's "View activity").
 */
export function Activity({
  onOpen,
  focus = false,
  account = null,
}: {
  onOpen: (entry: ActivityEntry) => void;
  focus?: boolean;
  /** Only this account's transactions (lower-case address); null: all. */
  account?: string | null;
}) {
  const { t } = useI18n();
  const [all, setEntries] = useState<ActivityEntry[] | null>(null);
  const entries = useMemo(() => all?.filter((e) => account === null || e.address.toLowerCase() === account) ?? null, [all, account]);
  const { error, run } = useAction();
  const load = () => run(async () => setEntries(await api.getActivity()), { busy: false });

  // Once per visit, also when React runs effects twice (StrictMode).
  const enter = useEffectEvent(() => void load());
  const entered = useRef(false);
  useEffect(() => {
    if (entered.current) return;
    entered.current = true;
    enter();
  }, []);

  const pending = entries?.some((e) => e.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      timer = setTimeout(() => {
        api.getActivity().then(
          (list) => {
            if (!live) return;
            setEntries(list);
            if (list.some((e) => e.status === 'pending')) next();
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
  }, [pending]);

  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!focus) return;
    heading.current?.focus();
    heading.current?.scrollIntoView?.({ block: 'start' });
  }, [focus]);

  return (
    <section className="card activity" data-testid="activity" aria-labelledby="activity-heading">
      <h2 id="activity-heading" ref={heading} tabIndex={-1}>
        {t('activity.title')}
      </h2>
      <ErrorNotice error={entries === null ? error : null} onRetry={load} />
      {entries === null && !error && (
        <div aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <div className="row" key={i}>
              <Skeleton height={32} width={32} />
              <Skeleton height={16} />
            </div>
          ))}
        </div>
      )}
      {entries?.length === 0 && (
        <div className="empty" data-testid="activity-empty">
          <strong>{t('activity.empty')}</strong>
          <span className="muted small">{t('activity.emptyHint')}</span>
        </div>
      )}
      {entries && entries.length > 0 && (
        <ul className="activity-list">
          {entries.map((entry) => (
            <Row key={entry.txHash} entry={entry} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * One transaction in full: its hash to copy, status, block, nonce, the other side's
 * whole address, amount and fee; followed while pending. A pending one the wallet
 * sent can be sped up or cancelled: the app quotes the replacement, which is
 * reviewed and confirmed with the PIN as a send is. Esc goes back.
 */
export function ActivityDetail({ entry: initial, onBack }: { entry: ActivityEntry; onBack: () => void }) {
  const { t } = useI18n();
  const [entry, setEntry] = useTrackedEntry(initial, POLL_EVERY);
  const [quote, setQuote] = useState<SendQuote | null>(null);
  const [notice, setNotice] = useState<'replacing' | 'expired' | null>(null);
  const { busy, error, run } = useAction();
  const date = useDate(entry.createdAt);

  const replace = (action: ReplaceAction) =>
    run(async () => {
      setNotice(null);
      setQuote(await api.prepareReplacement(entry.txHash, action));
    });

  const back = quote ? () => setQuote(null) : onBack;
  useEscape(back);

  if (quote) {
    const action = quote.replaces?.action;
    return (
      <div className="subpage" id="activity-replace">
        <Header title={t(action === 'cancel' ? 'send.cancelTitle' : 'send.speedUpTitle')} onBack={back} />
        <main className="page">
          <SendReview
            quote={quote}
            speed="fast"
            onCancel={() => setQuote(null)}
            onExpired={() => {
              setQuote(null);
              setNotice('expired');
            }}
            onConfirmed={(next) => {
              setQuote(null);
              setEntry(next);
              setNotice('replacing');
            }}
          />
        </main>
      </div>
    );
  }

  const sent = entry.direction === 'sent';
  const canReplace = sent && entry.status === 'pending';
  // Only a transfer is signed again faster; a call or deployment would be
  // signed again unread, so it can only be cancelled.
  const canSpeedUp = canReplace && entry.kind === 'transfer';
  const deployment = entry.kind === 'deployment';
  return (
    <div className="subpage" id="activity-detail">
      <Header title={t('activity.detailTitle')} onBack={back} />
      <main className="page">
        {notice && (
          <div className={`notice ${notice === 'expired' ? 'warning' : 'success'}`} role="status" data-testid="activity-notice">
            {t(notice === 'expired' ? 'send.expired' : 'activity.replacementSent')}
          </div>
        )}
        <section className="card detail" data-testid="activity-detail" data-status={entry.status} aria-labelledby="activity-detail-heading">
          <div className="send-head">
            <DirectionIcon entry={entry} />
            <h2 id="activity-detail-heading" className="label">
              {describeEntry(entry, t, true)}
            </h2>
          </div>
          <dl className="facts">
            <dt>{t('activity.statusLabel')}</dt>
            <dd>
              <StatusBadge status={entry.status} />
            </dd>
            <dt>{t('activity.hash')}</dt>
            <dd>
              <span className="hash" data-testid="activity-hash" translate="no">
                {entry.txHash}
              </span>
              <CopyButton text={entry.txHash} label={t('send.copyHash')} testId="activity-copy-hash" />
            </dd>
            <dt>{t('activity.network')}</dt>
            <dd>{entry.network}</dd>
            {!entry.isCancel && (
              <>
                <dt>{t(deployment ? 'activity.newContract' : sent ? 'activity.to' : 'activity.from')}</dt>
                <dd>
                  <NamedAddress network={entry.network} address={entry.counterparty} testId="activity-counterparty" />
                  {!deployment && <SaveAddress address={entry.counterparty} />}
                </dd>
                {entry.nft ? (
                  <>
                    <dt>{t('activity.nft')}</dt>
                    <dd data-testid="activity-nft">
                      {entry.nft.amount === '1' ? '' : `${entry.nft.amount} × `}
                      {t('activity.nftOf', { id: entry.nft.tokenId })} <FullAddress address={entry.nft.contract} className="compact" />
                    </dd>
                  </>
                ) : (
                  <>
                    <dt>{t('activity.amount')}</dt>
                    <dd data-testid="activity-amount">
                      <Amount value={entry.amount} symbol={entry.symbol} />
                    </dd>
                  </>
                )}
              </>
            )}
            {entry.fee !== undefined && (
              <>
                <dt>{t(entry.status === 'pending' ? 'activity.feeAtMost' : 'activity.feeLabel')}</dt>
                <dd data-testid="activity-fee">
                  <Amount value={entry.fee} symbol={entry.coinSymbol} />
                </dd>
              </>
            )}
            {entry.nonce !== undefined && (
              <>
                <dt>{t('activity.nonce')}</dt>
                <dd data-testid="activity-nonce">{entry.nonce}</dd>
              </>
            )}
            {entry.blockNumber !== undefined && (
              <>
                <dt>{t('activity.block')}</dt>
                <dd data-testid="activity-block">{entry.blockNumber}</dd>
              </>
            )}
            <dt>{t('activity.date')}</dt>
            <dd>{date}</dd>
            {entry.replacedBy && (
              <>
                <dt>{t('activity.replacedBy')}</dt>
                <dd className="hash">{entry.replacedBy}</dd>
              </>
            )}
          </dl>
          <ErrorNotice error={error} />
          {canReplace && (
            <div className="actions">
              {canSpeedUp && (
                <button type="button" className="secondary" onClick={() => replace('speedUp')} disabled={busy} data-testid="activity-speed-up">
                  {t('activity.speedUp')}
                </button>
              )}
              {!entry.isCancel && (
                <button type="button" className="danger" onClick={() => replace('cancel')} disabled={busy} data-testid="activity-cancel">
                  {t('activity.cancel')}
                </button>
              )}
            </div>
          )}
          {canReplace && <p className="muted small">{t(canSpeedUp ? 'activity.replaceHint' : 'activity.cancelHint')}</p>}
        </section>
      </main>
    </div>
  );
}
