// The search field above a long list (the wallet's tokens, the NFT grid), and
// its empty state.
import type { ReactNode } from 'react';
import { useI18n } from '../i18n';

/** From how many items a list offers its search field: below it, the field is
 * only clutter over a list that fits in the window. */
export const SEARCH_FROM = 8;

/** Whether any of `texts` holds `query` (trimmed, case-insensitive); an empty
 * query matches everything. */
export function matches(query: string, ...texts: (string | undefined)[]): boolean {
  const wanted = query.trim().toLocaleLowerCase();
  return wanted === '' || texts.some((text) => text?.toLocaleLowerCase().includes(wanted));
}

/** A search field; Esc empties it (and goes no further while it had text). */
export function SearchField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="input-row search-field">
      <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
        <path d="M10.5 4a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13z M15.5 15.5L20 20" />
      </svg>
      <input
        id={id}
        type="search"
        aria-label={label}
        placeholder={label}
        value={value}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && value !== '') {
            e.stopPropagation();
            onChange('');
          }
        }}
      />
    </div>
  );
}

/** What shows when nothing matches the search: the sentence and Clear. */
export function NoMatch({ id, children, onClear }: { id: string; children: ReactNode; onClear: () => void }) {
  const { t } = useI18n();
  return (
    <div className="card muted empty" id={id} role="status">
      <span>{children}</span>
      <button type="button" className="link-button no-match-clear" onClick={onClear}>
        {t('search.clear')}
      </button>
    </div>
  );
}
