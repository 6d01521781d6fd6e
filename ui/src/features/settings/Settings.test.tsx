import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Settings } from './Settings';
import ja from '../../i18n/locales/ja.json';
import ko from '../../i18n/locales/ko.json';
import { WORDS, fail, mockCommands, pinStatus, renderPage, seconds, serviceUser, tick, walletValues } from '../../test/harness';

function renderSettings() {
  const onLoggedOut = vi.fn();
  return { onLoggedOut, ...renderPage(<Settings user={serviceUser()} onLoggedOut={onLoggedOut} />) };
}

describe('Settings', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows who is signed in and how', () => {
    mockCommands({});
    renderSettings();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('Signed in with: email')).toBeInTheDocument();
  });

  it('offers the currencies the service has prices in, and remembers the choice', async () => {
    localStorage.clear();
    mockCommands({ getValues: () => walletValues({ currencies: ['EUR', 'USD'] }) });
    const page = renderSettings();
    await tick();
    expect(screen.getByRole('button', { name: 'USD' })).toHaveAttribute('aria-pressed', 'true');
    await page.user.click(screen.getByRole('button', { name: 'EUR' }));
    expect(screen.getByRole('button', { name: 'EUR' })).toHaveAttribute('aria-pressed', 'true');
    expect(localStorage.getItem('satchel.currency')).toBe('EUR');
  });

  it('shows the chosen currency alone while the others are read, or when the service has no prices', async () => {
    mockCommands({});
    renderSettings();
    expect(screen.getByRole('button', { name: 'USD' })).toHaveAttribute('aria-pressed', 'true');
    await tick();
    expect(screen.getAllByRole('button', { pressed: true }).map((b) => b.textContent)).toContain('USD');
    expect(screen.queryByRole('button', { name: 'EUR' })).not.toBeInTheDocument();
  });

  it('shows no update when none waits', async () => {
    const ipc = mockCommands({});
    renderSettings();
    await tick();
    expect(ipc.count('getUpdate')).toBe(1);
    expect(screen.queryByRole('button', { name: 'Restart and update' })).not.toBeInTheDocument();
  });

  it('says an update is ready, and installs it on restart', async () => {
    const ipc = mockCommands({ getUpdate: () => '0.2.0', installUpdate: () => true });
    const page = renderSettings();
    expect(await screen.findByText('Version 0.2.0 is ready')).toBeInTheDocument();
    expect(screen.getByText('An update is ready: it installs when Satchel restarts.')).toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Restart and update' }));
    expect(ipc.count('installUpdate')).toBe(1);
  });

  it('says why an update could not be installed', async () => {
    mockCommands({ getUpdate: () => '0.2.0', installUpdate: () => fail('UnknownError', 'pkexec was dismissed') });
    const page = renderSettings();
    await page.user.click(await screen.findByRole('button', { name: 'Restart and update' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The update could not be installed: pkexec was dismissed');
  });

  it('switches the visible texts to 한국어 and to 日本語, and remembers the choice', async () => {
    mockCommands({});
    const page = renderSettings();
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');

    await page.user.click(screen.getByRole('button', { name: '한국어' }));
    expect(screen.getByRole('button', { name: ko['settings.logout'] })).toBeInTheDocument();
    expect(screen.getByText(ko['settings.language'])).toBeInTheDocument();
    expect(screen.getByRole('button', { name: ko['settings.theme.dark'] })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '한국어' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'false');
    expect(localStorage.getItem('satchel.language')).toBe('ko');
    expect(document.documentElement.lang).toBe('ko');

    await page.user.click(screen.getByRole('button', { name: '日本語' }));
    expect(screen.getByRole('button', { name: ja['settings.logout'] })).toBeInTheDocument();
    expect(screen.getByText(ja['settings.account'])).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: ko['settings.logout'] })).not.toBeInTheDocument();
    expect(localStorage.getItem('satchel.language')).toBe('ja');
    expect(document.documentElement.lang).toBe('ja');

    await page.user.click(screen.getByRole('button', { name: 'English' }));
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('starts in the language chosen before', () => {
    localStorage.setItem('satchel.language', 'ko');
    mockCommands({});
    renderSettings();
    expect(screen.getByRole('button', { name: ko['settings.logout'] })).toBeInTheDocument();
  });

  it('starts in the system language when none was chosen, and in English for one it does not have', () => {
    mockCommands({});
    Object.defineProperty(window.navigator, 'language', { value: 'ja-JP', configurable: true });
    const first = renderSettings();
    expect(screen.getByRole('button', { name: ja['settings.logout'] })).toBeInTheDocument();
    first.unmount();

    Object.defineProperty(window.navigator, 'language', { value: 'de-DE', configurable: true });
    renderSettings();
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('applies and remembers the theme chosen', async () => {
    mockCommands({});
    const page = renderSettings();
    await page.user.click(screen.getByRole('button', { name: 'Dark' }));
    expect(screen.getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('satchel.theme')).toBe('dark');
  });

  it('logs out through the app’s logout command, then leaves the page', async () => {
    const ipc = mockCommands({ logout: () => null });
    const page = renderSettings();

    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    await tick();

    expect(ipc.count('logout')).toBe(1);
    expect(page.onLoggedOut).toHaveBeenCalledTimes(1);
  });

  it('leaves for the login page even when the keychain refuses the logout', async () => {
    mockCommands({ logout: () => fail('KeychainUnavailable', 'locked') });
    const page = renderSettings();

    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    await tick();

    // The app has forgotten the user on this device whatever it answered.
    expect(page.onLoggedOut).toHaveBeenCalledTimes(1);
  });

  it('leaves for the login page even when the app answers that no one is logged in any more', async () => {
    mockCommands({ logout: () => fail('Already logout', 'no one is logged in') });
    const page = renderSettings();

    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    await tick();

    expect(page.onLoggedOut).toHaveBeenCalledTimes(1);
  });

  it('opens the recovery phrase behind the PIN, and goes back with Esc', async () => {
    const ipc = mockCommands({ getPinStatus: () => pinStatus(), showRecoveryPhrase: () => WORDS });
    const page = renderSettings();

    const open = screen.getByRole('button', { name: 'Recovery phrase' });
    expect(open).toHaveAttribute('id', 'settings-phrase');
    expect(open).toHaveAccessibleDescription('See your 12 words, after your PIN');
    await page.user.click(open);
    await tick();
    await page.user.type(screen.getByLabelText('Enter your PIN'), '246810{Enter}');
    await tick();
    expect(ipc.argsOf('showRecoveryPhrase')).toEqual([{ pin: '246810' }]);
    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    expect(document.getElementById('phrase-word-1')).toHaveTextContent('abandon');

    await page.user.keyboard('{Escape}');
    await page.user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    expect(document.getElementById('phrase-word-1')).not.toBeInTheDocument();
  });

  it('changes the PIN with the current one and the new one twice, then says so', async () => {
    const ipc = mockCommands({ getPinStatus: () => pinStatus(), changePin: () => null });
    const page = renderSettings();

    await page.user.click(screen.getByRole('button', { name: 'Change PIN' }));
    await tick();
    expect(screen.getByLabelText('Current PIN')).toHaveFocus();
    await page.user.type(screen.getByLabelText('Current PIN'), '111111');
    await page.user.type(screen.getByLabelText('New 6-digit PIN'), '2222a22');
    await page.user.type(screen.getByLabelText('Enter the new PIN again'), '222222{Enter}');
    await tick();

    expect(ipc.argsOf('changePin')).toEqual([{ oldPin: '111111', newPin: '222222' }]);
    expect(screen.getByRole('status')).toHaveTextContent('Your PIN is changed. Use the new PIN from now on.');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });

  it('refuses two different new PINs, or the same PIN again, before any call', async () => {
    const ipc = mockCommands({ getPinStatus: () => pinStatus() });
    const page = renderSettings();
    await page.user.click(screen.getByRole('button', { name: 'Change PIN' }));
    await tick();

    const submit = () => screen.getByRole('button', { name: 'Change PIN' });
    await page.user.type(screen.getByLabelText('Current PIN'), '111111');
    await page.user.type(screen.getByLabelText('New 6-digit PIN'), '222222');
    expect(submit()).toBeDisabled();
    await page.user.type(screen.getByLabelText('Enter the new PIN again'), '333333');
    await page.user.click(submit());
    expect(screen.getByText('The new PINs are not the same. Enter the new PIN again.')).toBeInTheDocument();
    expect(screen.getByLabelText('New 6-digit PIN')).toHaveValue('');
    expect(screen.getByLabelText('Enter the new PIN again')).toHaveValue('');
    expect(screen.getByLabelText('Current PIN')).toHaveValue('111111');

    await page.user.type(screen.getByLabelText('New 6-digit PIN'), '111111');
    await page.user.type(screen.getByLabelText('Enter the new PIN again'), '111111{Enter}');
    expect(screen.getByText('The new PIN is the same as the current one. Choose a different PIN.')).toBeInTheDocument();
    await tick();
    expect(ipc.count('changePin')).toBe(0);
  });

  it('shows a wrong current PIN with the tries left, and a pause counted down', async () => {
    let status = pinStatus({ triesLeft: 2 });
    const ipc = mockCommands({
      getPinStatus: () => status,
      changePin: () => {
        if (ipc.count('changePin') === 1) return fail('WrongPin', 'wrong PIN; 2 tries left');
        status = pinStatus({ triesLeft: 0, lockedForSecs: 3 });
        return fail('TooManyRequests', 'paused; 3 s');
      },
    });
    const page = renderSettings();
    await page.user.click(screen.getByRole('button', { name: 'Change PIN' }));
    await tick();

    await page.user.type(screen.getByLabelText('Current PIN'), '999999');
    await page.user.type(screen.getByLabelText('New 6-digit PIN'), '222222');
    await page.user.type(screen.getByLabelText('Enter the new PIN again'), '222222{Enter}');
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('That PIN is not right. 2 tries left.');
    expect(screen.getByLabelText('Current PIN')).toHaveValue('');

    await page.user.type(screen.getByLabelText('Current PIN'), '888888{Enter}');
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('Too many wrong PINs. Try again in 3 s.');
    await page.user.type(screen.getByLabelText('Current PIN'), '777777');
    expect(screen.getByRole('button', { name: 'Change PIN' })).toBeDisabled();
    await seconds(3);
    expect(screen.getByRole('button', { name: 'Change PIN' })).toBeEnabled();
    expect(ipc.count('changePin')).toBe(2);
  });

  it('leaves Change PIN with Esc and with Back, changing nothing', async () => {
    const ipc = mockCommands({ getPinStatus: () => pinStatus() });
    const page = renderSettings();
    await page.user.click(screen.getByRole('button', { name: 'Change PIN' }));
    await tick();
    await page.user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Change PIN' }));
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(ipc.count('changePin')).toBe(0);
  });
});
