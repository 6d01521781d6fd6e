import { useEffect, useEffectEvent, useState, type FormEvent } from 'react';
import { useAction } from '../../hooks/useAction';
import { api, asAppError, type AppError, type LoginOptions, type OAuthProvider, type ServiceUser } from '../../api';
import { useI18n } from '../../i18n';
import { ProviderMark, isOAuthProvider, providerName } from '../../components/ProviderMark';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Logo } from '../../components/Logo';
import { PasswordField } from '../../components/PasswordField';
import { Skeleton } from '../../components/Skeleton';
import { EmailField } from '../../components/EmailField';

/**
 * The ways in the app allows (`getLoginOptions`): a button per OAuth provider, in
 * the app's order, then (unless the app turned it off) the e-mail form with
 * "Forgot password?" and "Create an account". A provider button goes on to the
 * page that waits for the browser (`onOAuth`); how that login ended, when there
 * is something to say, comes back as `notice` and shows under the buttons.
 */
export function Login({
  initialEmail,
  notice = null,
  knownOptions = null,
  onOptions,
  onLoggedIn,
  onOAuth,
  onCreateAccount,
  onVerifyEmail,
  onForgotPassword,
}: {
  initialEmail: string;
  /** How the last OAuth login ended: an error, or (`User canceled`) that it was
   * cancelled because it took too long. */
  notice?: AppError | null;
  knownOptions?: LoginOptions | null;
  onOptions?: (options: LoginOptions) => void;
  onLoggedIn: (user: ServiceUser) => void;
  /** A provider's button: log in through it in the browser. */
  onOAuth: (provider: OAuthProvider) => void;
  onCreateAccount: () => void;
  onVerifyEmail: (email: string) => void;
  /** "Forgot password?", with the e-mail typed so far. */
  onForgotPassword: (email: string) => void;
}) {
  const { t } = useI18n();
  const [options, setOptions] = useState<LoginOptions | null>(knownOptions);
  const [optionsError, setOptionsError] = useState<AppError | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [oauthNotice, setOauthNotice] = useState(notice);
  const { busy, error, run } = useAction();

  const learnt = useEffectEvent((next: LoginOptions) => onOptions?.(next));
  useEffect(() => {
    let live = true;
    api.getLoginOptions().then(
      (next) => {
        if (!live) return;
        setOptions(next);
        learnt(next);
        // The address the application gave, unless one is filled in already.
        const prefill = next.prefillEmail;
        if (prefill) setEmail((current) => current || prefill);
      },
      (err) => {
        if (live) setOptionsError(asAppError(err));
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  const retry = () => {
    setOptionsError(null);
    setAttempt((n) => n + 1);
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    setOauthNotice(null);
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
      {options === null && optionsError && (
        <div className="card">
          <ErrorNotice error={optionsError} onRetry={retry} />
        </div>
      )}
      {options === null && !optionsError && (
        <div className="card" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={46} />
          <Skeleton height={46} />
          <Skeleton height={46} />
        </div>
      )}
      {options && (
        <div className="card">
          {options.oauth.length > 0 && (
            <div className="providers" role="group" aria-label={t('login.providers')}>
              {options.oauth.filter(isOAuthProvider).map((provider) => (
                <button
                  key={provider}
                  type="button"
                  className="provider-button"
                  data-testid={`login-provider-${provider}`}
                  disabled={busy}
                  onClick={() => onOAuth(provider)}
                >
                  <ProviderMark provider={provider} />
                  <span>{t('login.continueWith', { provider: providerName(t, provider) })}</span>
                </button>
              ))}
            </div>
          )}
          {oauthNotice?.code === 'User canceled' && (
            <div className="notice info" role="status" data-testid="login-oauth-notice">
              {t('login.oauthTimedOut')}
            </div>
          )}
          {oauthNotice && oauthNotice.code !== 'User canceled' && (
            <div data-testid="login-oauth-error">
              <ErrorNotice error={oauthNotice} />
            </div>
          )}
          {options.oauth.length > 0 && options.email && (
            <div className="divider">
              <span>{t('login.or')}</span>
            </div>
          )}
          {options.email && (
            <form className="form" onSubmit={submit} noValidate>
              <EmailField id="login-email" value={email} onChange={setEmail} error={emailError ? t('error.IncorrectEmailForm') : undefined} />
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
          )}
          {!options.email && options.oauth.length === 0 && (
            <p className="muted" data-testid="login-none">
              {t('login.none')}
            </p>
          )}
        </div>
      )}
    </main>
  );
}
