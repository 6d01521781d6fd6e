import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExternalLoginOutcome } from '../../api';
import { OAuthWait } from './OAuthWait';
import { deferred, fail, mockCommands, renderPage, serviceUser, tick } from '../../test/harness';

function renderWait(provider: 'google' | 'naver' = 'google', { strict = false } = {}) {
  const props = { onLoggedIn: vi.fn(), onRegisterEmail: vi.fn(), onBack: vi.fn() };
  return { ...props, ...renderPage(<OAuthWait provider={provider} {...props} />, { strict }) };
}

/** `loginWithOauthProvider` waiting for the browser, and `cancelOauth` ending that
 * wait as the app does: the waiting login rejects `User canceled`. */
function browserLogin() {
  const answer = deferred<ExternalLoginOutcome>();
  const ipc = mockCommands({
    loginWithOauthProvider: () => answer.promise,
    cancelOauth: () => {
      answer.reject({ code: 'User canceled', message: 'the login was cancelled' });
      return null;
    },
  });
  return { answer, ipc };
}

describe('OAuthWait', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('starts the browser login once, also under StrictMode, and says to finish it there', async () => {
    const { ipc } = browserLogin();
    renderWait('naver', { strict: true });
    await tick();

    expect(ipc.argsOf('loginWithOauthProvider')).toEqual([{ provider: 'naver', withLogout: true }]);
    expect(screen.getByRole('heading', { name: 'Continue in your browser' })).toBeInTheDocument();
    expect(screen.getByText('We opened NAVER in your browser. Finish logging in there; this window continues by itself.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for NAVER…');
    expect(screen.getByTestId('oauth-cancel')).toBeEnabled();
  });

  it('goes on as after any login once the person is through in the browser', async () => {
    const { answer } = browserLogin();
    const page = renderWait();
    await tick();
    expect(page.onLoggedIn).not.toHaveBeenCalled();

    const user = serviceUser({ userInfo: { userId: 'u-2', email: 'ada@gmail.com', provider: 'google', use2FA: false } });
    answer.resolve({ user });
    await tick();

    expect(page.onLoggedIn).toHaveBeenCalledWith(user);
    expect(page.onRegisterEmail).not.toHaveBeenCalled();
    expect(page.onBack).not.toHaveBeenCalled();
  });

  it('goes on to add an e-mail when the account has none yet', async () => {
    const { answer } = browserLogin();
    const page = renderWait('naver');
    await tick();

    answer.resolve({ registerEmail: { provider: 'naver' } });
    await tick();

    expect(page.onRegisterEmail).toHaveBeenCalledWith('naver');
    expect(page.onLoggedIn).not.toHaveBeenCalled();
  });

  it('ends the wait from Cancel and goes back to the login page quietly, once', async () => {
    const { ipc } = browserLogin();
    const page = renderWait();
    await tick();

    await page.user.click(screen.getByTestId('oauth-cancel'));
    await tick();

    expect(ipc.count('cancelOauth')).toBe(1);
    expect(page.onBack).toHaveBeenCalledTimes(1);
    expect(page.onBack).toHaveBeenCalledWith();
    expect(page.onLoggedIn).not.toHaveBeenCalled();
  });

  it('ends the wait from Esc and from the back arrow too', async () => {
    const first = browserLogin();
    const page = renderWait();
    await tick();
    await page.user.keyboard('{Escape}');
    await tick();
    expect(first.ipc.count('cancelOauth')).toBe(1);
    expect(page.onBack).toHaveBeenCalledWith();
    page.unmount();

    const second = browserLogin();
    const again = renderWait();
    await tick();
    await again.user.click(screen.getByRole('button', { name: 'Back' }));
    await tick();
    expect(second.ipc.count('cancelOauth')).toBe(1);
    expect(again.onBack).toHaveBeenCalledWith();
  });

  it('shows that it is cancelling while the app takes the cancel', async () => {
    const answer = deferred<ExternalLoginOutcome>();
    const cancelled = deferred<null>();
    mockCommands({ loginWithOauthProvider: () => answer.promise, cancelOauth: () => cancelled.promise });
    const page = renderWait();
    await tick();

    await page.user.click(screen.getByTestId('oauth-cancel'));
    expect(screen.getByRole('status')).toHaveTextContent('Cancelling…');
    expect(screen.getByTestId('oauth-cancel')).toBeDisabled();
    expect(page.onBack).not.toHaveBeenCalled();

    cancelled.resolve(null);
    await tick();
    expect(page.onBack).toHaveBeenCalledWith();
  });

  it('goes back with a mild note when the browser login timed out', async () => {
    mockCommands({ loginWithOauthProvider: () => fail('User canceled', 'login timed out after 300 s') });
    const page = renderWait();
    await tick();

    expect(page.onBack).toHaveBeenCalledWith({ code: 'User canceled', message: 'login timed out after 300 s' });
  });

  it('goes back quietly when the login was cancelled some other way', async () => {
    mockCommands({ loginWithOauthProvider: () => fail('User canceled', 'cancelled') });
    const page = renderWait();
    await tick();

    expect(page.onBack).toHaveBeenCalledWith();
  });

  it.each(['Invalid provider', 'Internal error'] as const)('goes back with the error %s, for the login page to show', async (code) => {
    mockCommands({ loginWithOauthProvider: () => fail(code, 'what went wrong') });
    const page = renderWait();
    await tick();

    expect(page.onBack).toHaveBeenCalledWith({ code, message: 'what went wrong' });
    expect(page.onLoggedIn).not.toHaveBeenCalled();
  });

  it('routes nowhere once it is off the screen', async () => {
    const { answer } = browserLogin();
    const page = renderWait();
    await tick();
    page.unmount();

    answer.resolve({ user: serviceUser() });
    await tick();
    expect(page.onLoggedIn).not.toHaveBeenCalled();
  });
});
