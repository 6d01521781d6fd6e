import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ForgotPassword } from './ForgotPassword';
import { deferred, fail, mockCommands, renderPage, seconds, tick } from '../../test/harness';

function renderForgot(initialEmail = 'ada@example.com') {
  const props = { onBack: vi.fn() };
  return { ...props, ...renderPage(<ForgotPassword initialEmail={initialEmail} {...props} />) };
}

describe('ForgotPassword', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('starts with the address from the login form and sends the link to it', async () => {
    const ipc = mockCommands({ sendPasswordResetEmail: () => null });
    const page = renderForgot('ada@example.com');

    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@example.com');
    await page.user.click(screen.getByRole('button', { name: 'Send the link' }));
    await tick();

    expect(ipc.argsOf('sendPasswordResetEmail')).toEqual([{ email: 'ada@example.com' }]);
    expect(screen.getByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/If ada@example\.com has an account, we sent it a link/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps Send disabled without an address, and shows that it is working while the request runs', async () => {
    const answer = deferred<null>();
    mockCommands({ sendPasswordResetEmail: () => answer.promise });
    const page = renderForgot('');

    expect(screen.getByRole('button', { name: 'Send the link' })).toBeDisabled();
    await page.user.type(screen.getByLabelText('E-mail'), 'bob@example.com{Enter}');

    expect(screen.getByRole('button', { name: 'Sending…' })).toBeDisabled();
    answer.resolve(null);
    await tick();
    expect(screen.getByText(/If bob@example\.com has an account/)).toBeInTheDocument();
  });

  it('lets the e-mail be sent again only after a 60-second countdown, which starts over after a resend', async () => {
    const ipc = mockCommands({ sendPasswordResetEmail: () => null });
    const page = renderForgot();
    await page.user.click(screen.getByRole('button', { name: 'Send the link' }));
    await tick();

    expect(screen.getByRole('button', { name: 'Send again in 60 s' })).toBeDisabled();
    await seconds(59);
    expect(screen.getByRole('button', { name: 'Send again in 1 s' })).toBeDisabled();
    await seconds(1);
    await page.user.click(screen.getByRole('button', { name: 'Send the e-mail again' }));
    await tick();

    expect(ipc.argsOf('sendPasswordResetEmail')).toEqual([{ email: 'ada@example.com' }, { email: 'ada@example.com' }]);
    expect(screen.getByText('Sent. Look in your inbox.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send again in 60 s' })).toBeDisabled();
  });

  it('shows a malformed address under the field in words, and stays on the form', async () => {
    mockCommands({ sendPasswordResetEmail: () => fail('IncorrectEmailForm', 'bad e-mail') });
    const page = renderForgot('not-an-address');

    await page.user.click(screen.getByRole('button', { name: 'Send the link' }));
    await tick();

    expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(screen.queryByText(/IncorrectEmailForm/)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
  });

  it('shows a rate limit in words and lets the person try again', async () => {
    let tries = 0;
    const ipc = mockCommands({
      sendPasswordResetEmail: () => {
        tries += 1;
        return tries === 1 ? fail('TooManyRequests', 'slow down') : null;
      },
    });
    const page = renderForgot();

    await page.user.click(screen.getByRole('button', { name: 'Send the link' }));
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('Too many tries. Wait a moment and try again.');

    await page.user.click(screen.getByRole('button', { name: 'Send the link' }));
    await tick();
    expect(ipc.count('sendPasswordResetEmail')).toBe(2);
    expect(screen.getByRole('heading', { name: 'Check your e-mail' })).toBeInTheDocument();
  });

  it('goes back to the login with the address, from the form and after sending', async () => {
    mockCommands({ sendPasswordResetEmail: () => null });
    const page = renderForgot('ada@example.com');
    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    expect(page.onBack).toHaveBeenLastCalledWith('ada@example.com');

    await page.user.click(screen.getByRole('button', { name: 'Send the link' }));
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Back to log in' }));
    expect(page.onBack).toHaveBeenLastCalledWith('ada@example.com');
    expect(page.onBack).toHaveBeenCalledTimes(2);
  });
});
