// Text comes from the locale files; no string the person reads is in code.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import en from './locales/en.json';
import type { AppError } from '../api';

export type Language = 'en' | 'ko' | 'ja';
export type TextId = keyof typeof en;

type Catalog = Record<TextId, string>;
const STORAGE_LANGUAGE = 'satchel.language';

// English is in the first script (and fills in for a text a catalog lacks); the
// other languages are scripts of their own, loaded when chosen.
const catalogs: Partial<Record<Language, Catalog>> = { en };
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Catalog }>> = {
  ko: () => import('./locales/ko.json'),
  ja: () => import('./locales/ja.json'),
};

/** Loads `language`'s texts, once; the page waits for them before it renders
 * in that language. */
export async function loadLanguage(language: Language): Promise<void> {
  if (language === 'en' || catalogs[language]) return;
  catalogs[language] = (await loaders[language]()).default;
}

/** The language chosen on this device (in Settings, or by the application's
 * changeLanguage), if any. */
export function chosenLanguage(): Language | null {
  const saved = localStorage.getItem(STORAGE_LANGUAGE);
  return saved === 'en' || saved === 'ko' || saved === 'ja' ? saved : null;
}

/** The language the widget opens in: the one chosen before, else the system's
 * when the widget has it, else English. */
export function initialLanguage(): Language {
  const saved = chosenLanguage();
  if (saved !== null) return saved;
  const system = navigator.language.slice(0, 2);
  return system === 'ko' || system === 'ja' ? system : 'en';
}

export type Translate = (id: TextId, vars?: Record<string, string | number>) => string;

/** `text` with every `{name}` placeholder (each occurrence) replaced by `vars[name]`,
 * in one pass: a value is put in as it is, never read for placeholders or `$`
 * patterns; a placeholder without a value stays as it is. */
export function fill(text: string, vars: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : placeholder,
  );
}

interface I18n {
  language: Language;
  setLanguage: (language: Language) => void;
  t: Translate;
  /** An error in the person's words: the service's code if we know it. */
  explain: (error: AppError) => string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  const value = useMemo<I18n>(() => {
    // A language whose texts are not loaded yet reads as English until they are.
    const catalog = catalogs[language] ?? en;
    const t: Translate = (id, vars) => fill(catalog[id] ?? en[id] ?? id, vars);
    return {
      language,
      setLanguage: (next) => {
        localStorage.setItem(STORAGE_LANGUAGE, next);
        const show = () => {
          document.documentElement.lang = next;
          setLanguageState(next);
        };
        // At once when its texts are here (English, or loaded before).
        if (next === 'en' || catalogs[next]) show();
        else void loadLanguage(next).then(show, () => undefined);
      },
      t,
      explain: (error) => {
        const id = `error.${error.code}` as TextId;
        // A text may name the app's own words about it (`{message}`).
        return id in en ? t(id, { message: error.message }) : t('error.generic', { message: error.message });
      },
    };
  }, [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n outside I18nProvider');
  return i18n;
}
