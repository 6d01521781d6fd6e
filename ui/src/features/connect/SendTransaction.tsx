// eth_sendTransaction: what the transaction does, as the device read it (the
// recipient or contract, the coin sent, the call decoded where the standard is
// known; an unlimited approval or an operator for every NFT in red), what the
// service's node expects it to move, and the fee as the send page shows it;
// then the PIN. A transaction that would fail is refused before the PIN.
import { useState } from 'react';
import type { CallQuote, CallReview, ConnectPrompt, DecodedCall, FeeSpeed, TransactionPrompt } from '../../api';
import { api } from '../../api';
import { useI18n } from '../../i18n';
import { FullAddress } from '../../components/FullAddress';
import { NamedAddress } from '../../components/NamedAddress';
import { FeeFacts } from '../../components/FeeFacts';
import { HighFeeNotice } from '../../components/HighFeeNotice';
import { ExpectedApprovals, ExpectedChanges } from '../../components/ExpectedChanges';
import { PinPrompt } from '../../components/Pin';
import { formatUnits } from '../../lib/amount';
import { dateTime } from '../../lib/format';
import { AskingPage, Fact, SignAnswer, reject } from './Asking';
import { RecipientWarnings, SPEEDS, optionFor } from '../send/SendReview';

export function SendTransaction({ prompt, request }: { prompt: ConnectPrompt; request: TransactionPrompt }) {
  const { t } = useI18n();
  const { call, prepared } = request;
  const quote = prepared?.quote;
  const [speed, setSpeed] = useState<FeeSpeed>('normal');
  const [acceptedHighFee, setAcceptedHighFee] = useState(false);
  const [acceptedDanger, setAcceptedDanger] = useState(false);
  const danger = quote?.warnings.some((w) => w.kind !== 'firstTransfer') ?? false;
  const option = quote ? optionFor(quote, speed) : undefined;
  const highFee = option?.highFee;
  return (
    <AskingPage prompt={prompt} title={t('tx.title')} refusal={request.refusal}>
      <CallSummary review={call} coin={quote?.coinSymbol ?? ''} created={quote?.to} network={quote?.network} />
      {prepared && <CallChanges prepared={prepared} />}
      <details className="typed-data">
        <summary>{t('tx.data')}</summary>
        <pre className="sign-message hex" translate="no" data-testid="tx-data">
          {call.data}
        </pre>
      </details>
      {quote && option && (
        <>
          <div className="field">
            <span className="field-label" id="tx-speed-label">
              {t('send.speed')}
            </span>
            <div className="segmented" role="group" aria-labelledby="tx-speed-label">
              {SPEEDS.map((s) => (
                <button key={s} type="button" aria-pressed={speed === s} data-testid={`tx-speed-${s}`} onClick={() => setSpeed(s)}>
                  {t(`send.speed.${s}`)}
                </button>
              ))}
            </div>
          </div>
          <dl className="facts">
            <Fact label={t('send.network')}>{t('receive.network', { network: quote.network, chainId: quote.chainId })}</Fact>
            <FeeFacts quote={quote} option={option} />
          </dl>
          {!option.enough && (
            <div className="notice warning" role="note">
              {t('send.notEnough', { symbol: quote.coinSymbol })}
            </div>
          )}
          {highFee && <HighFeeNotice id="tx" highFee={highFee} quote={quote} option={option} accepted={acceptedHighFee} onAccept={setAcceptedHighFee} />}
        </>
      )}
      {quote && <RecipientWarnings quote={quote} accepted={acceptedDanger} onAccept={setAcceptedDanger} />}
      {request.refusal !== undefined || !quote || !option ? (
        <SignAnswer prompt={prompt} refused submitLabel="" />
      ) : (
        <PinPrompt
          id="tx-pin"
          framed={false}
          label={t('send.pinLabel')}
          submitLabel={t('send.confirm')}
          disabled={!option.enough || (highFee !== undefined && !acceptedHighFee) || (danger && !acceptedDanger)}
          onSubmit={(pin) =>
            api.answerConnectRequest(prompt.id, true, pin, { speed: option.speed, acceptHighFee: highFee !== undefined && acceptedHighFee })
          }
          onCancel={() => reject(prompt.id)}
          testIds={{ field: 'sign-pin', submit: 'sign-approve' }}
        />
      )}
    </AskingPage>
  );
}

/** An amount in a token's units when they are known, else as it is. */
function units(amount: string, decimals: number | undefined): string {
  return decimals === undefined ? amount : formatUnits(BigInt(amount), decimals);
}

/** What a call will move and the approvals it gives, as simulated. */
export function CallChanges({ prepared }: { prepared: CallQuote }) {
  const { t } = useI18n();
  return (
    <>
      <h3 className="small">{t('tx.changes')}</h3>
      {prepared.changes === undefined ? (
        <p className="muted small" data-testid="tx-no-simulation">
          {t('tx.noSimulation')}
        </p>
      ) : prepared.changes.length === 0 ? (
        <p className="muted small" data-testid="tx-changes-none">
          {t('tx.changesNone')}
        </p>
      ) : (
        <ExpectedChanges changes={prepared.changes} testId="tx-changes" />
      )}
      {prepared.approvals && <ExpectedApprovals approvals={prepared.approvals} testId="tx-approvals" />}
    </>
  );
}

/** What a call does; `created`: where a deployment's contract will be, once
 * the preparation named the nonce (the device derives it from the account
 * and the nonce). */
/** What a call does; `network` (once known) names its addresses' ENS names too. */
export function CallSummary({ review, coin, created, network }: { review: CallReview; coin: string; created?: string; network?: string }) {
  const { t } = useI18n();
  const sendsCoin = review.value !== '0';
  return (
    <>
      <p className="tx-summary" data-testid="tx-summary">
        <CallText call={review.call} />
      </p>
      {review.call.kind === 'deploy' && (
        <div className="notice warning" role="note" data-testid="tx-deploy-caution">
          {t('tx.deployCaution')}
        </div>
      )}
      {review.takesEverything && (
        <div className="notice danger" role="alert" data-testid="tx-takes-everything">
          {t(review.call.kind === 'setApprovalForAll' ? 'tx.allNfts' : 'tx.unlimited')}
        </div>
      )}
      <dl className="facts">
        {review.to !== undefined ? (
          <Fact label={t(review.call.kind === 'plain' ? 'send.to' : 'tx.contract')}>
            {network ? (
              <NamedAddress network={network} address={review.to} testId="tx-to" />
            ) : (
              <FullAddress address={review.to} className="compact" testId="tx-to" />
            )}
          </Fact>
        ) : (
          created !== undefined && (
            <Fact label={t('tx.newContract')}>
              <FullAddress address={created} className="compact" testId="tx-new-contract" />
            </Fact>
          )
        )}
        {(sendsCoin || review.call.kind === 'plain') && (
          <Fact label={t('tx.value')} testId="tx-value">
            {formatUnits(BigInt(review.value), 18)} {coin}
          </Fact>
        )}
      </dl>
    </>
  );
}

function CallText({ call }: { call: DecodedCall }) {
  const { t, language } = useI18n();
  switch (call.kind) {
    case 'plain':
      return <>{t('tx.plain')}</>;
    case 'transfer':
      return <>{t('tx.transfer', { amount: units(call.amount, call.decimals), token: call.symbol ?? t('tx.thisToken'), to: call.to })}</>;
    case 'approve':
      return (
        <>
          {call.unlimited
            ? t('tx.approveUnlimited', { spender: call.spender, token: call.symbol ?? t('tx.thisToken') })
            : t(call.adds ? 'tx.approveMore' : 'tx.approve', { spender: call.spender, amount: units(call.amount, call.decimals), token: call.symbol ?? t('tx.thisToken') })}
        </>
      );
    case 'permit2Approve': {
      const token = call.symbol ?? t('tx.tokenOf', { contract: call.token });
      const until = call.until === undefined ? t('sign.forever') : dateTime(call.until, language);
      return (
        <>
          {call.unlimited
            ? t('tx.permit2ApproveUnlimited', { spender: call.spender, token })
            : t('tx.permit2Approve', { spender: call.spender, amount: units(call.amount, call.decimals), token })}{' '}
          {t('sign.permitUntil', { until })}
        </>
      );
    }
    case 'transferFrom':
      return <>{t('tx.transferFrom', { from: call.from, to: call.to, amount: units(call.amount, call.decimals), token: call.symbol ?? '' })}</>;
    case 'nftTransfer':
      return <>{t('tx.nftTransfer', { amount: call.amount, id: call.tokenId, to: call.to })}</>;
    case 'setApprovalForAll':
      return <>{t(call.approved ? 'tx.operator' : 'tx.operatorRevoke', { operator: call.operator })}</>;
    case 'unknown':
      return <>{t('tx.unknown', { selector: call.selector })}</>;
    case 'deploy':
      return <>{t('tx.deploy', { size: call.codeSize })}</>;
  }
}
