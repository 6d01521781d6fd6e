import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RegisterEmailProvider } from '../../api';
import { RegisterEmail } from './RegisterEmail';
import { deferred, fail, mockCommands, renderPage, seconds, serviceUser, tick } from '../../test/harness';

function renderRegister(provider: RegisterEmailProvider = 'naver') {
  const props = { onLoggedIn: vi.fn(), onBack: vi.fn() };
  return { ...props, ...renderPage(<RegisterEmail provider={provider} {...props} />) };
}

/** Types `email` and sends the link with Enter. */
async function sendLink(page: ReturnType<typeof renderRegister>, email = 'ada@example.com') {
  await page.user.type(screen.getByTestId('register-email-input'), `${email}{Enter}`);
  await tick();
}

describe('RegisterEmail', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('says why an e-mail is needed, naming the provider', () => {
    mockCommands({});
    renderRegister('naver');

    expect(screen.getByRole('heading', { name: 'Add your e-mail' })).toBeInTheDocument();
    expect(
      screen.getByText('NAVER did not share an e-mail address. Add one to finish; we send a link to prove it is yours.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('register-email-input')).toHaveFocus();
    expect(screen.getByTestId('register-email-send')).toBeDisabled();
  });

  it('says why without a provider name after an application token login', () => {
    mockCommands({});
    renderRegister('external_token');

    expect(screen.getByText(/^Your login did not share an e-mail address\./)).toBeInTheDocument();
  });

  it('sends the link to the address typed, then says to check the e-mail, with the resend cooldown', async () => {
    const ipc = mockCommands({ sendVerifyEmail: () => true });
    const page = renderRegister();

    await sendLink(page, ' ada@example.com ');

    expect(ipc.argsOf('sendVerifyEmail')).toEqual([{ email: 'ada@example.com' }]);
    expect(screen.getByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
    expect(screen.getByTestId('register-email-sent')).toHaveTextContent('We sent a link to ada@example.com.');
    expect(screen.getByTestId('register-email-resend')).toHaveTextContent('Send again in 60 s');
    expect(screen.getByTestId('register-email-resend')).toBeDisabled();
    await seconds(60);
    expect(screen.getByTestId('register-email-resend')).toHaveTextContent('Send the e-mail again');

    await page.user.click(screen.getByTestId('register-email-resend'));
    await tick();
    expect(ipc.argsOf('sendVerifyEmail')).toEqual([{ email: 'ada@example.com' }, { email: 'ada@example.com' }]);
    expect(screen.getByText('Sent. Look in your inbox.')).toBeInTheDocument();
    expect(screen.getByTestId('register-email-resend')).toHaveTextContent('Send again in 60 s');
  });

  it.each([
    ['IncorrectEmailForm', 'Enter a valid e-mail address.'],
    ['InvalidEmailDomain', 'This app does not accept e-mail addresses at that domain.'],
  ] as const)('shows %s under the field, in words, and stays on the form', async (code, words) => {
    mockCommands({ sendVerifyEmail: () => fail(code, 'email: refused') });
    const page = renderRegister();

    await sendLink(page, 'ada@blocked.example');

    const error = screen.getByTestId('register-email-error');
    expect(error).toHaveTextContent(words);
    expect(error).not.toHaveTextContent(code);
    expect(screen.getByTestId('register-email-input')).toHaveAttribute('aria-describedby', error.id);
    expect(error.id).not.toBe('');
    expect(screen.getByTestId('register-email-input')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByTestId('register-email-send')).toBeEnabled();
  });

  it.each([
    ['TooManyRequests', 'Too many tries. Wait a moment and try again.'],
    ['FailedSendEmail', 'We could not send the e-mail. Try again in a moment.'],
  ] as const)('shows %s as a banner', async (code, words) => {
    mockCommands({ sendVerifyEmail: () => fail(code, 'no') });
    const page = renderRegister();

    await sendLink(page);

    expect(screen.getByRole('alert')).toHaveTextContent(words);
    expect(screen.queryByTestId('register-email-error')).not.toBeInTheDocument();
  });

  it('shows that the link was not sent when the app says so', async () => {
    mockCommands({ sendVerifyEmail: () => false });
    const page = renderRegister();

    await sendLink(page);

    expect(screen.getByRole('alert')).toHaveTextContent('We could not send the e-mail. Try again in a moment.');
    expect(screen.getByRole('heading', { name: 'Add your e-mail' })).toBeInTheDocument();
  });

  it('says the address is not verified yet when the person continues too early, then logs in once it is', async () => {
    let verified = false;
    const user = serviceUser({ userStatus: { loginStatus: 'registerRequired' } });
    const ipc = mockCommands({
      sendVerifyEmail: () => true,
      resumeLogin: () => (verified ? user : fail('RequiredEmailVerified', 'verify first')),
    });
    const page = renderRegister();
    await sendLink(page);

    await page.user.click(screen.getByTestId('register-email-continue'));
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('Not verified yet: open the link in the e-mail first.');
    expect(screen.queryByText(/RequiredEmailVerified/)).not.toBeInTheDocument();
    expect(page.onLoggedIn).not.toHaveBeenCalled();

    verified = true;
    await page.user.click(screen.getByTestId('register-email-continue'));
    await tick();
    expect(ipc.count('resumeLogin')).toBe(2);
    expect(page.onLoggedIn).toHaveBeenCalledWith(user);
  });

  it('shows that it is checking while the login resumes', async () => {
    const answer = deferred<ReturnType<typeof serviceUser>>();
    mockCommands({ sendVerifyEmail: () => true, resumeLogin: () => answer.promise });
    const page = renderRegister();
    await sendLink(page);

    await page.user.click(screen.getByTestId('register-email-continue'));
    expect(screen.getByTestId('register-email-continue')).toHaveTextContent('Checking…');
    expect(screen.getByTestId('register-email-continue')).toBeDisabled();
    answer.resolve(serviceUser());
    await tick();
    expect(page.onLoggedIn).toHaveBeenCalledTimes(1);
  });

  it('shows a refused resume in words', async () => {
    mockCommands({ sendVerifyEmail: () => true, resumeLogin: () => fail('InvalidLoginSession', 'expired') });
    const page = renderRegister();
    await sendLink(page);

    await page.user.click(screen.getByTestId('register-email-continue'));
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('Your session has ended. Log in again.');
  });

  it('goes back to the field with the address, to send it elsewhere', async () => {
    mockCommands({ sendVerifyEmail: () => true, resumeLogin: () => fail('RequiredEmailVerified', 'verify first') });
    const page = renderRegister();
    await sendLink(page, 'ada@exmaple.com');
    await page.user.click(screen.getByTestId('register-email-continue'));
    await tick();

    await page.user.click(screen.getByTestId('register-email-change'));
    await tick();
    expect(screen.getByTestId('register-email-input')).toHaveValue('ada@exmaple.com');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('goes back to the login page from Back and Esc, on either step', async () => {
    mockCommands({ sendVerifyEmail: () => true });
    const page = renderRegister();
    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    expect(page.onBack).toHaveBeenCalledTimes(1);

    await sendLink(page);
    await page.user.keyboard('{Escape}');
    expect(page.onBack).toHaveBeenCalledTimes(2);
  });
});
