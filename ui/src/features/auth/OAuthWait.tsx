import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { api, asAppError, type AppError, type ExternalLoginOutcome, type OAuthProvider, type RegisterEmailProvider, type ServiceUser } from '../../api';
import { useI18n } from '../../i18n';
import { ProviderMark, providerName } from '../../components/ProviderMark';
import { Header } from '../../components/Header';
import { useEscape } from '../../hooks/useEscape';

/** The app's words for a login that ran out of time (`User canceled`'s message). */
const TIMED_OUT = /timed?[\s_-]?out/i;

/**
 * A login through `provider` in the system browser: the app opens the provider's
 * page there and `loginWithOauthProvider` resolves once the person is through.
 * This page says so and waits, with Cancel (and Esc), which ends the wait
 * (`cancelOauth`).
 *
 * Once through: `onLoggedIn` (as after an e-mail login), or `onRegisterEmail`
 * when the account has no e-mail yet. Cancelled: `onBack()`, quietly; cancelled
 * because it took too long: `onBack` with that error, for the login page's mild
 * note; any other failure: `onBack` with the error, shown under the buttons.
 */
export function OAuthWait({
  provider,
  onLoggedIn,
  onRegisterEmail,
  onBack,
}: {
  provider: OAuthProvider;
  onLoggedIn: (user: ServiceUser) => void;
  onRegisterEmail: (provider: RegisterEmailProvider) => void;
  onBack: (notice?: AppError) => void;
}) {
  const { t } = useI18n();
  const name = providerName(t, provider);
  const [cancelling, setCancelling] = useState(false);
  const cancelAsked = useRef(false);
  // The page routes on once: after the login settles or the cancel is through,
  // whichever is first, and only while it is on screen.
  const done = useRef(false);
  const shown = useRef(false);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);

  const settle = useEffectEvent((outcome: ExternalLoginOutcome | null, failure: AppError | null) => {
    if (!shown.current || done.current) return;
    done.current = true;
    if (outcome && 'user' in outcome) onLoggedIn(outcome.user);
    else if (outcome) onRegisterEmail(outcome.registerEmail.provider);
    else if (failure?.code !== 'User canceled') onBack(failure ?? undefined);
    else if (!cancelAsked.current && TIMED_OUT.test(failure.message)) onBack(failure);
    else onBack();
  });

  // One login per visit, also when React runs effects twice (StrictMode): each
  // call opens the browser.
  const start = useEffectEvent(() => {
    api.loginWithOauthProvider(provider).then(
      (outcome) => settle(outcome, null),
      (err) => settle(null, asAppError(err)),
    );
  });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, []);

  function cancel() {
    if (cancelAsked.current || done.current) return;
    cancelAsked.current = true;
    setCancelling(true);
    // The waiting login rejects `User canceled` now; back to the login page at the
    // latest once the app has taken the cancel (or could not: nothing to wait for).
    void api
      .cancelOauth()
      .catch(() => undefined)
      .then(() => {
        if (!shown.current || done.current) return;
        done.current = true;
        onBack();
      });
  }
  useEscape(cancel);

  return (
    <>
      <Header title={t('oauth.title')} onBack={cancel} />
      <main className="page center">
        <section className="card oauth-wait" data-testid="oauth-wait">
          <ProviderMark provider={provider} size={48} />
          <p>{t('oauth.body', { provider: name })}</p>
          <div className="waiting" role="status">
            <span className="spinner" aria-hidden="true" />
            <span>{cancelling ? t('oauth.cancelling') : t('oauth.waiting', { provider: name })}</span>
          </div>
          <button type="button" className="secondary" data-testid="oauth-cancel" onClick={cancel} disabled={cancelling}>
            {t('common.cancel')}
          </button>
        </section>
      </main>
    </>
  );
}
