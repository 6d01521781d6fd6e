import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Receive } from './Receive';
import type { AccountRef, ReceiveInfo } from '../../api';
import { ADDRESS, TOKEN, deferred, fail, mockCommands, receiveInfo, renderPage, tick } from '../../test/harness';

const COIN: AccountRef = { network: 'anvil', address: ADDRESS };
const TOKEN_URI = `ethereum:${TOKEN}@31337/transfer?address=${ADDRESS}`;
const tokenInfo = () =>
  receiveInfo({ account: { network: 'anvil', address: ADDRESS, contract: TOKEN }, symbol: 'TKN', uri: TOKEN_URI });

function renderReceive(account: AccountRef = COIN, options: { strict?: boolean } = {}) {
  const onBack = vi.fn();
  const page = renderPage(<Receive account={account} onBack={onBack} />, options);
  return { onBack, ...page };
}

const byId = (id: string) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`no #${id}`);
  return element;
};

describe('Receive', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows busy skeletons while the app answers, then the network, what to send, the QR code, the address and a warning', async () => {
    const answer = deferred<ReceiveInfo>();
    const ipc = mockCommands({ receive: () => answer.promise });
    renderReceive();
    await tick();

    expect(byId('receive-page')).toHaveClass('subpage');
    const loading = screen.getByLabelText('Loading…');
    expect(loading).toHaveAttribute('aria-busy', 'true');
    expect(loading.querySelectorAll('.skeleton').length).toBeGreaterThanOrEqual(3);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();

    answer.resolve(receiveInfo());
    await tick();
    expect(screen.queryByLabelText('Loading…')).not.toBeInTheDocument();
    // The coin's account: no contract at all, not even an empty one.
    expect(ipc.argsOf('receive')).toStrictEqual([{ account: { network: 'anvil', address: ADDRESS } }]);

    expect(screen.getByRole('heading', { name: 'Receive ETH' })).toHaveFocus();
    expect(byId('receive-network')).toHaveTextContent(/^anvil · chain 31337$/);
    expect(byId('receive-what')).toHaveTextContent(/^Send only ETH and tokens on anvil to this address\.$/);
    expect(byId('receive-warning')).toHaveTextContent('Funds sent from a network other than anvil can be lost.');

    // The app draws the QR code of the payment URI, through its own protocol.
    const qr = screen.getByRole('img', { name: 'QR code of your ETH address on anvil' });
    expect(qr).toHaveAttribute('id', 'receive-qr');
    expect(qr).toHaveAttribute('src', `satchel://localhost/qr%2Fethereum%3A${ADDRESS}%4031337`);
    expect(qr).toHaveAttribute('width', '232');
    expect(qr).toHaveAttribute('height', '232');

    // The whole address: blocks of four on screen, the address itself as text.
    const address = byId('receive-address');
    expect(address.textContent).toBe(ADDRESS);
    expect(Array.from(address.querySelectorAll('span'), (s) => s.textContent)).toEqual([
      '0x',
      '5290',
      '8400',
      '0985',
      '2788',
      '6E0F',
      '7030',
      '0698',
      '57D2',
      'E416',
      '9EE7',
    ]);
    expect(screen.getByRole('button', { name: 'Copy address' })).toHaveAttribute('id', 'receive-copy');
  });

  it('for a token, asks with its contract, names only the token and shows the QR code of its transfer URI', async () => {
    const ipc = mockCommands({ receive: tokenInfo });
    renderReceive({ network: 'anvil', address: ADDRESS, contract: TOKEN });
    await tick();

    expect(ipc.argsOf('receive')).toStrictEqual([{ account: { network: 'anvil', address: ADDRESS, contract: TOKEN } }]);
    expect(screen.getByRole('heading', { name: 'Receive TKN' })).toBeInTheDocument();
    expect(byId('receive-network')).toHaveTextContent(/^anvil · chain 31337$/);
    expect(byId('receive-what')).toHaveTextContent(/^Send only TKN on anvil to this address\.$/);
    expect(byId('receive-qr')).toHaveAttribute('src', `satchel://localhost/qr%2F${encodeURIComponent(TOKEN_URI)}`);
    // The address to pay is the account's, not the token's contract.
    expect(byId('receive-address').textContent).toBe(ADDRESS);
  });

  it('shows the checksummed address the app gives, whatever case the account came in', async () => {
    const ipc = mockCommands({ receive: () => receiveInfo() });
    renderReceive({ network: 'anvil', address: ADDRESS.toLowerCase() });
    await tick();

    expect(ipc.argsOf('receive')).toStrictEqual([{ account: { network: 'anvil', address: ADDRESS.toLowerCase() } }]);
    expect(byId('receive-address').textContent).toBe(ADDRESS);
  });

  it('copies the whole address and says Copied for a moment', async () => {
    mockCommands({ receive: () => receiveInfo() });
    const page = renderReceive();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await tick();

    await page.user.click(screen.getByRole('button', { name: 'Copy address' }));
    await tick();
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(byId('receive-copy')).toHaveTextContent('Copied');
    await tick(1500);
    expect(byId('receive-copy')).toHaveTextContent('Copy address');
  });

  it('goes back with its Back button and with Esc', async () => {
    mockCommands({ receive: () => receiveInfo() });
    const page = renderReceive();
    await tick();

    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    expect(page.onBack).toHaveBeenCalledTimes(1);
    await page.user.keyboard('{Escape}');
    expect(page.onBack).toHaveBeenCalledTimes(2);
  });

  it('goes back with Esc while it is still loading', async () => {
    mockCommands({ receive: () => deferred<ReceiveInfo>().promise });
    const page = renderReceive();
    await tick();

    await page.user.keyboard('{Escape}');
    expect(page.onBack).toHaveBeenCalledTimes(1);
  });

  it('shows a failure in words with a retry that recovers', async () => {
    let tries = 0;
    const ipc = mockCommands({
      receive: () => {
        tries += 1;
        return tries === 1 ? fail('NotConnectedInternet', 'dns error') : receiveInfo();
      },
    });
    const page = renderReceive();
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Satchel cannot reach its service. Check the connection and try again.');
    expect(screen.queryByLabelText('Loading…')).not.toBeInTheDocument();
    expect(document.getElementById('receive-address')).not.toBeInTheDocument();
    expect(document.getElementById('receive-qr')).not.toBeInTheDocument();

    await page.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await tick();

    expect(ipc.count('receive')).toBe(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(byId('receive-address').textContent).toBe(ADDRESS);
  });

  it('says so when the QR code cannot be shown, and keeps the address to copy', async () => {
    mockCommands({ receive: () => receiveInfo() });
    renderReceive();
    await tick();

    fireEvent.error(byId('receive-qr'));
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('The QR code cannot be shown. Copy the address instead.')).toBeInTheDocument();
    expect(byId('receive-address').textContent).toBe(ADDRESS);
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeEnabled();
  });

  it('asks the app once on entry under StrictMode', async () => {
    const ipc = mockCommands({ receive: () => receiveInfo() });
    renderReceive(COIN, { strict: true });
    await tick();

    expect(ipc.count('receive')).toBe(1);
    expect(byId('receive-address').textContent).toBe(ADDRESS);
  });
});
