import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Send, type SendTarget } from './Send';
import type { SendQuote } from '../../api';
import {
  ADDRESS,
  RECIPIENT,
  TOKEN,
  TX_HASH,
  activityEntry,
  appInfo,
  fail,
  feeOption,
  mockCommands,
  pinStatus,
  renderPage,
  sendQuote,
  tick,
  type Handler,
} from '../../test/harness';

const COIN: SendTarget = { account: { network: 'anvil', address: ADDRESS }, symbol: 'ETH', balance: '1250.5' };

function renderSend(target: SendTarget = COIN, options: { strict?: boolean } = {}) {
  const onBack = vi.fn();
  const onViewActivity = vi.fn();
  const page = renderPage(<Send target={target} onBack={onBack} onViewActivity={onViewActivity} />, options);
  return { onBack, onViewActivity, ...page };
}

const byTestId = (id: string) => screen.getByTestId(id);
const checked = (address = RECIPIENT, isSelf = false) => () => ({ address, isSelf });

/** The commands of a coin send that goes well: the address checks out and every
 * amount is quoted (Max's empty amount too). */
function coinSend(overrides: Record<string, Handler> = {}) {
  return mockCommands({
    getAppInfo: () => appInfo(),
    checkAddress: checked(),
    prepareSend: (args) => {
      const form = args.form as { amount: string };
      return sendQuote({ amount: form.amount === '' ? '0' : form.amount });
    },
    getPinStatus: () => pinStatus(),
    ...overrides,
  });
}

/** Types the recipient and the amount, and waits for the check and the quote. */
async function fill(user: ReturnType<typeof renderSend>['user'], to = RECIPIENT, amount = '0.1') {
  await user.type(byTestId('send-to'), to);
  await tick(250);
  if (amount) await user.type(byTestId('send-amount'), amount);
  await tick(400);
}

describe('Send', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('names the asset, its network and balance, and asks for nothing before the form is filled', async () => {
    const ipc = coinSend();
    renderSend();
    await tick(1000);

    expect(screen.getByRole('heading', { name: 'Send ETH', level: 2 })).toBeInTheDocument();
    expect(byTestId('send-network')).toHaveTextContent('anvil');
    expect(byTestId('send-balance')).toHaveTextContent('1,250.5 ETH');
    expect(screen.getByLabelText('To')).toBe(byTestId('send-to'));
    expect(screen.getByLabelText('Amount')).toHaveAttribute('inputmode', 'decimal');
    expect(byTestId('send-review')).toBeDisabled();
    expect(byTestId('send-max')).toBeDisabled();
    expect(ipc.count('checkAddress')).toBe(0);
    expect(ipc.count('prepareSend')).toBe(0);
  });

  it('shows a wrong checksum under the recipient, and asks for no quote', async () => {
    const ipc = coinSend({ checkAddress: () => fail('InvalidParameters', "the address's checksum does not match: check it for a typo") });
    const page = renderSend();
    const typo = `${RECIPIENT.slice(0, -1)}3`;
    await fill(page.user, typo);

    expect(ipc.argsOf('checkAddress').at(-1)).toStrictEqual({ account: { network: 'anvil', address: ADDRESS }, to: typo });
    const error = byTestId('send-to-error');
    expect(error).toHaveAttribute('role', 'alert');
    expect(error).toHaveTextContent("The address's checksum does not match. Check it for a typo.");
    expect(byTestId('send-to')).toHaveAttribute('aria-invalid', 'true');
    expect(ipc.count('prepareSend')).toBe(0);
    expect(byTestId('send-review')).toBeDisabled();
  });

  it('says an unfinished address is not one only once the field is left, and checks once typing pauses', async () => {
    const ipc = coinSend({ checkAddress: () => fail('InvalidParameters', 'not an address: 0x and 40 hexadecimal digits') });
    const page = renderSend();
    await page.user.type(byTestId('send-to'), '0x8ba1f1');
    await tick(250);
    expect(ipc.count('checkAddress')).toBe(1);
    expect(screen.queryByTestId('send-to-error')).not.toBeInTheDocument();

    await page.user.tab();
    expect(byTestId('send-to-error')).toHaveTextContent('Not an address: enter 0x and 40 hexadecimal digits.');
  });

  it('sends to an ENS name: shows the address it leads to, quotes the name and reviews both', async () => {
    const ipc = coinSend({ checkAddress: () => ({ address: RECIPIENT, isSelf: false, name: 'alice.eth' }), prepareSend: () => sendQuote({ recipientName: 'alice.eth' }) });
    const page = renderSend();
    await fill(page.user, 'Alice.eth');

    expect(ipc.argsOf('checkAddress').at(-1)).toStrictEqual({ account: { network: 'anvil', address: ADDRESS }, to: 'Alice.eth' });
    expect(byTestId('send-to-name')).toHaveTextContent(`alice.eth is this address: ${RECIPIENT}`);
    expect(ipc.argsOf('prepareSend').at(-1)).toMatchObject({ form: { to: 'alice.eth', amount: '0.1' } });
    await page.user.click(byTestId('send-review'));
    expect(byTestId('send-confirm-name')).toHaveTextContent('alice.eth');
    expect(byTestId('send-confirm-to').textContent).toBe(RECIPIENT);
  });

  it('says a name that leads nowhere in words, and asks for no quote', async () => {
    const ipc = coinSend({ checkAddress: () => fail('InvalidParameters', 'nobody.eth is not a registered name') });
    const page = renderSend();
    await fill(page.user, 'nobody.eth');
    await page.user.tab();
    expect(byTestId('send-to-error')).toHaveTextContent('This name leads to no address on this network. Check its spelling, or enter the address (0x…).');
    expect(ipc.count('prepareSend')).toBe(0);
  });

  it('warns when the recipient is the account itself', async () => {
    coinSend({ checkAddress: checked(ADDRESS, true) });
    const page = renderSend();
    await page.user.type(byTestId('send-to'), ADDRESS.toLowerCase());
    await tick(250);

    expect(screen.getByText('This is your own address.')).toBeInTheDocument();
    expect(screen.queryByTestId('send-to-error')).not.toBeInTheDocument();
  });

  it('checks the amount as it is typed: too many decimals, exponents and letters are refused at once', async () => {
    const ipc = coinSend();
    const page = renderSend();
    await tick();
    await page.user.type(byTestId('send-to'), RECIPIENT);
    await tick(250);
    const amount = byTestId('send-amount');

    await page.user.type(amount, '0.0000000000000000001');
    expect(byTestId('send-amount-error')).toHaveTextContent('At most 18 digits after the point.');
    expect(amount).toHaveAttribute('aria-invalid', 'true');

    for (const text of ['1e-18', 'abc', '1,5', '-1']) {
      await page.user.clear(amount);
      await page.user.type(amount, text);
      expect(byTestId('send-amount-error')).toHaveTextContent('Enter the amount as digits with at most one point, like 0.5.');
    }
    await tick(1000);
    expect(ipc.count('prepareSend')).toBe(0);
    expect(byTestId('send-review')).toBeDisabled();

    await page.user.clear(amount);
    await page.user.type(amount, '0.000000000000000001');
    expect(screen.queryByTestId('send-amount-error')).not.toBeInTheDocument();
    await tick(400);
    expect(ipc.argsOf('prepareSend')).toStrictEqual([
      { form: { account: { network: 'anvil', address: ADDRESS }, to: RECIPIENT, amount: '0.000000000000000001' } },
    ]);
  });

  it('fills Max with the chosen speed’s most, and follows the speed', async () => {
    const ipc = coinSend();
    const page = renderSend();
    await fill(page.user, RECIPIENT, '');

    await page.user.click(byTestId('send-max'));
    await tick();
    expect(ipc.argsOf('prepareSend')[0]).toStrictEqual({ form: { account: { network: 'anvil', address: ADDRESS }, to: RECIPIENT, amount: '' } });
    expect(byTestId('send-amount')).toHaveValue('1250.4999685');

    await tick(400);
    expect(ipc.argsOf('prepareSend').at(-1)).toStrictEqual({
      form: { account: { network: 'anvil', address: ADDRESS }, to: RECIPIENT, amount: '1250.4999685' },
    });
    await page.user.click(byTestId('send-speed-fast'));
    expect(byTestId('send-amount')).toHaveValue('1250.499958');
  });

  it('shows the fee, the total and the balance after from the quote, for the chosen speed', async () => {
    const ipc = coinSend();
    const page = renderSend();
    await fill(page.user);

    expect(ipc.argsOf('prepareSend')).toStrictEqual([{ form: { account: { network: 'anvil', address: ADDRESS }, to: RECIPIENT, amount: '0.1' } }]);
    expect(byTestId('send-speed-normal')).toHaveAttribute('aria-pressed', 'true');
    // Shortened on screen, whole in the title; never in exponent form.
    expect(byTestId('send-fee')).toHaveTextContent('0.000031 ETH');
    expect(byTestId('send-fee')).toHaveAttribute('title', '0.0000315 ETH');
    expect(screen.getByText('Normal · at most 1.5 gwei per gas')).toBeInTheDocument();
    expect(byTestId('send-total')).toHaveAttribute('title', '0.1000315 ETH');
    expect(byTestId('send-after')).toHaveTextContent('1,250.399968 ETH');
    expect(byTestId('send-review')).toBeEnabled();
    for (const id of ['send-fee', 'send-total', 'send-after']) expect(byTestId(id).textContent).not.toMatch(/\de[+-]?\d/i);

    await page.user.click(byTestId('send-speed-slow'));
    expect(byTestId('send-speed-slow')).toHaveAttribute('aria-pressed', 'true');
    expect(byTestId('send-fee')).toHaveAttribute('title', '0.000021 ETH');
    expect(byTestId('send-total')).toHaveAttribute('title', '0.100021 ETH');
    expect(ipc.count('prepareSend')).toBe(1);
  });

  it('warns that the recipient is a contract', async () => {
    coinSend({ prepareSend: () => sendQuote({ recipientIsContract: true }) });
    const page = renderSend();
    await fill(page.user);
    expect(screen.getByText('The recipient is a contract; tokens sent to a contract can be lost.')).toBeInTheDocument();
  });

  it('says when the balance does not cover the amount and the fee, and keeps Review off', async () => {
    coinSend({
      prepareSend: () => sendQuote({ amount: '2000', options: (['slow', 'normal', 'fast'] as const).map((s) => feeOption(s, { enough: false })) }),
    });
    const page = renderSend();
    await fill(page.user, RECIPIENT, '2000');

    expect(byTestId('send-error')).toHaveAttribute('role', 'alert');
    expect(byTestId('send-error')).toHaveTextContent('Not enough ETH for the amount and fee.');
    expect(byTestId('send-review')).toBeDisabled();
  });

  it('shows why the transaction would fail in the app’s words', async () => {
    coinSend({ prepareSend: () => fail('TransactionWouldFail', 'execution reverted: transfers paused') });
    const page = renderSend();
    await fill(page.user);

    expect(byTestId('send-error')).toHaveTextContent('This transaction would fail: execution reverted: transfers paused');
    expect(byTestId('send-review')).toBeDisabled();
  });

  it('reviews the send in full and confirms it with the quote, the speed, the PIN and the request', async () => {
    const ipc = coinSend({ confirmSend: () => activityEntry(), getActivity: () => [activityEntry()] });
    const page = renderSend({ ...COIN, requestId: 7 });
    await fill(page.user);
    await page.user.click(byTestId('send-speed-fast'));
    await page.user.click(byTestId('send-review'));

    expect(byTestId('send-confirm-summary')).toHaveTextContent('Send 0.1 ETH');
    expect(byTestId('send-confirm-to').textContent).toBe(RECIPIENT);
    expect(byTestId('send-confirm-network')).toHaveTextContent('anvil · chain 31337');
    expect(byTestId('send-fee')).toHaveAttribute('title', '0.000042 ETH');
    expect(screen.getByText('Fast · at most 2 gwei per gas')).toBeInTheDocument();
    expect(byTestId('send-total')).toHaveAttribute('title', '0.100042 ETH');
    expect(byTestId('send-submit')).toBeDisabled();

    await page.user.type(byTestId('send-pin'), '246810');
    await page.user.click(byTestId('send-submit'));
    await tick();

    expect(ipc.argsOf('confirmSend')).toStrictEqual([{ confirm: { quoteId: 'q-1', speed: 'fast', pin: '246810', acceptHighFee: false, requestId: 7 } }]);
    expect(byTestId('send-status')).toHaveAttribute('data-status', 'pending');
    expect(byTestId('send-status')).toHaveTextContent('Pending');
    expect(byTestId('send-hash')).toHaveTextContent(TX_HASH);

    // Sent: leaving no longer cancels the application's send.
    await page.user.click(screen.getByRole('button', { name: 'Done' }));
    expect(page.onBack).toHaveBeenCalledTimes(1);
    expect(ipc.count('cancelSend')).toBe(0);
  });

  it('signs an unusually high fee only once the person says yes to it', async () => {
    const ipc = coinSend({
      prepareSend: () => sendQuote({ options: [feeOption('slow'), feeOption('normal', { highFee: 'aboveBaseFee' }), feeOption('fast')] }),
      confirmSend: () => activityEntry(),
      getActivity: () => [activityEntry()],
    });
    const page = renderSend();
    await fill(page.user);
    await page.user.click(byTestId('send-review'));

    expect(byTestId('send-high-fee')).toHaveTextContent('unusually high');
    expect(byTestId('send-high-fee')).toHaveTextContent('base fee');
    await page.user.type(byTestId('send-pin'), '246810');
    expect(byTestId('send-submit')).toBeDisabled();
    await page.user.click(byTestId('send-accept-high-fee'));
    expect(byTestId('send-submit')).toBeEnabled();
    await page.user.click(byTestId('send-submit'));
    await tick();

    expect(ipc.argsOf('confirmSend')).toStrictEqual([{ confirm: { quoteId: 'q-1', speed: 'normal', pin: '246810', acceptHighFee: true } }]);
  });

  it('warns in red of a look-alike of a saved address and sends only once the person checked it', async () => {
    const lookAlike = '0x8ba10000000000000000000000000000000dBA72';
    const ipc = coinSend({
      prepareSend: () => sendQuote({ warnings: [{ kind: 'lookAlike', of: RECIPIENT, name: 'Bob' }] }),
      confirmSend: () => activityEntry(),
      getActivity: () => [activityEntry()],
    });
    const page = renderSend();
    await fill(page.user, lookAlike);
    await page.user.click(byTestId('send-review'));
    expect(byTestId('send-recipient-danger')).toHaveTextContent(`looks like “Bob” (${RECIPIENT})`);
    await page.user.type(byTestId('send-pin'), '246810');
    expect(byTestId('send-submit')).toBeDisabled();
    await page.user.click(byTestId('send-accept-recipient'));
    expect(byTestId('send-submit')).toBeEnabled();
    await page.user.click(byTestId('send-submit'));
    await tick();
    expect(ipc.count('confirmSend')).toBe(1);
  });

  it('says a first transfer in amber, and a token’s own contract in red', async () => {
    coinSend({ prepareSend: () => sendQuote({ warnings: [{ kind: 'firstTransfer' }] }) });
    const page = renderSend();
    await fill(page.user);
    await page.user.click(byTestId('send-review'));
    expect(byTestId('send-first-transfer')).toHaveTextContent('not sent to this address before');
    expect(screen.queryByTestId('send-recipient-danger')).toBeNull();
    await page.user.type(byTestId('send-pin'), '246810');
    expect(byTestId('send-submit')).toBeEnabled();
  });

  it('offers saved and recent recipients under an empty To, and a pick fills it', async () => {
    const recent = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    coinSend({
      getSavedAddresses: () => [{ address: RECIPIENT, name: 'Bob' }],
      getRecentRecipients: () => [recent, RECIPIENT],
    });
    const page = renderSend();
    await tick();
    const picker = byTestId('recipient-picker');
    expect(picker).toHaveTextContent('Bob');
    expect(picker).toHaveTextContent('Recent 0x7099…79C8');
    expect(picker.querySelectorAll('button')).toHaveLength(2);
    await page.user.click(screen.getByRole('button', { name: /Bob/ }));
    expect(byTestId('send-to')).toHaveValue(RECIPIENT);
    expect(screen.queryByTestId('recipient-picker')).toBeNull();
  });

  it('says nothing of the fee when it is the usual one', async () => {
    coinSend();
    const page = renderSend();
    await fill(page.user);
    await page.user.click(byTestId('send-review'));
    expect(screen.queryByTestId('send-high-fee')).toBeNull();
  });

  it('confirms a send of its own without a request id', async () => {
    const ipc = coinSend({ confirmSend: () => activityEntry(), getActivity: () => [activityEntry()] });
    const page = renderSend();
    await fill(page.user);
    await page.user.click(byTestId('send-review'));
    await page.user.type(byTestId('send-pin'), '246810{Enter}');
    await tick();

    expect(ipc.argsOf('confirmSend')).toStrictEqual([{ confirm: { quoteId: 'q-1', speed: 'normal', pin: '246810', acceptHighFee: false } }]);
  });

  it('explains a wrong PIN with the tries left, and nothing else happens', async () => {
    let status = pinStatus();
    const ipc = coinSend({
      getPinStatus: () => status,
      confirmSend: () => {
        status = pinStatus({ triesLeft: 4 });
        return fail('WrongPin', 'wrong PIN');
      },
    });
    const page = renderSend();
    await fill(page.user);
    await page.user.click(byTestId('send-review'));
    await page.user.type(byTestId('send-pin'), '111111{Enter}');
    await tick();

    expect(screen.getByRole('alert')).toHaveTextContent('That PIN is not right. 4 tries left.');
    expect(byTestId('send-confirm-summary')).toBeInTheDocument();
    expect(byTestId('send-pin')).toHaveValue('');
    expect(screen.queryByTestId('send-status')).not.toBeInTheDocument();
    expect(ipc.count('confirmSend')).toBe(1);
    expect(ipc.count('prepareSend')).toBe(1);
    expect(page.onBack).not.toHaveBeenCalled();
  });

  it('goes back to the form from the review with Cancel, keeping what was typed', async () => {
    const ipc = coinSend();
    const page = renderSend({ ...COIN, requestId: 3 });
    await fill(page.user);
    await page.user.click(byTestId('send-review'));
    await page.user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(byTestId('send-to')).toHaveValue(RECIPIENT);
    expect(byTestId('send-amount')).toHaveValue('0.1');
    expect(ipc.count('cancelSend')).toBe(0);
    expect(page.onBack).not.toHaveBeenCalled();
  });

  it('quotes again and says so when the review expired', async () => {
    let quotes = 0;
    const ipc = coinSend({
      prepareSend: () => sendQuote({ quoteId: `q-${++quotes}` }),
      confirmSend: () => fail('InvalidParameters', 'this quote has expired: review the send again'),
    });
    const page = renderSend();
    await fill(page.user);
    await page.user.click(byTestId('send-review'));
    await page.user.type(byTestId('send-pin'), '246810{Enter}');
    await tick();

    expect(byTestId('send-expired')).toHaveTextContent('This review has expired. Check the details and review again.');
    await tick(400);
    expect(ipc.count('prepareSend')).toBe(2);
    await page.user.click(byTestId('send-review'));
    await page.user.type(byTestId('send-pin'), '246810{Enter}');
    await tick();
    expect(ipc.argsOf('confirmSend')[1]).toMatchObject({ confirm: { quoteId: 'q-2' } });
  });

  it('tells the application its send was cancelled when the person leaves, by Cancel, Back or Esc', async () => {
    for (const leave of ['cancel', 'back', 'escape'] as const) {
      const ipc = coinSend({ cancelSend: () => null });
      const page = renderSend({ ...COIN, requestId: 9 });
      await tick();
      if (leave === 'cancel') await page.user.click(byTestId('send-cancel'));
      if (leave === 'back') await page.user.click(screen.getByRole('button', { name: 'Back' }));
      if (leave === 'escape') await page.user.keyboard('{Escape}');
      expect(ipc.argsOf('cancelSend')).toStrictEqual([{ requestId: 9 }]);
      expect(page.onBack).toHaveBeenCalledTimes(1);
      page.unmount();
    }
  });

  it('cancels nothing for a send the wallet itself opened', async () => {
    const ipc = coinSend();
    const page = renderSend();
    await tick();
    await page.user.click(byTestId('send-cancel'));
    expect(ipc.count('cancelSend')).toBe(0);
    expect(page.onBack).toHaveBeenCalledTimes(1);
  });

  it('follows the sent transaction every 2 s until it is mined, then stops', async () => {
    let reads = 0;
    const ipc = coinSend({
      confirmSend: () => activityEntry(),
      getActivity: () => {
        reads += 1;
        return reads < 2 ? [activityEntry()] : [activityEntry({ status: 'mined', blockNumber: 42, fee: '0.000021' })];
      },
    });
    const page = renderSend();
    await fill(page.user);
    await page.user.click(byTestId('send-review'));
    await page.user.type(byTestId('send-pin'), '246810{Enter}');
    await tick();
    expect(byTestId('send-status')).toHaveTextContent('Pending');
    expect(ipc.count('getActivity')).toBe(0);

    await tick(2000);
    expect(ipc.count('getActivity')).toBe(1);
    expect(byTestId('send-status')).toHaveAttribute('data-status', 'pending');
    await tick(2000);
    expect(byTestId('send-status')).toHaveAttribute('data-status', 'mined');
    expect(byTestId('send-status')).toHaveTextContent('Confirmed in block 42');

    await tick(20_000);
    expect(ipc.count('getActivity')).toBe(2);

    await page.user.click(screen.getByRole('button', { name: 'View activity' }));
    expect(page.onViewActivity).toHaveBeenCalledTimes(1);
  });

  it('says Failed, Replaced or Dropped as the network settles it, and stops reading when the page goes', async () => {
    let answer = activityEntry({ status: 'failed' });
    coinSend({ confirmSend: () => activityEntry(), getActivity: () => [answer] });
    const page = renderSend();
    await fill(page.user);
    await page.user.click(byTestId('send-review'));
    await page.user.type(byTestId('send-pin'), '246810{Enter}');
    await tick();
    await tick(2000);
    expect(byTestId('send-status')).toHaveTextContent('Failed');
    page.unmount();

    answer = activityEntry({ status: 'replaced', replacedBy: `0x${'cd'.repeat(32)}` });
    const ipc = coinSend({ confirmSend: () => activityEntry(), getActivity: () => [activityEntry()] });
    const second = renderSend();
    await fill(second.user);
    await second.user.click(byTestId('send-review'));
    await second.user.type(byTestId('send-pin'), '246810{Enter}');
    await tick();
    await tick(2000);
    expect(ipc.count('getActivity')).toBe(1);
    second.unmount();
    await tick(10_000);
    expect(ipc.count('getActivity')).toBe(1);

    coinSend({ confirmSend: () => activityEntry(), getActivity: () => [answer] });
    const third = renderSend();
    await fill(third.user);
    await third.user.click(byTestId('send-review'));
    await third.user.type(byTestId('send-pin'), '246810{Enter}');
    await tick();
    await tick(2000);
    expect(byTestId('send-status')).toHaveTextContent('Replaced');
    third.unmount();

    // Dropped by the network: nothing sent, no fee, and it can be sent again.
    answer = activityEntry({ status: 'dropped' });
    coinSend({ confirmSend: () => activityEntry(), getActivity: () => [answer] });
    const fourth = renderSend();
    await fill(fourth.user);
    await fourth.user.click(byTestId('send-review'));
    await fourth.user.type(byTestId('send-pin'), '246810{Enter}');
    await tick();
    await tick(2000);
    expect(byTestId('send-status')).toHaveTextContent('Dropped');
    expect(screen.getByText(/nothing was sent and no fee was paid/)).toBeInTheDocument();
  });

  it('opens filled in from an application’s request, reads what it needs, and quotes at once', async () => {
    const ipc = coinSend({ getBalance: () => [{ network: 'anvil', address: ADDRESS, symbol: 'ETH', balance: '3', tokens: [] }] });
    renderSend({ account: { network: 'anvil', address: ADDRESS }, to: RECIPIENT, amount: '0.1', requestId: 4 }, { strict: true });
    await tick(250);
    await tick(400);

    expect(ipc.count('getBalance')).toBe(1);
    expect(ipc.count('getAppInfo')).toBe(1);
    expect(byTestId('send-to')).toHaveValue(RECIPIENT);
    expect(byTestId('send-amount')).toHaveValue('0.1');
    expect(ipc.argsOf('prepareSend')).toHaveLength(1);
    // The quote's balance, read with it.
    expect(byTestId('send-balance')).toHaveTextContent('1,250.5 ETH');
    expect(byTestId('send-review')).toBeEnabled();
  });

  it('sends a token with its contract, its decimals from the quote, and the token left after', async () => {
    const tokenQuote = (amount: string): SendQuote =>
      sendQuote({
        contract: TOKEN,
        symbol: 'TKN',
        decimals: 6,
        amount,
        tokenBalance: '5',
        gasLimit: 52000,
        options: (['slow', 'normal', 'fast'] as const).map((s) =>
          feeOption(s, { total: undefined, tokenAfter: '3.5', coinAfter: '1250.49', fee: '0.01', max: '5' }),
        ),
      });
    const ipc = mockCommands({
      checkAddress: checked(),
      prepareSend: (args) => tokenQuote((args.form as { amount: string }).amount || '0'),
    });
    const page = renderSend({ account: { network: 'anvil', address: ADDRESS, contract: TOKEN }, symbol: 'TKN', balance: '5' });
    await fill(page.user, RECIPIENT, '1.5');

    expect(ipc.count('getAppInfo')).toBe(0);
    expect(ipc.argsOf('prepareSend')[0]).toStrictEqual({
      form: { account: { network: 'anvil', address: ADDRESS, contract: TOKEN }, to: RECIPIENT, amount: '1.5' },
    });
    expect(screen.queryByTestId('send-total')).not.toBeInTheDocument();
    expect(within(byTestId('send-after')).getByText('3.5 TKN')).toBeInTheDocument();

    // Now the token's 6 decimals are known, the amount is checked as typed.
    await page.user.type(byTestId('send-amount'), '0000001');
    expect(byTestId('send-amount-error')).toHaveTextContent('At most 6 digits after the point.');
  });
});
