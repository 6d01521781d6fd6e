import { FeeFacts } from '../../components/FeeFacts';
import { useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { useAction } from '../../hooks/useAction';
import { parseUnits, type AmountError } from '../../lib/amount';
import { api, asAppError, type AccountRef, type ActivityEntry, type AddressCheck, type AppError, type FeeSpeed, type SendQuote } from '../../api';
import { useI18n } from '../../i18n';
import { Amount } from '../../components/Amount';
import { CopyButton } from '../../components/CopyButton';
import { StatusBadge } from '../../components/StatusBadge';
import { SPEEDS, SendReview, optionFor } from './SendReview';
import { RecipientPicker } from './RecipientPicker';
import { useTrackedEntry } from '../../hooks/useTrackedEntry';
import { CoinMark } from '../../components/CoinMark';
import { Header } from '../../components/Header';
import { Skeleton } from '../../components/Skeleton';
import { useEscape } from '../../hooks/useEscape';
import { looksLikeName, shortAddress } from '../../lib/format';
import { FullAddress } from '../../components/FullAddress';

/** What the send page opens with: the account (its coin, or the token at
 * `account.contract`), what the wallet already knows of it, and what an
 * application's `send` (`requestId`) filled in. */
export interface SendTarget {
  account: AccountRef;
  symbol?: string;
  balance?: string;
  to?: string;
  amount?: string;
  requestId?: number;
}

/** Waits before the app is asked, so it is asked once typing pauses. */
const CHECK_DELAY = 250;
const QUOTE_DELAY = 400;
/** How often a sent transaction's status is read while it is pending. */
const STATUS_EVERY = 2000;

type Step = 'form' | 'review' | 'sent';

/** An address's form; one the app refuses in this form has a wrong checksum. */
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A failure of a quote in the person's words: the app's reason why a transaction
 * would fail, what in the form it refused, or the service's trouble. */
function useQuoteProblem() {
  const { t, explain } = useI18n();
  return (error: AppError) => (error.code === 'InvalidParameters' ? t('send.invalid', { message: error.message }) : explain(error));
}

/**
 * Sending from one of the user's accounts: the recipient (checked as typed: its
 * checksum, the account itself), the amount (exact, checked as typed, or Max), the
 * fee at a chosen speed with the total and the balances after; then the review with
 * the PIN, then the transaction followed until the network settles it.
 *
 * Leaving before it is sent (Back, Cancel, Esc) tells an application that asked
 * for this send (`requestId`) that the person cancelled it.
 */
export function Send({ target, onBack, onViewActivity }: { target: SendTarget; onBack: () => void; onViewActivity: () => void }) {
  const { t } = useI18n();
  const problem = useQuoteProblem();
  const { account, requestId } = target;
  const [step, setStep] = useState<Step>('form');
  const [sent, setSent] = useState<ActivityEntry | null>(null);
  const [expired, setExpired] = useState(false);

  // What the page knows of the asset: from the wallet, else read on entry.
  const [asset, setAsset] = useState<{ symbol?: string; balance?: string; decimals?: number }>({
    symbol: target.symbol,
    balance: target.balance,
  });
  const enter = useEffectEvent(() => {
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    if (target.symbol === undefined) {
      api.getBalance().then(
        (accounts) => {
          const holder = accounts.find((a) => same(a.network, account.network) && same(a.address, account.address));
          const token = account.contract === undefined ? undefined : holder?.tokens.find((k) => same(k.contract, account.contract ?? ''));
          const found = account.contract === undefined ? holder : token;
          if (found) setAsset((a) => ({ ...a, symbol: found.symbol, balance: found.balance }));
        },
        () => undefined,
      );
    }
    // The coin's decimals, for checking the amount as it is typed; a token's come
    // with its first quote.
    if (account.contract === undefined) {
      api.getAppInfo().then(
        (info) => {
          const network = info.networks.find((n) => same(n.name, account.network));
          if (network) setAsset((a) => ({ ...a, decimals: network.decimals, symbol: a.symbol ?? network.symbol }));
        },
        () => undefined,
      );
    }
  });
  // Once per visit, also when React runs effects twice (StrictMode).
  const entered = useRef(false);
  useEffect(() => {
    if (entered.current) return;
    entered.current = true;
    enter();
  }, []);

  // The recipient, checked by the app once typing pauses.
  const [to, setTo] = useState(target.to ?? '');
  const [toTouched, setToTouched] = useState(false);
  const [checked, setChecked] = useState<{ text: string; ok?: AddressCheck; error?: AppError } | null>(null);
  const toText = to.trim();
  useEffect(() => {
    if (toText === '') return;
    let live = true;
    const timer = setTimeout(() => {
      api.checkAddress(account, toText).then(
        (ok) => {
          if (live) setChecked({ text: toText, ok });
        },
        (err) => {
          if (live) setChecked({ text: toText, error: asAppError(err) });
        },
      );
    }, CHECK_DELAY);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [toText, account]);
  const check = toText !== '' && checked?.text === toText ? checked : null;
  // A name is quoted as typed, so the review names it beside the address the
  // app resolved it to then.
  const recipient = check?.ok ? (check.ok.name ?? check.ok.address) : null;
  const nameTyped = looksLikeName(toText);
  // A half-typed address is not yet wrong: say so once it is whole or left.
  const toError = check?.error && (toTouched || toText.length >= 42) ? check.error : null;

  // The amount, exact, checked as typed. A token's decimals are known from its
  // first quote; until then the app checks the digits after the point.
  const [amount, setAmount] = useState(target.amount ?? '');
  const [amountTouched, setAmountTouched] = useState(false);
  const [maxUsed, setMaxUsed] = useState(false);
  const [quotedDecimals, setQuotedDecimals] = useState<number | null>(null);
  const decimals = quotedDecimals ?? asset.decimals;
  const typedFraction = amount.split('.')[1]?.length ?? 0;
  const parsed = amount.trim() === '' ? null : parseUnits(amount, decimals ?? typedFraction);
  const amountProblem: AmountError | 'Zero' | null =
    parsed && !parsed.ok ? parsed.error : parsed?.ok && parsed.value === 0n && (amountTouched || maxUsed) ? 'Zero' : null;
  const amountReady = parsed?.ok === true && parsed.value > 0n;

  // The quote, asked for once recipient and amount are both right and typing
  // pauses; `requote` asks again for the same form (a review that expired).
  const [speed, setSpeed] = useState<FeeSpeed>('normal');
  const [requote, setRequote] = useState(0);
  const [quoted, setQuoted] = useState<{ key: string; quote?: SendQuote; error?: AppError } | null>(null);
  const quoteKey = recipient !== null && amountReady ? `${recipient}|${amount}|${requote}` : null;
  useEffect(() => {
    if (quoteKey === null || recipient === null) return;
    let live = true;
    const timer = setTimeout(() => {
      api.prepareSend({ account, to: recipient, amount }).then(
        (quote) => {
          if (!live) return;
          setQuoted({ key: quoteKey, quote });
          setQuotedDecimals(quote.decimals);
        },
        (err) => {
          if (live) setQuoted({ key: quoteKey, error: asAppError(err) });
        },
      );
    }, QUOTE_DELAY);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [quoteKey, recipient, amount, account]);
  const current = quoteKey !== null && quoted?.key === quoteKey ? quoted : null;
  const quote = current?.quote ?? null;
  const quoteError = current?.error ?? null;
  const quoting = quoteKey !== null && current === null;
  const option = quote ? optionFor(quote, speed) : undefined;
  // The speeds stay once a quote has shown them, while the next one comes.
  const speedsShown = quoted?.quote !== undefined;

  // Max: the fees quoted alone, and the chosen speed's most that can be sent.
  const max = useAction();
  const fillMax = () => {
    if (recipient === null) return;
    void max.run(async () => {
      const fees = await api.prepareSend({ account, to: recipient, amount: '' });
      setQuotedDecimals(fees.decimals);
      const choice = optionFor(fees, speed);
      if (choice) {
        setAmount(choice.max);
        setMaxUsed(true);
      }
    });
  };
  function chooseSpeed(next: FeeSpeed) {
    setSpeed(next);
    // After Max, the most that can be sent follows the fee.
    const choice = maxUsed && quoted?.quote ? quoted.quote.options.find((o) => o.speed === next) : undefined;
    if (choice) setAmount(choice.max);
  }

  const formError = quoteError
    ? problem(quoteError)
    : max.error
      ? problem(max.error)
      : quote && option && !option.enough
        ? t('send.notEnough', { symbol: quote.coinSymbol })
        : null;

  const canReview = quote !== null && option !== undefined && option.enough && !quoting;
  function review(e: FormEvent) {
    e.preventDefault();
    if (!canReview) return;
    setExpired(false);
    setStep('review');
  }

  function leave() {
    if (requestId !== undefined && step !== 'sent') void api.cancelSend(requestId).catch(() => undefined);
    onBack();
  }
  const back = step === 'review' ? () => setStep('form') : leave;
  useEscape(back);

  const symbol = quote?.symbol ?? asset.symbol;
  const balance = quote ? (quote.tokenBalance ?? quote.coinBalance) : asset.balance;
  const title = symbol ? t('send.title', { symbol }) : t('send.titlePlain');

  return (
    <div className="subpage" id="send-page">
      <Header title={step === 'sent' ? t('send.sentTitle') : title} onBack={back} />
      <main className="page">
        {step === 'form' && (
          <form className="card" onSubmit={review} noValidate aria-labelledby="send-heading">
            <div className="send-head">
              <CoinMark symbol={symbol ?? '?'} />
              <div className="label">
                <h2 id="send-heading">{title}</h2>
                <span className="muted small" data-testid="send-network">
                  {account.network}
                </span>
              </div>
              <div className="send-balance">
                <span className="muted small">{t('send.balance')}</span>
                {balance !== undefined ? (
                  <Amount value={balance} symbol={symbol ?? ''} testId="send-balance" />
                ) : (
                  <Skeleton height={16} width={64} />
                )}
              </div>
            </div>

            {expired && (
              <div className="notice warning" role="status" data-testid="send-expired">
                {t('send.expired')}
              </div>
            )}

            <div className="field">
              <label htmlFor="send-to">{t('send.to')}</label>
              <div className="input-row">
                <input
                  id="send-to"
                  data-testid="send-to"
                  className="address-input"
                  type="text"
                  value={to}
                  placeholder={t('send.toPlaceholder')}
                  autoComplete="off"
                  autoCorrect="off"
                  autoCapitalize="off"
                  spellCheck={false}
                  autoFocus={target.to === undefined}
                  aria-invalid={toError ? true : undefined}
                  aria-describedby={toError ? 'send-to-error' : check?.ok?.isSelf ? 'send-to-self' : undefined}
                  onChange={(e) => setTo(e.target.value)}
                  onBlur={() => setToTouched(true)}
                />
              </div>
              {toError && (
                <span id="send-to-error" className="field-error" role="alert" data-testid="send-to-error">
                  {toError.code !== 'InvalidParameters'
                    ? problem(toError)
                    : nameTyped
                      ? t('send.nameUnresolved')
                      : HEX_ADDRESS.test(toText)
                        ? t('send.toChecksum')
                        : t('send.toInvalid')}
                </span>
              )}
              {check?.ok?.name && (
                <span className="field-note" role="status" data-testid="send-to-name">
                  {t('send.nameIs', { name: check.ok.name })} <FullAddress address={check.ok.address} className="compact" />
                </span>
              )}
              {check?.ok?.isSelf && (
                <span id="send-to-self" className="field-warning" role="status" data-testid="send-to-self">
                  {t('send.toSelf')}
                </span>
              )}
              {toText === '' && <RecipientPicker onPick={setTo} />}
            </div>

            <div className="field">
              <label htmlFor="send-amount">{t('send.amount')}</label>
              <div className="input-row">
                <input
                  id="send-amount"
                  data-testid="send-amount"
                  className="amount-input"
                  type="text"
                  inputMode="decimal"
                  value={amount}
                  placeholder="0"
                  autoComplete="off"
                  spellCheck={false}
                  autoFocus={target.to !== undefined && target.amount === undefined}
                  aria-invalid={amountProblem ? true : undefined}
                  aria-describedby={amountProblem ? 'send-amount-error' : undefined}
                  onChange={(e) => {
                    setAmount(e.target.value);
                    setMaxUsed(false);
                  }}
                  onBlur={() => setAmountTouched(true)}
                />
                {symbol && <span className="suffix">{symbol}</span>}
                <button
                  type="button"
                  className="link-button"
                  data-testid="send-max"
                  onClick={fillMax}
                  disabled={recipient === null || max.busy}
                  title={recipient === null ? t('send.maxNeedsTo') : t('send.maxHint')}
                >
                  {t('send.max')}
                </button>
              </div>
              {amountProblem && (
                <span id="send-amount-error" className="field-error" role="alert" data-testid="send-amount-error">
                  {t(`send.amount${amountProblem}`, { decimals: decimals ?? 0 })}
                </span>
              )}
            </div>

            {speedsShown && (
              <div className="field">
                <span className="field-label" id="send-speed-label">
                  {t('send.speed')}
                </span>
                <div className="segmented" role="group" aria-labelledby="send-speed-label">
                  {SPEEDS.map((s) => (
                    <button
                      key={s}
                      type="button"
                      aria-pressed={speed === s}
                      data-testid={`send-speed-${s}`}
                      onClick={() => chooseSpeed(s)}
                    >
                      {t(`send.speed.${s}`)}
                    </button>
                  ))}
                </div>
              </div>
            )}

            {quoting && (
              <div className="facts-loading" aria-busy="true" aria-label={t('send.quoting')}>
                <Skeleton height={16} />
                <Skeleton height={16} width="70%" />
              </div>
            )}
            {quote && option && (
              <>
                <dl className="facts" aria-label={t('send.summaryLabel')}>
                  <FeeFacts quote={quote} option={option} />
                </dl>
                {quote.recipientIsContract && (
                  <div className="notice warning" role="note" data-testid="send-contract-warning">
                    {t('send.contractWarning')}
                  </div>
                )}
              </>
            )}
            {formError && (
              <div className="notice error" role="alert" data-testid="send-error">
                {formError}
              </div>
            )}

            <div className="actions">
              <button type="button" className="secondary" onClick={leave} data-testid="send-cancel">
                {t('common.cancel')}
              </button>
              <button type="submit" className="primary" disabled={!canReview} data-testid="send-review">
                {t('send.review')}
              </button>
            </div>
          </form>
        )}

        {step === 'review' && quote && (
          <SendReview
            quote={quote}
            speed={speed}
            requestId={requestId}
            onCancel={() => setStep('form')}
            onExpired={() => {
              setExpired(true);
              setRequote((n) => n + 1);
              setStep('form');
            }}
            onConfirmed={(entry) => {
              setSent(entry);
              setStep('sent');
            }}
          />
        )}

        {step === 'sent' && sent && <SendStatus entry={sent} onViewActivity={onViewActivity} onDone={onBack} />}
      </main>
    </div>
  );
}

/** A sent transaction, followed until the network settles it. */
function SendStatus({ entry: initial, onViewActivity, onDone }: { entry: ActivityEntry; onViewActivity: () => void; onDone: () => void }) {
  const { t } = useI18n();
  const [entry] = useTrackedEntry(initial, STATUS_EVERY);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  const words = {
    pending: t('send.pendingBody'),
    mined: entry.blockNumber === undefined ? t('activity.status.mined') : t('send.minedIn', { block: entry.blockNumber }),
    failed: t('send.failedBody'),
    replaced: t('send.replacedBody'),
    dropped: t('send.droppedBody'),
  }[entry.status];

  return (
    <section className="card" aria-labelledby="send-status-heading">
      <h2 id="send-status-heading" ref={heading} tabIndex={-1}>
        {entry.isCancel
          ? t('activity.cancelled')
          : t('activity.sent', { amount: entry.amount, symbol: entry.symbol, address: shortAddress(entry.counterparty) })}
      </h2>
      <div className="status-line" data-testid="send-status" data-status={entry.status} role="status">
        <StatusBadge status={entry.status} />
        <span>{words}</span>
      </div>
      <div className="field">
        <span className="field-label">{t('activity.hash')}</span>
        <span className="hash" data-testid="send-hash" translate="no">
          {entry.txHash}
        </span>
        <CopyButton text={entry.txHash} label={t('send.copyHash')} testId="send-copy-hash" />
      </div>
      <div className="actions">
        <button type="button" className="secondary" onClick={onViewActivity} data-testid="send-view-activity">
          {t('send.viewActivity')}
        </button>
        <button type="button" className="primary" onClick={onDone} data-testid="send-done">
          {t('send.done')}
        </button>
      </div>
    </section>
  );
}
