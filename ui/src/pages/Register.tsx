import { useEffect, useState, type FormEvent } from 'react';
import { useAction } from '../action';
import { api, type KeyState, type ServiceUser } from '../api';
import { useI18n } from '../i18n';
import { ErrorNotice, Header } from '../ui';

const PIN_LENGTH = 6;

/** A six-digit PIN field: digits only, shown as dots. */
function PinField({ value, label, id, onChange }: { value: string; label: string; id: string; onChange: (v: string) => void }) {
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
        onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, PIN_LENGTH))}
      />
    </div>
  );
}

/** The wallet exists but this device cannot sign for it: its key is elsewhere,
 * or the key here is not the wallet's (then the wallet is never shown). */
function KeyNotHere({ onLogout }: { onLogout: () => void }) {
  const { t } = useI18n();
  const [keyState, setKeyState] = useState<KeyState | null>(null);
  useEffect(() => {
    api.getKeyState().then(setKeyState, () => setKeyState('missing'));
  }, []);
  return (
    <>
      <Header title={t('register.title')} />
      <main className="page">
        {keyState === 'mismatch' ? (
          <div id="key-mismatch" className="notice error" role="alert">
            {t('register.keyMismatch')}
          </div>
        ) : (
          <div className="notice info">{t('register.pinRequired')}</div>
        )}
        <button className="secondary" onClick={onLogout}>
          {t('settings.logout')}
        </button>
      </main>
    </>
  );
}

export function Register({ user, onRegistered, onLogout }: { user: ServiceUser | null; onRegistered: (u: ServiceUser) => void; onLogout: () => void }) {
  const { t } = useI18n();
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const { busy, error, run } = useAction();
  const [mismatch, setMismatch] = useState(false);

  if (user?.userStatus.loginStatus === 'pinRequired') {
    return <KeyNotHere onLogout={onLogout} />;
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (pin !== again) {
      setMismatch(true);
      setPin('');
      setAgain('');
      return;
    }
    setMismatch(false);
    void run(async () => onRegistered(await api.register(pin)));
  }

  return (
    <>
      <Header title={t('register.title')} />
      <main className="page">
        <form className="card" onSubmit={submit}>
          <p className="muted">{t('register.why')}</p>
          <PinField id="register-pin" label={t('register.pin')} value={pin} onChange={setPin} />
          <PinField id="register-pin-again" label={t('register.again')} value={again} onChange={setAgain} />
          {mismatch && <span className="field-error">{t('register.mismatch')}</span>}
          <ErrorNotice error={error} />
          <button id="register-submit" className="primary" type="submit" disabled={busy || pin.length < PIN_LENGTH || again.length < PIN_LENGTH}>
            {busy ? t('register.creating') : t('register.submit')}
          </button>
        </form>
      </main>
    </>
  );
}
