import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectPrompt } from '../../api';
import { ConnectRequest } from './ConnectRequest';
import { ADDRESS, mockCommands, renderPage, tick, walletAccount } from '../../test/harness';

const web: ConnectPrompt = { id: 3, origin: 'https://dapp.example', local: false, waiting: 0, request: { kind: 'connect', throughExtension: false } };

describe('ConnectRequest', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('names the site large and plain, says what it will see, and Connect answers yes', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null });
    const page = renderPage(<ConnectRequest prompt={web} loggedIn />);
    await tick();
    expect(screen.getByTestId('connect-origin')).toHaveTextContent('https://dapp.example');
    // One account: nothing to choose.
    expect(screen.queryByTestId('connect-accounts')).toBeNull();
    expect(screen.getByText("It will see your wallet's address and balances.")).toBeInTheDocument();
    await page.user.click(screen.getByTestId('connect-approve'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 3, approve: true, accounts: [ADDRESS] }]);
  });

  it('lets the person choose which accounts it sees: the shown one unless they tick others', async () => {
    const second = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const ipc = mockCommands({
      answerConnectRequest: () => null,
      getWalletAccounts: () => [walletAccount(), walletAccount({ address: second, label: 'Savings', index: 1 })],
    });
    localStorage.setItem('satchel.account', second.toLowerCase());
    const page = renderPage(<ConnectRequest prompt={web} loggedIn />);
    await tick();
    const first = screen.getByLabelText(/^Account 1/);
    const savings = screen.getByLabelText(/^Savings/);
    expect(first).not.toBeChecked();
    expect(savings).toBeChecked();
    await page.user.click(savings);
    expect(screen.getByTestId('connect-approve')).toBeDisabled();
    await page.user.click(first);
    await page.user.click(savings);
    await page.user.click(screen.getByTestId('connect-approve'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 3, approve: true, accounts: [ADDRESS, second] }]);
  });

  it('says how the request came: a site named by the browser through Satchel Connector, or a name anyone could send straight to Satchel', () => {
    mockCommands({});
    const page = renderPage(<ConnectRequest prompt={{ ...web, request: { kind: 'connect', throughExtension: true } }} loggedIn />);
    expect(screen.getByTestId('connect-through-extension')).toHaveTextContent('your browser named the site');
    expect(screen.queryByTestId('connect-straight-to-satchel')).toBeNull();
    page.unmount();
    renderPage(<ConnectRequest prompt={web} loggedIn />);
    expect(screen.getByTestId('connect-straight-to-satchel')).toHaveTextContent('a program on this computer can give any site');
    expect(screen.queryByTestId('connect-through-extension')).toBeNull();
  });

  it('answers no on Cancel', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null });
    const page = renderPage(<ConnectRequest prompt={web} loggedIn />);
    await page.user.click(screen.getByTestId('connect-cancel'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 3, approve: false }]);
  });

  it('shows a page’s text as text, never as markup', () => {
    mockCommands({});
    renderPage(<ConnectRequest prompt={{ ...web, origin: 'https://<b>bold</b>.example' }} loggedIn />);
    expect(screen.getByTestId('connect-origin').textContent).toBe('https://<b>bold</b>.example');
    expect(screen.getByTestId('connect-origin').querySelector('b')).toBeNull();
  });

  it('names a local program as such, says how many more wait, and asks to log in first', () => {
    mockCommands({});
    renderPage(<ConnectRequest prompt={{ id: 4, origin: 'a program on this computer', local: true, waiting: 2, request: { kind: 'connect', throughExtension: false } }} loggedIn={false} />);
    expect(screen.getByTestId('connect-origin')).toHaveTextContent('A program on this computer');
    expect(screen.getByTestId('connect-waiting')).toHaveTextContent('2 more');
    expect(screen.getByTestId('connect-login-first')).toBeInTheDocument();
    expect(screen.getByTestId('connect-approve')).toBeDisabled();
  });

  it('offers to log in first when nobody is, and the request waits', async () => {
    const ipc = mockCommands({});
    const onLogIn = vi.fn();
    const page = renderPage(<ConnectRequest prompt={web} loggedIn={false} onLogIn={onLogIn} />);
    expect(screen.getByTestId('connect-login-first')).toBeInTheDocument();
    expect(screen.queryByTestId('connect-approve')).toBeNull();
    await page.user.click(screen.getByTestId('connect-log-in'));
    expect(onLogIn).toHaveBeenCalledOnce();
    expect(ipc.count('answerConnectRequest')).toBe(0);
  });
});
