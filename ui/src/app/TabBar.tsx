// The home page's tabs at the bottom: wallet, NFTs, settings.
import { useI18n } from '../i18n';
import type { Tab } from './routes';

const icons: Record<Tab, string> = {
  wallet: 'M3 7h18v12H3z M3 7l3-3h12l3 3 M16 13h2',
  nfts: 'M4 4h7v7H4z M13 4h7v7h-7z M4 13h7v7H4z M13 13h7v7h-7z',
  settings: 'M12 8a4 4 0 1 0 0 8a4 4 0 1 0 0-8z M12 2v3 M12 19v3 M2 12h3 M19 12h3',
};

export const TABS: Tab[] = ['wallet', 'nfts', 'settings'];

export function TabBar({ current, onSelect }: { current: Tab; onSelect: (tab: Tab) => void }) {
  const { t } = useI18n();
  return (
    <nav className="bottom-bar">
      {TABS.map((tab) => (
        <button key={tab} id={`nav-${tab}`} aria-current={current === tab ? 'page' : undefined} onClick={() => onSelect(tab)}>
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" strokeLinecap="round">
            <path d={icons[tab]} />
          </svg>
          {t(`nav.${tab}`)}
        </button>
      ))}
    </nav>
  );
}
