import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Register } from './Register';
import { deferred, fail, mockCommands, renderPage, serviceUser, tick } from '../test/harness';
import type { ServiceUser } from '../api';

const waiting = serviceUser({ userStatus: { loginStatus: 'registerRequired' }, walletId: undefined });

function renderRegister(user: ServiceUser | null = waiting) {
  const props = { onRegistered: vi.fn(), onLogout: vi.fn() };
  return { ...props, ...renderPage(<Register user={user} {...props} />) };
}

const pin = () => screen.getByLabelText('Choose a 6-digit PIN');
const again = () => screen.getByLabelText('Enter the PIN again');
const submit = () => screen.getByRole('button', { name: 'Create my wallet' });

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

  it('creates the wallet with the PIN entered twice the same, showing that it is working meanwhile', async () => {
    const registered = serviceUser();
    const answer = deferred<ServiceUser>();
    const ipc = mockCommands({ register: () => answer.promise });
    const page = renderRegister();

    await page.user.type(pin(), '246810');
    await page.user.type(again(), '246810{Enter}');

    expect(screen.getByRole('button', { name: 'Creating your wallet…' })).toBeDisabled();
    answer.resolve(registered);
    await tick();

    expect(ipc.argsOf('register')).toEqual([{ pin: '246810' }]);
    expect(page.onRegistered).toHaveBeenCalledWith(registered);
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
    expect(ipc.argsOf('register')).toEqual([{ pin: '135790' }, { pin: '135790' }]);
    expect(page.onRegistered).toHaveBeenCalledWith(registered);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers only logging out when the wallet key is on another device', async () => {
    mockCommands({ getKeyState: () => 'missing' });
    const page = renderRegister(serviceUser({ userStatus: { loginStatus: 'pinRequired' } }));

    expect(await screen.findByText("This wallet's key is on another device. Restoring it here is not available yet.")).toBeInTheDocument();
    expect(screen.queryByLabelText('Choose a 6-digit PIN')).not.toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(page.onLogout).toHaveBeenCalledTimes(1);
  });

  it('says so when the key on this device is not the wallet\'s, and shows no wallet and no PIN form', async () => {
    mockCommands({ getKeyState: () => 'mismatch' });
    const page = renderRegister(serviceUser({ userStatus: { loginStatus: 'pinRequired', pinRequired: true } }));

    expect(await screen.findByRole('alert')).toHaveTextContent("is not this wallet's key");
    expect(screen.queryByLabelText('Choose a 6-digit PIN')).not.toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(page.onLogout).toHaveBeenCalledTimes(1);
  });
});
