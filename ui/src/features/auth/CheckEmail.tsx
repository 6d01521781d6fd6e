import { useState } from 'react';
import { useAction } from '../../hooks/useAction';
import { api } from '../../api';
import { useCountdown } from '../../hooks/useCountdown';
import { useI18n } from '../../i18n';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';

const RESEND_COOLDOWN = 60;

export function CheckEmail({ email, onVerified, onBack }: { email: string; onVerified: () => void; onBack: () => void }) {
  const { t } = useI18n();
  const cooldown = useCountdown(RESEND_COOLDOWN);
  const [sent, setSent] = useState(false);
  const { error, run } = useAction();

  function resend() {
    void run(async () => {
      await api.resendVerification(email);
      setSent(true);
      cooldown.start(RESEND_COOLDOWN);
    });
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
          <button className="secondary" onClick={resend} disabled={cooldown.seconds > 0}>
            {cooldown.seconds > 0 ? t('check.resendIn', { seconds: cooldown.seconds }) : t('check.resend')}
          </button>
        </div>
      </main>
    </>
  );
}
