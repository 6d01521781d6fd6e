import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Accounts } from './Accounts';
import type { WalletAccount } from '../../api';
import { fail, mockCommands, pinStatus, renderPage, tick, walletAccount } from '../../test/harness';

const SECOND = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function page(accounts: WalletAccount[], shown: string | null = accounts[0]?.address.toLowerCase() ?? null) {
  const onChange = vi.fn();
  const onBack = vi.fn();
  const rendered = renderPage(<Accounts accounts={accounts} shown={shown} onChange={onChange} onBack={onBack} />);
  return { ...rendered, onChange, onBack };
}

describe('Accounts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('lists each account with its name and address, and says which one the wallet shows', () => {
    mockCommands({});
    page([walletAccount(), walletAccount({ address: SECOND, label: 'Savings', index: 1 })]);
    const first = screen.getByTestId('account-0');
    expect(within(first).getByDisplayValue('Account 1')).toBeInTheDocument();
    expect(first).toHaveAttribute('aria-current', 'true');
    expect(screen.getByTestId('account-0-shown')).toHaveTextContent('Shown in the wallet');
    const second = screen.getByTestId('account-1');
    expect(within(second).getByDisplayValue('Savings')).toBeInTheDocument();
    expect(second).toHaveTextContent(SECOND);
  });

  it('switches the shown account on this device', async () => {
    mockCommands({});
    const view = page([walletAccount(), walletAccount({ address: SECOND, label: 'Savings', index: 1 })]);
    await view.user.click(screen.getByRole('button', { name: 'Show this account' }));
    expect(localStorage.getItem('satchel.account')).toBe(SECOND.toLowerCase());
  });

  it('renames an account with the trimmed name, and refuses a blank one', async () => {
    const ipc = mockCommands({ renameAccount: () => null });
    const view = page([walletAccount()]);
    const field = screen.getByLabelText('Name');
    const rename = screen.getByRole('button', { name: 'Rename' });
    expect(rename).toBeDisabled();
    await view.user.clear(field);
    await view.user.type(field, '   ');
    expect(rename).toBeDisabled();
    await view.user.clear(field);
    await view.user.type(field, ' Rent ');
    await view.user.click(rename);
    await tick();
    expect(ipc.argsOf('renameAccount')).toStrictEqual([{ account: walletAccount().address, label: 'Rent' }]);
    expect(view.onChange).toHaveBeenCalledWith([walletAccount({ label: 'Rent' })]);
  });

  it('adds the next account behind the PIN, names it and shows it', async () => {
    const added = walletAccount({ address: SECOND, label: 'Savings', index: 1 });
    const ipc = mockCommands({ getPinStatus: () => pinStatus(), addAccount: () => [walletAccount(), added] });
    const view = page([walletAccount()]);
    await view.user.click(screen.getByRole('button', { name: 'Add account' }));
    const name = screen.getAllByLabelText('Name').at(-1)!;
    expect(name).toHaveAttribute('placeholder', 'Account 2');
    await view.user.type(name, 'Savings');
    await view.user.type(screen.getByLabelText('Enter your PIN'), '246810');
    await view.user.click(screen.getByRole('button', { name: 'Add account' }));
    await tick();
    expect(ipc.argsOf('addAccount')).toStrictEqual([{ pin: '246810', label: 'Savings' }]);
    expect(view.onChange).toHaveBeenCalledWith([walletAccount(), added]);
    expect(screen.getByTestId('account-added')).toHaveTextContent('Savings is added');
    expect(localStorage.getItem('satchel.account')).toBe(SECOND.toLowerCase());
  });

  it('adds nothing after a wrong PIN and says so', async () => {
    const ipc = mockCommands({ getPinStatus: () => pinStatus({ triesLeft: 4 }), addAccount: () => fail('WrongPin', 'wrong PIN') });
    const view = page([walletAccount()]);
    await view.user.click(screen.getByRole('button', { name: 'Add account' }));
    await view.user.type(screen.getByLabelText('Enter your PIN'), '111111');
    await view.user.click(screen.getByRole('button', { name: 'Add account' }));
    await tick();
    expect(ipc.count('addAccount')).toBe(1);
    expect(view.onChange).not.toHaveBeenCalled();
    expect(screen.queryByTestId('account-added')).toBeNull();
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(localStorage.getItem('satchel.account')).toBeNull();
  });

  it('offers no more accounts once the wallet has as many as it keeps', () => {
    mockCommands({});
    const many = Array.from({ length: 20 }, (_, i) => walletAccount({ address: `0x${(i + 1).toString(16).padStart(40, '0')}`, index: i }));
    page(many);
    expect(screen.queryByRole('button', { name: 'Add account' })).toBeNull();
    expect(screen.getByText('A wallet keeps at most 20 accounts.')).toBeInTheDocument();
  });
});
