import { useState, type FormEvent } from 'react';
import { useAction } from '../../hooks/useAction';
import { api } from '../../api';
import { useCountdown } from '../../hooks/useCountdown';
import { useI18n } from '../../i18n';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { EmailField } from '../../components/EmailField';

const RESEND_COOLDOWN = 60;

/** "Forgot password?": asks the service to e-mail a link that sets a new password
 * (the link opens a page of the service, not of the app), then says to look in the
 * inbox, with a resend cooldown. The service answers the same whether or not the
 * address has an account, and so does this page. */
export function ForgotPassword({ initialEmail, onBack }: { initialEmail: string; onBack: (email: string) => void }) {
  const { t } = useI18n();
  const [email, setEmail] = useState(initialEmail.trim());
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const cooldown = useCountdown();
  const { busy, error, run } = useAction();

  function send(e: FormEvent) {
    e.preventDefault();
    const address = email.trim();
    if (!address) return;
    void run(async () => {
      await api.sendPasswordResetEmail(address);
      setSentTo(address);
      cooldown.start(RESEND_COOLDOWN);
    });
  }

  function resend() {
    if (sentTo === null) return;
    void run(async () => {
      await api.sendPasswordResetEmail(sentTo);
      setResent(true);
      cooldown.start(RESEND_COOLDOWN);
    });
  }

  if (sentTo !== null) {
    return (
      <>
        <Header title={t('check.title')} onBack={() => onBack(sentTo)} />
        <main className="page">
          <div className="card">
            <p id="forgot-sent">{t('forgot.sent', { email: sentTo })}</p>
            {resent && <div className="notice info">{t('check.sent')}</div>}
            <ErrorNotice error={error} />
            <button id="forgot-back" className="primary" onClick={() => onBack(sentTo)}>
              {t('forgot.back')}
            </button>
            <button className="secondary" onClick={resend} disabled={busy || cooldown.seconds > 0}>
              {cooldown.seconds > 0 ? t('check.resendIn', { seconds: cooldown.seconds }) : t('check.resend')}
            </button>
          </div>
        </main>
      </>
    );
  }

  const emailError = error?.code === 'IncorrectEmailForm' ? error : null;
  return (
    <>
      <Header title={t('forgot.title')} onBack={() => onBack(email)} />
      <main className="page">
        <form className="card" onSubmit={send} noValidate>
          <p>{t('forgot.intro')}</p>
          <EmailField id="forgot-email" value={email} onChange={setEmail} error={emailError ? t('error.IncorrectEmailForm') : undefined} />
          <ErrorNotice error={emailError ? null : error} />
          <button id="forgot-submit" className="primary" type="submit" disabled={busy || !email.trim()}>
            {busy ? t('forgot.busy') : t('forgot.submit')}
          </button>
        </form>
      </main>
    </>
  );
}
