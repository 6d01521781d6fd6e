// An application's changeLanguage (or init's defaultLanguage) reaches the
// pages: they switch to it, as the person would in Settings. A default does
// not override a language the person chose.
import { useEffect, useEffectEvent, useRef } from 'react';
import { api, type LanguageRequest } from '../api';
import { chosenLanguage, useI18n, type Language } from '../i18n';

const isLanguage = (language: string): language is Language => language === 'en' || language === 'ko' || language === 'ja';

/** Follows the application's language requests once `started`. */
export function useApplicationLanguage(started: boolean) {
  const { setLanguage } = useI18n();
  const watching = useRef(false);
  const follow = useEffectEvent((request: LanguageRequest) => {
    if (!isLanguage(request.language)) return;
    if (request.asDefault && chosenLanguage() !== null) return;
    setLanguage(request.language);
  });
  useEffect(() => {
    if (!started || watching.current) return;
    watching.current = true;
    api.watchLanguage((request) => follow(request)).catch(() => {
      watching.current = false;
    });
  }, [started]);
}
