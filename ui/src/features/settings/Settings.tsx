import { useEffect, useState } from 'react';
import { api, asAppError, type ServiceUser } from '../../api';
import { useI18n, type Language } from '../../i18n';
import { useTheme, type Theme } from '../../hooks/useTheme';
import { savedCurrency, useCurrency } from '../../hooks/useCurrency';
import { ChangePin } from '../keys/ChangePin';
import { RecoveryPhrase } from '../keys/RecoveryPhrase';
import { ExportKey } from '../keys/ExportKey';
import { AddressBook } from './AddressBook';
import { Approvals } from './Approvals';
import { BrowserExtension } from './BrowserExtension';
import { EndpointSettings } from '../endpoint/EndpointSettings';
import { ConnectedSites } from './ConnectedSites';

const languages: { id: Language; name: string }[] = [
  { id: 'en', name: 'English' },
  { id: 'ko', name: '한국어' },
  { id: 'ja', name: '日本語' },
];

/** "An update is ready": the version the app downloaded and checked, and a
 * button that installs it and restarts. Nothing when no update waits. */
function UpdateReady() {
  const { t } = useI18n();
  const [version, setVersion] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.getUpdate().then(
      (v) => {
        if (live) setVersion(v);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (version === null) return null;
  const install = () => {
    setFailed(null);
    api.installUpdate().then(
      (installed) => {
        if (!installed) setVersion(null);
      },
      (e) => setFailed(asAppError(e).message),
    );
  };
  return (
    <section id="settings-update" className="card" aria-labelledby="settings-update-title">
      <div id="settings-update-title">{t('settings.update', { version })}</div>
      <div className="muted">{t('settings.updateHint')}</div>
      {failed !== null && (
        <div className="notice error" role="alert">
          {t('settings.updateFailed', { message: failed })}
        </div>
      )}
      <button id="settings-update-install" onClick={install}>
        {t('settings.updateRestart')}
      </button>
    </section>
  );
}

/** A row of a settings list that opens a page: its name, a hint, a chevron. */
function ListButton({ id, label, hint, onClick }: { id: string; label: string; hint: string; onClick: () => void }) {
  return (
    <button id={id} className="list-button" aria-labelledby={`${id}-label`} aria-describedby={`${id}-hint`} onClick={onClick}>
      <span className="label">
        <span id={`${id}-label`}>{label}</span>
        <small id={`${id}-hint`}>{hint}</small>
      </span>
      <span aria-hidden="true">›</span>
    </button>
  );
}

export function Settings({ user, onLoggedOut }: { user: ServiceUser | null; onLoggedOut: () => void }) {
  const { t, language, setLanguage } = useI18n();
  const [theme, setTheme] = useTheme();
  const [currency, setCurrency] = useCurrency();
  // The currencies the service has prices in. Until they are read, the chosen
  // one alone: the row is there from the first frame, so nothing under it moves
  // when they arrive (a click meant for a button below lands where it was aimed).
  const [offered, setCurrencies] = useState<string[]>([]);
  const currencies = offered.length > 0 ? offered : [currency];
  useEffect(() => {
    api.getValues(savedCurrency()).then(
      (values) => setCurrencies(values.currencies),
      () => undefined,
    );
  }, []);
  const [view, setView] = useState<'main' | 'phrase' | 'changePin' | 'exportKey' | 'book' | 'approvals'>('main');
  const [pinChanged, setPinChanged] = useState(false);
  const open = (next: 'phrase' | 'changePin' | 'exportKey' | 'book' | 'approvals') => {
    setPinChanged(false);
    setView(next);
  };

  // The app forgets the user whatever the service answers (a session it already
  // ended is still ended), so the page leaves too.
  async function logout() {
    try {
      await api.logout();
    } catch {
      // Nothing to show: the person is logged out on this device either way.
    }
    onLoggedOut();
  }

  if (view === 'phrase') {
    return <RecoveryPhrase onBack={() => setView('main')} onDone={() => setView('main')} />;
  }
  if (view === 'book') {
    return <AddressBook onBack={() => setView('main')} />;
  }
  if (view === 'approvals') {
    return <Approvals onBack={() => setView('main')} />;
  }
  if (view === 'exportKey') {
    return <ExportKey onDone={() => setView('main')} />;
  }
  if (view === 'changePin') {
    return (
      <ChangePin
        onBack={() => setView('main')}
        onChanged={() => {
          setPinChanged(true);
          setView('main');
        }}
      />
    );
  }

  return (
    <main className="page">
      {pinChanged && (
        <div id="settings-notice" className="notice success" role="status">
          {t('changePin.done')}
        </div>
      )}
      <UpdateReady />
      <section className="card">
        <div className="muted">{t('settings.account')}</div>
        <div id="settings-email">{user?.userInfo?.email}</div>
        <div className="muted">
          {t('settings.provider')}: {user?.userInfo?.provider}
        </div>
      </section>
      <section className="card">
        <div className="muted">{t('settings.language')}</div>
        <div className="segmented">
          {languages.map((l) => (
            <button key={l.id} aria-pressed={language === l.id} onClick={() => setLanguage(l.id)}>
              {l.name}
            </button>
          ))}
        </div>
        <div className="muted">{t('settings.theme')}</div>
        <div className="segmented">
          {(['system', 'light', 'dark'] as Theme[]).map((id) => (
            <button key={id} id={`theme-${id}`} aria-pressed={theme === id} onClick={() => setTheme(id)}>
              {t(`settings.theme.${id}`)}
            </button>
          ))}
        </div>
        <div className="muted">{t('settings.currency')}</div>
        <div className="segmented">
          {currencies.map((code) => (
            <button key={code} id={`currency-${code}`} aria-pressed={currency === code} onClick={() => setCurrency(code)}>
              {code}
            </button>
          ))}
        </div>
      </section>
      <section className="card" aria-labelledby="settings-security">
        <div id="settings-security" className="muted">
          {t('settings.security')}
        </div>
        <ListButton id="settings-phrase" label={t('settings.phrase')} hint={t('settings.phraseHint')} onClick={() => open('phrase')} />
        <ListButton id="settings-change-pin" label={t('settings.changePin')} hint={t('settings.changePinHint')} onClick={() => open('changePin')} />
        <ListButton id="settings-export-key" label={t('settings.exportKey')} hint={t('settings.exportKeyHint')} onClick={() => open('exportKey')} />
      </section>
      <section className="card">
        <ListButton id="settings-book" label={t('settings.book')} hint={t('settings.bookHint')} onClick={() => open('book')} />
        <ListButton id="settings-approvals" label={t('approvals.title')} hint={t('approvals.hint')} onClick={() => open('approvals')} />
      </section>
      <ConnectedSites />
      <BrowserExtension />
      <EndpointSettings />
      <button id="settings-logout" className="danger" onClick={logout}>
        {t('settings.logout')}
      </button>
    </main>
  );
}
