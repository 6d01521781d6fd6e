// The wallet PIN on every page that asks for it: the six-digit field, the limits
// the service puts on wrong PINs (tries left, a pause, a lock only an e-mailed link
// lifts) in the person's words, and a prompt that puts them together. The PIN is
// kept in the page's memory only while it is typed and sent.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useAction } from '../hooks/useAction';
import { api, isAppError, type AppError, type PinStatus } from '../api';
import { useCountdown } from '../hooks/useCountdown';
import { useI18n } from '../i18n';
import { ErrorNotice } from './ErrorNotice';

export const PIN_LENGTH = 6;

/** A six-digit PIN field: digits only, shown as dots. */
export function PinField({
  value,
  label,
  id,
  onChange,
  autoFocus,
  describedBy,
  testId,
}: {
  value: string;
  label: string;
  id: string;
  onChange: (v: string) => void;
  autoFocus?: boolean;
  describedBy?: string;
  testId?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="pin-input"
        inputMode="numeric"
        autoComplete="off"
        type="password"
        placeholder="••••••"
        value={value}
        maxLength={PIN_LENGTH}
        autoFocus={autoFocus}
        aria-describedby={describedBy}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, PIN_LENGTH))}
      />
    </div>
  );
}

const PIN_ERRORS = new Set(['WrongPin', 'TooManyRequests', 'PinLocked']);

/** The service's limits on wrong PINs, read on demand and after every refused PIN;
 * a pause counted down second by second. */
export function usePinLimits() {
  const [status, setStatus] = useState<PinStatus | null>(null);
  const { seconds, start } = useCountdown();

  const read = useCallback(async () => {
    const next = await api.getPinStatus().catch(() => null);
    setStatus(next);
    start(next?.lockedForSecs ?? 0);
  }, [start]);

  /** Runs `task`, which sends a PIN: a refused PIN reads the limits before the
   * failure goes on to the page. */
  const guard = useCallback(
    async <T,>(task: () => Promise<T>): Promise<T> => {
      setStatus(null);
      try {
        return await task();
      } catch (err) {
        if (isAppError(err) && PIN_ERRORS.has(err.code)) await read();
        throw err;
      }
    },
    [read],
  );

  return { status, seconds, paused: seconds > 0, read, guard };
}

export type PinLimits = ReturnType<typeof usePinLimits>;

/** A refused PIN as the person needs it: a wrong PIN with the tries left, a pause
 * counted down, a lock with the way out; any other failure in words. */
export function PinNotice({ error, limits }: { error: AppError | null; limits: PinLimits }) {
  const { t, explain } = useI18n();
  const { status, seconds } = limits;
  if (error?.code === 'PinLocked' || status?.emailRequired) return <PinLockedNotice />;
  if (status && status.lockedForSecs > 0) {
    // The pause is over when the count is: the enabled button says so.
    return seconds > 0 ? (
      <div id="pin-paused" className="notice error" role="alert">
        {t('pin.paused', { seconds })}
      </div>
    ) : null;
  }
  if (error?.code === 'WrongPin') {
    const left = status?.triesLeft ?? 0;
    return (
      <div id="pin-wrong" className="notice error" role="alert">
        {explain(error)}
        {left > 0 && ` ${left === 1 ? t('pin.triesLeftOne') : t('pin.triesLeft', { count: left })}`}
      </div>
    );
  }
  return <ErrorNotice error={error} />;
}

/** Too many wrong PINs: only a link e-mailed to the account lifts the lock. */
function PinLockedNotice() {
  const { t, explain } = useI18n();
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const send = () =>
    run(async () => {
      await api.sendPinUnlockEmail();
      setSent(true);
    });
  return (
    <div id="pin-locked" className="notice error stack" role="alert">
      <span>{t('pin.locked')}</span>
      {sent ? (
        <span id="pin-unlock-sent" className="notice-strong">
          {t('pin.unlockSent')}
        </span>
      ) : (
        <button id="pin-unlock-email" type="button" className="secondary" onClick={send} disabled={busy}>
          {busy ? t('pin.unlockSending') : t('pin.unlockEmail')}
        </button>
      )}
      {error && <span>{explain(error)}</span>}
    </div>
  );
}

/**
 * Asks for the wallet's PIN and hands it to `onSubmit`, which sends it (show the
 * phrase, restore from the backup, sign later); while it runs the prompt is busy,
 * and a PIN the service refuses is explained as `PinNotice` does. The limits are
 * read at once too, so a pause or a lock shows before the person types.
 */
export function PinPrompt({
  id = 'pin-prompt',
  title,
  description,
  label,
  submitLabel,
  onSubmit,
  onCancel,
  framed = true,
  disabled = false,
  testIds,
}: {
  /** The field's id; the submit button is `${id}-submit`. */
  id?: string;
  /** In a card of its own (false: inside the page's card). */
  framed?: boolean;
  title?: string;
  description?: string;
  label?: string;
  submitLabel?: string;
  onSubmit: (pin: string) => Promise<unknown>;
  onCancel?: () => void;
  /** `data-testid`s of the field and the submit button (the UI test's handles). */
  testIds?: { field: string; submit: string };
  /** Not to be submitted yet (the page waits for another answer first). */
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const [pin, setPin] = useState('');
  const { busy, error, run } = useAction();
  const limits = usePinLimits();
  const { read, guard } = limits;

  useEffect(() => {
    void read();
  }, [read]);

  const ready = pin.length === PIN_LENGTH && !busy && !limits.paused && !disabled;

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!ready) return;
    void run(async () => {
      try {
        await guard(() => onSubmit(pin));
      } catch (err) {
        setPin('');
        throw err;
      }
    });
  }

  return (
    <form className={framed ? 'card' : 'form'} onSubmit={submit}>
      {title && <h2>{title}</h2>}
      {description && <p className="muted">{description}</p>}
      <PinField id={id} label={label ?? t('pin.enter')} value={pin} onChange={setPin} autoFocus testId={testIds?.field} />
      <PinNotice error={error} limits={limits} />
      <div className="actions">
        {onCancel && (
          <button id={`${id}-cancel`} type="button" className="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        )}
        <button id={`${id}-submit`} type="submit" className="primary" disabled={!ready} data-testid={testIds?.submit}>
          {busy ? t('pin.checking') : (submitLabel ?? t('pin.submit'))}
        </button>
      </div>
    </form>
  );
}
