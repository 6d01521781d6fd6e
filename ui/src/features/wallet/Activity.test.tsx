import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Activity, ActivityDetail } from './Activity';
import type { ActivityEntry } from '../../api';
import {
  ADDRESS,
  RECIPIENT,
  TOKEN,
  TX_HASH,
  activityEntry,
  deferred,
  fail,
  feeOption,
  mockCommands,
  pinStatus,
  renderPage,
  sendQuote,
  tick,
} from '../../test/harness';

const OTHER = `0x${'cd'.repeat(32)}`;
const rows = () => screen.getAllByTestId('activity-row');

describe('Activity', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('lists the transactions newest first with what happened, their status and the fee of a sent one', async () => {
    mockCommands({
      getActivity: () => [
        activityEntry({ status: 'pending' }),
        activityEntry({ txHash: OTHER, direction: 'received', status: 'mined', symbol: 'TKN', amount: '5', contract: TOKEN, fee: undefined, blockNumber: 9 }),
        activityEntry({ txHash: '0x01', status: 'failed', amount: '0.000000000000000001' }),
        activityEntry({ txHash: '0x02', status: 'replaced', isCancel: true, amount: '0', counterparty: ADDRESS }),
      ],
    });
    renderPage(<Activity onOpen={vi.fn()} />);
    await tick();

    expect(screen.getByTestId('activity')).toContainElement(screen.getByRole('heading', { name: 'Activity' }));
    expect(rows().map((r) => [r.dataset.hash, r.dataset.status])).toEqual([
      [TX_HASH, 'pending'],
      [OTHER, 'mined'],
      ['0x01', 'failed'],
      ['0x02', 'replaced'],
    ]);
    const [sent, received, failed, cancelled] = rows();
    expect(sent).toHaveTextContent('Sent 0.1 ETH to 0x8ba1…BA72');
    expect(within(sent).getByText('Pending')).toBeInTheDocument();
    expect(sent).toHaveTextContent('Fee 0.000031 ETH');
    expect(received).toHaveTextContent('Received 5 TKN from 0x8ba1…BA72');
    expect(within(received).getByText('Confirmed')).toBeInTheDocument();
    expect(received).not.toHaveTextContent('Fee');
    expect(failed).toHaveTextContent('Sent < 0.000001 ETH to');
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    expect(cancelled).toHaveTextContent('Cancelled transaction');
    expect(within(cancelled).getByText('Replaced')).toBeInTheDocument();
  });

  it('shows busy rows while it loads, then says there is nothing yet and what will show', async () => {
    const answer = deferred<ActivityEntry[]>();
    mockCommands({ getActivity: () => answer.promise });
    renderPage(<Activity onOpen={vi.fn()} />);
    await tick();
    expect(within(screen.getByTestId('activity')).getByLabelText('Loading…')).toHaveAttribute('aria-busy', 'true');

    answer.resolve([]);
    await tick();
    expect(screen.getByText('No transactions yet')).toBeInTheDocument();
    expect(screen.getByText('What you send and receive shows up here.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading…')).not.toBeInTheDocument();
  });

  it('shows a failed load in words with a retry', async () => {
    let tries = 0;
    mockCommands({ getActivity: () => (++tries === 1 ? fail('NotConnectedInternet') : []) });
    const page = renderPage(<Activity onOpen={vi.fn()} />);
    await tick();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Satchel cannot reach its service.');
    await page.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await tick();
    expect(screen.getByText('No transactions yet')).toBeInTheDocument();
  });

  it('reads the list again every 3 s only while something in it is pending', async () => {
    let reads = 0;
    const ipc = mockCommands({
      getActivity: () => {
        reads += 1;
        return [activityEntry({ status: reads < 3 ? 'pending' : 'mined', blockNumber: reads < 3 ? undefined : 12 })];
      },
    });
    renderPage(<Activity onOpen={vi.fn()} />, { strict: true });
    await tick();
    expect(ipc.count('getActivity')).toBe(1);

    await tick(3000);
    expect(ipc.count('getActivity')).toBe(2);
    expect(rows()[0]).toHaveAttribute('data-status', 'pending');
    await tick(3000);
    expect(ipc.count('getActivity')).toBe(3);
    expect(rows()[0]).toHaveAttribute('data-status', 'mined');

    await tick(30_000);
    expect(ipc.count('getActivity')).toBe(3);
  });

  it('never polls a list with nothing pending', async () => {
    const ipc = mockCommands({ getActivity: () => [activityEntry({ status: 'mined', blockNumber: 3 })] });
    renderPage(<Activity onOpen={vi.fn()} />);
    await tick(30_000);
    expect(ipc.count('getActivity')).toBe(1);
  });

  it('opens a row', async () => {
    mockCommands({ getActivity: () => [activityEntry({ status: 'mined', blockNumber: 3 })] });
    const onOpen = vi.fn();
    const page = renderPage(<Activity onOpen={onOpen} />);
    await tick();
    await page.user.click(rows()[0]);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ txHash: TX_HASH }));
  });
});

describe('ActivityDetail', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('saves the other side to the address book with a name', async () => {
    const ipc = mockCommands({ saveAddress: () => [] });
    const page = renderPage(<ActivityDetail entry={activityEntry({ status: 'mined', blockNumber: 42 })} onBack={vi.fn()} />);
    await page.user.click(screen.getByTestId('save-address'));
    await page.user.type(screen.getByTestId('save-address-name'), 'Bob');
    await page.user.click(screen.getByRole('button', { name: 'Save' }));
    await tick();
    expect(ipc.argsOf('saveAddress')).toStrictEqual([{ address: RECIPIENT, name: 'Bob' }]);
    expect(screen.getByTestId('save-address-done')).toHaveTextContent('Saved as “Bob”.');
  });

  it('shows a transaction in full: hash to copy, status, block, nonce, the other side, amount and fee', async () => {
    mockCommands({});
    const page = renderPage(<ActivityDetail entry={activityEntry({ status: 'mined', blockNumber: 42, fee: '0.000021' })} onBack={vi.fn()} />);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);

    const detail = screen.getByTestId('activity-detail');
    expect(detail).toHaveAttribute('data-status', 'mined');
    expect(within(detail).getByRole('heading', { name: 'Sent 0.1 ETH to 0x8ba1…BA72' })).toBeInTheDocument();
    expect(screen.getByTestId('activity-hash')).toHaveTextContent(TX_HASH);
    expect(within(detail).getByText('Confirmed')).toBeInTheDocument();
    expect(screen.getByTestId('activity-block')).toHaveTextContent('42');
    expect(screen.getByTestId('activity-nonce')).toHaveTextContent('7');
    expect(screen.getByTestId('activity-counterparty').textContent).toBe(RECIPIENT);
    expect(screen.getByTestId('activity-amount')).toHaveTextContent('0.1 ETH');
    expect(screen.getByTestId('activity-fee')).toHaveTextContent('0.000021 ETH');
    expect(screen.queryByTestId('activity-speed-up')).not.toBeInTheDocument();
    expect(screen.queryByTestId('activity-cancel')).not.toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Copy hash' }));
    await tick();
    expect(writeText).toHaveBeenCalledWith(TX_HASH);
    expect(screen.getByTestId('activity-copy-hash')).toHaveTextContent('Copied');
  });

  it('names a received transaction’s sender and offers no replacement for it', async () => {
    mockCommands({ getActivity: () => [] });
    renderPage(<ActivityDetail entry={activityEntry({ direction: 'received', fee: undefined })} onBack={vi.fn()} />);
    expect(screen.getByText('From')).toBeInTheDocument();
    expect(screen.queryByTestId('activity-speed-up')).not.toBeInTheDocument();
  });

  it('names a deployment and its new contract, which is cancelled but never sped up or saved as a recipient', async () => {
    mockCommands({ getActivity: () => [] });
    const entry = activityEntry({ kind: 'deployment', amount: '0', counterparty: TOKEN });
    renderPage(<ActivityDetail entry={entry} onBack={vi.fn()} />);
    const detail = screen.getByTestId('activity-detail');
    expect(within(detail).getByRole('heading', { name: /^Deployed a contract at 0x/ })).toBeInTheDocument();
    expect(screen.getByText('New contract')).toBeInTheDocument();
    expect(screen.getByTestId('activity-counterparty').textContent).toBe(TOKEN);
    expect(screen.queryByTestId('save-address')).not.toBeInTheDocument();
    expect(screen.queryByTestId('activity-speed-up')).not.toBeInTheDocument();
    expect(screen.getByTestId('activity-cancel')).toBeInTheDocument();
    expect(detail).toHaveTextContent('so what this one would do is not done');
  });

  it('names the other side by its ENS name when it resolves back to it', async () => {
    const ipc = mockCommands({ getActivity: () => [], primaryName: () => 'alice.eth' });
    renderPage(<ActivityDetail entry={activityEntry({ status: 'mined' })} onBack={vi.fn()} />);
    await tick();
    expect(ipc.argsOf('primaryName')).toStrictEqual([{ network: 'anvil', address: RECIPIENT }]);
    expect(screen.getByTestId('activity-counterparty-name')).toHaveTextContent('alice.eth');
    expect(screen.getByTestId('activity-counterparty').textContent).toBe(RECIPIENT);
  });

  it('names an NFT sent by its id and collection, to its recipient, and only cancels it', async () => {
    mockCommands({ getActivity: () => [] });
    const nft = { contract: TOKEN, tokenId: '42', amount: '1' };
    renderPage(<ActivityDetail entry={activityEntry({ kind: 'nftTransfer', amount: '0', nft })} onBack={vi.fn()} />);
    const detail = screen.getByTestId('activity-detail');
    expect(within(detail).getByRole('heading', { name: 'Sent NFT #42 to 0x8ba1…BA72' })).toBeInTheDocument();
    expect(screen.getByTestId('activity-nft')).toHaveTextContent(`#42 of ${TOKEN}`);
    expect(screen.queryByTestId('activity-amount')).not.toBeInTheDocument();
    expect(screen.getByTestId('save-address')).toBeInTheDocument();
    expect(screen.queryByTestId('activity-speed-up')).not.toBeInTheDocument();
    expect(screen.getByTestId('activity-cancel')).toBeInTheDocument();
  });

  it('names a contract call by the contract, and only cancels it', async () => {
    mockCommands({ getActivity: () => [] });
    renderPage(<ActivityDetail entry={activityEntry({ kind: 'contractCall', amount: '0', counterparty: TOKEN })} onBack={vi.fn()} />);
    expect(within(screen.getByTestId('activity-detail')).getByRole('heading', { name: /^Called contract 0x/ })).toBeInTheDocument();
    expect(screen.getByText('To')).toBeInTheDocument();
    expect(screen.queryByTestId('activity-speed-up')).not.toBeInTheDocument();
    expect(screen.getByTestId('activity-cancel')).toBeInTheDocument();
  });

  it('speeds up a pending transaction: the replacement is quoted, reviewed with its new fee and confirmed with the PIN', async () => {
    const NEW = `0x${'ef'.repeat(32)}`;
    const ipc = mockCommands({
      getActivity: () => [activityEntry()],
      prepareReplacement: () =>
        sendQuote({ quoteId: 'r-1', replaces: { txHash: TX_HASH, action: 'speedUp' }, options: [feeOption('fast', { fee: '0.00005', total: '0.10005' })] }),
      getPinStatus: () => pinStatus(),
      confirmSend: () => activityEntry({ txHash: NEW, fee: '0.00005' }),
    });
    const page = renderPage(<ActivityDetail entry={activityEntry()} onBack={vi.fn()} />);

    await page.user.click(screen.getByTestId('activity-speed-up'));
    await tick();
    expect(ipc.argsOf('prepareReplacement')).toStrictEqual([{ txHash: TX_HASH, action: 'speedUp' }]);
    expect(screen.getByRole('heading', { name: 'Speed up', level: 2 })).toBeInTheDocument();
    expect(screen.getByTestId('send-confirm-summary')).toHaveTextContent('Send 0.1 ETH');
    expect(screen.getByTestId('send-fee')).toHaveAttribute('title', '0.00005 ETH');
    expect(screen.getByText('Fast · at most 2 gwei per gas')).toBeInTheDocument();

    await page.user.type(screen.getByTestId('send-pin'), '246810');
    await page.user.click(screen.getByTestId('send-submit'));
    await tick();
    expect(ipc.argsOf('confirmSend')).toStrictEqual([{ confirm: { quoteId: 'r-1', speed: 'fast', pin: '246810', acceptHighFee: false } }]);
    expect(screen.getByTestId('activity-hash')).toHaveTextContent(NEW);
    expect(screen.getByTestId('activity-notice')).toHaveTextContent('Sent. It takes the pending transaction');
  });

  it('cancels a pending transaction through the same review', async () => {
    const ipc = mockCommands({
      getActivity: () => [activityEntry()],
      prepareReplacement: () =>
        sendQuote({
          quoteId: 'c-1',
          to: ADDRESS,
          amount: '0',
          recipientIsSelf: true,
          replaces: { txHash: TX_HASH, action: 'cancel' },
          options: [feeOption('fast', { fee: '0.00005', total: '0.00005' })],
        }),
      getPinStatus: () => pinStatus(),
      confirmSend: () => activityEntry({ txHash: OTHER, isCancel: true, amount: '0', counterparty: ADDRESS }),
    });
    const page = renderPage(<ActivityDetail entry={activityEntry()} onBack={vi.fn()} />);

    await page.user.click(screen.getByTestId('activity-cancel'));
    await tick();
    expect(ipc.argsOf('prepareReplacement')).toStrictEqual([{ txHash: TX_HASH, action: 'cancel' }]);
    expect(screen.getByTestId('send-confirm-summary')).toHaveTextContent('Cancel the pending transaction');
    expect(screen.queryByText('You are sending to your own address.')).not.toBeInTheDocument();

    await page.user.type(screen.getByTestId('send-pin'), '246810{Enter}');
    await tick();
    expect(ipc.argsOf('confirmSend')).toStrictEqual([{ confirm: { quoteId: 'c-1', speed: 'fast', pin: '246810', acceptHighFee: false } }]);
    expect(screen.getByTestId('activity-hash')).toHaveTextContent(OTHER);
    expect(screen.getByRole('heading', { name: 'Cancelled transaction' })).toBeInTheDocument();
  });

  it('goes back from the review to the detail with Cancel, and from the detail with Esc', async () => {
    mockCommands({
      getActivity: () => [activityEntry()],
      prepareReplacement: () => sendQuote({ replaces: { txHash: TX_HASH, action: 'speedUp' }, options: [feeOption('fast')] }),
      getPinStatus: () => pinStatus(),
    });
    const onBack = vi.fn();
    const page = renderPage(<ActivityDetail entry={activityEntry()} onBack={onBack} />);
    await page.user.click(screen.getByTestId('activity-speed-up'));
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByTestId('activity-detail')).toBeInTheDocument();
    expect(onBack).not.toHaveBeenCalled();
    await page.user.keyboard('{Escape}');
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  it('shows a refused replacement in words', async () => {
    mockCommands({
      getActivity: () => [activityEntry()],
      prepareReplacement: () => fail('TransactionWouldFail', 'nonce too low'),
    });
    const page = renderPage(<ActivityDetail entry={activityEntry()} onBack={vi.fn()} />);
    await page.user.click(screen.getByTestId('activity-speed-up'));
    await tick();
    expect(screen.getByRole('alert')).toHaveTextContent('This transaction would fail: nonce too low');
  });

  it('follows a pending transaction every 3 s and stops once it is settled', async () => {
    let reads = 0;
    const ipc = mockCommands({
      getActivity: () => [activityEntry(++reads < 2 ? {} : { status: 'replaced', replacedBy: OTHER })],
    });
    renderPage(<ActivityDetail entry={activityEntry()} onBack={vi.fn()} />);
    await tick(3000);
    expect(screen.getByTestId('activity-detail')).toHaveAttribute('data-status', 'pending');
    await tick(3000);
    expect(screen.getByTestId('activity-detail')).toHaveAttribute('data-status', 'replaced');
    expect(screen.getByText(OTHER)).toBeInTheDocument();
    expect(screen.queryByTestId('activity-speed-up')).not.toBeInTheDocument();
    await tick(30_000);
    expect(ipc.count('getActivity')).toBe(2);
  });
});
