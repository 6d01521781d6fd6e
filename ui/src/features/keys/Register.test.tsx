import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Register } from './Register';
import { WORDS, answerWord, deferred, fail, keyStatus, mockCommands, pinStatus, renderPage, serviceUser, tick } from '../../test/harness';
import type { ServiceUser } from '../../api';

const waiting = serviceUser({ userStatus: { loginStatus: 'registerRequired' }, walletId: undefined });

function renderRegister(user: ServiceUser | null = waiting) {
  const props = { onRegistered: vi.fn(), onLogout: vi.fn() };
  return { ...props, ...renderPage(<Register user={user} {...props} />) };
}

const pin = () => screen.getByLabelText('Choose a 6-digit PIN');
const again = () => screen.getByLabelText('Enter the PIN again');
const submit = () => screen.getByRole('button', { name: 'Create my wallet' });
const backup = () => screen.getByRole('checkbox', { name: 'Keep an encrypted backup with Satchel' });

describe('Register', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('takes digits only, at most six, and keeps Create my wallet disabled until both PINs have six', async () => {
    mockCommands({});
    const page = renderRegister();

    await page.user.type(pin(), '12ab3-4');
    expect(pin()).toHaveValue('1234');
    await page.user.type(pin(), '56789');
    expect(pin()).toHaveValue('123456');
    expect(submit()).toBeDisabled();

    await page.user.type(again(), '12345');
    expect(submit()).toBeDisabled();
    await page.user.type(again(), '6');
    expect(submit()).toBeEnabled();
  });

  it('refuses two different PINs: says so, clears both fields and creates no wallet', async () => {
    const ipc = mockCommands({});
    const page = renderRegister();

    await page.user.type(pin(), '123456');
    await page.user.type(again(), '654321');
    await page.user.click(submit());

    expect(screen.getByText('The PINs are not the same. Choose your PIN again.')).toBeInTheDocument();
    expect(pin()).toHaveValue('');
    expect(again()).toHaveValue('');
    expect(submit()).toBeDisabled();
    expect(ipc.count('register')).toBe(0);
  });

  it('refuses a PIN anyone would guess first, saying why and what makes one good, and creates no wallet', async () => {
    const ipc = mockCommands({});
    const page = renderRegister();

    await page.user.type(pin(), '123456');
    await page.user.type(again(), '123456');
    await page.user.click(submit());

    expect(screen.getByText(/That PIN is among the first anyone would guess/)).toHaveTextContent('Choose six digits without a pattern');
    expect(pin()).toHaveValue('');
    expect(ipc.count('register')).toBe(0);
  });

  it('creates the wallet with the PIN entered twice the same, showing that it is working meanwhile, then shows the recovery phrase', async () => {
    const registered = serviceUser();
    const answer = deferred<ServiceUser>();
    const ipc = mockCommands({ register: () => answer.promise });
    const page = renderRegister();

    await page.user.type(pin(), '246810');
    await page.user.type(again(), '246810{Enter}');

    expect(screen.getByRole('button', { name: 'Creating your wallet…' })).toBeDisabled();
    answer.resolve(registered);
    await tick();

    expect(ipc.argsOf('register')).toEqual([{ pin: '246810', backup: false }]);
    // Not on to the wallet yet: first the recovery phrase.
    expect(page.onRegistered).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Your recovery phrase' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Choose a 6-digit PIN')).not.toBeInTheDocument();
  });

  it('offers an encrypted backup, off unless chosen, with a note in plain words', async () => {
    mockCommands({});
    const page = renderRegister();

    expect(backup()).not.toBeChecked();
    expect(backup()).toHaveAccessibleDescription(
      'Satchel keeps your recovery phrase encrypted under your PIN and cannot open it without your PIN. With the backup, you can restore your wallet on a new device with your PIN alone.',
    );
    await page.user.click(backup());
    expect(backup()).toBeChecked();
    await page.user.click(screen.getByText('Keep an encrypted backup with Satchel'));
    expect(backup()).not.toBeChecked();
  });

  it('sends the backup choice, then shows the recovery phrase with the PIN just chosen and checks it', async () => {
    const registered = serviceUser();
    const ipc = mockCommands({ register: () => registered, showRecoveryPhrase: () => WORDS, confirmRecoveryPhrase: () => null });
    const page = renderRegister();

    await page.user.type(pin(), '246810');
    await page.user.type(again(), '246810');
    await page.user.click(backup());
    await page.user.click(submit());
    await tick();
    expect(ipc.argsOf('register')).toEqual([{ pin: '246810', backup: true }]);

    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    await tick();
    expect(ipc.argsOf('showRecoveryPhrase')).toEqual([{ pin: '246810' }]);
    expect(document.getElementById('phrase-word-12')).toHaveTextContent('accident');
    await page.user.click(screen.getByRole('button', { name: 'I wrote it down' }));
    for (let i = 0; i < 3; i++) await answerWord(page.user, WORDS);
    await tick();
    expect(ipc.count('confirmRecoveryPhrase')).toBe(1);
    expect(page.onRegistered).not.toHaveBeenCalled();

    await page.user.click(screen.getByRole('button', { name: 'Done' }));
    expect(page.onRegistered).toHaveBeenCalledWith(registered);
  });

  it('goes on to the wallet with Skip for now, without the phrase', async () => {
    const registered = serviceUser();
    const ipc = mockCommands({ register: () => registered });
    const page = renderRegister();

    await page.user.type(pin(), '246810');
    await page.user.type(again(), '246810{Enter}');
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Skip for now' }));

    expect(page.onRegistered).toHaveBeenCalledWith(registered);
    expect(ipc.count('showRecoveryPhrase')).toBe(0);
  });

  it('explains a locked keychain and stays usable, so the person can unlock it and try again', async () => {
    const registered = serviceUser();
    let tries = 0;
    const ipc = mockCommands({
      register: () => {
        tries += 1;
        return tries === 1 ? fail('KeychainUnavailable', 'org.freedesktop.secrets: locked') : registered;
      },
    });
    const page = renderRegister();

    await page.user.type(pin(), '135790');
    await page.user.type(again(), '135790');
    await page.user.click(submit());
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The system keychain is locked or missing. Unlock it and try again.');
    expect(alert).not.toHaveTextContent('KeychainUnavailable');
    expect(page.onRegistered).not.toHaveBeenCalled();
    // Nothing to enter again: the PINs are kept and the button works.
    expect(pin()).toHaveValue('135790');
    expect(again()).toHaveValue('135790');
    expect(submit()).toBeEnabled();

    await page.user.click(submit());
    await tick();
    expect(ipc.argsOf('register')).toEqual([
      { pin: '135790', backup: false },
      { pin: '135790', backup: false },
    ]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Skip for now' }));
    expect(page.onRegistered).toHaveBeenCalledWith(registered);
  });

  it('shows the restore page, not the PIN form, when the wallet key is not on this device', async () => {
    mockCommands({ getKeyState: () => keyStatus({ state: 'missing', phraseConfirmed: false }), getPinStatus: () => pinStatus() });
    const page = renderRegister(serviceUser({ userStatus: { loginStatus: 'pinRequired' } }));
    await tick();

    expect(screen.getByRole('heading', { name: 'Restore your wallet' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Choose a 6-digit PIN')).not.toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(page.onLogout).toHaveBeenCalledTimes(1);
  });
});
