import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AddableToken, OwnToken } from '../../api';
import { AddToken } from './AddToken';
import { fail, mockCommands, renderPage, tick } from '../../test/harness';

const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

const fresh = (over: Partial<AddableToken> = {}): AddableToken => ({
  contract: CONTRACT,
  network: 'anvil',
  name: 'Fresh Coin',
  symbol: 'FRSH',
  decimals: 9,
  balance: '123456789012345',
  tracked: false,
  configured: false,
  ...over,
});

const own: OwnToken = { network: 'anvil', contract: CONTRACT, name: 'Fresh Coin', symbol: 'FRSH', decimals: 9 };

describe('AddToken', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it("looks up and adds for the shown account, when it is not the first", async () => {
    const savings = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const ipc = mockCommands({ getOwnTokens: () => [], previewToken: () => fresh(), addToken: () => fresh({ tracked: true }) });
    const page = renderPage(<AddToken network="anvil" account={savings} onBack={() => undefined} />);
    await page.user.type(screen.getByLabelText("The token's contract address"), CONTRACT);
    await page.user.click(screen.getByRole('button', { name: 'Look it up' }));
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Add FRSH' }));
    await tick();
    expect(ipc.argsOf('previewToken')).toStrictEqual([{ network: 'anvil', contract: CONTRACT, account: savings }]);
    expect(ipc.argsOf('addToken')).toStrictEqual([{ network: 'anvil', contract: CONTRACT, symbol: 'FRSH', decimals: 9, account: savings }]);
  });

  it('shows what the contract says, with its exact balance, and adds what was shown', async () => {
    let added: OwnToken[] = [];
    const ipc = mockCommands({
      getOwnTokens: () => added,
      previewToken: () => fresh(),
      addToken: () => {
        added = [own];
        return fresh({ tracked: true });
      },
    });
    const page = renderPage(<AddToken network="anvil" onBack={() => undefined} />);
    await page.user.type(screen.getByLabelText("The token's contract address"), ` ${CONTRACT} `);
    await page.user.click(screen.getByRole('button', { name: 'Look it up' }));
    await tick();
    expect(ipc.argsOf('previewToken')).toStrictEqual([{ network: 'anvil', contract: CONTRACT }]);
    expect(screen.getByTestId('token-symbol')).toHaveTextContent('FRSH');
    expect(screen.getByTestId('token-name')).toHaveTextContent('Fresh Coin');
    expect(screen.getByTestId('token-decimals')).toHaveTextContent('9');
    expect(screen.getByTestId('token-balance')).toHaveTextContent('123,456.789012 FRSH');
    expect(screen.getByTestId('token-caution')).toHaveTextContent('Anyone can make a token');
    await page.user.click(screen.getByRole('button', { name: 'Add FRSH' }));
    await tick();
    expect(ipc.argsOf('addToken')).toStrictEqual([{ network: 'anvil', contract: CONTRACT, symbol: 'FRSH', decimals: 9 }]);
    expect(screen.queryByTestId('token-found')).toBeNull();
    expect(screen.getByTestId('own-token-FRSH')).toHaveTextContent('Fresh Coin');
  });

  it('says a token listed already is there, with no Add', async () => {
    mockCommands({ getOwnTokens: () => [], previewToken: () => fresh({ symbol: 'DEMO', configured: true, tracked: true }) });
    const page = renderPage(<AddToken network="anvil" onBack={() => undefined} />);
    await page.user.type(screen.getByLabelText("The token's contract address"), CONTRACT);
    await page.user.click(screen.getByRole('button', { name: 'Look it up' }));
    await tick();
    expect(screen.getByTestId('token-listed')).toHaveTextContent('DEMO is in your wallet already');
    expect(screen.queryByRole('button', { name: 'Add DEMO' })).toBeNull();
  });

  it('shows why an address is not a token, and adds nothing', async () => {
    const ipc = mockCommands({
      getOwnTokens: () => [],
      previewToken: () => fail('InvalidParameters', 'not an ERC-20 token on this network'),
    });
    const page = renderPage(<AddToken network="anvil" onBack={() => undefined} />);
    await page.user.type(screen.getByLabelText("The token's contract address"), CONTRACT);
    await page.user.click(screen.getByRole('button', { name: 'Look it up' }));
    await tick();
    expect(await screen.findByRole('alert')).toHaveTextContent('not an ERC-20 token');
    expect(screen.queryByTestId('token-found')).toBeNull();
    expect(ipc.count('addToken')).toBe(0);
  });

  it('removes a token the person added', async () => {
    const ipc = mockCommands({ getOwnTokens: () => [own], removeToken: () => [] });
    const page = renderPage(<AddToken network="anvil" onBack={() => undefined} />);
    await tick();
    await page.user.click(screen.getByTestId('remove-token-FRSH'));
    await tick();
    expect(ipc.argsOf('removeToken')).toStrictEqual([{ network: 'anvil', contract: CONTRACT }]);
    expect(screen.queryByTestId('own-token-FRSH')).toBeNull();
  });
});
