// Runs before every test file: a browser-like jsdom the pages can start in, in
// English, with no IPC mock or DOM left over from the test before.
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { clearMocks } from '@tauri-apps/api/mocks';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { loadAllPages } from '../app/lazyPage';
import { loadLanguage } from '../i18n';

// jsdom has no matchMedia; theme.ts calls it when imported.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// Testing Library recognises fake timers only through a global `jest`: without
// it, its async helpers wait on a setTimeout the fake clock never fires. With it,
// they move Vitest's fake clock (and only while the test has installed one).
(globalThis as unknown as { jest: { advanceTimersByTime: (ms: number) => void } }).jest = {
  advanceTimersByTime: (ms) => {
    vi.advanceTimersByTime(ms);
  },
};

// The scripts the app loads when a page or a language is first opened, loaded
// before the tests, which render pages without waiting for them.
beforeAll(() => Promise.all([loadAllPages(), loadLanguage('ko'), loadLanguage('ja')]));

beforeEach(() => {
  localStorage.clear();
  Object.defineProperty(window.navigator, 'language', { value: 'en-US', configurable: true });
  document.documentElement.lang = 'en';
});

afterEach(() => {
  cleanup();
  clearMocks();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
