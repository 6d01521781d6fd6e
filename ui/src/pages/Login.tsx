import { useState, type FormEvent } from 'react';
import { useAction } from '../action';
import { api, asAppError, type ServiceUser } from '../api';
import { useI18n } from '../i18n';
import { ErrorNotice, Logo, PasswordField } from '../ui';

export function Login({
  initialEmail,
  onLoggedIn,
  onCreateAccount,
  onVerifyEmail,
  onForgotPassword,
}: {
  initialEmail: string;
  onLoggedIn: (user: ServiceUser) => void;
  onCreateAccount: () => void;
  onVerifyEmail: (email: string) => void;
  /** "Forgot password?", with the e-mail typed so far. */
  onForgotPassword: (email: string) => void;
}) {
  const { t } = useI18n();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();

  function submit(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      try {
        onLoggedIn(await api.loginWithEmailAndPassword(email, password));
      } catch (err) {
        // Not an error to show: the address first needs its verification link.
        if (asAppError(err).code !== 'RequiredEmailVerified') throw err;
        onVerifyEmail(email);
      }
    });
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
        <button id="login-forgot" type="button" className="link-button forgot" onClick={() => onForgotPassword(email)}>
          {t('login.forgot')}
        </button>
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
