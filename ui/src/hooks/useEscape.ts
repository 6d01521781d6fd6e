// Esc as the page's back.
import { useEffect, useEffectEvent } from 'react';

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
