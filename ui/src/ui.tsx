// Small building blocks every page uses.
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { useI18n } from './i18n';
import type { AppError } from './api';

export function Logo() {
  return (
    <div className="logo" aria-hidden="true">
      <svg viewBox="0 0 1024 1024">
        <path d="M382 330 q0 -110 130 -110 q130 0 130 110" fill="none" stroke="#fff" strokeWidth="56" strokeLinecap="round" />
        <rect x="232" y="330" width="560" height="470" rx="96" fill="#fff" />
        <rect x="232" y="430" width="560" height="70" fill="#dcd8ff" />
        <circle cx="512" cy="500" r="62" fill="#5b4cf5" />
      </svg>
    </div>
  );
}

/** Esc calls `onEscape` (the page's back) while it is given. */
export function useEscape(onEscape: (() => void) | undefined) {
  const escape = useEffectEvent(() => onEscape?.());
  const active = onEscape !== undefined;
  useEffect(() => {
    if (!active) return;
    const listener = (e: KeyboardEvent) => {
      if (e.key === 'Escape') escape();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [active]);
}

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

export function ErrorNotice({ error, onRetry }: { error: AppError | null; onRetry?: () => void }) {
  const { t, explain } = useI18n();
  if (!error) return null;
  return (
    <div className="notice error" role="alert">
      {explain(error)}{' '}
      {onRetry && (
        <button className="link-button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}

export function PasswordField({
  id,
  label,
  value,
  onChange,
  autoComplete,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  autoComplete: string;
}) {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-row">
        <input
          id={id}
          type={shown ? 'text' : 'password'}
          value={value}
          autoComplete={autoComplete}
          onChange={(e) => onChange(e.target.value)}
        />
        <button type="button" className="link-button" onClick={() => setShown(!shown)}>
          {shown ? t('common.hide') : t('common.show')}
        </button>
      </div>
    </div>
  );
}

export function Skeleton({ height = 16, width = '100%' }: { height?: number; width?: string | number }) {
  return <div className="skeleton" style={{ height, width }} />;
}

/** `0x1234…abcd`. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** The full address in blocks of 4 for reading, the `0x` on its own:
 * `['0x', '5290', '8400', …]`; joined, they are the address again. */
export function addressGroups(address: string): string[] {
  const prefix = address.startsWith('0x') ? ['0x'] : [];
  const rest = address.slice(prefix.length ? 2 : 0);
  return [...prefix, ...(rest.match(/.{1,4}/g) ?? [])];
}

/** A long decimal shortened for display (never exponent form); full value on hover. */
export function displayAmount(amount: string, maxFraction = 6): string {
  const [whole, fraction = ''] = amount.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cut = fraction.slice(0, maxFraction).replace(/0+$/, '');
  if (cut === '' && whole === '0' && /[1-9]/.test(fraction)) return `< 0.${'0'.repeat(maxFraction - 1)}1`;
  return cut ? `${grouped}.${cut}` : grouped;
}

const palette = ['#5b4cf5', '#12865a', '#d9480f', '#1c7ed6', '#ae3ec9', '#e67700'];

export function CoinMark({ symbol }: { symbol: string }) {
  const colour = palette[[...symbol].reduce((sum, c) => sum + c.charCodeAt(0), 0) % palette.length];
  return (
    <span className="coin" style={{ background: colour }} aria-hidden="true">
      {symbol.slice(0, 3)}
    </span>
  );
}
