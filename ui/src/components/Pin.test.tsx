import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PinPrompt } from './Pin';
import { deferred, fail, mockCommands, pinStatus, renderPage, seconds, tick } from '../test/harness';

function renderPrompt(onSubmit: (pin: string) => Promise<unknown>, onCancel?: () => void) {
  return renderPage(<PinPrompt title="Unlock" onSubmit={onSubmit} onCancel={onCancel} />);
}

const field = () => screen.getByLabelText('Enter your PIN');
const submit = () => screen.getByRole('button', { name: 'Continue' });

describe('PinPrompt', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('takes six digits shown as dots, submits with Enter, and is busy while the PIN is checked', async () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    const answer = deferred<void>();
    const onSubmit = vi.fn(() => answer.promise);
    const page = renderPrompt(onSubmit);
    await tick();

    expect(field()).toHaveAttribute('type', 'password');
    expect(field()).toHaveFocus();
    await page.user.type(field(), '12a34');
    expect(field()).toHaveValue('1234');
    expect(submit()).toBeDisabled();
    await page.user.type(field(), '56{Enter}');

    expect(onSubmit).toHaveBeenCalledWith('123456');
    expect(screen.getByRole('button', { name: 'Checking…' })).toBeDisabled();
    answer.resolve();
    await tick();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says a wrong PIN is wrong with the tries left the service counts, and clears the field', async () => {
    const ipc = mockCommands({ getPinStatus: () => pinStatus({ triesLeft: 3 }) });
    const page = renderPrompt(() => Promise.reject({ code: 'WrongPin', message: 'wrong PIN; 3 tries left' }));
    await tick();

    await page.user.type(field(), '000000{Enter}');
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('That PIN is not right. 3 tries left.');
    expect(alert).not.toHaveTextContent('WrongPin');
    expect(field()).toHaveValue('');
    // Read once on entry, once after the refusal.
    expect(ipc.count('getPinStatus')).toBe(2);
  });

  it('says "1 try left" for the last try', async () => {
    mockCommands({ getPinStatus: () => pinStatus({ triesLeft: 1 }) });
    const page = renderPrompt(() => Promise.reject({ code: 'WrongPin', message: 'wrong PIN' }));
    await tick();
    await page.user.type(field(), '000000{Enter}');
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('That PIN is not right. 1 try left.');
  });

  it('counts a pause down and keeps the PIN from being sent until it is over', async () => {
    let status = pinStatus();
    const onSubmit = vi.fn(() => {
      status = pinStatus({ triesLeft: 0, lockedForSecs: 30 });
      return Promise.reject({ code: 'TooManyRequests', message: 'paused; try again in 30 s' });
    });
    mockCommands({ getPinStatus: () => status });
    const page = renderPrompt(onSubmit);
    await tick();

    await page.user.type(field(), '000000{Enter}');
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('Too many wrong PINs. Try again in 30 s.');

    await page.user.type(field(), '123456');
    expect(submit()).toBeDisabled();
    await page.user.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);

    await seconds(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Try again in 29 s.');
    expect(submit()).toBeDisabled();
    await seconds(29);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(submit()).toBeEnabled();
  });

  it('shows a pause that is already running when it opens', async () => {
    mockCommands({ getPinStatus: () => pinStatus({ triesLeft: 0, lockedForSecs: 5 }) });
    const page = renderPrompt(vi.fn());
    await tick();

    expect(screen.getByRole('alert')).toHaveTextContent('Too many wrong PINs. Try again in 5 s.');
    await page.user.type(field(), '123456');
    expect(submit()).toBeDisabled();
    await seconds(5);
    expect(submit()).toBeEnabled();
  });

  it('explains a locked PIN and e-mails the unlock link on request', async () => {
    let status = pinStatus();
    const ipc = mockCommands({ getPinStatus: () => status, sendPinUnlockEmail: () => null });
    const page = renderPrompt(() => {
      status = pinStatus({ triesLeft: 0, emailRequired: true });
      return Promise.reject({ code: 'PinLocked', message: 'locked' });
    });
    await tick();

    await page.user.type(field(), '000000{Enter}');
    await tick();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Your PIN is locked after too many wrong tries. To unlock it, open a link we send to your e-mail.');
    expect(alert).not.toHaveTextContent('PinLocked');

    await page.user.click(screen.getByRole('button', { name: 'E-mail me an unlock link' }));
    await tick();
    expect(ipc.count('sendPinUnlockEmail')).toBe(1);
    expect(screen.getByText('Check your e-mail. Open the link, then enter your PIN again.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'E-mail me an unlock link' })).not.toBeInTheDocument();
  });

  it('shows the lock when it opens, and a failed e-mail in words with the button kept', async () => {
    mockCommands({
      getPinStatus: () => pinStatus({ triesLeft: 0, emailRequired: true }),
      sendPinUnlockEmail: () => fail('FailedSendEmail', 'smtp down'),
    });
    const page = renderPrompt(vi.fn());
    await tick();

    expect(screen.getByRole('alert')).toHaveTextContent('Your PIN is locked');
    await page.user.click(screen.getByRole('button', { name: 'E-mail me an unlock link' }));
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('We could not send the e-mail. Try again in a moment.');
    expect(screen.getByRole('button', { name: 'E-mail me an unlock link' })).toBeEnabled();
  });

  it('explains any other failure in words, and Cancel leaves', async () => {
    const ipc = mockCommands({ getPinStatus: () => pinStatus() });
    const onCancel = vi.fn();
    const page = renderPrompt(() => Promise.reject({ code: 'KeychainUnavailable', message: 'locked' }), onCancel);
    await tick();

    await page.user.type(field(), '123456{Enter}');
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('The system keychain is locked or missing. Unlock it and try again.');
    // Not a PIN refusal: the limits are not read again.
    expect(ipc.count('getPinStatus')).toBe(1);

    await page.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
