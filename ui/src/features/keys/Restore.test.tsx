import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Restore } from './Restore';
import type { PinStatus } from '../../api';
import { WORDS, deferred, fail, keyStatus, mockCommands, pinStatus, renderPage, serviceUser, tick } from '../../test/harness';

function renderRestore() {
  const props = { onRestored: vi.fn(), onLogout: vi.fn() };
  return { ...props, ...renderPage(<Restore {...props} />) };
}

const missing = () => keyStatus({ state: 'missing', phraseConfirmed: false });
const phrase = () => screen.getByLabelText('Your 12 words, in order');
const newPin = () => screen.getByLabelText('Choose a new 6-digit PIN');
const newPinAgain = () => screen.getByLabelText('Enter the new PIN again');
const restore = () => screen.getByRole('button', { name: 'Restore my wallet' });

describe('Restore', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('says the key is not here and, without a backup, what can and cannot be done; Log out leaves', async () => {
    mockCommands({ getKeyState: missing, getPinStatus: () => pinStatus() });
    const page = renderRestore();
    await tick();

    expect(screen.getByRole('heading', { name: 'Restore your wallet' })).toBeInTheDocument();
    expect(screen.getByText("This wallet's key is not on this device. Restore the wallet here to use it.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use my encrypted backup' })).not.toBeInTheDocument();
    expect(screen.getByText(/Without the recovery phrase or a backup, this wallet cannot be opened on this device\./)).toHaveTextContent(
      'Its funds stay safe at its address, and the device that made it can still open it.',
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(page.onLogout).toHaveBeenCalledTimes(1);
  });

  it('explains a key that is not the wallet’s first, then offers the restore', async () => {
    mockCommands({ getKeyState: () => keyStatus({ state: 'mismatch', phraseConfirmed: false }), getPinStatus: () => pinStatus() });
    renderRestore();
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveAttribute('id', 'key-mismatch');
    expect(alert).toHaveTextContent("is not this wallet's key");
    expect(phrase()).toBeInTheDocument();
    expect(alert.compareDocumentPosition(phrase()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says the PIN was changed elsewhere when the key here is stale, then offers the restore', async () => {
    mockCommands({ getKeyState: () => keyStatus({ state: 'stale', phraseConfirmed: true }), getPinStatus: () => pinStatus() });
    renderRestore();
    await tick();

    expect(screen.getByText(/PIN was changed on another device/)).toHaveAttribute('id', 'key-stale');
    expect(phrase()).toBeInTheDocument();
  });

  it('reads the phrase as typed, counts its words, and refuses one without 12 before any call', async () => {
    const ipc = mockCommands({ getKeyState: missing, getPinStatus: () => pinStatus() });
    const page = renderRestore();
    await tick();

    expect(phrase()).toHaveAttribute('autocomplete', 'off');
    expect(phrase()).toHaveAttribute('spellcheck', 'false');
    expect(screen.getByText('0 of 12 words')).toBeInTheDocument();
    await page.user.type(phrase(), `  ${WORDS.slice(0, 11).join('   ')} `);
    expect(screen.getByText('11 of 12 words')).toBeInTheDocument();
    await page.user.type(newPin(), '111222');
    await page.user.type(newPinAgain(), '111222');
    await page.user.click(restore());

    expect(screen.getByText('A recovery phrase has 12 words. You entered 11.')).toBeInTheDocument();
    expect(phrase()).toHaveAttribute('aria-invalid', 'true');
    expect(ipc.count('restoreFromPhrase')).toBe(0);
  });

  it('restores with the phrase in lower case and single spaces and the new PIN, showing that it is working', async () => {
    const restored = serviceUser();
    const answer = deferred<typeof restored>();
    const ipc = mockCommands({ getKeyState: missing, getPinStatus: () => pinStatus(), restoreFromPhrase: () => answer.promise });
    const page = renderRestore();
    await tick();

    const typed = `  ${WORDS.slice(0, 6).join(' ').toUpperCase()}\n${WORDS.slice(6).map((w) => `${w[0].toUpperCase()}${w.slice(1)}`).join('  \t')}  `;
    await page.user.click(phrase());
    await page.user.paste(typed);
    expect(screen.getByText('12 of 12 words')).toBeInTheDocument();
    await page.user.type(newPin(), '111222');
    await page.user.type(newPinAgain(), '111222{Enter}');

    expect(screen.getByRole('button', { name: 'Restoring your wallet…' })).toBeDisabled();
    answer.resolve(restored);
    await tick();
    expect(ipc.argsOf('restoreFromPhrase')).toEqual([{ phrase: WORDS.join(' '), pin: '111222' }]);
    expect(page.onRestored).toHaveBeenCalledWith(restored);
  });

  it('submits with Enter in the phrase field too', async () => {
    const ipc = mockCommands({ getKeyState: missing, getPinStatus: () => pinStatus(), restoreFromPhrase: () => serviceUser() });
    const page = renderRestore();
    await tick();

    await page.user.type(newPin(), '111222');
    await page.user.type(newPinAgain(), '111222');
    await page.user.click(phrase());
    await page.user.paste(WORDS.join(' '));
    await page.user.keyboard('{Enter}');
    await tick();
    expect(ipc.argsOf('restoreFromPhrase')).toEqual([{ phrase: WORDS.join(' '), pin: '111222' }]);
  });

  it('refuses two different new PINs before any call', async () => {
    const ipc = mockCommands({ getKeyState: missing, getPinStatus: () => pinStatus() });
    const page = renderRestore();
    await tick();

    await page.user.click(phrase());
    await page.user.paste(WORDS.join(' '));
    await page.user.type(newPin(), '111222');
    await page.user.type(newPinAgain(), '222111');
    await page.user.click(restore());

    expect(screen.getByText('The PINs are not the same. Choose your PIN again.')).toBeInTheDocument();
    expect(newPin()).toHaveValue('');
    expect(newPinAgain()).toHaveValue('');
    expect(ipc.count('restoreFromPhrase')).toBe(0);
  });

  it('says words that are not this wallet’s phrase are wrong, without repeating them, and keeps them to correct', async () => {
    mockCommands({
      getKeyState: missing,
      getPinStatus: () => pinStatus(),
      restoreFromPhrase: () => fail('InvalidParameters', 'not a valid recovery phrase'),
    });
    const page = renderRestore();
    await tick();

    await page.user.click(phrase());
    await page.user.paste(WORDS.join(' '));
    await page.user.type(newPin(), '111222');
    await page.user.type(newPinAgain(), '111222{Enter}');
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent("These words are not this wallet's recovery phrase. Check each word and their order.");
    for (const word of WORDS) expect(alert).not.toHaveTextContent(word);
    expect(page.onRestored).not.toHaveBeenCalled();
    expect(phrase()).toHaveValue(WORDS.join(' '));
    expect(restore()).toBeEnabled();
  });

  it('offers the encrypted backup only when the service keeps one, and restores with the PIN', async () => {
    const restored = serviceUser();
    const ipc = mockCommands({
      getKeyState: missing,
      getPinStatus: () => pinStatus({ hasBackup: true, triesLeft: 4 }),
      restoreFromBackup: (args) => (args.pin === '246810' ? restored : fail('WrongPin', 'wrong PIN; 4 tries left')),
    });
    const page = renderRestore();
    await tick();

    expect(screen.queryByText(/Without the recovery phrase or a backup/)).not.toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Use my encrypted backup' }));
    await tick();
    await page.user.type(screen.getByLabelText("Your wallet's PIN"), '000000{Enter}');
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('That PIN is not right. 4 tries left.');
    expect(page.onRestored).not.toHaveBeenCalled();

    await page.user.type(screen.getByLabelText("Your wallet's PIN"), '246810{Enter}');
    await tick();
    expect(ipc.argsOf('restoreFromBackup')).toEqual([{ pin: '000000' }, { pin: '246810' }]);
    expect(page.onRestored).toHaveBeenCalledWith(restored);
  });

  it('closes the backup’s PIN prompt with Esc and with Cancel', async () => {
    mockCommands({ getKeyState: missing, getPinStatus: () => pinStatus({ hasBackup: true }) });
    const page = renderRestore();
    await tick();

    await page.user.click(screen.getByRole('button', { name: 'Use my encrypted backup' }));
    await tick();
    expect(screen.getByLabelText("Your wallet's PIN")).toHaveFocus();
    await page.user.keyboard('{Escape}');
    expect(screen.queryByLabelText("Your wallet's PIN")).not.toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Use my encrypted backup' }));
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Use my encrypted backup' })).toBeInTheDocument();
  });

  it('shows a placeholder while it asks about a backup, and a failure with a retry', async () => {
    const first = deferred<PinStatus>();
    let tries = 0;
    mockCommands({
      getKeyState: missing,
      getPinStatus: () => {
        tries += 1;
        return tries === 1 ? first.promise : pinStatus({ hasBackup: true });
      },
    });
    const page = renderRestore();
    await tick();

    expect(screen.getByLabelText('Loading…')).toHaveAttribute('aria-busy', 'true');
    first.reject({ code: 'NotConnectedInternet', message: 'dns error' });
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('Satchel cannot reach its service.');
    await page.user.click(screen.getByRole('button', { name: 'Try again' }));
    await tick();
    expect(screen.getByRole('button', { name: 'Use my encrypted backup' })).toBeInTheDocument();
  });
});
