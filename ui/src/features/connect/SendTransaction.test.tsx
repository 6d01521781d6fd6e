import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallReview, ConnectPrompt, TransactionPrompt } from '../../api';
import { ConnectRequest } from './ConnectRequest';
import { ADDRESS, RECIPIENT, feeOption, mockCommands, pinStatus, renderPage, sendQuote, tick } from '../../test/harness';

const NFT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';

function call(overrides: Partial<CallReview> = {}): CallReview {
  return { from: ADDRESS, to: NFT, value: '0', call: { kind: 'unknown', selector: '0x1249c58b' }, data: '0x1249c58b', takesEverything: false, ...overrides };
}

function prompt(request: Partial<TransactionPrompt> = {}): ConnectPrompt {
  return {
    id: 11,
    origin: 'http://localhost:5173',
    local: false,
    waiting: 0,
    request: {
      kind: 'sendTransaction',
      call: call(),
      prepared: {
        quote: sendQuote({ to: NFT, amount: '0', recipientIsContract: true }),
        changes: [{ direction: 'in', kind: 'erc721', amount: '1', contract: NFT, tokenId: '4', counterparty: '0x0000000000000000000000000000000000000000' }],
      },
      ...request,
    },
  };
}

describe('SendTransaction', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows a contract call by its selector, what it will move, the fee, and sends with the PIN', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null, getPinStatus: () => pinStatus() });
    const page = renderPage(<ConnectRequest prompt={prompt()} loggedIn />);
    expect(screen.getByText('Send a transaction?')).toBeInTheDocument();
    expect(screen.getByTestId('tx-summary')).toHaveTextContent('Call a contract (function 0x1249c58b)');
    expect(screen.getByTestId('tx-data')).toHaveTextContent('0x1249c58b');
    expect(screen.getByTestId('tx-changes')).toHaveTextContent(`You receive NFT #4 of ${NFT}`);
    expect(screen.getByTestId('send-fee')).toHaveTextContent('0.000031 ETH');
    await page.user.click(screen.getByTestId('tx-speed-fast'));
    expect(screen.getByTestId('send-fee')).toHaveTextContent('0.000042 ETH');
    await page.user.type(screen.getByTestId('sign-pin'), '123456');
    await page.user.click(screen.getByTestId('sign-approve'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 11, approve: true, pin: '123456', speed: 'fast', acceptHighFee: false }]);
  });

  it('says a deployment is one, with its code size and where the new contract will be', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    const created = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const deploy = call({ to: undefined, call: { kind: 'deploy', codeSize: 1234 }, data: '0x6080' });
    renderPage(<ConnectRequest prompt={prompt({ call: deploy, prepared: { quote: sendQuote({ to: created, amount: '0' }), changes: [] } })} loggedIn />);
    expect(screen.getByTestId('tx-summary')).toHaveTextContent('Deploy a new contract from 1234 bytes of code');
    expect(screen.getByTestId('tx-deploy-caution')).toHaveTextContent('Deploy only code you trust');
    expect(screen.queryByTestId('tx-to')).toBeNull();
    expect(screen.getByTestId('tx-new-contract')).toHaveTextContent(created);
    expect(screen.getByTestId('sign-approve')).toBeInTheDocument();
  });

  it('says a known token transfer in words and shows what leaves the account', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    const transfer = call({ call: { kind: 'transfer', to: RECIPIENT, amount: '1500000000000000000', symbol: 'DEMO', decimals: 18 } });
    renderPage(
      <ConnectRequest
        prompt={prompt({
          call: transfer,
          prepared: { quote: sendQuote(), changes: [{ direction: 'out', kind: 'erc20', amount: '1.5', symbol: 'DEMO', counterparty: RECIPIENT }] },
        })}
        loggedIn
      />,
    );
    expect(screen.getByTestId('tx-summary')).toHaveTextContent(`Send 1.5 DEMO to ${RECIPIENT}`);
    expect(screen.getByTestId('tx-changes')).toHaveTextContent('You send 1.5 DEMO');
    expect(screen.queryByTestId('tx-takes-everything')).toBeNull();
  });

  it('warns of a look-alike recipient as a send does, and holds the PIN until the person checked it', async () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    const quote = sendQuote({ warnings: [{ kind: 'lookAlike', of: RECIPIENT, name: 'Bob' }] });
    const page = renderPage(<ConnectRequest prompt={prompt({ call: call({ call: { kind: 'plain' }, value: '1000' }), prepared: { quote } })} loggedIn />);
    expect(screen.getByTestId('send-recipient-danger')).toHaveTextContent('looks like “Bob”');
    await page.user.type(screen.getByTestId('sign-pin'), '123456');
    expect(screen.getByTestId('sign-approve')).toBeDisabled();
    await page.user.click(screen.getByTestId('send-accept-recipient'));
    expect(screen.getByTestId('sign-approve')).toBeEnabled();
  });

  it('shows an unlimited approval and an operator for every NFT in red', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    const approve = call({ call: { kind: 'approve', spender: RECIPIENT, amount: '1', symbol: 'DEMO', decimals: 18, unlimited: true, adds: false }, takesEverything: true });
    const { unmount } = renderPage(<ConnectRequest prompt={prompt({ call: approve })} loggedIn />);
    expect(screen.getByTestId('tx-summary')).toHaveTextContent(`Allow ${RECIPIENT} to spend ALL your DEMO`);
    expect(screen.getByTestId('tx-takes-everything')).toHaveTextContent('take everything of this token');
    unmount();
    const operator = call({ call: { kind: 'setApprovalForAll', operator: RECIPIENT, approved: true }, takesEverything: true });
    renderPage(<ConnectRequest prompt={prompt({ call: operator })} loggedIn />);
    expect(screen.getByTestId('tx-takes-everything')).toHaveTextContent('every NFT of this collection');
  });

  it('shows the approvals the simulation saw the call give, one that takes everything in red', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    const prepared = {
      quote: sendQuote({ to: NFT, amount: '0', recipientIsContract: true }),
      changes: [],
      approvals: [
        { kind: 'allowance' as const, contract: NFT, spender: RECIPIENT, amount: '2.5', symbol: 'DEMO', takesEverything: false, withdrawn: false },
        { kind: 'allowance' as const, contract: NFT, spender: RECIPIENT, amount: '1', takesEverything: true, withdrawn: false },
        { kind: 'operator' as const, contract: NFT, spender: RECIPIENT, takesEverything: true, withdrawn: false },
      ],
    };
    renderPage(<ConnectRequest prompt={prompt({ prepared })} loggedIn />);
    const items = screen.getByTestId('tx-approvals').querySelectorAll('li');
    expect(items[0]).toHaveTextContent(`${RECIPIENT} may spend 2.5 DEMO`);
    expect(items[0]).not.toHaveClass('out');
    expect(items[1]).toHaveTextContent(`${RECIPIENT} may spend ALL your tokens of ${NFT}`);
    expect(items[1]).toHaveClass('out');
    expect(items[2]).toHaveTextContent(`${RECIPIENT} may move ALL your NFTs of ${NFT}`);
    expect(items[2]).toHaveClass('out');
  });

  it('says an increase of an allowance and a Permit2 approval in words', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    const more = call({ call: { kind: 'approve', spender: RECIPIENT, amount: '5000000000000000000', symbol: 'DEMO', decimals: 18, unlimited: false, adds: true } });
    const { unmount } = renderPage(<ConnectRequest prompt={prompt({ call: more })} loggedIn />);
    expect(screen.getByTestId('tx-summary')).toHaveTextContent(`Allow ${RECIPIENT} to spend 5 more DEMO`);
    unmount();
    const permit2 = call({
      call: { kind: 'permit2Approve', token: NFT, spender: RECIPIENT, amount: '1', unlimited: true },
      takesEverything: true,
    });
    renderPage(<ConnectRequest prompt={prompt({ call: permit2 })} loggedIn />);
    expect(screen.getByTestId('tx-summary')).toHaveTextContent(`Allow ${RECIPIENT} to spend ALL your tokens of ${NFT} through Permit2. Until no end date.`);
    expect(screen.getByTestId('tx-takes-everything')).toBeInTheDocument();
  });

  it('refuses a transaction that would fail before the PIN, with only Reject', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null, getPinStatus: () => pinStatus() });
    const refusal = 'the transaction would fail: execution reverted: sold out';
    const page = renderPage(<ConnectRequest prompt={prompt({ prepared: undefined, refusal })} loggedIn />);
    expect(screen.getByTestId('sign-refusal')).toHaveTextContent(refusal);
    expect(screen.queryByTestId('sign-pin')).toBeNull();
    await page.user.click(screen.getByTestId('sign-reject'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 11, approve: false }]);
  });

  it('says when the node could not simulate, and holds an unusually high fee until accepted', async () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    const quote = sendQuote({ options: [feeOption('slow'), feeOption('normal', { highFee: 'aboveBaseFee' }), feeOption('fast')] });
    const page = renderPage(<ConnectRequest prompt={prompt({ prepared: { quote } })} loggedIn />);
    expect(screen.getByTestId('tx-no-simulation')).toBeInTheDocument();
    await page.user.type(screen.getByTestId('sign-pin'), '123456');
    expect(screen.getByTestId('sign-approve')).toBeDisabled();
    await page.user.click(screen.getByLabelText('I understand, and want to pay this fee'));
    expect(screen.getByTestId('sign-approve')).toBeEnabled();
  });
});
