import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Login } from './Login';
import { deferred, fail, mockCommands, renderPage, serviceUser, tick } from '../test/harness';

function renderLogin(initialEmail = '') {
  const props = { onLoggedIn: vi.fn(), onCreateAccount: vi.fn(), onVerifyEmail: vi.fn(), onForgotPassword: vi.fn() };
  return { ...props, ...renderPage(<Login initialEmail={initialEmail} {...props} />) };
}

describe('Login', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('submits the e-mail and password when Enter is pressed in the password field', async () => {
    const user = serviceUser();
    const ipc = mockCommands({ loginWithEmailAndPassword: () => user });
    const page = renderLogin();

    await page.user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await page.user.type(screen.getByLabelText('Password'), 'correct horse 1{Enter}');
    await tick();

    expect(ipc.argsOf('loginWithEmailAndPassword')).toEqual([{ email: 'ada@example.com', password: 'correct horse 1' }]);
    expect(page.onLoggedIn).toHaveBeenCalledWith(user);
  });

  it('keeps Log in disabled until both fields are filled, and shows that it is working while the request runs', async () => {
    const answer = deferred<ReturnType<typeof serviceUser>>();
    mockCommands({ loginWithEmailAndPassword: () => answer.promise });
    const page = renderLogin('ada@example.com');

    expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled();
    await page.user.type(screen.getByLabelText('Password'), 'pw12345678');
    await page.user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(screen.getByRole('button', { name: 'Logging in…' })).toBeDisabled();
    answer.resolve(serviceUser());
    await tick();
    expect(page.onLoggedIn).toHaveBeenCalledTimes(1);
  });

  it('shows a wrong password in words from the locale file, not the error code', async () => {
    mockCommands({ loginWithEmailAndPassword: () => fail('FailedLogin', 'invalid credentials') });
    const page = renderLogin('ada@example.com');

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
    mockCommands({ loginWithEmailAndPassword: () => fail('RequiredEmailVerified', 'verify first') });
    const page = renderLogin();

    await page.user.type(screen.getByLabelText('E-mail'), 'new@example.com');
    await page.user.type(screen.getByLabelText('Password'), 'secret123{Enter}');
    await tick();

    expect(page.onVerifyEmail).toHaveBeenCalledWith('new@example.com');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/RequiredEmailVerified/)).not.toBeInTheDocument();
  });

  it('shows a malformed e-mail address under the e-mail field in words', async () => {
    mockCommands({ loginWithEmailAndPassword: () => fail('IncorrectEmailForm', 'bad e-mail') });
    const page = renderLogin('not-an-address');

    await page.user.type(screen.getByLabelText('Password'), 'secret123{Enter}');
    await tick();

    expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(screen.queryByText(/IncorrectEmailForm/)).not.toBeInTheDocument();
  });

  it('shows an error it has no words for with the service message, not only a code', async () => {
    mockCommands({ loginWithEmailAndPassword: () => fail('UnknownError', 'the service is down') });
    const page = renderLogin('ada@example.com');

    await page.user.type(screen.getByLabelText('Password'), 'secret123{Enter}');
    await tick();

    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong: the service is down');
  });

  it('opens "Forgot password?" with the address typed so far, without logging in', async () => {
    const ipc = mockCommands({});
    const page = renderLogin();

    await page.user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await page.user.click(screen.getByRole('button', { name: 'Forgot password?' }));

    expect(page.onForgotPassword).toHaveBeenCalledWith('ada@example.com');
    expect(ipc.calls).toEqual([]);
  });

  it('opens the sign-up page from "Create an account" without logging in', async () => {
    const ipc = mockCommands({});
    const page = renderLogin();

    await page.user.click(screen.getByRole('button', { name: 'Create an account' }));

    expect(page.onCreateAccount).toHaveBeenCalledTimes(1);
    expect(ipc.calls).toEqual([]);
  });
});
