import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ExportKey } from './ExportKey';
import { ADDRESS, fail, mockCommands, pinStatus, renderPage, tick } from '../../test/harness';

const KEY = `0x${'4c'.repeat(32)}`;

describe('ExportKey', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('asks the person to accept the warning, then the PIN, then shows the key once', async () => {
    const ipc = mockCommands({ getPinStatus: () => pinStatus(), exportPrivateKey: () => KEY });
    const onDone = vi.fn();
    const page = renderPage(<ExportKey onDone={onDone} />);
    expect(screen.getByTestId('export-key-warning')).toHaveTextContent('can take everything');
    expect(await screen.findByTestId('export-key-account')).toHaveTextContent('Account 1');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await page.user.click(screen.getByLabelText(/I understand/));
    await page.user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(ipc.count('exportPrivateKey')).toBe(0);
    await page.user.type(screen.getByLabelText('Enter your PIN'), '246810');
    await page.user.click(screen.getByRole('button', { name: 'Show the key' }));
    await tick();
    expect(ipc.argsOf('exportPrivateKey')).toStrictEqual([{ pin: '246810', account: ADDRESS }]);
    expect(screen.getByTestId('export-key-value')).toHaveTextContent(KEY);
    await page.user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onDone).toHaveBeenCalledOnce();
  });

  it('keeps the key hidden after a wrong PIN', async () => {
    mockCommands({ getPinStatus: () => pinStatus({ triesLeft: 4 }), exportPrivateKey: () => fail('WrongPin', 'wrong PIN') });
    const page = renderPage(<ExportKey onDone={() => undefined} />);
    await page.user.click(screen.getByLabelText(/I understand/));
    await page.user.click(screen.getByRole('button', { name: 'Continue' }));
    await page.user.type(screen.getByLabelText('Enter your PIN'), '111111');
    await page.user.click(screen.getByRole('button', { name: 'Show the key' }));
    await tick();
    expect(screen.queryByTestId('export-key-value')).toBeNull();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });
});
