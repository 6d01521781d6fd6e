import { api, type ServiceUser } from '../api';
import { useI18n, type Language } from '../i18n';
import { useTheme, type Theme } from '../theme';

const languages: { id: Language; name: string }[] = [
  { id: 'en', name: 'English' },
  { id: 'ko', name: '한국어' },
  { id: 'ja', name: '日本語' },
];

export function Settings({ user, onLoggedOut }: { user: ServiceUser | null; onLoggedOut: () => void }) {
  const { t, language, setLanguage } = useI18n();
  const [theme, setTheme] = useTheme();

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

  return (
    <main className="page">
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
      </section>
      <button id="settings-logout" className="danger" onClick={logout}>
        {t('settings.logout')}
      </button>
    </main>
  );
}
