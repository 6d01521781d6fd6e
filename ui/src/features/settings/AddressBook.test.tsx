import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SavedAddress } from '../../api';
import { AddressBook } from './AddressBook';
import { RECIPIENT, fail, mockCommands, renderPage, tick } from '../../test/harness';

const BOB: SavedAddress = { address: RECIPIENT, name: 'Bob' };

describe('AddressBook', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('lists saved addresses and adds, renames and removes them', async () => {
    let saved: SavedAddress[] = [BOB];
    const ipc = mockCommands({
      getSavedAddresses: () => saved,
      saveAddress: (args) => {
        const { address, name } = args as { address: string; name: string };
        saved = [...saved.filter((s) => s.address !== address), { address, name }];
        return saved;
      },
      forgetAddress: (args) => {
        saved = saved.filter((s) => s.address !== (args as { address: string }).address);
        return saved;
      },
    });
    const page = renderPage(<AddressBook onBack={() => undefined} />);
    await tick();
    expect(screen.getByTestId('book-entry')).toHaveTextContent('Bob');
    await page.user.type(screen.getByLabelText('Name'), 'Carol');
    await page.user.type(screen.getByLabelText('Address'), '0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    await page.user.click(screen.getByRole('button', { name: 'Save' }));
    await tick();
    expect(ipc.argsOf('saveAddress')).toStrictEqual([{ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', name: 'Carol' }]);
    expect(screen.getAllByTestId('book-entry')).toHaveLength(2);
    await page.user.click(within(screen.getAllByTestId('book-entry')[0]!).getByRole('button', { name: 'Rename' }));
    const field = screen.getByTestId('book-rename-name');
    await page.user.clear(field);
    await page.user.type(field, 'Robert');
    await page.user.click(screen.getAllByRole('button', { name: 'Save' })[0]!);
    await tick();
    expect(ipc.argsOf('saveAddress')[1]).toStrictEqual({ address: RECIPIENT, name: 'Robert' });
    await page.user.click(within(screen.getAllByTestId('book-entry')[0]!).getByRole('button', { name: 'Remove' }));
    await tick();
    expect(ipc.count('forgetAddress')).toBe(1);
  });

  it('shows a saved address’s ENS name beside the name the person gave', async () => {
    const ipc = mockCommands({ getSavedAddresses: () => [BOB], primaryName: () => 'bob.eth' });
    renderPage(<AddressBook onBack={() => undefined} />);
    await tick();
    expect(ipc.argsOf('primaryName')).toStrictEqual([{ network: undefined, address: RECIPIENT }]);
    const entry = screen.getByTestId('book-entry');
    expect(entry).toHaveTextContent('Bob');
    expect(screen.getByTestId('book-entry-address-name')).toHaveTextContent('bob.eth');
  });

  it('says why an address was refused and keeps what was typed', async () => {
    mockCommands({ getSavedAddresses: () => [], saveAddress: () => fail('InvalidParameters', 'the checksum does not match') });
    const page = renderPage(<AddressBook onBack={() => undefined} />);
    await tick();
    expect(screen.getByText('No saved address yet.')).toBeInTheDocument();
    await page.user.type(screen.getByLabelText('Name'), 'Typo');
    await page.user.type(screen.getByLabelText('Address'), '0x70997970c51812dc3A010C7d01b50e0d17dc79C8');
    await page.user.click(screen.getByRole('button', { name: 'Save' }));
    await tick();
    expect(screen.getByRole('alert')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Typo');
  });

  it('exports CSV to copy, and imports pasted CSV saying what it refused', async () => {
    const ipc = mockCommands({
      getSavedAddresses: () => [BOB],
      exportAddressBook: () => `name,address\nBob,${RECIPIENT}\n`,
      importAddressBook: () => ({ added: 1, renamed: 0, refused: ['line 3: not an address'] }),
    });
    const page = renderPage(<AddressBook onBack={() => undefined} />);
    await tick();
    await page.user.click(screen.getByTestId('book-export'));
    await tick();
    expect(screen.getByTestId('book-csv-out')).toHaveTextContent(`Bob,${RECIPIENT}`);
    await page.user.type(screen.getByLabelText('Paste lines of name,address'), 'Dan,0x0000000000000000000000000000000000000001');
    await page.user.click(screen.getByTestId('book-import'));
    await tick();
    expect(ipc.argsOf('importAddressBook')).toStrictEqual([{ csv: 'Dan,0x0000000000000000000000000000000000000001' }]);
    expect(screen.getByTestId('book-imported')).toHaveTextContent('1 added, 0 renamed.');
    expect(screen.getByTestId('book-imported')).toHaveTextContent('line 3: not an address');
  });
});
