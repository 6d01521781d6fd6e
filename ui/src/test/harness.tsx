// What the page tests share: the app's commands mocked through Tauri's own IPC
// mock, pages rendered in English inside the I18nProvider, a fake clock moved on
// explicitly, and a few fixtures.
import { StrictMode, type ReactElement } from 'react';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Channel } from '@tauri-apps/api/core';
import { mockConvertFileSrc, mockIPC } from '@tauri-apps/api/mocks';
import { afterEach, expect, vi } from 'vitest';
import type {
  AccountBalanceInfo,
  WalletValues,
  ActivityEntry,
  AppError,
  AppInfo,
  CollectionChoices,
  ErrorCode,
  FeeOption,
  KeyStatus,
  LoginOptions,
  NftFilter,
  NftGrid,
  NftTiles,
  PinStatus,
  ReceiveInfo,
  RegisterEmailRequest,
  SendQuote,
  SendRequest,
  ServiceLifeCycle,
  ServiceNft,
  ServiceUser,
  WalletAccount,
  api,
} from '../api';
import { collectionKey } from '../api';
import { I18nProvider } from '../i18n';

export type Command = keyof typeof api;
export type Handler = (args: Record<string, unknown>) => unknown;
export interface Call {
  cmd: string;
  args: Record<string, unknown>;
}

let unmocked: string[] = [];

afterEach(() => {
  // A page that called a command no test expected is a finding of its own.
  const called = unmocked;
  unmocked = [];
  expect(called, 'commands called without a mock').toEqual([]);
});

/** Commands every test may let pass: `markShown` is the desktop benchmark's
 * stopwatch, nothing a person sees; the send page asks `getAppInfo` for the
 * networks (the service answers) and Settings asks `getUpdate` (no update waits). */
const defaults: Partial<Record<Command, Handler>> = {
  markShown: () => null,
  firstPageShown: () => null,
  getAppInfo: () => appInfo(),
  getUpdate: () => null,
  // The local provider's prompts and connected sites, which the app watches and
  // Settings lists: none unless a test says otherwise.
  watchConnectRequests: () => null,
  watchSiteSwitches: () => null,
  watchEndpoint: () => null,
  // The widget's window closing: never, unless a test says otherwise.
  watchClosed: () => null,
  getConnectedSites: () => [],
  getLinkedExtensions: () => [],
  // The collections the person hid or chose to show: none unless a test says otherwise.
  getCollectionChoices: () => ({ hidden: [], shown: [] }),
  // The send form's saved and recent recipients: none unless a test says otherwise.
  getSavedAddresses: () => [],
  getRecentRecipients: () => [],
  // Addresses' ENS names: none unless a test says otherwise.
  primaryName: () => null,
  // Prices: the service has none unless a test says otherwise (no values shown).
  getValues: () => fail('ApiRequestError', 'no prices'),
  // The wallet's accounts: the one of the fixtures unless a test says otherwise.
  getWalletAccounts: () => [walletAccount()],
};

/** Answers the app's commands with `handlers`; records every call. A handler that
 * throws (see `fail`) makes the command's promise reject, as the app's does. */
export function mockCommands(given: Partial<Record<Command, Handler>>) {
  const handlers = { ...defaults, ...given };
  const calls: Call[] = [];
  // Pictures come through the app's own protocol (convertFileSrc).
  mockConvertFileSrc('linux');
  mockIPC((invoked, payload) => {
    // The widget plugin's commands by their own names (`plugin:satchel|getStatus`
    // is `getStatus`), as the app's two update commands are.
    const cmd = invoked.replace(/^plugin:satchel\|/, '');
    const args = (payload ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args });
    const handler = handlers[cmd as Command];
    if (!handler) {
      unmocked.push(cmd);
      throw { code: 'UnknownError', message: `no mock for ${cmd}` } satisfies AppError;
    }
    return handler(args);
  });
  return {
    calls,
    /** How often `cmd` was called. */
    count: (cmd: Command) => calls.filter((c) => c.cmd === cmd).length,
    /** The arguments of each call of `cmd`, in order. */
    argsOf: (cmd: Command) => calls.filter((c) => c.cmd === cmd).map((c) => c.args),
  };
}

/** A command's failure as the app sends it: `{code, message}`. */
export function fail(code: ErrorCode, message = 'detail from the service'): never {
  throw { code, message } satisfies AppError;
}

/** What the IPC mock installs in the window (`@tauri-apps/api/mocks`): a channel's
 * messages arrive through `runCallback` under the channel's id. */
interface TauriInternals {
  runCallback: (id: number, message: unknown) => void;
}

/** The app's start and life cycle as the app tells them, starting at `initial`:
 * `getStart` answers once the status is past initialising (the app's answers
 * after it has initialised), with the user `who.user()` gives and, for someone
 * logged in, `who.balances`; `watchStatus` sends the status now and at every
 * change (right after the handler returns, as the shell's command returns and
 * its task sends); `change` changes it.
 *
 * With `mockIPC`, a command's arguments reach the handler as the page passed them,
 * so `onEvent` is the page's own `Channel`. A message goes through the channel's
 * callback as the shell sends it, `{index, message}` under the channel's id, so
 * the `Channel`'s own ordering is exercised too. */
export function lifeCycle(initial: ServiceLifeCycle, who: { user?: () => ServiceUser | null; balances?: AccountBalanceInfo[] } = {}) {
  let current = initial;
  const watchers: { channel: Channel<ServiceLifeCycle>; sent: number }[] = [];
  const starts: (() => void)[] = [];
  const internals = () => (window as unknown as { __TAURI_INTERNALS__: TauriInternals }).__TAURI_INTERNALS__;
  const send = (watcher: (typeof watchers)[number], status: ServiceLifeCycle) =>
    internals().runCallback(watcher.channel.id, { index: watcher.sent++, message: status });
  const settled = () => current !== 'not_initialized' && current !== 'initializing';
  const getStart: Handler = async () => {
    while (!settled()) await new Promise<void>((started) => starts.push(started));
    const user = who.user?.() ?? null;
    const balances = current === 'login' ? who.balances : undefined;
    return { app: appInfo(), status: current, ...(user ? { user } : {}), ...(balances ? { balances } : {}) };
  };
  const watchStatus: Handler = (args) => {
    const watcher = { channel: args.onEvent as Channel<ServiceLifeCycle>, sent: 0 };
    watchers.push(watcher);
    queueMicrotask(() => send(watcher, current));
    return null;
  };
  return {
    getStart,
    watchStatus,
    /** The app's status changes to `status`: every watcher hears it, a start
     * waiting for it answers. */
    async change(status: ServiceLifeCycle) {
      current = status;
      await act(async () => {
        for (const watcher of watchers) send(watcher, status);
        if (settled()) starts.splice(0).forEach((started) => started());
      });
    },
  };
}

/** `getStart` and `watchStatus` of an app that starts at `status`, with `user`
 * logged in (and `balances` read ahead) or nobody, and stays there. */
export function startsAs(status: ServiceLifeCycle, user: ServiceUser | null = null, balances?: AccountBalanceInfo[]) {
  const { getStart, watchStatus } = lifeCycle(status, { user: () => user, balances });
  return { getStart, watchStatus };
}

/**
 * Applications' `send`s as the shell's `watchSendRequests` sends them: the handler
 * for `mockCommands` (the latest request at once, as the shell's watch does), and
 * `request`, which sends the next one to every watcher.
 */
export function sendRequests(initial: SendRequest | null = null) {
  let latest = initial;
  const watchers: { channel: Channel<SendRequest>; sent: number }[] = [];
  const internals = () => (window as unknown as { __TAURI_INTERNALS__: TauriInternals }).__TAURI_INTERNALS__;
  const send = (watcher: (typeof watchers)[number], request: SendRequest) =>
    internals().runCallback(watcher.channel.id, { index: watcher.sent++, message: request });
  const watchSendRequests: Handler = (args) => {
    const watcher = { channel: args.onEvent as Channel<SendRequest>, sent: 0 };
    watchers.push(watcher);
    const current = latest;
    if (current) queueMicrotask(() => send(watcher, current));
    return null;
  };
  return {
    watchSendRequests,
    /** An application calls `send`: every watcher hears of it. */
    async request(next: SendRequest) {
      latest = next;
      await act(async () => {
        for (const watcher of watchers) send(watcher, next);
      });
    },
  };
}

/**
 * Applications' `registerUserEmail`s as the shell's `watchRegisterEmailRequests`
 * sends them: the handler for `mockCommands`, and `request`, which sends the next
 * one to every watcher.
 */
export function registerEmailRequests() {
  const requests = watched<RegisterEmailRequest>();
  /** An application calls `registerUserEmail`: every watcher hears of it. */
  return { watchRegisterEmailRequests: requests.handler, request: requests.send };
}

/**
 * Any `watch*` command as the shell serves it: `handler` for `mockCommands`, and
 * `send`, which sends the next value to every watcher through its channel.
 */
export function watched<T>() {
  const watchers: { channel: Channel<T>; sent: number }[] = [];
  const internals = () => (window as unknown as { __TAURI_INTERNALS__: TauriInternals }).__TAURI_INTERNALS__;
  const handler: Handler = (args) => {
    watchers.push({ channel: args.onEvent as Channel<T>, sent: 0 });
    return null;
  };
  return {
    handler,
    async send(next: T) {
      await act(async () => {
        for (const watcher of watchers) internals().runCallback(watcher.channel.id, { index: watcher.sent++, message: next });
      });
    },
  };
}

/** `getLoginOptions`' answer: by default the e-mail form alone. */
export function loginOptions(overrides: Partial<LoginOptions> = {}): LoginOptions {
  return { oauth: [], email: true, ...overrides };
}

/** A promise the test settles when it wants: for loading states. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Renders `ui` in the I18nProvider; a user-event instance that moves the fake clock.
 * `strict`: inside StrictMode at the root, as ui/src/main.tsx renders the app (React
 * doubles effects on mount only where StrictMode is above the newly mounted tree). */
export function renderPage(ui: ReactElement, { strict = false } = {}) {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const tree = <I18nProvider>{ui}</I18nProvider>;
  return { user, ...render(strict ? <StrictMode>{tree}</StrictMode> : tree) };
}

/** Moves the fake clock by `ms` (0: only lets pending IPC answers and renders settle). */
export async function tick(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Moves the fake clock second by second, so each countdown step renders. */
export async function seconds(n: number) {
  for (let i = 0; i < n; i++) await tick(1000);
}

export function serviceUser(overrides: Partial<ServiceUser> = {}): ServiceUser {
  return {
    status: 'success',
    userInfo: { userId: 'u-1', email: 'ada@example.com', provider: 'email', use2FA: false },
    userStatus: { loginStatus: 'complete' },
    walletId: 'w-1',
    ...overrides,
  };
}

/** `getKeyState`'s answer: by default the key is here and its phrase was checked. */
export function keyStatus(overrides: Partial<KeyStatus> = {}): KeyStatus {
  return { state: 'onDevice', phraseConfirmed: true, refusedAccounts: 0, unconfirmedAccounts: 0, ...overrides };
}

/** `getPinStatus`'s answer: by default no wrong PIN yet, no backup. */
export function pinStatus(overrides: Partial<PinStatus> = {}): PinStatus {
  return { triesLeft: 5, lockedForSecs: 0, emailRequired: false, hasBackup: false, ...overrides };
}

/** A recovery phrase (the BIP-39 test vector's first words). */
export const WORDS = ['abandon', 'ability', 'able', 'about', 'above', 'absent', 'absorb', 'abstract', 'absurd', 'abuse', 'access', 'accident'];

/** The recovery phrase check's question on screen: which word (1-based) it asks for. */
export function askedWord(): number {
  const asked = /#(\d+)/.exec(screen.getByRole('heading', { name: /Which is word #\d+\?/ }).textContent ?? '');
  if (!asked) throw new Error('no question on screen');
  return Number(asked[1]);
}

/** Answers the check's question on screen: with the right word of `words`, or (`right:
 * false`) with one of the other choices. */
export async function answerWord(user: ReturnType<typeof userEvent.setup>, words: string[], right = true) {
  const wanted = words[askedWord() - 1];
  const choices = within(screen.getByRole('group', { name: /Which is word/ })).getAllByRole('button');
  const choice = choices.find((b) => (b.textContent === wanted) === right);
  if (!choice) throw new Error('no such choice');
  await user.click(choice);
}

export const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

export function balance(overrides: Partial<AccountBalanceInfo> = {}): AccountBalanceInfo {
  return { network: 'ethereum', address: ADDRESS, symbol: 'ETH', balance: '1250.5', tokens: [], ...overrides };
}

/** `getValues`'s answer: by default 1,250.5 ETH on ethereum at $3,000, a total. */
export function walletValues(overrides: Partial<WalletValues> = {}): WalletValues {
  return {
    currency: 'USD',
    currencies: ['EUR', 'USD'],
    total: '3751500.00',
    pricedAt: Math.floor(Date.now() / 1000) - 30,
    unpriced: [],
    assets: [{ network: 'ethereum', address: ADDRESS, symbol: 'ETH', price: '3000', value: '3751500.00', updatedAt: Math.floor(Date.now() / 1000) - 30, stale: false }],
    ...overrides,
  };
}

/** A token's contract (checksummed), as the local chain's first deployment. */
export const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

/** `receive`'s answer: by default the coin on the local chain (anvil, 31337). */
export function receiveInfo(overrides: Partial<ReceiveInfo> = {}): ReceiveInfo {
  return {
    account: { network: 'anvil', address: ADDRESS },
    address: ADDRESS,
    network: 'anvil',
    chainId: 31337,
    symbol: 'ETH',
    uri: `ethereum:${ADDRESS}@31337`,
    ...overrides,
  };
}

export function nft(overrides: Partial<ServiceNft> & { name: string }): ServiceNft {
  return {
    account: { address: ADDRESS, network: 'ethereum' },
    contract: {
      name: 'Satchel Friends',
      address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      scheme: 'ERC721',
      network: 'ethereum',
    },
    description: '',
    externalLink: '',
    imageUrl: '',
    quantity: 1,
    contentType: 'image',
    state: 0,
    tokenId: '1',
    likelySpam: false,
    ...overrides,
  };
}

/** The NFT tab's commands over what `listing` answers for a stored read or
 * (`refresh`) a read of the chain, as the app answers them: `getNftGrid` reads
 * it, `getNftTiles` filters it (the account, network and search, and the
 * person's collection choices, which `getCollectionChoices`, `hideCollection`
 * and `showCollection` keep here, from `initial` on), and a detail is of the
 * last listing. An NFT's id is its position, its picture's handle its URL. */
export function nftCommands(
  listing: (refresh: boolean) => ServiceNft[] | Promise<ServiceNft[]>,
  initial: CollectionChoices = { hidden: [], shown: [] },
): Partial<Record<Command, Handler>> {
  let last: ServiceNft[] = [];
  let choices = initial;
  const keyOf = (n: ServiceNft) => collectionKey(n.contract.network, n.contract.address);
  const change = (hide: boolean) => (args: Record<string, unknown>) => {
    const key = collectionKey(String(args.network), String(args.contract));
    const without = (keys: string[]) => keys.filter((k) => k !== key);
    choices = hide ? { hidden: [...without(choices.hidden), key], shown: without(choices.shown) } : { hidden: without(choices.hidden), shown: [...without(choices.shown), key] };
    return choices;
  };
  return {
    getNftGrid: async (args) => {
      last = await listing(args.refresh === true);
      return { version: JSON.stringify(last), count: last.length } satisfies NftGrid;
    },
    getNftTiles: (args) => {
      const filter = args.filter as NftFilter;
      const [from, count] = [Number(args.from), Math.min(Number(args.count), 240)];
      const hidden = new Set(choices.hidden);
      const shown = new Set(choices.shown);
      const leftOut = (n: ServiceNft) => hidden.has(keyOf(n)) || (n.likelySpam && !shown.has(keyOf(n)));
      const listed = last.map((n, i) => ({ n, i })).filter(({ n }) => filter.account === undefined || n.account.address.toLowerCase() === filter.account.toLowerCase());
      const search = (filter.search ?? '').trim().toLowerCase();
      const matching = listed.filter(
        ({ n }) =>
          (filter.network === undefined || n.contract.network === filter.network) &&
          (filter.showHidden === true || !leftOut(n)) &&
          (n.name.toLowerCase().includes(search) || n.contract.name.toLowerCase().includes(search)),
      );
      return {
        version: JSON.stringify(last),
        listed: listed.length,
        hidden: listed.filter(({ n }) => leftOut(n)).length,
        networks: [...new Set(listed.map(({ n }) => n.contract.network))],
        matching: matching.length,
        from,
        tiles: matching.slice(from, from + count).map(({ n, i }) => ({
          id: String(i),
          name: n.name,
          quantity: n.quantity,
          ...(n.imageUrl === '' ? {} : { picture: n.imageUrl }),
          ...(n.contentType === 'video' ? { video: true } : {}),
          ...(n.likelySpam && (hidden.has(keyOf(n)) || !shown.has(keyOf(n))) ? { spam: true } : {}),
          collection: n.contract.name,
          scheme: n.contract.scheme,
        })),
      } satisfies NftTiles;
    },
    getNftDetail: (args) => last[Number(args.id)] ?? fail('InvalidParameters', 'not one of your NFTs as last listed'),
    getCollectionChoices: () => choices,
    hideCollection: change(true),
    showCollection: change(false),
  };
}

/** `getAppInfo`'s answer: the local chain (anvil, 31337, ETH at 18 decimals). */
export function appInfo(overrides: Partial<AppInfo> = {}): AppInfo {
  return {
    appId: 'app-1',
    name: 'Satchel',
    providers: ['email'],
    oauth: [],
    networks: [{ name: 'anvil', chainId: 31337, symbol: 'ETH', decimals: 18, iconUrl: '' }],
    emailVerification: true,
    emailDomains: [],
    passwordRules: '',
    ...overrides,
  };
}

/** Someone else's address (checksummed). */
export const RECIPIENT = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
export const TX_HASH = `0x${'ab'.repeat(32)}`;

/** A fee option of a coin send of 0.1 ETH from 1250.5 ETH, 21000 gas at `gwei`. */
export function feeOption(speed: FeeOption['speed'], overrides: Partial<FeeOption> = {}): FeeOption {
  const values = {
    slow: { maxFeePerGasGwei: '1', fee: '0.000021', total: '0.100021', coinAfter: '1250.399979', max: '1250.499979' },
    normal: { maxFeePerGasGwei: '1.5', fee: '0.0000315', total: '0.1000315', coinAfter: '1250.3999685', max: '1250.4999685' },
    fast: { maxFeePerGasGwei: '2', fee: '0.000042', total: '0.100042', coinAfter: '1250.399958', max: '1250.499958' },
  }[speed];
  return { speed, ...values, enough: true, ...overrides };
}

/** `prepareSend`'s answer: 0.1 ETH on anvil to RECIPIENT, three speeds. */
export function sendQuote(overrides: Partial<SendQuote> = {}): SendQuote {
  return {
    quoteId: 'q-1',
    network: 'anvil',
    chainId: 31337,
    from: ADDRESS,
    to: RECIPIENT,
    symbol: 'ETH',
    decimals: 18,
    coinSymbol: 'ETH',
    amount: '0.1',
    coinBalance: '1250.5',
    gasLimit: 21000,
    baseFeeGwei: '0.5',
    options: [feeOption('slow'), feeOption('normal'), feeOption('fast')],
    recipientIsContract: false,
    recipientIsSelf: false,
    warnings: [],
    ...overrides,
  };
}

/** One line of the activity: by default 0.1 ETH sent to RECIPIENT, pending. */
export function activityEntry(overrides: Partial<ActivityEntry> = {}): ActivityEntry {
  return {
    txHash: TX_HASH,
    network: 'anvil',
    address: ADDRESS,
    direction: 'sent',
    status: 'pending',
    counterparty: RECIPIENT,
    symbol: 'ETH',
    amount: '0.1',
    coinSymbol: 'ETH',
    fee: '0.0000315',
    nonce: 7,
    createdAt: 1_763_900_000,
    isCancel: false,
    kind: 'transfer',
    ...overrides,
  };
}

/** One of the wallet's accounts: the fixtures' first unless overridden. */
export function walletAccount(overrides: Partial<WalletAccount> = {}): WalletAccount {
  return { address: ADDRESS, label: 'Account 1', index: 0, ...overrides };
}
