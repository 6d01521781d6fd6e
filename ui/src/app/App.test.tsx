import { act, screen } from '@testing-library/react';
import { Channel } from '@tauri-apps/api/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { earlyStart, readStart, type ExternalLoginOutcome, type LanguageRequest, type ServiceLifeCycle } from '../api';
import ko from '../i18n/locales/ko.json';
import {
  ADDRESS,
  RECIPIENT,
  WORDS,
  activityEntry,
  appInfo,
  balance,
  deferred,
  fail,
  keyStatus,
  lifeCycle,
  loginOptions,
  mockCommands,
  pinStatus,
  registerEmailRequests,
  renderPage,
  sendQuote,
  sendRequests,
  serviceUser,
  startsAs,
  tick,
  watched,
} from '../test/harness';

/** What every page past the starting page may call: the login page's ways in
 * (the e-mail form alone) and the watch of applications' `registerUserEmail`. */
const ready = {
  getLoginOptions: () => loginOptions(),
  watchRegisterEmailRequests: () => null,
  watchLanguage: () => null,
};

const home = {
  getKeyState: () => keyStatus(),
  getRefreshWait: () => ({ balances: 30, nfts: 30 }),
  getBalance: () => [balance()],
  getNftGrid: () => ({ version: 'empty', count: 0 }),
  getNftTiles: () => ({ version: 'empty', listed: 0, hidden: 0, networks: [], matching: 0, from: 0, tiles: [] }),
  getActivity: () => [],
  watchSendRequests: () => null,
};

describe('App routing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('waits while the app initialises, then opens on the wallet of the person logged in, with the balances that came with the start', async () => {
    const status = lifeCycle('not_initialized', { user: () => serviceUser(), balances: [balance()] });
    const ipc = mockCommands({ ...ready, getStart: status.getStart, watchStatus: status.watchStatus, ...home });
    renderPage(<App />);
    await tick();
    expect(screen.getByText('Starting Satchel…')).toBeInTheDocument();

    await status.change('initializing');
    expect(screen.getByText('Starting Satchel…')).toBeInTheDocument();

    await status.change('login');
    expect(await screen.findByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Wallet' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
    // One question for the start; the balances were in its answer.
    expect(ipc.count('getStart')).toBe(1);
    expect(ipc.count('getBalance')).toBe(0);
    // Then one channel for later changes, no polling (getStatus has no mock: a
    // call would fail the test).
    expect(ipc.argsOf('watchStatus')).toEqual([{ onEvent: expect.any(Channel) }]);
  });

  it('opens on the wallet in its first render when the start answered before it: no starting page in between', async () => {
    const ipc = mockCommands({ ...ready, ...startsAs('login', serviceUser(), [balance()]), ...home });
    await act(() => earlyStart.ask(readStart));
    renderPage(<App />);

    // Synchronously: the first render is the wallet, with its balances.
    expect(screen.queryByText('Starting Satchel…')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
    await tick();
    expect(ipc.count('getStart')).toBe(1);
    expect(ipc.count('getBalance')).toBe(0);
  });

  it('opens the wallet without balances when the start had none in time, and the wallet reads them', async () => {
    const ipc = mockCommands({ ...ready, ...startsAs('login', serviceUser()), ...home });
    renderPage(<App />);
    await tick();

    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
    expect(ipc.count('getBalance')).toBe(1);
  });

  it('tells the app once, after the first page past the starting page is painted, so it builds its tray then', async () => {
    const status = lifeCycle('initializing', { user: () => serviceUser(), balances: [balance()] });
    const ipc = mockCommands({ ...ready, getStart: status.getStart, watchStatus: status.watchStatus, ...home });
    renderPage(<App />);
    await tick();
    expect(screen.getByText('Starting Satchel…')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(ipc.count('firstPageShown')).toBe(0);

    await status.change('login');
    expect(await screen.findByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    // Not in the render that shows it: after the browser's next two frames.
    expect(ipc.count('firstPageShown')).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(ipc.count('firstPageShown')).toBe(1);

    await act(async () => screen.getByRole('button', { name: 'NFTs' }).click());
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(ipc.count('firstPageShown')).toBe(1);
  });

  it('leaves the starting page once under StrictMode, whose second effect asks again', async () => {
    const ipc = mockCommands({ ...ready, ...startsAs('before_login') });
    renderPage(<App />, { strict: true });

    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    // Both effects ask for the start; the first is gone before its answer. One
    // watch of the life cycle after it.
    expect(ipc.count('getStart')).toBe(2);
    expect(ipc.count('watchStatus')).toBe(1);
  });

  it('keeps the page the person is on when the status changes later: the pages route themselves', async () => {
    const status = lifeCycle('before_login');
    mockCommands({ ...ready, getStart: status.getStart, watchStatus: status.watchStatus });
    const page = renderPage(<App />);
    await page.user.click(await screen.findByRole('button', { name: 'Create an account' }));
    expect(screen.getByRole('heading', { name: 'Create an account' })).toBeInTheDocument();

    await status.change('initializing');
    await status.change('before_login');

    expect(screen.getByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
  });

  it('follows a login an application made (loginWithIdToken) from the login page, to register then the wallet', async () => {
    let current: ReturnType<typeof serviceUser> | null = null;
    const status = lifeCycle('before_login', { user: () => current });
    mockCommands({
      ...ready,
      ...home,
      getStart: status.getStart,
      watchStatus: status.watchStatus,
      getCurrentServiceUser: () => current,
      getPinStatus: () => pinStatus(),
    });
    renderPage(<App />);
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();

    current = serviceUser();
    await status.change('login_before_register');
    expect(await screen.findByRole('heading', { name: 'Protect your wallet' })).toBeInTheDocument();
  });

  it('follows a logout an application made from the wallet, to the login page', async () => {
    const status = lifeCycle('login', { user: () => serviceUser(), balances: [balance()] });
    mockCommands({ ...ready, ...home, getStart: status.getStart, watchStatus: status.watchStatus });
    renderPage(<App />);
    expect(await screen.findByRole('heading', { name: 'Wallet' })).toBeInTheDocument();

    await status.change('before_login');
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument();
  });

  it('shows the service URL it tried when the service does not answer, and Retry asks again', async () => {
    let tries = 0;
    const status = lifeCycle('before_login');
    const ipc = mockCommands({
      ...ready,
      getStart: (args) => {
        tries += 1;
        return tries === 1
          ? fail('NotConnectedInternet', 'https://wallet.example.com/: cannot reach the wallet service; check the connection')
          : status.getStart(args);
      },
      watchStatus: status.watchStatus,
    });
    const page = renderPage(<App />);

    expect(await screen.findByRole('alert')).toHaveTextContent('Satchel cannot reach its service.');
    expect(screen.getByText(/https:\/\/wallet\.example\.com\/: cannot reach/)).toBeInTheDocument();
    expect(ipc.count('watchStatus')).toBe(0);
    await page.user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(ipc.count('getStart')).toBe(2);
    expect(ipc.count('watchStatus')).toBe(1);
  });

  it('shows what is missing when the app has no configuration', async () => {
    mockCommands({
      ...ready,
      getStart: () => fail('NotInitialized', 'http://127.0.0.1:8787/: no app_id: set app_id in /home/ada/.config/dev.satchel.wallet/settings.toml or the variable SATCHEL_APP_ID'),
    });
    renderPage(<App />);

    expect(await screen.findByRole('alert')).toHaveTextContent('Satchel cannot reach its service.');
    expect(screen.getByText(/settings\.toml/)).toHaveTextContent('http://127.0.0.1:8787/: no app_id');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('shows the register page when the person is logged in but has no wallet yet', async () => {
    mockCommands({
      ...ready,
      ...startsAs('login_before_register', serviceUser({ userStatus: { loginStatus: 'registerRequired' } })),
    });
    renderPage(<App />);
    await tick();

    expect(screen.getByRole('heading', { name: 'Protect your wallet' })).toBeInTheDocument();
    expect(screen.getByLabelText('Choose a 6-digit PIN')).toBeInTheDocument();
  });

  it('goes from the new PIN through the recovery phrase, skipped, to the wallet, which reminds of it', async () => {
    const ipc = mockCommands({
      ...ready,
      ...startsAs('login_before_register', serviceUser({ userStatus: { loginStatus: 'registerRequired' } })),
      register: () => serviceUser(),
      ...home,
      getKeyState: () => keyStatus({ phraseConfirmed: false }),
    });
    const page = renderPage(<App />);
    await tick();

    await page.user.type(screen.getByLabelText('Choose a 6-digit PIN'), '246810');
    await page.user.type(screen.getByLabelText('Enter the PIN again'), '246810{Enter}');
    await tick();
    expect(screen.getByRole('heading', { name: 'Recovery phrase' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Skip for now' }));
    await tick();
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(screen.getByText('Write down your recovery phrase')).toBeInTheDocument();
    expect(ipc.argsOf('register')).toEqual([{ pin: '246810', backup: false }]);
  });

  it('restores a wallet whose key is not on this device with its phrase, then shows the wallet', async () => {
    const ipc = mockCommands({
      ...ready,
      ...startsAs('login_before_register', serviceUser({ userStatus: { loginStatus: 'pinRequired' } })),
      getPinStatus: () => pinStatus(),
      restoreFromPhrase: () => serviceUser(),
      ...home,
      getKeyState: () => (ipc.count('restoreFromPhrase') === 0 ? keyStatus({ state: 'missing', phraseConfirmed: false }) : keyStatus()),
    });
    const page = renderPage(<App />);
    await tick();

    expect(screen.getByRole('heading', { name: 'Restore your wallet' })).toBeInTheDocument();
    await page.user.click(screen.getByLabelText('Your 12 words, in order'));
    await page.user.paste(WORDS.join(' '));
    await page.user.type(screen.getByLabelText('Choose a new 6-digit PIN'), '111222');
    await page.user.type(screen.getByLabelText('Enter the new PIN again'), '111222{Enter}');
    await tick();

    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(await screen.findByTestId('balance-ETH')).toHaveTextContent('1,250.5');
    expect(screen.queryByText('Write down your recovery phrase')).not.toBeInTheDocument();
  });

  it.each<ServiceLifeCycle>(['before_login', 'initialized'])('shows the login page when the status is %s', async (status) => {
    mockCommands({ ...ready, ...startsAs(status) });
    renderPage(<App />);
    await tick();

    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('logs in to the wallet, or to the register page when the account has no wallet yet', async () => {
    let user = serviceUser();
    mockCommands({
      ...ready,
      ...startsAs('before_login'),
      loginWithEmailAndPassword: () => user,
      ...home,
    });
    const first = renderPage(<App />);
    await tick();
    await first.user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await first.user.type(screen.getByLabelText('Password'), 'abcdefg1{Enter}');
    await tick();
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    first.unmount();

    user = serviceUser({ userStatus: { loginStatus: 'registerRequired' } });
    const second = renderPage(<App />);
    await tick();
    await second.user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await second.user.type(screen.getByLabelText('Password'), 'abcdefg1{Enter}');
    await tick();
    expect(screen.getByRole('heading', { name: 'Protect your wallet' })).toBeInTheDocument();
  });

  it('sends an unverified login to "check your e-mail", and back to the login with the address filled in', async () => {
    mockCommands({
      ...ready,
      ...startsAs('before_login'),
      loginWithEmailAndPassword: () => fail('RequiredEmailVerified', 'verify first'),
    });
    const page = renderPage(<App />);
    await tick();
    await page.user.type(screen.getByLabelText('E-mail'), 'new@example.com');
    await page.user.type(screen.getByLabelText('Password'), 'abcdefg1{Enter}');
    await tick();

    expect(screen.getByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/We sent a link to new@example\.com\./)).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'I verified, log in' }));
    expect(screen.getByLabelText('E-mail')).toHaveValue('new@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('opens "Forgot password?" with the typed address, sends the link, and goes back to the login with it', async () => {
    const ipc = mockCommands({
      ...ready,
      ...startsAs('before_login'),
      sendPasswordResetEmail: () => null,
    });
    const page = renderPage(<App />);
    await tick();
    await page.user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await page.user.click(screen.getByRole('button', { name: 'Forgot password?' }));

    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@example.com');
    await page.user.click(screen.getByRole('button', { name: 'Send the link' }));
    await tick();
    expect(ipc.argsOf('sendPasswordResetEmail')).toEqual([{ email: 'ada@example.com' }]);
    expect(screen.getByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Back to log in' }));
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@example.com');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await page.user.keyboard('{Escape}');
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@example.com');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('opens the sign-up page from "Create an account", and Escape goes back to the login page', async () => {
    mockCommands({ ...ready, ...startsAs('before_login') });
    const page = renderPage(<App />);
    await tick();

    await page.user.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(screen.getByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm password')).toBeInTheDocument();

    await page.user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Confirm password')).not.toBeInTheDocument();
  });

  it('moves between the tabs, and a language chosen in Settings changes the title and the tab names', async () => {
    mockCommands({ ...ready, ...startsAs('login', serviceUser(), [balance()]), ...home });
    const page = renderPage(<App />);
    await tick();

    await page.user.click(screen.getByRole('button', { name: 'NFTs' }));
    await tick();
    expect(screen.getByRole('heading', { name: 'NFTs' })).toBeInTheDocument();
    expect(screen.getByText(/No NFTs here yet/)).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Settings' }));
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: '한국어' }));

    expect(screen.getByRole('heading', { name: ko['settings.title'] })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: ko['nav.wallet'] })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: ko['settings.logout'] })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('returns to the login page after logging out in Settings', async () => {
    const ipc = mockCommands({
      ...ready,
      ...startsAs('login', serviceUser(), [balance()]),
      logout: () => null,
      ...home,
    });
    const page = renderPage(<App />);
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Settings' }));
    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    await tick();

    expect(ipc.count('logout')).toBe(1);
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument();
  });

  // Each page keeps its own copy of the theme; the saved choice is what counts.
  it('keeps a theme chosen in Settings when the system theme changes later', async () => {
    const system = systemColourScheme();
    mockCommands({ ...ready, ...startsAs('login', serviceUser(), [balance()]), ...home });
    const page = renderPage(<App />);
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Settings' }));
    await page.user.click(screen.getByRole('button', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    await page.user.click(screen.getByRole('button', { name: 'Wallet' }));
    await tick();

    system.change(false);

    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('opens the send page filled in when an application sends, once per request, and tells it when the person cancels', async () => {
    const requests = sendRequests();
    const ipc = mockCommands({
      ...ready,
      ...startsAs('login', serviceUser(), [balance()]),
      ...home,
      watchSendRequests: requests.watchSendRequests,
      getAppInfo: () => appInfo(),
      checkAddress: () => ({ address: RECIPIENT, isSelf: false }),
      prepareSend: () => sendQuote(),
      cancelSend: () => null,
    });
    const page = renderPage(<App />, { strict: true });
    await tick();
    expect(ipc.count('watchSendRequests')).toBe(1);

    await requests.request({ id: 1, account: { network: 'ethereum', address: ADDRESS }, to: RECIPIENT, amount: '0.1' });
    await tick(250);
    await tick(400);
    expect(screen.getByRole('heading', { name: 'Send ETH', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.getByTestId('send-to')).toHaveValue(RECIPIENT);
    expect(screen.getByTestId('send-amount')).toHaveValue('0.1');
    expect(ipc.argsOf('prepareSend')).toStrictEqual([{ form: { account: { network: 'ethereum', address: ADDRESS }, to: RECIPIENT, amount: '0.1' } }]);

    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    await tick();
    expect(ipc.argsOf('cancelSend')).toStrictEqual([{ requestId: 1 }]);
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();

    // The same request again (the watch repeats the latest) is not opened twice.
    await requests.request({ id: 1, account: { network: 'ethereum', address: ADDRESS }, to: RECIPIENT, amount: '0.1' });
    await tick();
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(screen.queryByTestId('send-to')).not.toBeInTheDocument();
    expect(ipc.count('watchSendRequests')).toBe(1);

    // A new one opens, for a token too; from the NFTs tab as well.
    await page.user.click(screen.getByRole('button', { name: 'NFTs' }));
    await tick();
    await requests.request({ id: 2, account: { network: 'ethereum', address: ADDRESS, contract: RECIPIENT, isAA: false } });
    await tick();
    expect(screen.getByTestId('send-to')).toHaveValue('');
    expect(screen.getByTestId('send-amount')).toHaveValue('');
    await page.user.keyboard('{Escape}');
    expect(ipc.argsOf('cancelSend')).toStrictEqual([{ requestId: 1 }, { requestId: 2 }]);
  });

  it('opens the send page from a wallet row, and goes to the activity once sent', async () => {
    const ipc = mockCommands({
      ...ready,
      ...startsAs('login', serviceUser(), [balance()]),
      ...home,
      getAppInfo: () => appInfo({ networks: [{ name: 'ethereum', chainId: 1, symbol: 'ETH', decimals: 18, iconUrl: '' }] }),
      checkAddress: () => ({ address: RECIPIENT, isSelf: false }),
      prepareSend: () => sendQuote({ network: 'ethereum', chainId: 1 }),
      getPinStatus: () => pinStatus(),
      confirmSend: () => activityEntry({ network: 'ethereum' }),
      getActivity: () => [activityEntry({ network: 'ethereum' })],
    });
    const page = renderPage(<App />);
    await tick();

    await page.user.click(screen.getByRole('button', { name: 'Send ETH' }));
    await tick();
    expect(screen.getByTestId('send-balance')).toHaveTextContent('1,250.5 ETH');
    await page.user.type(screen.getByTestId('send-to'), RECIPIENT);
    await tick(250);
    await page.user.type(screen.getByTestId('send-amount'), '0.1');
    await tick(400);
    await page.user.click(screen.getByTestId('send-review'));
    await page.user.type(screen.getByTestId('send-pin'), '246810{Enter}');
    await tick();
    expect(ipc.argsOf('confirmSend')).toStrictEqual([{ confirm: { quoteId: 'q-1', speed: 'normal', pin: '246810', acceptHighFee: false } }]);

    await page.user.click(screen.getByRole('button', { name: 'View activity' }));
    await tick();
    expect(screen.getByRole('heading', { name: 'Activity' })).toHaveFocus();
    expect(screen.getByTestId('activity-row')).toHaveAttribute('data-status', 'pending');
    expect(ipc.count('cancelSend')).toBe(0);
  });
});

describe('App: every way in', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('logs in through a provider in the browser, once under StrictMode, and goes on to the wallet', async () => {
    const answer = deferred<ExternalLoginOutcome>();
    const ipc = mockCommands({
      ...ready,
      ...startsAs('before_login'),
      getLoginOptions: () => loginOptions({ oauth: ['google', 'apple'] }),
      loginWithOauthProvider: () => answer.promise,
      ...home,
    });
    const page = renderPage(<App />, { strict: true });
    await tick();

    await page.user.click(screen.getByTestId('login-provider-google'));
    await tick();
    expect(screen.getByRole('heading', { name: 'Continue in your browser' })).toBeInTheDocument();
    expect(ipc.argsOf('loginWithOauthProvider')).toEqual([{ provider: 'google', withLogout: true }]);

    answer.resolve({ user: serviceUser({ userInfo: { userId: 'u-2', email: 'ada@gmail.com', provider: 'google', use2FA: false } }) });
    await tick();
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(screen.getByText('ada@gmail.com')).toBeInTheDocument();
    expect(ipc.count('loginWithOauthProvider')).toBe(1);
    expect(ipc.count('watchRegisterEmailRequests')).toBe(1);
  });

  it('goes to the register page after a browser login of an account with no wallet yet', async () => {
    mockCommands({
      ...ready,
      ...startsAs('before_login'),
      getLoginOptions: () => loginOptions({ oauth: ['line'] }),
      loginWithOauthProvider: () => ({ user: serviceUser({ userStatus: { loginStatus: 'registerRequired' } }) }),
    });
    const page = renderPage(<App />);
    await tick();

    await page.user.click(screen.getByTestId('login-provider-line'));
    await tick();
    expect(screen.getByRole('heading', { name: 'Protect your wallet' })).toBeInTheDocument();
  });

  it('cancels a browser login from its page and comes back to the login page without an error', async () => {
    const answer = deferred<ExternalLoginOutcome>();
    const ipc = mockCommands({
      ...ready,
      ...startsAs('before_login'),
      getLoginOptions: () => loginOptions({ oauth: ['google'] }),
      loginWithOauthProvider: () => answer.promise,
      cancelOauth: () => {
        answer.reject({ code: 'User canceled', message: 'cancelled' });
        return null;
      },
    });
    const page = renderPage(<App />);
    await tick();

    await page.user.click(screen.getByTestId('login-provider-google'));
    await tick();
    await page.user.click(screen.getByTestId('oauth-cancel'));
    await tick();

    expect(ipc.count('cancelOauth')).toBe(1);
    expect(screen.getByTestId('login-provider-google')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('comes back to the login page with a failed browser login shown under the buttons', async () => {
    mockCommands({
      ...ready,
      ...startsAs('before_login'),
      getLoginOptions: () => loginOptions({ oauth: ['facebook'] }),
      loginWithOauthProvider: () => fail('Internal error', 'the provider answered 500'),
    });
    const page = renderPage(<App />);
    await tick();

    await page.user.click(screen.getByTestId('login-provider-facebook'));
    await tick();

    expect(screen.getByTestId('login-provider-facebook')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The login did not finish: the provider answered 500');
  });

  it('asks for an e-mail when the provider gave none, and logs in once it is verified', async () => {
    let verified = false;
    const ipc = mockCommands({
      ...ready,
      ...startsAs('before_login'),
      getLoginOptions: () => loginOptions({ oauth: ['naver'] }),
      loginWithOauthProvider: () => ({ registerEmail: { provider: 'naver' } }),
      sendVerifyEmail: () => true,
      resumeLogin: () => (verified ? serviceUser() : fail('RequiredEmailVerified', 'verify first')),
      ...home,
    });
    const page = renderPage(<App />);
    await tick();

    await page.user.click(screen.getByTestId('login-provider-naver'));
    await tick();
    expect(screen.getByRole('heading', { name: 'Add your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/^NAVER did not share an e-mail address\./)).toBeInTheDocument();

    await page.user.type(screen.getByTestId('register-email-input'), 'ada@example.com{Enter}');
    await tick();
    expect(ipc.argsOf('sendVerifyEmail')).toEqual([{ email: 'ada@example.com' }]);
    await page.user.click(screen.getByTestId('register-email-continue'));
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('Not verified yet: open the link in the e-mail first.');

    verified = true;
    await page.user.click(screen.getByTestId('register-email-continue'));
    await tick();
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
  });

  it("opens the register-e-mail page when an application calls registerUserEmail, and Esc goes back to the login page", async () => {
    const requests = registerEmailRequests();
    const ipc = mockCommands({
      ...ready,
      ...startsAs('before_login'),
      watchRegisterEmailRequests: requests.watchRegisterEmailRequests,
    });
    const page = renderPage(<App />);
    await tick();
    expect(ipc.argsOf('watchRegisterEmailRequests')).toEqual([{ onEvent: expect.any(Channel) }]);

    await requests.request({ provider: 'external_token' });
    expect(screen.getByRole('heading', { name: 'Add your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/^Your login did not share an e-mail address\./)).toBeInTheDocument();

    await page.user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});

describe('The window closed and opened again', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('goes back to the wallet, read again, when the window closes, and reads it again when it shows', async () => {
    const closes = watched<number>();
    const ipc = mockCommands({ ...ready, ...startsAs('login', serviceUser(), [balance()]), ...home, getStatus: () => 'login', watchClosed: closes.handler });
    const page = renderPage(<App />);
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'NFTs' }));
    await tick();
    expect(screen.getByRole('heading', { name: 'NFTs' })).toBeInTheDocument();
    const read = ipc.count('getBalance');

    // The person closes the window: it is kept, hidden, on the wallet's first page.
    await closes.send(1);
    await tick();
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(ipc.count('getBalance')).toBe(read + 1);

    // Shown again: what is stored, read again at once.
    await act(async () => document.dispatchEvent(new Event('visibilitychange')));
    await tick();
    expect(ipc.count('getBalance')).toBe(read + 2);
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
  });
});

describe("The application's language", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
  });

  it('changeLanguage switches the pages; a default does not override what the person chose', async () => {
    const language = watched<LanguageRequest>();
    mockCommands({ ...ready, ...startsAs('before_login'), watchLanguage: language.handler });
    renderPage(<App />);
    await tick();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();

    await language.send({ language: 'ko', asDefault: true });
    await tick();
    expect(document.documentElement.lang).toBe('ko');
    await language.send({ language: 'ja', asDefault: true });
    await tick();
    expect(document.documentElement.lang).toBe('ko');
    await language.send({ language: 'en', asDefault: false });
    await tick();
    expect(document.documentElement.lang).toBe('en');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});

/** A prefers-color-scheme the test can switch, with the change event pages listen to. */
function systemColourScheme() {
  const listeners = new Set<() => void>();
  let dark = true;
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        get matches() {
          return dark;
        },
        media: query,
        onchange: null,
        addEventListener: (_: string, listener: () => void) => listeners.add(listener),
        removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList,
  );
  return {
    change(next: boolean) {
      dark = next;
      act(() => listeners.forEach((listener) => listener()));
    },
  };
}
