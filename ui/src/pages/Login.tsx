import { useState, type FormEvent } from 'react';
import { api, asAppError, type AppError, type ServiceUser } from '../api';
import { useI18n } from '../i18n';
import { ErrorNotice, Logo, PasswordField } from '../ui';

export function Login({
  initialEmail,
  onLoggedIn,
  onCreateAccount,
  onVerifyEmail,
}: {
  initialEmail: string;
  onLoggedIn: (user: ServiceUser) => void;
  onCreateAccount: () => void;
  onVerifyEmail: (email: string) => void;
}) {
  const { t } = useI18n();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onLoggedIn(await api.loginWithEmailAndPassword(email, password));
    } catch (err) {
      const appError = asAppError(err);
      if (appError.code === 'RequiredEmailVerified') onVerifyEmail(email);
      else setError(appError);
    } finally {
      setBusy(false);
    }
  }

  const emailError = error?.code === 'IncorrectEmailForm' ? error : null;
  const otherError = emailError ? null : error;
  return (
    <main className="page center">
      <div className="brand">
        <Logo />
        <h2>Satchel</h2>
        <p>{t('app.tagline')}</p>
      </div>
      <form className="card" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="login-email">{t('common.email')}</label>
          <div className="input-row">
            <input
              id="login-email"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoFocus
            />
          </div>
          {emailError && <span className="field-error">{t('error.IncorrectEmailForm')}</span>}
        </div>
        <PasswordField id="login-password" label={t('common.password')} value={password} onChange={setPassword} autoComplete="current-password" />
        <ErrorNotice error={otherError} />
        <button id="login-submit" className="primary" type="submit" disabled={busy || !email || !password}>
          {busy ? t('login.busy') : t('login.submit')}
        </button>
        <button id="login-create" type="button" className="secondary" onClick={onCreateAccount}>
          {t('login.create')}
        </button>
      </form>
    </main>
  );
}
