// What the send page and the activity share: the review of a quote confirmed with
// the PIN (a send, a speed-up, a cancel), a transaction followed until the network
// settles it, its status in words, its hash to copy.
import { Fragment, useEffect, useState } from 'react';
import { api, isAppError, type ActivityEntry, type AppError, type FeeOption, type FeeSpeed, type SendQuote, type TransactionStatus } from './api';
import { copyText } from './copy';
import { useI18n } from './i18n';
import { PinPrompt } from './pin';
import { addressGroups, displayAmount } from './ui';

export const SPEEDS: FeeSpeed[] = ['slow', 'normal', 'fast'];

/** The quote's option for `speed`, or its only one (a replacement's). */
export function optionFor(quote: SendQuote, speed: FeeSpeed): FeeOption | undefined {
  return quote.options.find((o) => o.speed === speed) ?? quote.options[0];
}

/** An exact amount shortened for reading, the full value on hover. */
export function Amount({ value, symbol, testId }: { value: string; symbol: string; testId?: string }) {
  return (
    <span className="amount" title={`${value} ${symbol}`} data-testid={testId}>
      {displayAmount(value)} {symbol}
    </span>
  );
}

/** A whole address in blocks of four for reading; as text, the address itself. */
export function FullAddress({ address, className = '', testId }: { address: string; className?: string; testId?: string }) {
  return (
    <span className={`full-address ${className}`} translate="no" data-testid={testId}>
      {addressGroups(address).map((group, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span>{group}</span>
        </Fragment>
      ))}
    </span>
  );
}

/** Pending, Confirmed, Failed, Replaced: a coloured pill. */
export function StatusBadge({ status }: { status: TransactionStatus }) {
  const { t } = useI18n();
  return (
    <span className="status-badge" data-status={status}>
      {t(`activity.status.${status}`)}
    </span>
  );
}

/** Copies `text`; says Copied for a moment. */
export function CopyButton({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  async function copy() {
    if (await copyText(text)) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  }
  return (
    <button type="button" className="link-button" onClick={copy} data-testid={testId}>
      {copied ? t('common.copied') : label}
    </button>
  );
}

/**
 * `initial`, followed: while it is pending the app's activity is read every `every`
 * ms (one read at a time) and the entry kept as it says; the reads stop once the
 * network has settled it, and when the page goes. `set` follows another entry.
 */
export function useTrackedEntry(initial: ActivityEntry, every: number) {
  const [entry, setEntry] = useState(initial);
  const { txHash, status } = entry;
  useEffect(() => {
    if (status !== 'pending') return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      timer = setTimeout(() => {
        api.getActivity().then(
          (list) => {
            if (!live) return;
            const found = list.find((e) => e.txHash.toLowerCase() === txHash.toLowerCase());
            if (found) setEntry(found);
            if (!found || found.status === 'pending') next();
          },
          () => {
            if (live) next();
          },
        );
      }, every);
    };
    next();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [txHash, status, every]);
  return [entry, setEntry] as const;
}

/**
 * The review of a quote, as the person signs it: what is sent (or that a pending
 * transaction is sped up or cancelled), to whom in full, on which network, the fee
 * at `speed`, the total and the balances after; then the PIN. Confirming signs the
 * quote (`requestId`: settles the application's `send`). A quote the app no longer
 * holds (`InvalidParameters`: it expired) goes to `onExpired`, for a new review; a
 * refused PIN is explained in place and nothing else happens.
 */
export function SendReview({
  quote,
  speed,
  requestId,
  onConfirmed,
  onCancel,
  onExpired,
}: {
  quote: SendQuote;
  speed: FeeSpeed;
  requestId?: number;
  onConfirmed: (entry: ActivityEntry) => void;
  onCancel: () => void;
  onExpired: (error: AppError) => void;
}) {
  const { t } = useI18n();
  const option = optionFor(quote, speed);
  const action = quote.replaces?.action;
  const isToken = quote.contract !== undefined;
  // An unusually high fee is signed only once the person says yes to it.
  const [acceptedHighFee, setAcceptedHighFee] = useState(false);
  const highFee = option?.highFee;

  async function confirm(pin: string) {
    if (!option) return;
    let entry: ActivityEntry;
    try {
      entry = await api.confirmSend({
        quoteId: quote.quoteId,
        speed: option.speed,
        pin,
        acceptHighFee: highFee !== undefined && acceptedHighFee,
        ...(requestId === undefined ? {} : { requestId }),
      });
    } catch (err) {
      if (isAppError(err) && err.code === 'InvalidParameters') {
        onExpired(err);
        return;
      }
      throw err;
    }
    onConfirmed(entry);
  }

  return (
    <section className="card review" aria-labelledby="send-review-heading">
      <h2 id="send-review-heading">
        {t(action === 'cancel' ? 'send.cancelTitle' : action === 'speedUp' ? 'send.speedUpTitle' : 'send.reviewTitle')}
      </h2>
      <p className="review-amount" data-testid="send-confirm-summary">
        {action === 'cancel' ? t('send.cancelSummary') : t('send.summary', { amount: quote.amount, symbol: quote.symbol })}
      </p>
      {action && <p className="muted small">{t(action === 'cancel' ? 'send.cancelBody' : 'send.speedUpBody')}</p>}
      <dl className="facts">
        {action !== 'cancel' && (
          <>
            <dt>{t('send.to')}</dt>
            <dd>
              <FullAddress address={quote.to} className="compact" testId="send-confirm-to" />
            </dd>
          </>
        )}
        <dt>{t('send.network')}</dt>
        <dd data-testid="send-confirm-network">{t('receive.network', { network: quote.network, chainId: quote.chainId })}</dd>
        {option && (
          <>
            <dt>{t('send.fee')}</dt>
            <dd>
              <Amount value={option.fee} symbol={quote.coinSymbol} testId="send-fee" />
              <small>{t('send.feeDetail', { speed: t(`send.speed.${option.speed}`), gwei: option.maxFeePerGasGwei })}</small>
            </dd>
            {option.total !== undefined && (
              <>
                <dt>{t('send.total')}</dt>
                <dd>
                  <Amount value={option.total} symbol={quote.coinSymbol} testId="send-total" />
                </dd>
              </>
            )}
            <dt>{t('send.after')}</dt>
            <dd data-testid="send-after">
              {isToken && option.tokenAfter !== undefined && <Amount value={option.tokenAfter} symbol={quote.symbol} />}
              <Amount value={option.coinAfter} symbol={quote.coinSymbol} />
            </dd>
          </>
        )}
      </dl>
      {highFee && (
        <div className="notice danger" role="alert" data-testid="send-high-fee">
          <p>{t(`send.highFee.${highFee}`, { fee: option?.fee ?? '', symbol: quote.coinSymbol, base: quote.baseFeeGwei })}</p>
          <div className="check">
            <input
              id="send-accept-high-fee"
              type="checkbox"
              checked={acceptedHighFee}
              onChange={(e) => setAcceptedHighFee(e.target.checked)}
              data-testid="send-accept-high-fee"
            />
            <label htmlFor="send-accept-high-fee">{t('send.acceptHighFee')}</label>
          </div>
        </div>
      )}
      {quote.recipientIsContract && action !== 'cancel' && (
        <div className="notice warning" role="note">
          {t('send.contractWarning')}
        </div>
      )}
      {quote.recipientIsSelf && !action && (
        <div className="notice warning" role="note">
          {t('send.selfWarning')}
        </div>
      )}
      <PinPrompt
        id="send-pin"
        framed={false}
        label={t('send.pinLabel')}
        submitLabel={t(action === 'cancel' ? 'send.confirmCancel' : action === 'speedUp' ? 'send.confirmSpeedUp' : 'send.confirm')}
        onSubmit={confirm}
        onCancel={onCancel}
        disabled={highFee !== undefined && !acceptedHighFee}
        testIds={{ field: 'send-pin', submit: 'send-submit' }}
      />
    </section>
  );
}
