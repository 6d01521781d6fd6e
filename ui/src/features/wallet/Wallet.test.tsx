import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Wallet } from './Wallet';
import type { AccountBalanceInfo } from '../../api';
import { ADDRESS, TOKEN, TX_HASH, WORDS, activityEntry, answerWord, balance, deferred, fail, keyStatus, mockCommands, pinStatus, receiveInfo, renderPage, seconds, tick, walletAccount, walletValues } from '../../test/harness';
import { layOut } from '../../test/layout';

const waits = (balances: number) => () => ({ balances, nfts: 0 });
const confirmed = () => keyStatus();
const noActivity = () => [];

describe('Wallet', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows busy skeleton rows while the balances load, then the balances', async () => {
    const answer = deferred<AccountBalanceInfo[]>();
    mockCommands({ getActivity: noActivity, getKeyState: confirmed, getRefreshWait: waits(30), getBalance: () => answer.promise });
    renderPage(<Wallet />);
    await tick();

    const loading = screen.getByLabelText('Loading…');
    expect(loading).toHaveAttribute('aria-busy', 'true');
    expect(loading.querySelectorAll('.skeleton').length).toBeGreaterThanOrEqual(3);

    answer.resolve([balance()]);
    await tick();
    expect(screen.queryByLabelText('Loading…')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'ethereum' })).toBeInTheDocument();
  });

  it('shows the stored balances at once, then reads the chain when the cooldown allows', async () => {
    const chain = deferred<AccountBalanceInfo[]>();
    let ipc = mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: waits(0),
      getBalance: () => [balance({ balance: '1' })],
      refreshBalance: () => chain.promise,
    });
    const first = renderPage(<Wallet />);
    await tick();
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent(/^1$/);
    expect(ipc.calls.map((c) => c.cmd).filter((c) => c !== 'getRefreshWait' && c !== 'markShown' && c !== 'getKeyState' && c !== 'getActivity' && c !== 'getCollectionChoices' && c !== 'getValues' && c !== 'getWalletAccounts')).toEqual([
      'getBalance',
      'refreshBalance',
    ]);

    chain.resolve([balance({ balance: '2' })]);
    await tick();
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent(/^2$/);
    expect(screen.getByText('Updated just now')).toBeInTheDocument();
    first.unmount();

    ipc = mockCommands({ getActivity: noActivity, getKeyState: confirmed, getRefreshWait: waits(45), getBalance: () => [balance()] });
    renderPage(<Wallet />);
    await tick();
    expect(ipc.count('getBalance')).toBe(1);
    expect(ipc.count('refreshBalance')).toBe(0);
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
  });

  it('says there are no accounts yet when the list is empty', async () => {
    mockCommands({ getActivity: noActivity, getKeyState: confirmed, getRefreshWait: waits(30), getBalance: () => [] });
    renderPage(<Wallet />);
    await tick();

    expect(screen.getByText('No accounts yet.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading…')).not.toBeInTheDocument();
  });

  it('shows a failed load in words with a retry that recovers', async () => {
    let tries = 0;
    const ipc = mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: waits(30),
      getBalance: () => {
        tries += 1;
        return tries === 1 ? fail('NotConnectedInternet', 'dns error') : [balance()];
      },
    });
    const page = renderPage(<Wallet />);
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Satchel cannot reach its service. Check the connection and try again.');
    expect(screen.queryByLabelText('Loading…')).not.toBeInTheDocument();

    await page.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await tick();

    expect(ipc.count('getBalance')).toBe(2);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
  });

  it('leaves hidden tokens out until the person asks to see them, and hides one from the tokens page', async () => {
    const spam = '0x3333333333333333333333333333333333333333';
    let hidden = [`ethereum:${spam}`];
    const ipc = mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: waits(30),
      getCollectionChoices: () => ({ hidden, shown: [] }),
      hideCollection: () => {
        hidden = [...hidden, `ethereum:${TOKEN.toLowerCase()}`];
        return { hidden, shown: [] };
      },
      getOwnTokens: () => [],
      getBalance: () => [
        balance({
          tokens: [
            { symbol: 'DEMO', balance: '5', contract: TOKEN },
            { symbol: 'SPAM', balance: '1000', contract: spam },
          ],
        }),
      ],
    });
    layOut();
    const page = renderPage(<Wallet />);
    await tick();
    expect(screen.getByTestId('balance-DEMO')).toBeInTheDocument();
    expect(screen.queryByTestId('balance-SPAM')).toBeNull();
    await page.user.click(screen.getByRole('button', { name: 'Show hidden (1)' }));
    expect(screen.getByTestId('balance-SPAM')).toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Hide hidden' }));
    expect(screen.queryByTestId('balance-SPAM')).toBeNull();

    await page.user.click(screen.getByRole('button', { name: 'Add or hide tokens' }));
    expect(screen.getByTestId('token-row-SPAM')).toHaveTextContent('Hidden from your wallet');
    await page.user.click(screen.getByTestId('toggle-token-DEMO'));
    await tick();
    expect(ipc.argsOf('hideCollection')).toStrictEqual([{ network: 'ethereum', contract: TOKEN }]);
    expect(screen.getByTestId('token-row-DEMO')).toHaveTextContent('Hidden from your wallet');
  });

  it('shows amounts shortened, never in exponent form, with the full value in the title', async () => {
    mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: waits(30),
      getBalance: () => [
        balance({
          balance: '1250.5',
          tokens: [
            { symbol: 'DUST', balance: '0.000000000000000001', contract: '0x1111111111111111111111111111111111111111' },
            { symbol: 'HUGE', balance: '123456789012345678901234567890.123456789', contract: '0x2222222222222222222222222222222222222222' },
          ],
        }),
      ],
    });
    renderPage(<Wallet />);
    await tick();

    expect(screen.getByTestId('balance-ETH')).toHaveTextContent(/^1,250\.5$/);
    expect(screen.getByTestId('balance-ETH')).toHaveAttribute('title', '1250.5');
    // The coin's balance is shown once, on its row.
    expect(screen.getAllByText(/1,250\.5/)).toHaveLength(1);

    expect(screen.getByTestId('balance-DUST')).toHaveTextContent(/^< 0\.000001$/);
    expect(screen.getByTestId('balance-DUST')).toHaveAttribute('title', '0.000000000000000001');

    expect(screen.getByTestId('balance-HUGE')).toHaveTextContent(/^123,456,789,012,345,678,901,234,567,890\.123456$/);
    expect(screen.getByTestId('balance-HUGE')).toHaveAttribute('title', '123456789012345678901234567890.123456789');

    for (const id of ['balance-ETH', 'balance-DUST', 'balance-HUGE']) {
      expect(screen.getByTestId(id).textContent).not.toMatch(/\de[+-]?\d/i);
    }
    // The address is shortened on screen too.
    expect(screen.getByRole('button', { name: `${ADDRESS.slice(0, 6)}…${ADDRESS.slice(-4)}` })).toBeInTheDocument();
  });

  it('copies the whole address and says Copied for a moment', async () => {
    mockCommands({ getActivity: noActivity, getKeyState: confirmed, getRefreshWait: waits(30), getBalance: () => [balance()] });
    const page = renderPage(<Wallet />);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    await tick();

    await page.user.click(screen.getByRole('button', { name: '0x5290…9EE7' }));
    await tick();
    expect(writeText).toHaveBeenCalledWith(ADDRESS);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await tick(1500);
    expect(screen.getByRole('button', { name: '0x5290…9EE7' })).toBeInTheDocument();
  });

  it('disables Refresh and counts down "Refresh in N s" while the app says to wait, then refreshes', async () => {
    let wait = 42;
    const ipc = mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: () => ({ balances: wait, nfts: 0 }),
      getBalance: () => [balance()],
      refreshBalance: () => {
        wait = 60; // the app starts its cooldown as it refreshes
        return [balance({ balance: '7' })];
      },
    });
    const page = renderPage(<Wallet />);
    await tick();

    expect(screen.getByRole('button', { name: 'Refresh in 42 s' })).toBeDisabled();
    await seconds(1);
    expect(screen.getByRole('button', { name: 'Refresh in 41 s' })).toBeDisabled();
    await seconds(41);
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    expect(refresh).toBeEnabled();

    wait = 0;
    await page.user.click(refresh);
    await tick();

    expect(ipc.count('refreshBalance')).toBe(1);
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('7');
    expect(screen.getByText('Updated just now')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh in 60 s' })).toBeDisabled();
    await seconds(59);
    expect(screen.getByText('Updated just now')).toBeInTheDocument();
    await seconds(1);
    expect(screen.getByText('Updated 1 min ago')).toBeInTheDocument();
  });

  it('shows a refused refresh (TooManyRequests) in words and keeps the balances it had', async () => {
    let wait = 0;
    const ipc = mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: () => ({ balances: wait, nfts: 0 }),
      getBalance: () => [balance()],
      refreshBalance: () => {
        if (ipc.count('refreshBalance') === 1) return [balance()];
        wait = 30;
        return fail('TooManyRequests', 'refreshed a moment ago');
      },
    });
    const page = renderPage(<Wallet />);
    await tick();
    expect(ipc.count('refreshBalance')).toBe(1);

    // The app's cooldown ran out a moment early as the page saw it.
    await page.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await tick();

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Too many tries. Wait a moment and try again.');
    expect(alert).not.toHaveTextContent('TooManyRequests');
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
    // The page asks the app again how long to wait.
    expect(screen.getByRole('button', { name: 'Refresh in 30 s' })).toBeDisabled();
  });

  it('keeps the stored balances and says so in words when the chain read on entry is refused (TooManyRequests)', async () => {
    let wait = 0;
    mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: () => ({ balances: wait, nfts: 0 }),
      getBalance: () => [balance()],
      refreshBalance: () => {
        wait = 1;
        return fail('TooManyRequests', 'refreshed a moment ago; you can refresh again in 1 s');
      },
    });
    renderPage(<Wallet />);
    await tick();

    expect(screen.getByRole('alert')).toHaveTextContent('Too many tries. Wait a moment and try again.');
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
    expect(screen.getByRole('button', { name: 'Refresh in 1 s' })).toBeDisabled();
    await seconds(1);
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  });

  // StrictMode runs effects twice in development; the entry refresh must not.
  it('refreshes only once on entry under StrictMode and shows no error', async () => {
    // The app's cooldown: none until the first refresh, which starts it.
    let refreshed = false;
    const ipc = mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: () => ({ balances: refreshed ? 60 : 0, nfts: 0 }),
      refreshBalance: () => {
        if (refreshed) return fail('TooManyRequests', 'refreshed a moment ago');
        refreshed = true;
        return [balance()];
      },
      getBalance: () => [balance()],
    });
    renderPage(<Wallet />, { strict: true });
    await tick();

    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(ipc.count('refreshBalance')).toBe(1);
  });

  it('reminds the person to write down a recovery phrase never checked, and not once it was', async () => {
    mockCommands({ getActivity: noActivity, getKeyState: () => keyStatus({ phraseConfirmed: false }), getRefreshWait: waits(30), getBalance: () => [balance()] });
    const first = renderPage(<Wallet />);
    await tick();
    const reminder = screen.getByRole('region', { name: 'Write down your recovery phrase' });
    expect(reminder).toHaveAttribute('id', 'phrase-reminder');
    expect(reminder).toHaveTextContent('It is the only way to restore your wallet if you lose this device.');
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
    first.unmount();

    mockCommands({ getActivity: noActivity, getKeyState: () => keyStatus(), getRefreshWait: waits(30), getBalance: () => [balance()] });
    renderPage(<Wallet />);
    await tick();
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
    expect(screen.queryByText('Write down your recovery phrase')).not.toBeInTheDocument();
  });

  it('says so when the service listed accounts the device cannot confirm, and not otherwise', async () => {
    mockCommands({ getActivity: noActivity, getKeyState: () => keyStatus({ refusedAccounts: 2 }), getRefreshWait: waits(30), getBalance: () => [balance()] });
    const lied = renderPage(<Wallet />);
    await tick();
    expect(screen.getByTestId('refused-accounts')).toHaveTextContent("The service listed 2 account(s) this device cannot confirm");
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
    lied.unmount();

    mockCommands({ getActivity: noActivity, getKeyState: () => keyStatus(), getRefreshWait: waits(30), getBalance: () => [balance()] });
    renderPage(<Wallet />);
    await tick();
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
    expect(screen.queryByTestId('refused-accounts')).not.toBeInTheDocument();
  });

  it('shows no reminder when the app cannot say', async () => {
    mockCommands({ getActivity: noActivity, getKeyState: () => fail('KeychainUnavailable', 'locked'), getRefreshWait: waits(30), getBalance: () => [balance()] });
    renderPage(<Wallet />);
    await tick();
    expect(screen.queryByText('Write down your recovery phrase')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens the recovery phrase from the reminder behind the PIN, back to the balances, and drops the reminder once checked', async () => {
    const ipc = mockCommands({
      getActivity: noActivity,
      getKeyState: () => keyStatus({ phraseConfirmed: false }),
      getRefreshWait: waits(30),
      getBalance: () => [balance()],
      getPinStatus: () => pinStatus(),
      showRecoveryPhrase: () => WORDS,
      confirmRecoveryPhrase: () => null,
    });
    const page = renderPage(<Wallet />);
    await tick();

    await page.user.click(screen.getByRole('button', { name: 'Show my recovery phrase' }));
    await tick();
    expect(screen.getByTestId('balance-ETH')).not.toBeVisible();
    expect(ipc.count('showRecoveryPhrase')).toBe(0);
    await page.user.keyboard('{Escape}');
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
    expect(screen.getByText('Write down your recovery phrase')).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Show my recovery phrase' }));
    await tick();
    await page.user.type(screen.getByLabelText('Enter your PIN'), '246810{Enter}');
    await tick();
    expect(ipc.argsOf('showRecoveryPhrase')).toEqual([{ pin: '246810' }]);
    await page.user.click(screen.getByRole('button', { name: 'Show my 12 words' }));
    await page.user.click(screen.getByRole('button', { name: 'I wrote it down' }));
    for (let i = 0; i < 3; i++) await answerWord(page.user, WORDS);
    await tick();
    await page.user.click(screen.getByRole('button', { name: 'Done' }));

    expect(ipc.count('confirmRecoveryPhrase')).toBe(1);
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
    expect(screen.queryByText('Write down your recovery phrase')).not.toBeInTheDocument();
    // The balances were kept, not loaded again.
    expect(ipc.count('getBalance')).toBe(1);
  });

  it('has a quiet Receive per account and per token, named for what it receives', async () => {
    mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: waits(30),
      getBalance: () => [balance({ network: 'anvil', tokens: [{ symbol: 'TKN', balance: '5', contract: TOKEN }] })],
    });
    renderPage(<Wallet />);
    await tick();

    const coin = screen.getByRole('button', { name: 'Receive ETH' });
    expect(coin).toHaveAttribute('id', 'receive-anvil');
    expect(coin).toHaveAttribute('title', 'Receive ETH');
    expect(coin).toHaveClass('icon-button');
    expect(screen.getByRole('button', { name: 'Receive TKN' })).toHaveAttribute('id', 'receive-anvil-TKN');
    // In the coin's row and the token's, beside their amounts.
    expect(screen.getByTestId('balance-ETH').closest('.row')).toContainElement(coin);
    expect(screen.getByTestId('balance-TKN').closest('.row')).toContainElement(screen.getByRole('button', { name: 'Receive TKN' }));
  });

  it('opens Receive for the coin and for a token, and goes back to the balances it had with Esc and Back', async () => {
    const ipc = mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: waits(30),
      getBalance: () => [balance({ network: 'anvil', tokens: [{ symbol: 'TKN', balance: '5', contract: TOKEN }] })],
      receive: (args) => {
        const account = args.account as { contract?: string };
        return account.contract
          ? receiveInfo({ account: { network: 'anvil', address: ADDRESS, contract: TOKEN }, symbol: 'TKN', uri: `ethereum:${TOKEN}@31337/transfer?address=${ADDRESS}` })
          : receiveInfo();
      },
    });
    const page = renderPage(<Wallet />);
    await tick();

    await page.user.click(screen.getByRole('button', { name: 'Receive ETH' }));
    await tick();
    expect(ipc.argsOf('receive')).toStrictEqual([{ account: { network: 'anvil', address: ADDRESS } }]);
    expect(document.getElementById('receive-page')).toBeInTheDocument();
    expect(screen.getByTestId('balance-ETH')).not.toBeVisible();
    expect(screen.getByRole('heading', { name: 'Receive ETH' })).toBeInTheDocument();
    expect(document.getElementById('receive-network')).toHaveTextContent('anvil · chain 31337');
    expect(document.getElementById('receive-address')?.textContent).toBe(ADDRESS);
    expect(document.getElementById('receive-qr')).toHaveAttribute('src', `satchel://localhost/qr%2Fethereum%3A${ADDRESS}%4031337`);

    await page.user.keyboard('{Escape}');
    expect(document.getElementById('receive-page')).not.toBeInTheDocument();
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
    // The focus is back on the button that opened it.
    expect(screen.getByRole('button', { name: 'Receive ETH' })).toHaveFocus();

    await page.user.click(screen.getByRole('button', { name: 'Receive TKN' }));
    await tick();
    expect(ipc.argsOf('receive')[1]).toStrictEqual({ account: { network: 'anvil', address: ADDRESS, contract: TOKEN } });
    expect(screen.getByRole('heading', { name: 'Receive TKN' })).toBeInTheDocument();
    expect(document.getElementById('receive-what')).toHaveTextContent('Send only TKN on anvil to this address.');

    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    expect(document.getElementById('receive-page')).not.toBeInTheDocument();
    expect(screen.getByTestId('balance-TKN')).toHaveTextContent('5');
    expect(screen.getByRole('button', { name: 'Receive TKN' })).toHaveFocus();
    // The balances were kept, not loaded again.
    expect(ipc.count('getBalance')).toBe(1);
    expect(ipc.count('receive')).toBe(2);
  });

  it('has a Send per account and per token that opens the send page for it', async () => {
    mockCommands({
      getActivity: noActivity,
      getKeyState: confirmed,
      getRefreshWait: waits(30),
      getBalance: () => [balance({ network: 'anvil', tokens: [{ symbol: 'TKN', balance: '5', contract: TOKEN }] })],
    });
    const onSend = vi.fn();
    const page = renderPage(<Wallet onSend={onSend} />);
    await tick();

    const coin = screen.getByRole('button', { name: 'Send ETH' });
    expect(coin).toHaveAttribute('id', 'send-anvil');
    expect(coin).toHaveAttribute('data-testid', 'send-ETH');
    expect(screen.getByTestId('balance-ETH').closest('.row')).toContainElement(coin);
    const token = screen.getByTestId('send-TKN');
    expect(token).toHaveAttribute('id', 'send-anvil-TKN');
    expect(token).toHaveAccessibleName('Send TKN');

    await page.user.click(coin);
    expect(onSend).toHaveBeenLastCalledWith({ account: { network: 'anvil', address: ADDRESS }, symbol: 'ETH', balance: '1250.5' });
    await page.user.click(token);
    expect(onSend).toHaveBeenLastCalledWith({ account: { network: 'anvil', address: ADDRESS, contract: TOKEN }, symbol: 'TKN', balance: '5' });
  });

  it('shows the activity under the accounts, opens a transaction and goes back to the balances it had', async () => {
    const ipc = mockCommands({
      getActivity: () => [activityEntry({ status: 'mined', blockNumber: 5 })],
      getKeyState: confirmed,
      getRefreshWait: waits(30),
      getBalance: () => [balance()],
    });
    const page = renderPage(<Wallet />);
    await tick();

    const activity = screen.getByTestId('activity');
    expect(within(activity).getByTestId('activity-row')).toHaveAttribute('data-hash', TX_HASH);
    await page.user.click(within(activity).getByTestId('activity-row'));
    expect(screen.getByTestId('activity-detail')).toBeInTheDocument();
    expect(screen.getByTestId('balance-ETH')).not.toBeVisible();

    await page.user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
    expect(ipc.count('getBalance')).toBe(1);
  });

  it('puts the focus on the activity when asked to show it', async () => {
    mockCommands({ getActivity: noActivity, getKeyState: confirmed, getRefreshWait: waits(30), getBalance: () => [balance()] });
    renderPage(<Wallet showActivity />);
    await tick();
    expect(screen.getByRole('heading', { name: 'Activity' })).toHaveFocus();
  });
});

describe('Wallet with 1,000 tokens', () => {
  // T0 to T999 under one account; a row is 57 px until one is measured (jsdom
  // measures nothing); the token list starts 200 px down a page whose view is 600 px.
  const tokens = Array.from({ length: 1000 }, (_, i) => ({
    symbol: `T${i}`,
    balance: String(i + 1),
    contract: `0x${(i + 1).toString(16).padStart(40, '0')}`,
  }));
  const ROW = 57;
  const TOP = 200;
  const handlers = () => ({
    getActivity: noActivity,
    getKeyState: confirmed,
    getRefreshWait: waits(30),
    getBalance: () => [balance({ network: 'anvil', tokens })],
  });

  beforeEach(() => {
    vi.useFakeTimers();
    layOut({ view: 600, listTop: TOP });
  });

  const page = () => document.querySelector<HTMLElement>('main.page')!;
  const drawn = () =>
    screen
      .queryAllByTestId(/^balance-T\d+$/)
      .map((e) => e.dataset.testid?.slice('balance-'.length));
  const scrollTo = async (top: number) => {
    fireEvent.scroll(page(), { target: { scrollTop: top } });
    await tick();
  };

  it('has only the token rows in view (and two more each side) in the document', async () => {
    mockCommands(handlers());
    renderPage(<Wallet />);
    await tick();
    await tick(20);

    // 400 px of the list in view: rows 0 to 7, two more below.
    expect(drawn()).toEqual(Array.from({ length: 10 }, (_, i) => `T${i}`));
    const list = screen.getByRole('list', { name: 'Tokens on anvil' });
    expect(list.style.paddingBottom).toBe(`${(1000 - 10) * ROW}px`);
    // The coin row stays above the list.
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
  });

  it('draws other rows as the page scrolls, and only those', async () => {
    mockCommands(handlers());
    renderPage(<Wallet />);
    await tick();

    await scrollTo(TOP + 500 * ROW);
    expect(drawn()).toEqual(Array.from({ length: 15 }, (_, i) => `T${498 + i}`));
    expect(screen.queryByTestId('balance-T0')).not.toBeInTheDocument();

    await scrollTo(TOP + 1000 * ROW - 600);
    expect(drawn().at(-1)).toBe('T999');
    expect(drawn().length).toBeLessThanOrEqual(15);
  });

  it('filters the rows by symbol, case-insensitive, with an empty state', async () => {
    mockCommands(handlers());
    const { user } = renderPage(<Wallet />);
    await tick();

    const search = screen.getByRole('searchbox', { name: 'Search tokens' });
    await user.type(search, 't99');
    await tick();
    // T99 and T990 to T999; the coin (ETH) does not match.
    expect(drawn()).toEqual(['T99', ...Array.from({ length: 10 }, (_, i) => `T${990 + i}`)]);
    expect(screen.queryByTestId('balance-ETH')).not.toBeInTheDocument();

    await user.clear(search);
    await user.type(search, 'eth');
    await tick();
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
    expect(drawn()).toEqual([]);

    await user.clear(search);
    await user.type(search, 'nothing like it');
    await tick();
    expect(screen.getByRole('status')).toHaveTextContent('No token matches “nothing like it”.');
    expect(screen.queryByRole('region', { name: 'anvil' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    await tick();
    expect(screen.getByTestId('balance-ETH')).toBeInTheDocument();
    expect(drawn()[0]).toBe('T0');
  });

  it('offers no search for a few rows', async () => {
    mockCommands({ ...handlers(), getBalance: () => [balance({ network: 'anvil', tokens: tokens.slice(0, 6) })] });
    renderPage(<Wallet />);
    await tick();
    expect(drawn()).toHaveLength(6);
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });

  it('comes back from Receive of a row far down to the same place, its button focused', async () => {
    mockCommands({
      ...handlers(),
      receive: () => receiveInfo({ account: { network: 'anvil', address: ADDRESS, contract: tokens[700].contract }, symbol: 'T700' }),
    });
    const { user } = renderPage(<Wallet />);
    await tick();
    await scrollTo(TOP + 698 * ROW);

    await user.click(screen.getByRole('button', { name: 'Receive T700' }));
    await tick();
    expect(screen.getByRole('heading', { name: 'Receive T700' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await tick();

    expect(page().scrollTop).toBe(TOP + 698 * ROW);
    expect(screen.getByRole('button', { name: 'Receive T700' })).toHaveFocus();
  });

  it('moves the focus from row to row with the arrow keys, to the same button', async () => {
    mockCommands(handlers());
    const { user } = renderPage(<Wallet onSend={vi.fn()} />);
    await tick();

    screen.getByRole('button', { name: 'Receive T0' }).focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('button', { name: 'Receive T2' })).toHaveFocus();
    await user.keyboard('{End}');
    await tick();
    expect(screen.getByRole('button', { name: 'Receive T999' })).toHaveFocus();
    expect(screen.queryByTestId('balance-T0')).not.toBeInTheDocument();
  });
});

describe('Wallet values', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    localStorage.clear();
  });
  const base = { getActivity: noActivity, getKeyState: confirmed, getRefreshWait: waits(30) };
  const withToken = () => [balance({ network: 'anvil', tokens: [{ symbol: 'DEMO', balance: '5', contract: TOKEN }] })];
  const now = () => Math.floor(Date.now() / 1000);

  it("shows the total with its prices' age, and each row's value under its amount", async () => {
    const ipc = mockCommands({
      ...base,
      getBalance: withToken,
      getValues: () =>
        walletValues({
          total: '3757.25',
          pricedAt: now() - 90,
          assets: [
            { network: 'anvil', address: ADDRESS, symbol: 'ETH', price: '3000', value: '3751.50', updatedAt: now() - 30, stale: false },
            { network: 'anvil', address: ADDRESS, contract: TOKEN, symbol: 'DEMO', price: '1.15', value: '5.75', updatedAt: now() - 90, stale: false },
          ],
        }),
    });
    renderPage(<Wallet />);
    await tick();
    expect(ipc.argsOf('getValues')[0]).toEqual({ currency: 'USD' });
    expect(screen.getByTestId('wallet-total')).toHaveTextContent('$3,757.25');
    expect(screen.getByText('Prices 1 min old')).toBeInTheDocument();
    expect(screen.getByTestId('value-ETH')).toHaveTextContent('$3,751.50');
    expect(screen.getByTestId('value-DEMO')).toHaveTextContent('$5.75');
    expect(screen.getByTestId('value-DEMO')).toHaveAttribute('title', '1 DEMO = 1.15 USD, 1 min old');
    expect(screen.getByTestId('value-DEMO').closest('.row')).toContainElement(screen.getByTestId('balance-DEMO'));
  });

  it('shows no total when a held asset has no current price, and a stale price in amber', async () => {
    mockCommands({
      ...base,
      getBalance: withToken,
      getValues: () =>
        walletValues({
          total: undefined,
          pricedAt: undefined,
          unpriced: ['ETH', 'DEMO'],
          assets: [{ network: 'anvil', address: ADDRESS, symbol: 'ETH', price: '3000', value: '3751.50', updatedAt: now() - 2 * 86400, stale: true }],
        }),
    });
    renderPage(<Wallet />);
    await tick();
    expect(screen.queryByTestId('wallet-total')).not.toBeInTheDocument();
    expect(screen.getByTestId('wallet-no-total')).toHaveTextContent('No total: no current price for ETH, DEMO');
    expect(screen.getByTestId('value-ETH')).toHaveTextContent('$3,751.50 · stale');
    expect(screen.getByTestId('value-ETH')).toHaveClass('stale');
    expect(screen.queryByTestId('value-DEMO')).not.toBeInTheDocument();
  });

  it('shows no values when prices cannot be read, and the balances as ever', async () => {
    mockCommands({ ...base, getBalance: withToken });
    renderPage(<Wallet />);
    await tick();
    expect(screen.getByTestId('balance-ETH')).toHaveTextContent('1,250.5');
    expect(screen.queryByRole('region', { name: 'Total value' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('value-ETH')).not.toBeInTheDocument();
  });

  it('reads the values again, in the chosen currency, when the window comes back to the front', async () => {
    localStorage.setItem('satchel.currency', 'EUR');
    let price = '2760';
    const ipc = mockCommands({
      ...base,
      getBalance: () => [balance({ network: 'anvil', balance: '2' })],
      getValues: () =>
        walletValues({
          currency: 'EUR',
          total: (Number(price) * 2).toFixed(2),
          assets: [{ network: 'anvil', address: ADDRESS, symbol: 'ETH', price, value: (Number(price) * 2).toFixed(2), updatedAt: now(), stale: false }],
        }),
    });
    renderPage(<Wallet />);
    await tick();
    expect(screen.getByTestId('wallet-total')).toHaveTextContent('€5,520.00');
    price = '2800';
    fireEvent.focus(window);
    await tick();
    expect(ipc.argsOf('getValues').map((a) => a.currency)).toEqual(['EUR', 'EUR']);
    expect(screen.getByTestId('wallet-total')).toHaveTextContent('€5,600.00');
  });

  it("shows the chosen account's balances and activity only, and switches between accounts", async () => {
    const second = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const ipc = mockCommands({
      getActivity: () => [activityEntry(), activityEntry({ address: second, txHash: `0x${'ab'.repeat(32)}`, amount: '7' })],
      getKeyState: confirmed,
      getRefreshWait: waits(30),
      getBalance: () => [balance({ balance: '1' }), balance({ address: second, balance: '2' })],
      getWalletAccounts: () => [walletAccount(), walletAccount({ address: second, label: 'Savings', index: 1 })],
    });
    const view = renderPage(<Wallet />);
    await tick();
    const switcher = screen.getByLabelText('Account');
    expect(switcher).toHaveDisplayValue(/^Account 1 · 0x5290…9EE7$/);
    expect(screen.getAllByTestId('balance-ETH').map((e) => e.textContent)).toEqual(['1']);
    expect(screen.getAllByRole('listitem').length).toBe(1);
    await view.user.selectOptions(switcher, second.toLowerCase());
    await tick();
    expect(localStorage.getItem('satchel.account')).toBe(second.toLowerCase());
    expect(screen.getAllByTestId('balance-ETH').map((e) => e.textContent)).toEqual(['2']);
    expect(screen.getAllByRole('listitem').length).toBe(1);
    expect(screen.getByRole('listitem')).toHaveTextContent('7');
    // The values (and their total) are the shown account's.
    expect(ipc.argsOf('getValues').at(-1)).toStrictEqual({ currency: 'USD', account: second.toLowerCase() });
  });

  it('asks for the PIN to check an account added on another device, then shows it', async () => {
    const second = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    let confirmed = false;
    const ipc = mockCommands({
      getActivity: noActivity,
      getKeyState: () => keyStatus({ unconfirmedAccounts: confirmed ? 0 : 1 }),
      getRefreshWait: waits(30),
      getPinStatus: () => pinStatus(),
      getBalance: () => [balance()],
      confirmAccounts: () => {
        confirmed = true;
        return [walletAccount(), walletAccount({ address: second, label: 'Savings', index: 1 })];
      },
    });
    const view = renderPage(<Wallet />);
    await tick();
    expect(screen.getByTestId('unconfirmed-accounts')).toHaveTextContent('1 account(s) added on another device');
    await view.user.click(screen.getByRole('button', { name: 'Check with my PIN' }));
    await view.user.type(screen.getByLabelText('Enter your PIN'), '246810');
    await view.user.click(screen.getByRole('button', { name: 'Check with my PIN' }));
    await tick();
    expect(ipc.argsOf('confirmAccounts')).toStrictEqual([{ pin: '246810' }]);
    expect(screen.queryByTestId('unconfirmed-accounts')).toBeNull();
    expect(screen.getByLabelText('Account')).toHaveTextContent('Savings');
  });
});
