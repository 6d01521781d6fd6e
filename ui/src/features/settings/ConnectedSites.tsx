// Settings → Connected sites: the applications connected through the local
// provider, since when, how (through Satchel Connector, which names a page by
// what the browser says, or straight to the endpoint, where a program on this
// computer could claim a site's name), each with Disconnect.
import { useEffect, useState } from 'react';
import { api, type ConnectedSite } from '../../api';
import { useI18n } from '../../i18n';

export function ConnectedSites() {
  const { t, language } = useI18n();
  const [apps, setApps] = useState<ConnectedSite[] | null>(null);
  const read = () =>
    api.getConnectedSites().then(
      (list) => setApps(list),
      () => setApps([]),
    );
  useEffect(() => {
    void read();
  }, []);
  const disconnect = async (key: string) => {
    await api.disconnectSite(key).catch(() => false);
    await read();
  };
  const since = (seconds: number) => new Date(seconds * 1000).toLocaleDateString(language);
  return (
    <section className="card" aria-labelledby="settings-connected" data-testid="connected-sites">
      <div id="settings-connected" className="muted">
        {t('settings.connected')}
      </div>
      {apps !== null && apps.length === 0 && <p className="muted small">{t('settings.connectedNone')}</p>}
      {apps?.map((app) => (
        <div key={app.key} className="connected-site" data-testid="connected-site">
          <span className="label">
            <span translate="no">{app.local ? t('connect.local') : app.origin}</span>
            <small>{t('settings.connectedSince', { date: since(app.connectedAt) })}</small>
            {!app.local && (
              <small className="muted" data-testid="connected-site-how">
                {t(app.throughExtension ? 'settings.throughExtension' : 'settings.direct')}
              </small>
            )}
          </span>
          <button type="button" className="link-button" onClick={() => void disconnect(app.key)} data-testid="connected-site-disconnect">
            {t('settings.disconnect')}
          </button>
        </div>
      ))}
    </section>
  );
}
