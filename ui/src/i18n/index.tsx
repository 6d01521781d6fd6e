// Text comes from the locale files; no string the person reads is in code.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import en from './locales/en.json';
import ja from './locales/ja.json';
import ko from './locales/ko.json';
import type { AppError } from '../api';

export type Language = 'en' | 'ko' | 'ja';
export type TextId = keyof typeof en;

const catalogs: Record<Language, Record<TextId, string>> = { en, ko, ja };
const STORAGE_LANGUAGE = 'satchel.language';

function initialLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_LANGUAGE);
  if (saved === 'en' || saved === 'ko' || saved === 'ja') return saved;
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
    const t: Translate = (id, vars) => fill(catalogs[language][id] ?? en[id] ?? id, vars);
    return {
      language,
      setLanguage: (next) => {
        localStorage.setItem(STORAGE_LANGUAGE, next);
        document.documentElement.lang = next;
        setLanguageState(next);
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
