import { cleanup, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Login } from './Login';
import type { AppError } from '../../api';
import { deferred, fail, loginOptions, mockCommands, renderPage, serviceUser, tick } from '../../test/harness';

/** The login page once the app has said which ways in it offers. */
async function renderLogin(initialEmail = '', notice: AppError | null = null) {
  const props = { onLoggedIn: vi.fn(), onOAuth: vi.fn(), onCreateAccount: vi.fn(), onVerifyEmail: vi.fn(), onForgotPassword: vi.fn() };
  const page = { ...props, ...renderPage(<Login initialEmail={initialEmail} notice={notice} {...props} />) };
  await tick();
  return page;
}

/** The commands of the e-mail login, with the e-mail form the only way in. */
const emailOnly = { getLoginOptions: () => loginOptions() };

describe('Login', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('submits the e-mail and password when Enter is pressed in the password field', async () => {
    const user = serviceUser();
    const ipc = mockCommands({ ...emailOnly, loginWithEmailAndPassword: () => user });
    const page = await renderLogin();

    await page.user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await page.user.type(screen.getByLabelText('Password'), 'correct horse 1{Enter}');
    await tick();

    expect(ipc.argsOf('loginWithEmailAndPassword')).toEqual([{ email: 'ada@example.com', password: 'correct horse 1' }]);
    expect(page.onLoggedIn).toHaveBeenCalledWith(user);
  });

  it('keeps Log in disabled until both fields are filled, and shows that it is working while the request runs', async () => {
    const answer = deferred<ReturnType<typeof serviceUser>>();
    mockCommands({ ...emailOnly, loginWithEmailAndPassword: () => answer.promise });
    const page = await renderLogin('ada@example.com');

    expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled();
    await page.user.type(screen.getByLabelText('Password'), 'pw12345678');
    await page.user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(screen.getByRole('button', { name: 'Logging in…' })).toBeDisabled();
    answer.resolve(serviceUser());
    await tick();
    expect(page.onLoggedIn).toHaveBeenCalledTimes(1);
  });

  it('shows a wrong password in words from the locale file, not the error code', async () => {
    mockCommands({ ...emailOnly, loginWithEmailAndPassword: () => fail('FailedLogin', 'invalid credentials') });
    const page = await renderLogin('ada@example.com');

    await page.user.type(screen.getByLabelText('Password'), 'wrong-pass1{Enter}');
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The e-mail or password is wrong.');
    expect(alert).not.toHaveTextContent('FailedLogin');
    expect(page.onLoggedIn).not.toHaveBeenCalled();
    // The person can correct the password and try again.
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
  });

  it('sends an unverified e-mail address to the verification page instead of showing an error', async () => {
    mockCommands({ ...emailOnly, loginWithEmailAndPassword: () => fail('RequiredEmailVerified', 'verify first') });
    const page = await renderLogin();

    await page.user.type(screen.getByLabelText('E-mail'), 'new@example.com');
    await page.user.type(screen.getByLabelText('Password'), 'secret123{Enter}');
    await tick();

    expect(page.onVerifyEmail).toHaveBeenCalledWith('new@example.com');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/RequiredEmailVerified/)).not.toBeInTheDocument();
  });

  it('shows a malformed e-mail address under the e-mail field in words', async () => {
    mockCommands({ ...emailOnly, loginWithEmailAndPassword: () => fail('IncorrectEmailForm', 'bad e-mail') });
    const page = await renderLogin('not-an-address');

    await page.user.type(screen.getByLabelText('Password'), 'secret123{Enter}');
    await tick();

    expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(screen.queryByText(/IncorrectEmailForm/)).not.toBeInTheDocument();
  });

  it('shows an error it has no words for with the service message, not only a code', async () => {
    mockCommands({ ...emailOnly, loginWithEmailAndPassword: () => fail('UnknownError', 'the service is down') });
    const page = await renderLogin('ada@example.com');

    await page.user.type(screen.getByLabelText('Password'), 'secret123{Enter}');
    await tick();

    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong: the service is down');
  });

  it('opens "Forgot password?" with the address typed so far, without logging in', async () => {
    const ipc = mockCommands(emailOnly);
    const page = await renderLogin();

    await page.user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await page.user.click(screen.getByRole('button', { name: 'Forgot password?' }));

    expect(page.onForgotPassword).toHaveBeenCalledWith('ada@example.com');
    expect(ipc.calls.map((c) => c.cmd)).toEqual(['getLoginOptions']);
  });

  it('opens the sign-up page from "Create an account" without logging in', async () => {
    const ipc = mockCommands(emailOnly);
    const page = await renderLogin();

    await page.user.click(screen.getByRole('button', { name: 'Create an account' }));

    expect(page.onCreateAccount).toHaveBeenCalledTimes(1);
    expect(ipc.calls.map((c) => c.cmd)).toEqual(['getLoginOptions']);
  });
  it('shows a button per provider the app allows, in its order, with "or" before the e-mail form', async () => {
    mockCommands({ getLoginOptions: () => loginOptions({ oauth: ['naver', 'google', 'line'] }) });
    await renderLogin();

    const buttons = within(screen.getByRole('group', { name: 'Ways to log in' })).getAllByRole('button');
    expect(buttons).toHaveLength(3);
    ['Continue with NAVER', 'Continue with Google', 'Continue with LINE'].forEach((name, i) => expect(buttons[i]).toHaveAccessibleName(name));
    expect(buttons.map((b) => b.dataset.testid)).toEqual(['login-provider-naver', 'login-provider-google', 'login-provider-line']);
    expect(screen.queryByTestId('login-provider-apple')).not.toBeInTheDocument();
    expect(screen.getByText('or')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create an account' })).toBeInTheDocument();
  });

  it('shows no provider buttons and no "or" when the app allows none', async () => {
    mockCommands(emailOnly);
    await renderLogin();

    expect(screen.queryByRole('group', { name: 'Ways to log in' })).not.toBeInTheDocument();
    expect(screen.queryByTestId(/^login-provider-/)).not.toBeInTheDocument();
    expect(screen.queryByText('or')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });

  it('hides the e-mail form, "Forgot password?" and "Create an account" when the app turned e-mail off', async () => {
    mockCommands({ getLoginOptions: () => loginOptions({ oauth: ['google', 'apple'], email: false }) });
    await renderLogin();

    expect(screen.getByTestId('login-provider-google')).toHaveTextContent('Continue with Google');
    expect(screen.getByTestId('login-provider-apple')).toHaveTextContent('Continue with Apple');
    expect(screen.queryByLabelText('E-mail')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create an account' })).not.toBeInTheDocument();
    expect(screen.queryByText('or')).not.toBeInTheDocument();
  });

  it('goes on to the browser login with the provider clicked, without calling anything itself', async () => {
    const ipc = mockCommands({ getLoginOptions: () => loginOptions({ oauth: ['google', 'discord'] }) });
    const page = await renderLogin();

    await page.user.click(screen.getByTestId('login-provider-discord'));

    expect(page.onOAuth).toHaveBeenCalledWith('discord');
    expect(ipc.calls.map((c) => c.cmd)).toEqual(['getLoginOptions']);
  });

  it('fills in the address the application gave, unless one is given already', async () => {
    mockCommands({ getLoginOptions: () => loginOptions({ prefillEmail: 'app@example.com' }) });
    await renderLogin();
    expect(screen.getByLabelText('E-mail')).toHaveValue('app@example.com');
    cleanup();

    await renderLogin('typed@example.com');
    expect(screen.getByLabelText('E-mail')).toHaveValue('typed@example.com');
  });

  it('shows that it is loading the ways in, then, when they cannot be loaded, what happened and a retry', async () => {
    const answer = deferred<ReturnType<typeof loginOptions>>();
    let tries = 0;
    const ipc = mockCommands({
      getLoginOptions: () => {
        tries += 1;
        return tries === 1 ? answer.promise : loginOptions({ oauth: ['google'] });
      },
    });
    const page = renderPage(<Login initialEmail="" onLoggedIn={vi.fn()} onOAuth={vi.fn()} onCreateAccount={vi.fn()} onVerifyEmail={vi.fn()} onForgotPassword={vi.fn()} />);

    expect(screen.getByLabelText('Loading…')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByLabelText('E-mail')).not.toBeInTheDocument();
    answer.reject({ code: 'NotConnectedInternet', message: 'offline' });
    await tick();

    expect(screen.getByRole('alert')).toHaveTextContent('Satchel cannot reach its service. Check the connection and try again.');
    await page.user.click(screen.getByRole('button', { name: 'Try again' }));
    await tick();

    expect(ipc.count('getLoginOptions')).toBe(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByTestId('login-provider-google')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toBeInTheDocument();
  });

  it('shows how a browser login failed under the provider buttons, in words', async () => {
    mockCommands({ getLoginOptions: () => loginOptions({ oauth: ['google'] }) });
    await renderLogin('', { code: 'Invalid provider', message: 'provider not allowed' });

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('This app does not offer that way to log in.');
    expect(alert).not.toHaveTextContent('Invalid provider');
    // Under the buttons, before the e-mail form.
    expect(screen.getByTestId('login-provider-google').compareDocumentPosition(alert)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    expect(alert.compareDocumentPosition(screen.getByLabelText('E-mail'))).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
  });

  it("shows the service's message for an internal error of a browser login", async () => {
    mockCommands({ getLoginOptions: () => loginOptions({ oauth: ['google'] }) });
    await renderLogin('', { code: 'Internal error', message: 'the provider answered 500' });

    expect(screen.getByTestId('login-oauth-error')).toHaveTextContent('The login did not finish: the provider answered 500');
  });

  it('notes mildly, not as an error, that a browser login was cancelled because it took too long', async () => {
    mockCommands({ getLoginOptions: () => loginOptions({ oauth: ['google'] }) });
    await renderLogin('', { code: 'User canceled', message: 'login timed out' });

    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Login cancelled: it took too long in the browser. Try again.');
  });
});
