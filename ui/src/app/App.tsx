// The widget: which page shows follows the SDK's life cycle and the person's
// choices. Pages talk to the app only through `api`.
import { Fragment, useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import {
  afterPaint,
  api,
  asAppError,
  earlyStart,
  readStart,
  type AppStart,
  type LoginOptions,
  type RegisterEmailRequest,
  type SendRequest,
  type ServiceLifeCycle,
  type ConnectPrompt,
  type ServiceUser,
} from '../api';
import { I18nProvider, useI18n } from '../i18n';
import { SiteSwitchNotice } from '../features/connect/SiteSwitchNotice';
import { EndpointNotice } from '../features/endpoint/EndpointNotice';
import { Wallet } from '../features/wallet/Wallet';
import { Header } from '../components/Header';
import { Logo } from '../components/Logo';
import { useTheme } from '../hooks/useTheme';
import { useApplicationLanguage } from '../hooks/useApplicationLanguage';
import { useShownAgain } from '../hooks/useShownAgain';
import { routeFor, type Route, type Tab } from './routes';
import { TabBar } from './TabBar';
import { lazyPage } from './lazyPage';

// Loaded when first opened (the wallet, the start's page, is in the first script).
const CheckEmail = lazyPage(() => import('../features/auth/CheckEmail'), (m) => m.CheckEmail);
const ConnectRequest = lazyPage(() => import('../features/connect/ConnectRequest'), (m) => m.ConnectRequest);
const ForgotPassword = lazyPage(() => import('../features/auth/ForgotPassword'), (m) => m.ForgotPassword);
const Login = lazyPage(() => import('../features/auth/Login'), (m) => m.Login);
const Nfts = lazyPage(() => import('../features/wallet/Nfts'), (m) => m.Nfts);
const OAuthWait = lazyPage(() => import('../features/auth/OAuthWait'), (m) => m.OAuthWait);
const Register = lazyPage(() => import('../features/keys/Register'), (m) => m.Register);
const RegisterEmail = lazyPage(() => import('../features/auth/RegisterEmail'), (m) => m.RegisterEmail);
const Send = lazyPage(() => import('../features/send/Send'), (m) => m.Send);
const Settings = lazyPage(() => import('../features/settings/Settings'), (m) => m.Settings);
const SignUp = lazyPage(() => import('../features/auth/SignUp'), (m) => m.SignUp);

/** The first screen of a start that has answered: the page its life cycle
 * opens on. */
function routeOfStart(start: AppStart | null): Route {
  return start ? routeFor(start.status) : { page: 'starting' };
}

function Widget() {
  const { t } = useI18n();
  useTheme();
  // When the start answered before the first render (main.tsx waits briefly for
  // it), that render is already the first screen: no starting page in between.
  const [route, setRoute] = useState<Route>(() => routeOfStart(earlyStart.arrived()));
  const [user, setUser] = useState<ServiceUser | null>(() => earlyStart.arrived()?.user ?? null);
  // The login page's ways in as last read, shown at once when it shows again.
  const [loginOptions, setLoginOptions] = useState<LoginOptions | null>(null);

  // A change of the life cycle the pages did not make: an application logged
  // someone in (loginWithIdToken, loginWithAccessToken) or out. The pages route
  // themselves after what they do; this follows the rest, and never leaves a
  // page in the middle of its own flow (register with its phrase, an e-mail
  // registration).
  const followStatus = useEffectEvent((status: ServiceLifeCycle) => {
    const loggedOut = ['login', 'signup', 'check', 'forgot', 'oauth'].includes(route.page);
    if (status === 'before_login' && (route.page === 'home' || route.page === 'send' || route.page === 'register')) {
      setUser(null);
      setRoute({ page: 'login', email: '' });
    } else if ((status === 'login' || status === 'login_before_register') && loggedOut) {
      void api.getCurrentServiceUser().then((current) => {
        setUser(current);
        setRoute(routeFor(status));
      }, () => undefined);
    }
  });

  // The start: leave the starting page for the first screen once the app has
  // answered (at once when the first render had the answer). A service that
  // does not answer, or an app with no configuration, shows the offline page
  // with the URL it tried. Again on Retry.
  const [attempt, setAttempt] = useState(0);
  // The status the start opened on; the watch below follows changes from it.
  const startStatus = useRef<ServiceLifeCycle | null>(earlyStart.arrived()?.status ?? null);
  useEffect(() => {
    let live = true;
    (earlyStart.take() ?? readStart()).then(
      (start) => {
        if (!live) return;
        startStatus.current = start.status;
        setUser(start.user ?? null);
        setRoute((current) => (current.page === 'starting' ? routeOfStart(start) : current));
      },
      (e: unknown) => {
        if (live) setRoute({ page: 'offline', detail: asAppError(e).message });
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  // Past the start, a change of the life cycle the pages did not make is
  // followed (`followStatus`): watched once, through one channel.
  const started = route.page !== 'starting' && route.page !== 'offline';
  const watchingStatus = useRef(false);
  useEffect(() => {
    if (!started || watchingStatus.current) return;
    watchingStatus.current = true;
    let last = startStatus.current;
    api
      .watchStatus((status) => {
        if (status === last || status === 'not_initialized' || status === 'initializing') return;
        last = status;
        followStatus(status);
      })
      .catch(() => {
        watchingStatus.current = false;
      });
  }, [started]);

  // The first screen past the starting page, once painted: the app builds its
  // tray icon then, not while the page's files and script are still loading.
  const toldShown = useRef(false);
  useEffect(() => {
    if (route.page === 'starting' || toldShown.current) return;
    toldShown.current = true;
    afterPaint(() => void api.firstPageShown().catch(() => undefined));
  }, [route.page]);

  // Once the wallet is painted, the scripts of the pages a click away from it
  // (its tabs, the send page), so the first click on one does not wait for it.
  const preloaded = useRef(false);
  useEffect(() => {
    if (route.page !== 'home' || preloaded.current) return;
    preloaded.current = true;
    afterPaint(() => void Promise.all([Nfts.preload(), Settings.preload(), Send.preload()]).catch(() => undefined));
  }, [route.page]);

  const retry = () => {
    setRoute({ page: 'starting' });
    setAttempt((n) => n + 1);
  };

  useEffect(() => {
    const back = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setRoute((r) =>
        r.page === 'signup' || r.page === 'check' ? { page: 'login', email: '' } : r.page === 'forgot' ? { page: 'login', email: r.email } : r,
      );
    };
    window.addEventListener('keydown', back);
    return () => window.removeEventListener('keydown', back);
  }, []);

  // An application's `send` opens the send page, filled in, over whatever wallet
  // page shows. Watched once, from the first time the wallet shows; a request seen
  // before is not opened again. One that comes while nobody is in the wallet is
  // cancelled.
  const inWallet = route.page === 'home' || route.page === 'send';
  const handled = useRef(new Set<number>());
  const watchingSends = useRef(false);
  const openRequest = useEffectEvent((request: SendRequest) => {
    if (handled.current.has(request.id)) return;
    handled.current.add(request.id);
    if (route.page !== 'home' && route.page !== 'send') {
      void api.cancelSend(request.id).catch(() => undefined);
      return;
    }
    const { network, address, contract } = request.account;
    setRoute({
      page: 'send',
      account: contract === undefined ? { network, address } : { network, address, contract },
      to: request.to,
      amount: request.amount,
      requestId: request.id,
    });
  });
  useEffect(() => {
    if (!inWallet || watchingSends.current) return;
    watchingSends.current = true;
    api.watchSendRequests((request) => openRequest(request)).catch(() => {
      watchingSends.current = false;
    });
  }, [inWallet]);

  // An application's `registerUserEmail` opens the register-e-mail page for the
  // login the service refused. Watched once, from the first time a page past the
  // starting page shows. A send request the send page was open for is cancelled,
  // as when the person leaves it.
  // An application's request through the local provider (connect) shows over
  // whatever page is open, one at a time, until the person answers it (or the
  // window closes, which rejects it). Watched once, from the first page past the
  // starting page.
  const [prompt, setPrompt] = useState<ConnectPrompt | null>(null);
  const watchingPrompts = useRef(false);
  useEffect(() => {
    if (route.page === 'starting' || route.page === 'offline' || watchingPrompts.current) return;
    watchingPrompts.current = true;
    api.watchConnectRequests((next) => setPrompt(next)).catch(() => {
      watchingPrompts.current = false;
    });
  }, [route.page]);

  useApplicationLanguage(started);

  // The window closed (the person's close or the application's closeWidget):
  // it is kept, hidden, and its next open shows what a new window would: the
  // page the life cycle opens on, made anew (the wallet from its top, read
  // again). What waited on the page (a send, a dapp's request) the close has
  // cancelled. Watched once, past the start.
  const [visit, setVisit] = useState(0);
  const watchingCloses = useRef(false);
  const afterClose = useEffectEvent(() => {
    if (!started) return;
    void api.getStatus().then(
      (status) => {
        setRoute(routeFor(status));
        setVisit((n) => n + 1);
      },
      () => undefined,
    );
  });
  useEffect(() => {
    if (!started || watchingCloses.current) return;
    watchingCloses.current = true;
    api.watchClosed(() => afterClose()).catch(() => {
      watchingCloses.current = false;
    });
  }, [started]);
  // Opened again: the page is painted at once (the desktop benchmark times an
  // open to this mark).
  useShownAgain(() => afterPaint(() => performance.mark('shown again')));

  const watchingRegisters = useRef(false);
  const openRegisterEmail = useEffectEvent((request: RegisterEmailRequest) => {
    if (route.page === 'send' && route.requestId !== undefined) void api.cancelSend(route.requestId).catch(() => undefined);
    setRoute({ page: 'registerEmail', provider: request.provider });
  });
  useEffect(() => {
    if (!started || watchingRegisters.current) return;
    watchingRegisters.current = true;
    api.watchRegisterEmailRequests((request) => openRegisterEmail(request)).catch(() => {
      watchingRegisters.current = false;
    });
  }, [started]);

  const signedIn = (next: ServiceUser) => {
    setUser(next);
    setRoute(next.userStatus.loginStatus === 'complete' ? { page: 'home', tab: 'wallet' } : { page: 'register' });
  };

  // A connect request while nobody is logged in waits while the person logs in
  // (they chose to), then shows again.
  const loggedIn = route.page === 'home' || route.page === 'send';
  const [loggingInFor, setLoggingInFor] = useState<number | null>(null);
  if (prompt && started && !(loggingInFor === prompt.id && !loggedIn)) {
    return <ConnectRequest prompt={prompt} loggedIn={loggedIn} onLogIn={() => setLoggingInFor(prompt.id)} />;
  }

  return <Fragment key={visit}>{currentPage()}</Fragment>;

  function currentPage(): ReactNode {
    switch (route.page) {
      case 'starting':
        return (
          <main className="page center">
            <div className="brand">
              <Logo />
              <p>{t('starting.title')}</p>
            </div>
          </main>
        );
      case 'offline':
        return (
          <main className="page center">
            <div className="brand">
              <Logo />
              <p role="alert">{t('starting.offline')}</p>
              {route.detail && (
                <p id="offline-detail" className="muted">
                  <code>{route.detail}</code>
                </p>
              )}
              <button className="secondary" onClick={retry}>
                {t('common.retry')}
              </button>
            </div>
          </main>
        );
      case 'login':
        return (
          <Login
            initialEmail={route.email}
            notice={route.notice}
            knownOptions={loginOptions}
            onOptions={setLoginOptions}
            onLoggedIn={signedIn}
            onOAuth={(provider) => setRoute({ page: 'oauth', provider })}
            onCreateAccount={() => setRoute({ page: 'signup' })}
            onVerifyEmail={(email) => setRoute({ page: 'check', email })}
            onForgotPassword={(email) => setRoute({ page: 'forgot', email })}
          />
        );
      case 'oauth':
        return (
          <OAuthWait
            key={route.provider}
            provider={route.provider}
            onLoggedIn={signedIn}
            onRegisterEmail={(provider) => setRoute({ page: 'registerEmail', provider })}
            onBack={(notice) => setRoute({ page: 'login', email: '', notice })}
          />
        );
      case 'registerEmail':
        return (
          <RegisterEmail
            key={route.provider}
            provider={route.provider}
            onLoggedIn={signedIn}
            onBack={() => setRoute({ page: 'login', email: '' })}
          />
        );
      case 'forgot':
        return <ForgotPassword initialEmail={route.email} onBack={(email) => setRoute({ page: 'login', email })} />;
      case 'signup':
        return (
          <SignUp
            onVerificationSent={(email) => setRoute({ page: 'check', email })}
            onSignedIn={signedIn}
            onBack={() => setRoute({ page: 'login', email: '' })}
          />
        );
      case 'check':
        return (
          <CheckEmail
            email={route.email}
            onVerified={() => setRoute({ page: 'login', email: route.email })}
            onBack={() => setRoute({ page: 'login', email: '' })}
          />
        );
      case 'register':
        return (
          <Register
            user={user}
            onRegistered={signedIn}
            onLogout={async () => {
              await api.logout().catch(() => undefined);
              setUser(null);
              setRoute({ page: 'login', email: '' });
            }}
          />
        );
      case 'send':
        return (
          <Send
            key={route.requestId ?? 'wallet'}
            target={route}
            onBack={() => setRoute({ page: 'home', tab: 'wallet' })}
            onViewActivity={() => setRoute({ page: 'home', tab: 'wallet', activity: true })}
          />
        );
      case 'home': {
        const titles: Record<Tab, string> = { wallet: t('wallet.title'), nfts: t('nfts.title'), settings: t('settings.title') };
        return (
          <>
            <Header title={titles[route.tab]} right={<span className="who">{user?.userInfo?.email}</span>} />
            {route.tab === 'wallet' && (
              <Wallet showActivity={route.activity} onSend={(target) => setRoute({ page: 'send', ...target })} />
            )}
            {route.tab === 'nfts' && <Nfts />}
            {route.tab === 'settings' && (
              <Settings
                user={user}
                onLoggedOut={() => {
                  setUser(null);
                  setRoute({ page: 'login', email: '' });
                }}
              />
            )}
            <TabBar current={route.tab} onSelect={(tab) => setRoute({ page: 'home', tab })} />
          </>
        );
      }
    }
  }
}

export function App() {
  return (
    <I18nProvider>
      <SiteSwitchNotice />
      <EndpointNotice />
      <Widget />
    </I18nProvider>
  );
}
