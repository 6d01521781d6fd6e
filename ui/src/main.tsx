import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { earlyStart, markStartStep, readStart } from './api';
import { initialLanguage, loadLanguage } from './i18n';
import { markPlatform } from './lib/platform';
import './styles.css';

/** How long the first render waits for the start, so that it is the first
 * screen itself (the wallet with its balances, the login page); a slower start
 * shows the starting page meanwhile. */
const FIRST_RENDER_WAIT_MS = 400;

markStartStep('script');
// What the first screen needs, in one call, asked before anything renders.
const started = earlyStart.ask(readStart).then(
  () => markStartStep('answered'),
  () => undefined,
);
markPlatform(document.documentElement, navigator.userAgent);

const root = document.getElementById('root');
// In the person's language from the first render (English is here already; a
// language that fails to load reads as English).
const language = initialLanguage();
document.documentElement.lang = language;
void Promise.all([
  loadLanguage(language).catch(() => undefined),
  Promise.race([started, new Promise((done) => setTimeout(done, FIRST_RENDER_WAIT_MS))]),
]).then(() => {
  if (root)
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
});
