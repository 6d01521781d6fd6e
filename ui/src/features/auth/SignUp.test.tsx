import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SignUp } from './SignUp';
import { fail, mockCommands, renderPage, serviceUser, tick } from '../../test/harness';

function renderSignUp() {
  const props = { onVerificationSent: vi.fn(), onSignedIn: vi.fn(), onBack: vi.fn() };
  return { ...props, ...renderPage(<SignUp {...props} />) };
}

/** The rules list items, by their text, and whether each shows as met. */
function rules() {
  const met = (text: string) => screen.getByText(text).closest('li')?.classList.contains('ok') ?? false;
  return { length: met('8 to 128 characters'), letter: met('A letter'), digit: met('A digit') };
}

async function fillForm(page: ReturnType<typeof renderSignUp>, email: string, password: string, confirm = password) {
  await page.user.type(screen.getByLabelText('E-mail'), email);
  await page.user.type(screen.getByLabelText('Password'), password);
  await page.user.type(screen.getByLabelText('Confirm password'), confirm);
}

describe('SignUp', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('marks each password rule as met or unmet as the person types', async () => {
    mockCommands({});
    const page = renderSignUp();
    const password = screen.getByLabelText('Password');

    expect(rules()).toEqual({ length: false, letter: false, digit: false });
    await page.user.type(password, 'abc');
    expect(rules()).toEqual({ length: false, letter: true, digit: false });
    // A screen reader hears the state, not only a colour.
    expect(screen.getByText('A letter').closest('li')).toHaveTextContent('Met: A letter');
    expect(screen.getByText('A digit').closest('li')).toHaveTextContent('Not yet: A digit');
    await page.user.type(password, '1');
    expect(rules()).toEqual({ length: false, letter: true, digit: true });
    await page.user.type(password, 'defg');
    expect(rules()).toEqual({ length: true, letter: true, digit: true });
    // Taking the digit away unmeets its rule again.
    await page.user.type(password, '{Backspace}'.repeat(5));
    expect(rules()).toEqual({ length: false, letter: true, digit: false });
  });

  it('takes a password in any script: a Korean one meets every rule and can be sent', async () => {
    const ipc = mockCommands({ signUpWithEmailAndPassword: () => ({ verificationSent: true }) });
    const page = renderSignUp();
    await fillForm(page, 'ada@example.com', '비밀번호비밀번호1');

    expect(rules()).toEqual({ length: true, letter: true, digit: true });
    await page.user.click(screen.getByRole('button', { name: 'Create account' }));
    await tick();
    expect(ipc.argsOf('signUpWithEmailAndPassword')).toEqual([{ email: 'ada@example.com', password: '비밀번호비밀번호1' }]);
  });

  it('says when the confirmation differs from the password and keeps Create account disabled until they match', async () => {
    mockCommands({});
    const page = renderSignUp();
    await fillForm(page, 'ada@example.com', 'abcdefg1', 'abcdefg2');

    expect(screen.getByText('The passwords are not the same.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create account' })).toBeDisabled();

    await page.user.type(screen.getByLabelText('Confirm password'), '{Backspace}1');
    expect(screen.queryByText('The passwords are not the same.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled();
  });

  it('keeps Create account disabled while a password rule is unmet, even when both fields match', async () => {
    mockCommands({});
    const page = renderSignUp();
    await fillForm(page, 'ada@example.com', '12345678');

    expect(screen.getByRole('button', { name: 'Create account' })).toBeDisabled();
  });

  it('sends the sign-up and moves on to "check your e-mail" when a verification e-mail went out', async () => {
    const ipc = mockCommands({ signUpWithEmailAndPassword: () => ({ verificationSent: true }) });
    const page = renderSignUp();
    await fillForm(page, 'ada@example.com', 'abcdefg1');
    await page.user.click(screen.getByRole('button', { name: 'Create account' }));
    await tick();

    expect(ipc.argsOf('signUpWithEmailAndPassword')).toEqual([{ email: 'ada@example.com', password: 'abcdefg1' }]);
    expect(page.onVerificationSent).toHaveBeenCalledWith('ada@example.com');
    expect(page.onSignedIn).not.toHaveBeenCalled();
  });

  it('signs the person in at once when the app asks for no verification', async () => {
    const user = serviceUser({ userStatus: { loginStatus: 'registerRequired' } });
    mockCommands({ signUpWithEmailAndPassword: () => ({ verificationSent: false, user }) });
    const page = renderSignUp();
    await fillForm(page, 'ada@example.com', 'abcdefg1');
    await page.user.click(screen.getByRole('button', { name: 'Create account' }));
    await tick();

    expect(page.onSignedIn).toHaveBeenCalledWith(user);
    expect(page.onVerificationSent).not.toHaveBeenCalled();
  });

  it('shows a malformed e-mail address in words', async () => {
    mockCommands({ signUpWithEmailAndPassword: () => fail('IncorrectEmailForm', 'email: bad form') });
    const page = renderSignUp();
    await fillForm(page, 'ada@@example', 'abcdefg1');
    await page.user.click(screen.getByRole('button', { name: 'Create account' }));
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Enter a valid e-mail address.');
    expect(alert).not.toHaveTextContent('IncorrectEmailForm');
    expect(page.onVerificationSent).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled();
  });

  it('tells the person an e-mail address already has an account', async () => {
    // The SDK turns the service's ExistedEmail into the login library's
    // `auth/existed-email` (crates/sdk/src/login.rs), which is what this page gets.
    mockCommands({ signUpWithEmailAndPassword: () => fail('auth/existed-email', 'exists') });
    const page = renderSignUp();
    await fillForm(page, 'ada@example.com', 'abcdefg1');
    await page.user.click(screen.getByRole('button', { name: 'Create account' }));
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('This e-mail address already has an account. Log in instead.');
    expect(alert).not.toHaveTextContent('auth/existed-email');
  });

  it('goes back to the login page from "I have an account"', async () => {
    mockCommands({});
    const page = renderSignUp();
    await page.user.click(screen.getByRole('button', { name: 'I have an account' }));
    expect(page.onBack).toHaveBeenCalledTimes(1);
  });
});
