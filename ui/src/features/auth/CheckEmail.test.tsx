import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CheckEmail } from './CheckEmail';
import { fail, mockCommands, renderPage, seconds, tick } from '../../test/harness';

function renderCheck(email = 'ada@example.com') {
  const props = { onVerified: vi.fn(), onBack: vi.fn() };
  return { ...props, ...renderPage(<CheckEmail email={email} {...props} />) };
}

describe('CheckEmail', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('names the address the link went to', () => {
    mockCommands({});
    renderCheck('ada@example.com');
    expect(screen.getByText(/We sent a link to ada@example\.com\./)).toBeInTheDocument();
  });

  it('lets the e-mail be sent again only after a 60-second countdown, which starts over after a resend', async () => {
    const ipc = mockCommands({ resendVerification: () => null });
    const page = renderCheck();

    expect(screen.getByRole('button', { name: 'Send again in 60 s' })).toBeDisabled();
    await seconds(1);
    expect(screen.getByRole('button', { name: 'Send again in 59 s' })).toBeDisabled();
    await seconds(58);
    expect(screen.getByRole('button', { name: 'Send again in 1 s' })).toBeDisabled();
    await seconds(1);
    const resend = screen.getByRole('button', { name: 'Send the e-mail again' });
    expect(resend).toBeEnabled();

    await page.user.click(resend);
    await tick();

    expect(ipc.argsOf('resendVerification')).toEqual([{ email: 'ada@example.com' }]);
    expect(screen.getByText('Sent. Look in your inbox.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send again in 60 s' })).toBeDisabled();
    await seconds(60);
    expect(screen.getByRole('button', { name: 'Send the e-mail again' })).toBeEnabled();
  });

  it('shows a failed resend in words and lets the person try again at once', async () => {
    let tries = 0;
    const ipc = mockCommands({
      resendVerification: () => {
        tries += 1;
        return tries === 1 ? fail('fail/send-email', 'smtp refused') : null;
      },
    });
    const page = renderCheck();
    await seconds(60);

    await page.user.click(screen.getByRole('button', { name: 'Send the e-mail again' }));
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('We could not send the e-mail. Try again in a moment.');
    expect(alert).not.toHaveTextContent('fail/send-email');
    expect(screen.queryByText('Sent. Look in your inbox.')).not.toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Send the e-mail again' }));
    await tick();
    expect(ipc.count('resendVerification')).toBe(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Sent. Look in your inbox.')).toBeInTheDocument();
  });

  it('shows a rate limit on resending in words', async () => {
    mockCommands({ resendVerification: () => fail('TooManyRequests', 'slow down') });
    const page = renderCheck();
    await seconds(60);

    await page.user.click(screen.getByRole('button', { name: 'Send the e-mail again' }));
    await tick();

    expect(screen.getByRole('alert')).toHaveTextContent('Too many tries. Wait a moment and try again.');
  });

  it('goes on to log in from "I verified, log in", and back from the back arrow', async () => {
    mockCommands({});
    const page = renderCheck();
    await page.user.click(screen.getByRole('button', { name: 'I verified, log in' }));
    expect(page.onVerified).toHaveBeenCalledTimes(1);
    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    expect(page.onBack).toHaveBeenCalledTimes(1);
  });
});
