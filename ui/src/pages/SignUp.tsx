import { useState, type FormEvent } from 'react';
import { api, asAppError, type AppError, type ServiceUser } from '../api';
import { useI18n } from '../i18n';
import { ErrorNotice, Header, PasswordField } from '../ui';

/** The password rules of the service, shown as they are met. */
export function passwordChecks(password: string) {
  const length = [...password].length;
  return {
    length: length >= 8 && length <= 128,
    letter: /\p{L}/u.test(password),
    digit: /[0-9]/.test(password),
  };
}

export function SignUp({
  onVerificationSent,
  onSignedIn,
  onBack,
}: {
  onVerificationSent: (email: string) => void;
  onSignedIn: (user: ServiceUser) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const checks = passwordChecks(password);
  const mismatch = confirm.length > 0 && confirm !== password;
  const ready = email && checks.length && checks.letter && checks.digit && confirm === password;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(null);
    try {
      const outcome = await api.signUpWithEmailAndPassword(email, password);
      if (outcome.user) onSignedIn(outcome.user);
      else onVerificationSent(email);
    } catch (err) {
      setError(asAppError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Header title={t('signup.title')} onBack={onBack} />
      <main className="page">
        <form className="card" onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor="signup-email">{t('common.email')}</label>
            <div className="input-row">
              <input id="signup-email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
            </div>
          </div>
          <PasswordField id="signup-password" label={t('common.password')} value={password} onChange={setPassword} autoComplete="new-password" />
          <ul className="rules" aria-live="polite">
            <Rule met={checks.length} text={t('signup.rule.length')} />
            <Rule met={checks.letter} text={t('signup.rule.letter')} />
            <Rule met={checks.digit} text={t('signup.rule.digit')} />
          </ul>
          <PasswordField id="signup-confirm" label={t('signup.confirm')} value={confirm} onChange={setConfirm} autoComplete="new-password" />
          {mismatch && <span className="field-error">{t('signup.mismatch')}</span>}
          <ErrorNotice error={error} />
          <button id="signup-submit" className="primary" type="submit" disabled={busy || !ready}>
            {busy ? t('signup.busy') : t('signup.submit')}
          </button>
          <button type="button" className="secondary" onClick={onBack}>
            {t('signup.haveAccount')}
          </button>
        </form>
      </main>
    </>
  );
}

/** A password rule: its mark and colour for the eye, its state in words for a screen reader. */
function Rule({ met, text }: { met: boolean; text: string }) {
  const { t } = useI18n();
  return (
    <li className={met ? 'ok' : ''}>
      <span className="visually-hidden">{met ? t('signup.rule.met') : t('signup.rule.unmet')} </span>
      <span>{text}</span>
    </li>
  );
}
