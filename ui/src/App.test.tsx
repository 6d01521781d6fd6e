import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import type { ServiceLifeCycle } from './api';
import ko from './locales/ko.json';
import { balance, fail, mockCommands, renderPage, serviceUser, tick, type Handler } from './test/harness';

/** getStatus answers `statuses` in turn, then keeps the last. */
function lifeCycle(...statuses: ServiceLifeCycle[]): Handler {
  let i = 0;
  return () => statuses[Math.min(i++, statuses.length - 1)];
}

const home = {
  getRefreshWait: () => ({ balances: 30, nfts: 30 }),
  getBalance: () => [balance()],
  getNFTs: () => [],
};

describe('App routing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('waits while the app initialises, then shows the wallet of the person logged in', async () => {
    const ipc = mockCommands({
      getStatus: lifeCycle('initializing', 'initializing', 'login'),
      getCurrentServiceUser: () => serviceUser(),
      ...home,
    });
    renderPage(<App />);
    await tick();
    expect(screen.getByText('Starting Satchel…')).toBeInTheDocument();
    await tick(100);
    expect(screen.getByText('Starting Satchel…')).toBeInTheDocument();
    await tick(100);
    await tick();

    expect(ipc.count('getStatus')).toBe(3);
    expect(screen.getByRole('heading', { name: 'Wallet' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Wallet' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
  });

  it('shows the register page when the person is logged in but has no wallet yet', async () => {
    mockCommands({
      getStatus: lifeCycle('login_before_register'),
      getCurrentServiceUser: () => serviceUser({ userStatus: { loginStatus: 'registerRequired' } }),
    });
    renderPage(<App />);
    await tick();

    expect(screen.getByRole('heading', { name: 'Protect your wallet' })).toBeInTheDocument();
    expect(screen.getByLabelText('Choose a 6-digit PIN')).toBeInTheDocument();
  });

  it.each<ServiceLifeCycle>(['before_login', 'initialized'])('shows the login page when the status is %s', async (status) => {
    mockCommands({ getStatus: lifeCycle(status), getCurrentServiceUser: () => null });
    renderPage(<App />);
    await tick();

    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('logs in to the wallet, or to the register page when the account has no wallet yet', async () => {
    let user = serviceUser();
    mockCommands({
      getStatus: lifeCycle('before_login'),
      getCurrentServiceUser: () => null,
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
      getStatus: lifeCycle('before_login'),
      getCurrentServiceUser: () => null,
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

  it('opens the sign-up page from "Create an account", and Escape goes back to the login page', async () => {
    mockCommands({ getStatus: lifeCycle('before_login'), getCurrentServiceUser: () => null });
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
    mockCommands({ getStatus: lifeCycle('login'), getCurrentServiceUser: () => serviceUser(), ...home });
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
      getStatus: lifeCycle('login'),
      getCurrentServiceUser: () => serviceUser(),
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
    mockCommands({ getStatus: lifeCycle('login'), getCurrentServiceUser: () => serviceUser(), ...home });
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
