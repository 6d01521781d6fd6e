import { useState, type FormEvent } from 'react';
import { useAction } from '../../hooks/useAction';
import { api, type AppError, type RegisterEmailProvider, type ServiceUser } from '../../api';
import { useCountdown } from '../../hooks/useCountdown';
import { useI18n, type TextId } from '../../i18n';
import { ProviderMark, isOAuthProvider, providerName } from '../../components/ProviderMark';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { useEscape } from '../../hooks/useEscape';
import { EmailField } from '../../components/EmailField';

const RESEND_COOLDOWN = 60;

/** Errors about the address itself: shown under the field. */
const FIELD_ERRORS = new Set<AppError['code']>(['IncorrectEmailForm', 'InvalidEmailDomain']);

/**
 * A login the service refused because its identity (`provider`) came without an
 * e-mail address: the person adds one, the service e-mails it a link
 * (`sendVerifyEmail`, with the refused login's tokens the app keeps), and once
 * the link is opened "I verified, continue" logs in (`resumeLogin`) and goes on
 * as after any login (`onLoggedIn`). Back and Esc: `onBack`, to the login page.
 */
export function RegisterEmail({
  provider,
  onLoggedIn,
  onBack,
}: {
  provider: RegisterEmailProvider;
  onLoggedIn: (user: ServiceUser) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const cooldown = useCountdown();
  const { busy, error, run } = useAction();
  useEscape(onBack);

  async function sendTo(address: string) {
    // `false`: the service did not send it.
    if (!(await api.sendVerifyEmail(address))) throw { code: 'FailedSendEmail', message: '' } satisfies AppError;
    cooldown.start(RESEND_COOLDOWN);
  }

  function send(e: FormEvent) {
    e.preventDefault();
    const address = email.trim();
    if (!address || busy) return;
    void run(async () => {
      await sendTo(address);
      setResent(false);
      setSentTo(address);
    });
  }

  function resend() {
    if (sentTo === null) return;
    void run(async () => {
      await sendTo(sentTo);
      setResent(true);
    });
  }

  function resume() {
    void run(async () => onLoggedIn(await api.resumeLogin()));
  }

  /** Back to the field, to send the link to another address; the last error goes
   * (running nothing clears it). */
  function changeAddress() {
    setEmail(sentTo ?? '');
    setSentTo(null);
    setResent(false);
    void run(async () => undefined, { busy: false });
  }

  if (sentTo !== null) {
    const notVerified = error?.code === 'RequiredEmailVerified';
    return (
      <>
        <Header title={t('check.title')} onBack={onBack} />
        <main className="page">
          <div className="card">
            <p data-testid="register-email-sent">{t('registerEmail.sent', { email: sentTo })}</p>
            {resent && !error && <div className="notice info">{t('check.sent')}</div>}
            {notVerified && (
              <div className="notice warning" role="alert" data-testid="register-email-not-verified">
                {t('registerEmail.notVerified')}
              </div>
            )}
            <ErrorNotice error={notVerified ? null : error} />
            <button type="button" className="primary" data-testid="register-email-continue" onClick={resume} disabled={busy}>
              {busy ? t('registerEmail.checking') : t('registerEmail.continue')}
            </button>
            <button type="button" className="secondary" data-testid="register-email-resend" onClick={resend} disabled={busy || cooldown.seconds > 0}>
              {cooldown.seconds > 0 ? t('check.resendIn', { seconds: cooldown.seconds }) : t('check.resend')}
            </button>
            <button type="button" className="link-button center" data-testid="register-email-change" onClick={changeAddress} disabled={busy}>
              {t('registerEmail.change')}
            </button>
          </div>
        </main>
      </>
    );
  }

  const fieldError = error && FIELD_ERRORS.has(error.code) ? error : null;
  return (
    <>
      <Header title={t('registerEmail.title')} onBack={onBack} />
      <main className="page">
        <form className="card" onSubmit={send} noValidate>
          {isOAuthProvider(provider) && <ProviderMark provider={provider} size={32} />}
          <p>
            {isOAuthProvider(provider)
              ? t('registerEmail.why', { provider: providerName(t, provider) })
              : t('registerEmail.whyToken')}
          </p>
          <EmailField
            id="register-email-input"
            value={email}
            onChange={setEmail}
            autoComplete="email"
            error={fieldError ? t(`error.${fieldError.code}` as TextId) : undefined}
            testIds={{ input: 'register-email-input', error: 'register-email-error' }}
          />
          <ErrorNotice error={fieldError ? null : error} />
          <button type="submit" className="primary" data-testid="register-email-send" disabled={busy || !email.trim()}>
            {busy ? t('forgot.busy') : t('registerEmail.send')}
          </button>
        </form>
      </main>
    </>
  );
}
