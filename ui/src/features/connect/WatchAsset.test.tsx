import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectPrompt, WatchAssetPrompt } from '../../api';
import { ConnectRequest } from './ConnectRequest';
import { mockCommands, renderPage, tick } from '../../test/harness';

const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

function prompt(over: Partial<WatchAssetPrompt> = {}): ConnectPrompt {
  return {
    id: 9,
    origin: 'https://dapp.example',
    local: false,
    waiting: 0,
    request: {
      kind: 'watchAsset',
      token: { contract: CONTRACT, network: 'anvil', name: 'Fresh Coin', symbol: 'FRSH', decimals: 9, balance: '0', tracked: false, configured: false },
      askedSymbol: 'FRSH',
      askedDecimals: 9,
      ...over,
    },
  };
}

describe('WatchAsset', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it("shows the contract's own facts and adds the token when the person agrees", async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null });
    const page = renderPage(<ConnectRequest prompt={prompt()} loggedIn />);
    expect(screen.getByTestId('connect-origin')).toHaveTextContent('https://dapp.example');
    expect(screen.getByText('This site suggests a token for your wallet:')).toBeInTheDocument();
    expect(screen.getByTestId('token-symbol')).toHaveTextContent('FRSH');
    expect(screen.getByTestId('token-decimals')).toHaveTextContent('9');
    await page.user.click(screen.getByTestId('watch-add'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 9, approve: true }]);
  });

  it('refuses in red a suggestion that is not what the contract says, with only Reject', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null });
    const refusal = 'The application calls this token USDC with 6 decimals, but its contract says FRSH with 9: it is not listed.';
    const page = renderPage(<ConnectRequest prompt={prompt({ askedSymbol: 'USDC', askedDecimals: 6, refusal })} loggedIn />);
    expect(screen.getByTestId('sign-refusal')).toHaveTextContent('Satchel will not add this token.');
    expect(screen.getByTestId('sign-refusal')).toHaveTextContent('calls this token USDC');
    expect(screen.queryByTestId('watch-add')).toBeNull();
    await page.user.click(screen.getByTestId('sign-reject'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 9, approve: false }]);
  });
});
