// satchel_init: a program (or a page) asks to use Satchel's widget for its own
// app. The page says which app, and that it gets a wallet of its own in a
// window of its own: never this Satchel's wallet, never the PIN. The name is
// the service's for that app id and key (checked before the person is asked).
import { api, type ConnectPrompt, type UseWidgetPrompt } from '../../api';
import { useAction } from '../../hooks/useAction';
import { useI18n } from '../../i18n';
import { ErrorNotice } from '../../components/ErrorNotice';
import { AskingPage, Fact, reject } from './Asking';

export function UseWidget({ prompt, app }: { prompt: ConnectPrompt; app: UseWidgetPrompt }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction();
  return (
    <AskingPage prompt={prompt} title={t('embed.title')}>
      <dl className="facts">
        <Fact label={t('embed.app')} testId="embed-name">
          <strong translate="no">{app.name}</strong>
        </Fact>
        <Fact label={t('embed.appId')} testId="embed-app">
          <span translate="no">{app.appId}</span>
        </Fact>
        <Fact label={t('embed.domain')} testId="embed-domain">
          <span translate="no">{app.domain}</span>
        </Fact>
      </dl>
      <p className="muted">{t('embed.own')}</p>
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => reject(prompt.id)} data-testid="connect-cancel">
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => void run(() => api.answerConnectRequest(prompt.id, true))}
          data-testid="embed-allow"
        >
          {t('embed.allow')}
        </button>
      </div>
    </AskingPage>
  );
}
