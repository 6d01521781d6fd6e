import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectPrompt, Permit, TypedReview } from '../../api';
import { ConnectRequest } from './ConnectRequest';
import { mockCommands, pinStatus, renderPage, tick } from '../../test/harness';

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SPENDER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

const leaf = (name: string, typeName: string, value: string) => ({ name, typeName, value, fields: [] });

function prompt(review: Partial<TypedReview>): ConnectPrompt {
  return {
    id: 9,
    origin: 'https://dapp.example',
    local: false,
    waiting: 1,
    request: {
      kind: 'signTypedData',
      account: ACCOUNT,
      primaryType: 'Mail',
      domain: [leaf('name', 'string', 'Mailer'), leaf('chainId', 'uint256', '31337')],
      message: [
        leaf('to', 'string', 'Bob'),
        { name: 'tags', typeName: 'string[]', fields: [leaf('[0]', 'string', 'first'), leaf('[1]', 'string', 'second')] },
      ],
      truncated: false,
      ...review,
    },
  };
}

const permit = (overrides: Partial<Permit['allowances'][number]> = {}): Permit => ({
  standard: 'Permit',
  spender: SPENDER,
  allowances: [{ token: TOKEN, symbol: 'DEMO', decimals: 18, amount: '1500000000000000000', unlimited: false, ...overrides }],
  until: 1_900_000_000,
  chainId: 31337,
});

describe('SignTypedData', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows the domain and the message as a tree and signs with the PIN', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null, getPinStatus: () => pinStatus() });
    const page = renderPage(<ConnectRequest prompt={prompt({})} loggedIn />);
    expect(screen.getByText('Sign this data?')).toBeInTheDocument();
    expect(within(screen.getByTestId('typed-domain')).getByText('Mailer')).toBeInTheDocument();
    const message = screen.getByTestId('typed-message');
    expect(within(message).getByText('Bob')).toBeInTheDocument();
    expect(within(message).getByText('second')).toBeInTheDocument();
    expect(screen.queryByTestId('permit-summary')).toBeNull();
    expect(screen.getByText('What is signed').closest('details')).toHaveAttribute('open');
    expect(screen.getByText('This site asks for your signature:')).toBeInTheDocument();
    expect(screen.getByTestId('connect-waiting')).toHaveTextContent('1 more');
    await page.user.type(screen.getByTestId('sign-pin'), '123456');
    await page.user.click(screen.getByTestId('sign-approve'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 9, approve: true, pin: '123456' }]);
  });

  it('says a permit in words: who may spend how much of which token until when', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    renderPage(<ConnectRequest prompt={prompt({ primaryType: 'Permit', permit: permit() })} loggedIn />);
    expect(screen.getByText('Allow spending your tokens?')).toBeInTheDocument();
    const summary = screen.getByTestId('permit-summary');
    expect(summary).toHaveClass('warning');
    expect(screen.getByTestId('permit-spender').textContent).toBe(SPENDER);
    expect(screen.getByTestId('permit-allowance')).toHaveTextContent('1.5 DEMO');
    expect(screen.getByTestId('permit-until')).toHaveTextContent('2030');
    expect(screen.getByTestId('permit-chain')).toHaveTextContent('On chain 31337.');
    // Said in words: what is signed is one click away.
    expect(screen.getByText('What is signed').closest('details')).not.toHaveAttribute('open');
  });

  it('shows an unlimited permit in red, and an unknown token by its contract', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    renderPage(
      <ConnectRequest
        prompt={prompt({ permit: { ...permit({ unlimited: true, symbol: undefined, decimals: undefined }), until: undefined } })}
        loggedIn
      />,
    );
    expect(screen.getByTestId('permit-summary')).toHaveClass('danger');
    expect(screen.getByTestId('permit-allowance')).toHaveTextContent(`an unlimited amount of the token at ${TOKEN}`);
    expect(screen.getByTestId('permit-allowance')).toHaveClass('unlimited');
    expect(screen.getByTestId('permit-until')).toHaveTextContent('no end date');
  });

  it('refuses data for another chain in red, with only Reject', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null, getPinStatus: () => pinStatus() });
    const refusal = 'This signature is for chain 1, but this site is on chain 31337.';
    const page = renderPage(<ConnectRequest prompt={prompt({ refusal })} loggedIn />);
    expect(screen.getByTestId('sign-refusal')).toHaveTextContent(refusal);
    expect(screen.queryByTestId('sign-pin')).toBeNull();
    await page.user.click(screen.getByTestId('sign-reject'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 9, approve: false }]);
  });

  it('says when more fields exist than shown', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    renderPage(<ConnectRequest prompt={prompt({ truncated: true })} loggedIn />);
    expect(screen.getByText('It has more fields than shown here.')).toBeInTheDocument();
  });

  it('says a market order in words, and one that gives an NFT for nothing in red', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    const NFT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
    const gives = [{ kind: 'erc721' as const, token: NFT, tokenId: '4', amount: '1' }];
    const { unmount } = renderPage(
      <ConnectRequest
        prompt={prompt({
          primaryType: 'OrderComponents',
          order: {
            offerer: ACCOUNT,
            gives,
            receives: [{ kind: 'coin', token: '0x0000000000000000000000000000000000000000', amount: '975000000000000000', decimals: 18 }],
            othersReceive: [{ kind: 'coin', token: '0x0000000000000000000000000000000000000000', amount: '25000000000000000', decimals: 18, recipient: SPENDER }],
            until: 1_900_000_000,
            givesForNothing: false,
          },
        })}
        loggedIn
      />,
    );
    expect(screen.getByText('Sign a market order?')).toBeInTheDocument();
    expect(screen.getByTestId('order-gives')).toHaveTextContent(`NFT #4 of ${NFT}`);
    expect(screen.getByTestId('order-receives')).toHaveTextContent('0.975 ETH');
    expect(screen.getByTestId('order-others')).toHaveTextContent('0.025 ETH');
    expect(screen.getByTestId('order-summary')).not.toHaveClass('danger');
    unmount();
    renderPage(
      <ConnectRequest
        prompt={prompt({ primaryType: 'OrderComponents', order: { offerer: ACCOUNT, gives, receives: [], othersReceive: [], givesForNothing: true } })}
        loggedIn
      />,
    );
    expect(screen.getByTestId('order-receives')).toHaveTextContent('Nothing.');
    expect(screen.getByTestId('order-for-nothing')).toHaveTextContent('You give this for nothing');
    expect(screen.getByTestId('order-summary')).toHaveClass('danger');
  });
});
