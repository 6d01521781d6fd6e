// An application asks to connect (eth_requestAccounts through the local
// provider): who asks, large and plain, what it will see, Connect or Cancel.
// Closing the window rejects it too (the shell answers 4001).
import { api, type ConnectPrompt } from '../../api';
import { useI18n } from '../../i18n';
import { Header } from '../../components/Header';

export function ConnectRequest({ prompt, loggedIn }: { prompt: ConnectPrompt; loggedIn: boolean }) {
  const { t } = useI18n();
  const answer = (approve: boolean) => void api.answerConnectRequest(prompt.id, approve).catch(() => undefined);
  return (
    <>
      <Header title={t('connect.title')} />
      <main className="page">
        <section className="card connect" data-testid="connect-request" aria-labelledby="connect-origin">
          <p className="muted">{t(prompt.local ? 'connect.askLocal' : 'connect.askWeb')}</p>
          {/* Text only: whatever a page sends is never shown as HTML. */}
          <p id="connect-origin" className="connect-origin" translate="no" data-testid="connect-origin">
            {prompt.local ? t('connect.local') : prompt.origin}
          </p>
          <ul className="connect-facts">
            <li>{t('connect.sees')}</li>
            <li>{t('connect.asks')}</li>
          </ul>
          {!loggedIn && (
            <div className="notice warning" role="note" data-testid="connect-login-first">
              {t('connect.loginFirst')}
            </div>
          )}
          {prompt.waiting > 0 && (
            <p className="muted small" data-testid="connect-waiting">
              {t('connect.waiting', { count: prompt.waiting })}
            </p>
          )}
          <div className="actions">
            <button type="button" onClick={() => answer(false)} data-testid="connect-cancel">
              {t('common.cancel')}
            </button>
            <button type="button" className="primary" disabled={!loggedIn} onClick={() => answer(true)} data-testid="connect-approve">
              {t('connect.approve')}
            </button>
          </div>
        </section>
      </main>
    </>
  );
}
