// Light, dark, or whatever the system uses; remembered on this device.
import { useEffect, useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';
const STORAGE_THEME = 'satchel.theme';

function apply(theme: Theme) {
  const dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

export function initialTheme(): Theme {
  const saved = localStorage.getItem(STORAGE_THEME);
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

export function useTheme(): [Theme, (t: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(initialTheme);
  useEffect(() => {
    apply(theme);
    localStorage.setItem(STORAGE_THEME, theme);
    const media = matchMedia('(prefers-color-scheme: dark)');
    // Reads the saved choice, not this copy: another page may have changed it.
    const follow = () => apply(initialTheme());
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, [theme]);
  return [theme, setTheme];
}

apply(initialTheme());
