// Settings → Browser extension: a one-time code that links Satchel Connector
// (the extension that lets every site find Satchel), and the browsers linked,
// each with Unlink. The code is shown here only: a program that cannot see
// this window cannot link itself and speak for a site.
import { useEffect, useState } from 'react';
import { api, type LinkedExtension } from '../../api';
import { useI18n } from '../../i18n';

export function BrowserExtension() {
  const { t, language } = useI18n();
  const [linked, setLinked] = useState<LinkedExtension[] | null>(null);
  const [code, setCode] = useState<string | null>(null);
  const read = () =>
    api.getLinkedExtensions().then(
      (list) => setLinked(list),
      () => setLinked([]),
    );
  useEffect(() => {
    void read();
  }, []);
  // While a code is shown, the list is read again: the link appears as soon as
  // the person typed it.
  useEffect(() => {
    if (code === null) return;
    const timer = setInterval(() => void read(), 2000);
    const expiry = setTimeout(() => setCode(null), 120_000);
    return () => {
      clearInterval(timer);
      clearTimeout(expiry);
    };
  }, [code]);
  const link = async () => setCode(await api.linkBrowserExtension().catch(() => null));
  const unlink = async (extension: string) => {
    await api.unlinkBrowserExtension(extension).catch(() => false);
    await read();
  };
  const since = (seconds: number) => new Date(seconds * 1000).toLocaleDateString(language);
  return (
    <section className="card" aria-labelledby="settings-extension" data-testid="browser-extension">
      <div id="settings-extension" className="muted">
        {t('settings.extension')}
      </div>
      <p className="muted small">{t('settings.extensionHint')}</p>
      {linked !== null && linked.length === 0 && <p className="muted small">{t('settings.extensionNone')}</p>}
      {linked?.map((one) => (
        <div key={one.extension} className="connected-site" data-testid="linked-extension">
          <span className="label">
            <span translate="no">{t('settings.extensionLinked', { browser: one.browser, date: since(one.linkedAt) })}</span>
            <small translate="no">{one.extension}</small>
          </span>
          <button type="button" className="link-button" onClick={() => void unlink(one.extension)} data-testid="linked-extension-unlink">
            {t('settings.extensionUnlink')}
          </button>
        </div>
      ))}
      {code === null ? (
        <button type="button" className="secondary" onClick={() => void link()} data-testid="extension-link">
          {t('settings.extensionLink')}
        </button>
      ) : (
        <div className="extension-code" role="status">
          <p className="small">{t('settings.extensionCode')}</p>
          <p className="code" translate="no" data-testid="extension-code">
            {code.slice(0, 4)}-{code.slice(4)}
          </p>
          <p className="muted small">{t('settings.extensionCodeExpires')}</p>
        </div>
      )}
    </section>
  );
}
