import { useEffect, useState } from 'react';
import { api, asAppError, type AppError } from '../api';
import { useI18n } from '../i18n';
import { ErrorNotice, Header } from '../ui';

const RESEND_COOLDOWN = 60;

export function CheckEmail({ email, onVerified, onBack }: { email: string; onVerified: () => void; onBack: () => void }) {
  const { t } = useI18n();
  const [wait, setWait] = useState(RESEND_COOLDOWN);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<AppError | null>(null);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  async function resend() {
    setError(null);
    try {
      await api.resendVerification(email);
      setSent(true);
      setWait(RESEND_COOLDOWN);
    } catch (err) {
      setError(asAppError(err));
    }
  }

  return (
    <>
      <Header title={t('check.title')} onBack={onBack} />
      <main className="page">
        <div className="card">
          <p id="check-body">{t('check.body', { email })}</p>
          {sent && <div className="notice info">{t('check.sent')}</div>}
          <ErrorNotice error={error} />
          <button id="check-verified" className="primary" onClick={onVerified}>
            {t('check.verified')}
          </button>
          <button className="secondary" onClick={resend} disabled={wait > 0}>
            {wait > 0 ? t('check.resendIn', { seconds: wait }) : t('check.resend')}
          </button>
        </div>
      </main>
    </>
  );
}
