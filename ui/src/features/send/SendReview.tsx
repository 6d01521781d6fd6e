// The review of a quote, as the person signs it: a send, a speed-up or a cancel.
import { useState } from 'react';
import { api, isAppError, type ActivityEntry, type AppError, type FeeOption, type FeeSpeed, type SendQuote } from '../../api';
import { useI18n } from '../../i18n';
import { PinPrompt } from '../../components/Pin';
import { FeeFacts } from '../../components/FeeFacts';
import { HighFeeNotice } from '../../components/HighFeeNotice';
import { FullAddress } from '../../components/FullAddress';
import { NamedAddress } from '../../components/NamedAddress';

export const SPEEDS: FeeSpeed[] = ['slow', 'normal', 'fast'];

/** The three fee speeds as one segmented control. */
export function SpeedPicker({ speed, onChange }: { speed: FeeSpeed; onChange: (speed: FeeSpeed) => void }) {
  const { t } = useI18n();
  return (
    <div className="segmented" role="group" aria-label={t('send.speed')}>
      {SPEEDS.map((s) => (
        <button key={s} type="button" aria-pressed={speed === s} onClick={() => onChange(s)}>
          {t(`send.speed.${s}`)}
        </button>
      ))}
    </div>
  );
}

/** The quote's option for `speed`, or its only one (a replacement's). */
export function optionFor(quote: SendQuote, speed: FeeSpeed): FeeOption | undefined {
  return quote.options.find((o) => o.speed === speed) ?? quote.options[0];
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
  // An unusually high fee is signed only once the person says yes to it.
  const [acceptedHighFee, setAcceptedHighFee] = useState(false);
  const highFee = option?.highFee;
  // A red warning about the recipient (a look-alike, a contract) too.
  const [acceptedDanger, setAcceptedDanger] = useState(false);
  const danger = quote.warnings.some((w) => w.kind !== 'firstTransfer');

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
            {quote.recipientName && (
              <>
                <dt>{t('send.recipientName')}</dt>
                <dd data-testid="send-confirm-name" translate="no">
                  {quote.recipientName}
                </dd>
              </>
            )}
            <dt>{t('send.to')}</dt>
            <dd>
              {quote.recipientName ? (
                <FullAddress address={quote.to} className="compact" testId="send-confirm-to" />
              ) : (
                <NamedAddress network={quote.network} address={quote.to} testId="send-confirm-to" />
              )}
            </dd>
          </>
        )}
        <dt>{t('send.network')}</dt>
        <dd data-testid="send-confirm-network">{t('receive.network', { network: quote.network, chainId: quote.chainId })}</dd>
        {option && <FeeFacts quote={quote} option={option} />}
      </dl>
      {highFee && <HighFeeNotice id="send" highFee={highFee} quote={quote} option={option} accepted={acceptedHighFee} onAccept={setAcceptedHighFee} />}
      <RecipientWarnings quote={quote} accepted={acceptedDanger} onAccept={setAcceptedDanger} />
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
        disabled={(highFee !== undefined && !acceptedHighFee) || (danger && !acceptedDanger)}
        testIds={{ field: 'send-pin', submit: 'send-submit' }}
      />
    </section>
  );
}

/** What the review warns of about the recipient: amber for a first transfer;
 * red (with a box the person ticks before the PIN) for an address that looks
 * like a saved or recent one but is not it, a token's own contract, or a
 * contract that is not a token. */
export function RecipientWarnings({ quote, accepted, onAccept }: { quote: SendQuote; accepted: boolean; onAccept: (yes: boolean) => void }) {
  const { t } = useI18n();
  const dangers = quote.warnings.filter((w) => w.kind !== 'firstTransfer');
  return (
    <>
      {quote.warnings.some((w) => w.kind === 'firstTransfer') && (
        <div className="notice warning" role="note" data-testid="send-first-transfer">
          {t('send.firstTransfer')}
        </div>
      )}
      {dangers.length > 0 && (
        <div className="notice danger" role="alert" data-testid="send-recipient-danger">
          {dangers.map((w, i) => (
            <p key={i}>
              {w.kind === 'lookAlike'
                ? t(w.name === undefined ? 'send.lookAlikeRecent' : 'send.lookAlikeSaved', { of: w.of, name: w.name ?? '' })
                : t(w.kind === 'tokenContract' ? 'send.tokenContract' : 'send.contractNotToken')}
            </p>
          ))}
          <div className="check">
            <input
              id="send-accept-recipient"
              type="checkbox"
              checked={accepted}
              onChange={(e) => onAccept(e.target.checked)}
              data-testid="send-accept-recipient"
            />
            <label htmlFor="send-accept-recipient">{t('send.acceptRecipient')}</label>
          </div>
        </div>
      )}
    </>
  );
}
