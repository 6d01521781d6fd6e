import { useState, type FormEvent } from 'react';
import { useAction } from '../../hooks/useAction';
import { api, type ServiceUser } from '../../api';
import { useI18n } from '../../i18n';
import { PIN_LENGTH, PinField } from '../../components/Pin';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { RecoveryPhrase } from './RecoveryPhrase';
import { Restore } from './Restore';
import { isCommonPin } from '../../lib/rules';

export function Register({ user, onRegistered, onLogout }: { user: ServiceUser | null; onRegistered: (u: ServiceUser) => void; onLogout: () => void }) {
  const { t } = useI18n();
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [backup, setBackup] = useState(false);
  const { busy, error, run } = useAction();
  const [mismatch, setMismatch] = useState(false);
  // A PIN anyone would guess first, refused here with the reason.
  const [common, setCommon] = useState(false);
  // The wallet made: the recovery phrase comes next, unlocked with the PIN just
  // chosen, which stays in this page's memory until the person goes on.
  const [registered, setRegistered] = useState<ServiceUser | null>(null);

  // The wallet exists but its key is not on this device.
  if (user?.userStatus.loginStatus === 'pinRequired') {
    return <Restore onRestored={onRegistered} onLogout={onLogout} />;
  }

  if (registered) {
    const goOn = () => onRegistered(registered);
    return <RecoveryPhrase pin={pin} onDone={goOn} onSkip={goOn} />;
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
    if (isCommonPin(pin)) {
      setCommon(true);
      setPin('');
      setAgain('');
      return;
    }
    setCommon(false);
    void run(async () => setRegistered(await api.register(pin, backup)));
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
          {common && (
            <span className="field-error" id="register-common">
              {t('register.common')}
            </span>
          )}
          <div className="check">
            <input
              id="register-backup"
              type="checkbox"
              checked={backup}
              aria-describedby="register-backup-note"
              onChange={(e) => setBackup(e.target.checked)}
            />
            <div>
              <label htmlFor="register-backup">{t('register.backup')}</label>
              <p id="register-backup-note" className="muted small">
                {t('register.backupNote')}
              </p>
            </div>
          </div>
          <ErrorNotice error={error} />
          <button id="register-submit" className="primary" type="submit" disabled={busy || pin.length < PIN_LENGTH || again.length < PIN_LENGTH}>
            {busy ? t('register.creating') : t('register.submit')}
          </button>
        </form>
      </main>
    </>
  );
}
