import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { api, earlyAppInfo, markStartStep } from './api';
import { initialLanguage, loadLanguage } from './i18n';
import { markPlatform } from './lib/platform';
import './styles.css';

markStartStep('script');
// The app's settings beside the first render, which would otherwise wait for them.
earlyAppInfo.ask(api.getAppInfo).then(
  () => markStartStep('answered'),
  () => undefined,
);
markPlatform(document.documentElement, navigator.userAgent);

const root = document.getElementById('root');
// In the person's language from the first render (English is here already; a
// language that fails to load reads as English).
const language = initialLanguage();
document.documentElement.lang = language;
void loadLanguage(language)
  .catch(() => undefined)
  .then(() => {
    if (root)
      createRoot(root).render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
  });
