// A page's title bar, with Back where there is one.
import { type ReactNode } from 'react';
import { useI18n } from '../i18n';

export function Header({ title, onBack, right }: { title: string; onBack?: () => void; right?: ReactNode }) {
  const { t } = useI18n();
  return (
    <header className="header">
      {onBack && (
        <button className="link-button" onClick={onBack} aria-label={t('common.back')}>
          ←
        </button>
      )}
      <h1>{title}</h1>
      {right}
    </header>
  );
}
