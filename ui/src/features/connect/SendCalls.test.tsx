import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallReview, ConnectPrompt, TransactionPrompt } from '../../api';
import { ConnectRequest } from './ConnectRequest';
import { ADDRESS, RECIPIENT, mockCommands, pinStatus, renderPage, sendQuote, tick } from '../../test/harness';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const NFT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';

function call(overrides: Partial<CallReview>): CallReview {
  return { from: ADDRESS, to: NFT, value: '0', call: { kind: 'plain' }, data: '0x', takesEverything: false, ...overrides };
}

const approve: TransactionPrompt = {
  call: call({ to: TOKEN, call: { kind: 'approve', spender: NFT, amount: '1000000000000000000', symbol: 'DEMO', decimals: 18, unlimited: false, adds: false } }),
  prepared: { quote: sendQuote({ to: TOKEN, amount: '0', recipientIsContract: true }), changes: [], approvals: [] },
};
const buy: TransactionPrompt = {
  call: call({ call: { kind: 'unknown', selector: '0x12345678' }, data: '0x12345678' }),
  refusal: 'the transaction would fail: allowance too low',
};

function prompt(calls: TransactionPrompt[]): ConnectPrompt {
  return { id: 21, origin: 'http://localhost:5173', local: false, waiting: 0, request: { kind: 'sendCalls', calls } };
}

describe('SendCalls', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows every call on one page, says they go one after another, and sends them all with one PIN', async () => {
    const ipc = mockCommands({ answerConnectRequest: () => null, getPinStatus: () => pinStatus() });
    const page = renderPage(<ConnectRequest prompt={prompt([approve, buy])} loggedIn />);
    expect(screen.getByText('Send 2 transactions?')).toBeInTheDocument();
    expect(screen.getByTestId('calls-not-atomic')).toHaveTextContent('one after another');
    const calls = screen.getAllByTestId('calls-call');
    expect(calls).toHaveLength(2);
    expect(within(calls[0]).getByTestId('tx-summary')).toHaveTextContent(`Allow ${NFT} to spend 1 DEMO`);
    // The second needs the first: shown with why, not refused.
    expect(within(calls[1]).getByTestId('calls-fails-alone')).toHaveTextContent('allowance too low');
    expect(screen.getByTestId('calls-total-fee')).toHaveTextContent('0.000031 ETH');
    await page.user.type(screen.getByTestId('sign-pin'), '123456');
    await page.user.click(screen.getByTestId('sign-approve'));
    await tick();
    expect(ipc.argsOf('answerConnectRequest')).toStrictEqual([{ id: 21, approve: true, pin: '123456', speed: 'normal', acceptHighFee: false }]);
  });

  it('offers only Reject when the first call cannot be sent', () => {
    mockCommands({ getPinStatus: () => pinStatus() });
    renderPage(<ConnectRequest prompt={prompt([buy, approve])} loggedIn />);
    expect(screen.getByTestId('sign-refusal')).toHaveTextContent('allowance too low');
    expect(screen.getByTestId('sign-reject')).toBeInTheDocument();
    expect(screen.queryByTestId('sign-pin')).toBeNull();
    expect(RECIPIENT).toBeDefined();
  });
});
