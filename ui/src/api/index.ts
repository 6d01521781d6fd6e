// The widget's commands, typed. Every call goes to Rust (the widget plugin,
// `plugin:satchel|…`, or the Satchel app's own two update commands); the page
// never holds a token or a key, only what it shows.
import { Channel, convertFileSrc, invoke, type InvokeArgs } from '@tauri-apps/api/core';

/** Calls one of the widget plugin's commands. */
function widget<T>(command: string, args?: InvokeArgs): Promise<T> {
  return invoke<T>(`plugin:satchel|${command}`, args);
}

// The shapes the commands send, generated from the Rust types (a cargo test fails
// when they are stale): one source for the page and the app.
import type {
  LanguageRequest,
  AccountBalanceInfo,
  ActivityEntry,
  AddableToken,
  AddressCheck,
  AppError,
  AppInfo,
  AppStart,
  ApprovalEntry,
  CallQuote,
  CollectionChoices,
  ConfirmSend,
  ConnectPrompt,
  SiteSwitched,
  EndpointStatus,
  ConnectedSite,
  LinkedExtension,
  ExternalLoginOutcome,
  FeeSpeed,
  ImportOutcome,
  NftFilter,
  NftGrid,
  NftTiles,
  NftSendForm,
  OwnToken,
  RevokeForm,
  SavedAddress,
  KeyStatus,
  LoginOptions,
  PinStatus,
  ReceiveInfo,
  RefreshWait,
  ReplaceAction,
  SendQuote,
  SendForm,
  SendRequest,
  SendResult,
  ServiceLifeCycle,
  ServiceNft,
  Provider,
  RegisterEmailPrompt,
  ServiceUser,
  WalletAccount,
  SignUpOutcome,
  WalletValues,
} from './generated';

export type {
  CollectionChoices,
  NftFilter,
  NftGrid,
  NftTile,
  NftTiles,
  AccountBalanceInfo,
  ActivityEntry,
  AddableToken,
  ApprovalEntry,
  AddressCheck,
  AppError,
  AppInfo,
  AppStart,
  ConfirmSend,
  Allowance,
  CallQuote,
  CallReview,
  CallsPrompt,
  ConnectPrompt,
  SiteSwitched,
  EndpointStatus,
  ConnectedSite,
  LinkedExtension,
  DecodedCall,
  ErrorCode,
  ExpectedApproval,
  ExpectedChange,
  ExternalLoginOutcome,
  FeeOption,
  FeeSpeed,
  HighFee,
  ImportOutcome,
  KeyState,
  KeyStatus,
  LoginOptions,
  LoginStatus,
  MessageReview,
  NftSendForm,
  OwnToken,
  Permit,
  OrderItem,
  SeaportOrder,
  PinStatus,
  PromptRequest,
  Provider,
  ReceiveInfo,
  RecipientWarning,
  ReplaceAction,
  SendQuote,
  SendForm,
  SendRequest,
  SavedAddress,
  SendResult,
  ServiceAccount,
  SignIn,
  TransactionPrompt,
  TypedField,
  TypedReview,
  TransactionStatus,
  WatchAssetPrompt,
  UseWidgetPrompt,
  LanguageRequest,
  ServiceLifeCycle,
  ServiceNft,
  ServiceUser,
  TokenBalanceInfo,
  AssetValue,
  WalletValues,
  WalletAccount,
} from './generated';

// ---- Hand-written until generated (issue #13) ---------------------------------
/** A provider a login goes through in the system browser (every `Provider` but
 * `email` and `external_token`). */
export type OAuthProvider = Exclude<Provider, 'email' | 'external_token'>;

/** An application's `registerUserEmail`: the register-e-mail page, for the login
 * the service refused for want of an e-mail. */
export type RegisterEmailRequest = RegisterEmailPrompt;

/** The identity a login without an e-mail came through. */
export type RegisterEmailProvider = RegisterEmailRequest['provider'];

/** One of the user's accounts as the commands name it: the coin's, or (`contract`)
 * a token's. */
export interface AccountRef {
  network: string;
  address: string;
  contract?: string;
}

export function isAppError(e: unknown): e is AppError {
  return typeof e === 'object' && e !== null && 'code' in e && 'message' in e;
}

/** Any failure as an AppError, so pages handle one shape. */
export function asAppError(e: unknown): AppError {
  return isAppError(e) ? e : { code: 'UnknownError', message: String(e) };
}

export const api = {
  getStatus: () => widget<ServiceLifeCycle>('getStatus'),
  /** Calls `onStatus` with the life cycle at once and then at every change, through
   * a channel; rejects when the app cannot watch it. */
  watchStatus: (onStatus: (status: ServiceLifeCycle) => void) =>
    widget<void>('watchStatus', { onEvent: new Channel<ServiceLifeCycle>(onStatus) }),
  getAppInfo: () => widget<AppInfo>('getAppInfo'),
  /** What the first screen needs, in one call: the app's settings, the life
   * cycle past initialising, who is logged in and (read in time) their balances. */
  getStart: () => widget<AppStart>('getStart'),
  getCurrentServiceUser: () => widget<ServiceUser | null>('getCurrentServiceUser'),
  loginWithEmailAndPassword: (email: string, password: string) =>
    widget<ServiceUser>('loginWithEmailAndPassword', { email, password }),
  signUpWithEmailAndPassword: (email: string, password: string) =>
    widget<SignUpOutcome>('signUpWithEmailAndPassword', { email, password }),
  resendVerification: (email: string) => widget<void>('resendVerification', { email }),
  /** The providers and the e-mail form the login page offers: the app's, narrowed
   * by what the application passed to `loginWithUI`. */
  getLoginOptions: () => widget<LoginOptions>('getLoginOptions'),
  /** Opens `provider`'s login in the system browser; resolves once the person is
   * through there (logged in, or their account needs an e-mail first). Rejects
   * `User canceled` after `cancelOauth` or when it timed out. Logs out whoever was
   * logged in first. */
  loginWithOauthProvider: (provider: OAuthProvider) =>
    widget<ExternalLoginOutcome>('loginWithOauthProvider', { provider, withLogout: true }),
  /** Ends the waiting `loginWithOauthProvider`, which then rejects `User canceled`. */
  cancelOauth: () => widget<void>('cancelOauth'),
  /** E-mails a link that registers `email` to the login refused for want of one
   * (its tokens stay in the app); true once it went out. */
  sendVerifyEmail: (email: string) => widget<boolean>('sendVerifyEmail', { email }),
  /** The refused login again, once the registered address is verified; rejects
   * `RequiredEmailVerified` before that. */
  resumeLogin: () => widget<ServiceUser>('resumeLogin'),
  /** Calls `onRequest` with each application `registerUserEmail`, through a channel. */
  watchRegisterEmailRequests: (onRequest: (request: RegisterEmailRequest) => void) =>
    widget<void>('watchRegisterEmailRequests', { onEvent: new Channel<RegisterEmailRequest>(onRequest) }),
  /** E-mails a link that sets a new password; the same answer whether or not the
   * address has an account. */
  sendPasswordResetEmail: (email: string) => widget<void>('sendPasswordResetEmail', { email }),
  /** Makes the wallet's key on the device, sealed under `pin`; `backup`: the service
   * also keeps the recovery phrase encrypted under the PIN. */
  register: (pin: string, backup: boolean) => widget<ServiceUser>('register', { pin, backup }),
  getKeyState: () => widget<KeyStatus>('getKeyState'),
  /** The wallet PIN's tries left, pause and lock, and whether a backup is kept. */
  getPinStatus: () => widget<PinStatus>('getPinStatus'),
  /** The 12 words, unsealed with `pin`. The page holds them only while it shows them. */
  showRecoveryPhrase: (pin: string) => widget<string[]>('showRecoveryPhrase', { pin }),
  /** `account`'s private key (0x-hex), behind the PIN; shown once, kept nowhere. */
  exportPrivateKey: (pin: string, account: string) => widget<string>('exportPrivateKey', { pin, account }),
  /** The wallet's accounts this device derived (address, name, index), first to last. */
  getWalletAccounts: () => widget<WalletAccount[]>('getWalletAccounts'),
  /** Derives the phrase's next account behind `pin` and adds it; the accounts after. */
  addAccount: (pin: string, label: string) => widget<WalletAccount[]>('addAccount', { pin, label }),
  renameAccount: (account: string, label: string) => widget<void>('renameAccount', { account, label }),
  /** Opens the phrase with `pin` to take in accounts added on another device; the accounts after. */
  confirmAccounts: (pin: string) => widget<WalletAccount[]>('confirmAccounts', { pin }),
  /** The person's saved addresses (kept on this device). */
  getSavedAddresses: () => widget<SavedAddress[]>('getSavedAddresses'),
  saveAddress: (address: string, name: string) => widget<SavedAddress[]>('saveAddress', { address, name }),
  forgetAddress: (address: string) => widget<SavedAddress[]>('forgetAddress', { address }),
  exportAddressBook: () => widget<string>('exportAddressBook'),
  importAddressBook: (csv: string) => widget<ImportOutcome>('importAddressBook', { csv }),
  /** The addresses the wallet sent to lately, newest first. */
  getRecentRecipients: () => widget<string[]>('getRecentRecipients'),
  /** The person picked the right words: the app stops reminding them. */
  confirmRecoveryPhrase: () => widget<void>('confirmRecoveryPhrase'),
  changePin: (oldPin: string, newPin: string) => widget<void>('changePin', { oldPin, newPin }),
  /** `phrase`: the 12 words, lower case, single spaces; `pin`: the new PIN. */
  restoreFromPhrase: (phrase: string, pin: string) => widget<ServiceUser>('restoreFromPhrase', { phrase, pin }),
  restoreFromBackup: (pin: string) => widget<ServiceUser>('restoreFromBackup', { pin }),
  /** E-mails the link that lifts a `PinLocked` lock. */
  sendPinUnlockEmail: () => widget<void>('sendPinUnlockEmail'),
  logout: () => widget<void>('logout'),
  getBalance: () => widget<AccountBalanceInfo[]>('getBalance'),
  refreshBalance: () => widget<AccountBalanceInfo[]>('refreshBalance'),
  getNFTs: (refresh: boolean) => widget<ServiceNft[]>('getNFTs', { options: { refresh } }),
  /** The NFT tab's listing: each collection once, each NFT referring to it by
   * position, with only what a tile shows; `refresh` reads the chain. `held`:
   * the version of the grid the page shows; when the new one is the same, the
   * answer says `unchanged` and carries no NFTs. */
  /** Reads the NFTs for the NFT tab: the app keeps them, the page asks for tiles. */
  getNftGrid: (refresh: boolean) => widget<NftGrid>('getNftGrid', { refresh }),
  /** Up to `count` tiles of the last grid's NFTs that `filter` matches, from the `from`th on. */
  getNftTiles: (filter: NftFilter, from: number, count: number) => widget<NftTiles>('getNftTiles', { filter, from, count }),
  /** One NFT of the last grid, in full (its detail and send page). */
  getNftDetail: (id: string) => widget<ServiceNft>('getNftDetail', { id }),
  getRefreshWait: () => widget<RefreshWait>('getRefreshWait'),
  openNftLink: (link: string) => widget<void>('openNftLink', { link }),
  /** The version of a downloaded, verified update waiting for a restart, or null. */
  getUpdate: () => invoke<string | null>('getUpdate'),
  /** Installs the waiting update and restarts the app; false when none waits. */
  installUpdate: () => invoke<boolean>('installUpdate'),
  /** Calls `onPrompt` with the approval an application waits for (or null when
   * none does), now and at every change. */
  watchConnectRequests: (onPrompt: (prompt: ConnectPrompt | null) => void) =>
    widget<void>('watchConnectRequests', { onEvent: new Channel<ConnectPrompt | null>(onPrompt) }),
  /** Calls `onSwitch` each time a connected site or program switches its network. */
  watchSiteSwitches: (onSwitch: (switched: SiteSwitched) => void) =>
    widget<void>('watchSiteSwitches', { onEvent: new Channel<SiteSwitched>(onSwitch) }),
  /** Calls `onChange` with where the local endpoint listens (or why it cannot), now and at every change. */
  watchEndpoint: (onChange: (status: EndpointStatus) => void) =>
    widget<void>('watchEndpoint', { onEvent: new Channel<EndpointStatus>(onChange) }),
  /** Moves the local endpoint to `port`, kept for the next start; a taken port is refused. */
  moveEndpoint: (port: number) => widget<EndpointStatus>('moveEndpoint', { port }),
  /** The person's answer to an application's approval prompt; `pin` where the key signs (a wrong PIN
   * is an error, and the request still waits). */
  answerConnectRequest: (id: number, approve: boolean, pin?: string, send?: { speed: FeeSpeed; acceptHighFee: boolean }, accounts?: string[]) =>
    widget<void>('answerConnectRequest', { id, approve, ...(pin === undefined ? {} : { pin }), ...send, ...(accounts === undefined ? {} : { accounts }) }),
  /** The applications connected to Satchel, for Settings. */
  getConnectedSites: () => widget<ConnectedSite[]>('getConnectedSites'),
  /** Disconnects one: its `eth_accounts` is `[]` from now. */
  disconnectSite: (key: string) => widget<boolean>('disconnectSite', { key }),
  /** A one-time code for the person to type into Satchel's browser extension (8 letters, 2 minutes). */
  linkBrowserExtension: () => widget<string>('linkBrowserExtension'),
  /** The browser extensions linked to Satchel, for Settings. */
  getLinkedExtensions: () => widget<LinkedExtension[]>('getLinkedExtensions'),
  /** Unlinks one: it speaks for no site from now. */
  unlinkBrowserExtension: (extension: string) => widget<boolean>('unlinkBrowserExtension', { extension }),
  /** What the receive page shows for one of the user's accounts (and token): the
   * checksummed address, the network and its chain, and the EIP-681 payment URI
   * its QR code shows (see `qrSrc`). */
  receive: (account: AccountRef) => widget<ReceiveInfo>('receive', { account }),
  /** An application's send (the spec's `send`): the app opens the send page for
   * `account`, filled from `txData`, and resolves with the transaction's hash once
   * the person confirms it; rejects `UserCancelled` when they leave. */
  send: (account: AccountRef, txData?: { to?: string; amount?: string }) =>
    widget<SendResult>('send', { account, txData }),
  /** Calls `onRequest` with the application's language request (now, and at
   * each `changeLanguage`), through a channel. */
  watchLanguage: (onRequest: (request: LanguageRequest) => void) =>
    widget<void>('watchLanguage', { onEvent: new Channel<LanguageRequest>(onRequest) }),
  /** Calls `onClosed` each time the widget's window is closed (by the person
   * or the application's `closeWidget`): the window is kept hidden, and the
   * page goes back to where a new window would start. */
  watchClosed: (onClosed: () => void) => widget<void>('watchClosed', { onEvent: new Channel<number>(() => onClosed()) }),
  /** Calls `onRequest` with each application `send` waiting for the page (the
   * latest one at once, if any), through a channel. */
  watchSendRequests: (onRequest: (request: SendRequest) => void) =>
    widget<void>('watchSendRequests', { onEvent: new Channel<SendRequest>(onRequest) }),
  /** The person left the send page an application's `send` opened: that `send`
   * rejects with `UserCancelled`. */
  cancelSend: (requestId: number) => widget<void>('cancelSend', { requestId }),
  /** A typed recipient checked: its EIP-55 form and whether it is `account` itself;
   * rejects `InvalidParameters` for no address or a wrong checksum. */
  checkAddress: (account: AccountRef, to: string) => widget<AddressCheck>('checkAddress', { account, to }),
  /** The address's primary ENS name on `network` (none: the first with a registry), only when it resolves back to it. */
  primaryName: (network: string | undefined, address: string) => widget<string | null>('primaryName', { network, address }),
  /** The review of a send: fee options, totals and balances after. `amount` is
   * the decimal string as typed; '' quotes the fees only (for Max). */
  prepareSend: (form: SendForm) => widget<SendQuote>('prepareSend', { form }),
  /** The review of a speed-up or cancel of a pending transaction: one option, fast. */
  prepareReplacement: (txHash: string, action: ReplaceAction) =>
    widget<SendQuote>('prepareReplacement', { txHash, action }),
  /** The review of a send of an NFT the person holds; `confirmSend` signs it. */
  prepareNftSend: (form: NftSendForm) => widget<CallQuote>('prepareNftSend', { form }),
  /** The collections (NFT collections and tokens, `network:contract`, lowercase) the person hid, and the NFT
   * collections they show although they look like spam; kept on this device. */
  getCollectionChoices: () => widget<CollectionChoices>('getCollectionChoices'),
  hideCollection: (network: string, contract: string) => widget<CollectionChoices>('hideCollection', { network, contract }),
  showCollection: (network: string, contract: string) => widget<CollectionChoices>('showCollection', { network, contract }),
  /** The tokens the person added by contract address (kept on this device as accepted). */
  getOwnTokens: () => widget<OwnToken[]>('getOwnTokens'),
  /** What a token contract says of itself and the account's balance, read now. */
  previewToken: (network: string, contract: string, account?: string) =>
    widget<AddableToken>('previewToken', { network, contract, ...(account === undefined ? {} : { account }) }),
  /** Adds the token the page showed; refused when the service's facts are no longer those. */
  addToken: (network: string, contract: string, symbol: string, decimals: number, account?: string) =>
    widget<AddableToken>('addToken', { network, contract, symbol, decimals, ...(account === undefined ? {} : { account }) }),
  removeToken: (network: string, contract: string, account?: string) =>
    widget<OwnToken[]>('removeToken', { network, contract, ...(account === undefined ? {} : { account }) }),
  /** Each coin and token's value in `currency` (ISO 4217) from the service's price feeds, and the total when every price is fresh. */
  /** Values in `currency`; of one account (`account`), or of all. */
  getValues: (currency: string, account?: string | null) => widget<WalletValues>('getValues', { currency, account: account ?? undefined }),
  /** The allowances and NFT operators the accounts gave that hold now, newest first. */
  getApprovals: () => widget<ApprovalEntry[]>('getApprovals'),
  /** The review of an approval's revocation; `confirmSend` signs it. */
  prepareRevoke: (form: RevokeForm) => widget<CallQuote>('prepareRevoke', { form }),
  /** Signs the reviewed quote with the key the PIN opens and broadcasts it. */
  confirmSend: (confirm: ConfirmSend) => widget<ActivityEntry>('confirmSend', { confirm }),
  /** The wallet's transactions, newest first. */
  getActivity: () => widget<ActivityEntry[]>('getActivity'),
  /** Tells the app a page is on screen (the desktop benchmark's stopwatch). */
  markShown: (what: ShownMark | `timeline ${string}`) => widget<void>('markShown', { what }),
  /** Tells the app the first screen has been painted: it builds its tray icon
   * then, off the start's way. */
  firstPageShown: () => widget<void>('firstPageShown'),
};

/** The key a hidden collection is kept under. */
export const collectionKey = (network: string, contract: string) => `${network}:${contract.toLowerCase()}`;

/** What a thumbnail is drawn for: a grid tile on a screen of one device pixel a
 * CSS pixel (`tile`) or more (`tile2x`), or the detail view. */
export type ThumbnailSize = 'tile' | 'tile2x' | 'detail';

/** A grid tile drawn at the size it is shown on this screen: the page holds each
 * decoded picture in view, so a larger one only costs memory. */
export const tileSize = (): ThumbnailSize => (window.devicePixelRatio > 1 ? 'tile2x' : 'tile');

/** The app's PNG thumbnail of one of the user's NFT pictures (the `satchel:`
 * protocol); the webview never loads the remote picture itself. */
export function thumbnailSrc(imageUrl: string, size: ThumbnailSize): string {
  return convertFileSrc(`${size}/${imageUrl}`, 'satchel');
}

/** The thumbnail of a picture the NFT grid names by its handle (`NftTile.picture`). */
export function gridThumbnailSrc(handle: string, size: ThumbnailSize): string {
  return convertFileSrc(`${size}/nft/${handle}`, 'satchel');
}

/** The app's PNG QR code of a payment URI `receive` gave (the `satchel:` protocol):
 * drawn in Rust, black on white with its quiet zone; the page draws nothing itself. */
export function qrSrc(uri: string): string {
  return convertFileSrc(`qr/${uri}`, 'satchel');
}

/** What the desktop benchmark times: the wallet's balances, the NFT grid's first
 * row of thumbnails, an application's request on its approval page. */
export type ShownMark = 'balances' | 'nfts' | 'approval';

/** Once the browser has painted what was just rendered (the second animation
 * frame from now begins after the frame with it was drawn): a `performance` mark
 * `shown <what>`, on the page's own clock, and `markShown` to the app. The
 * benchmark's minimal window marks its page the same way. */
export function markShownAfterPaint(what: ShownMark): void {
  requestAnimationFrame(() => {
    if (what === 'balances') markStartStep('frame');
    requestAnimationFrame(() => {
      performance.mark(`shown ${what}`);
      void api.markShown(what).catch(() => undefined);
      // The start's steps with it, for the benchmark's breakdown of the start.
      if (what === 'balances') void api.markShown(`timeline ${startTimeline()}`).catch(() => undefined);
    });
  });
}

/** Runs `then` once the browser has painted what was just rendered (the second
 * animation frame from now begins after the frame with it was drawn). */
export function afterPaint(then: () => void): void {
  requestAnimationFrame(() => requestAnimationFrame(then));
}

/** A read asked for before the page that needs it exists, so its answer is
 * there (or under way) when the page asks: taken once, and standing in for the
 * page's own read for `freshForMs` at most. */
export class EarlyRead<T> {
  private entry: { promise: Promise<T>; value?: T; asked: number } | null = null;
  private readonly freshForMs: number;

  constructor(freshForMs: number) {
    this.freshForMs = freshForMs;
  }

  /** Asks now; a failure is forgotten (the page's own read will show it). */
  ask(read: () => Promise<T>): Promise<T> {
    const entry: { promise: Promise<T>; value?: T; asked: number } = { promise: read(), asked: Date.now() };
    this.entry = entry;
    entry.promise.then(
      (value) => {
        entry.value = value;
      },
      () => {
        if (this.entry === entry) this.entry = null;
      },
    );
    return entry.promise;
  }

  /** Holds an answer that came with another read (taken once, as one asked for). */
  hold(value: T): void {
    this.entry = { promise: Promise.resolve(value), value, asked: Date.now() };
  }

  /** The answer if it has arrived (for a first render), without taking it. */
  arrived(): T | null {
    return this.fresh()?.value ?? null;
  }

  /** The read, once (arrived or still under way); null when there is none. */
  take(): Promise<T> | null {
    const entry = this.fresh();
    this.entry = null;
    return entry?.promise ?? null;
  }

  private fresh() {
    if (this.entry && Date.now() - this.entry.asked > this.freshForMs) this.entry = null;
    return this.entry;
  }
}

/** How long a read asked for early stands in for the page's own. */
const EARLY_READ_FOR_MS = 5_000;
/** The start (`getStart`), asked for as the script starts, so the first render
 * can be the first screen itself rather than a starting page. */
export const earlyStart = new EarlyRead<AppStart>(EARLY_READ_FOR_MS);
/** The wallet page's first balances, as they came with the start for someone
 * logged in, so the page opens with them: one render of the wallet instead of
 * an empty one and then the balances. */
export const earlyBalances = new EarlyRead<AccountBalanceInfo[]>(EARLY_READ_FOR_MS);

/** Asks for the start; the balances that came with it are kept for the wallet
 * page's first render (`earlyBalances`). */
export function readStart(): Promise<AppStart> {
  return api.getStart().then((start) => {
    if (start.balances) earlyBalances.hold(start.balances);
    return start;
  });
}

/** A step of the start (`start <step>`, a `performance` mark): what the desktop
 * benchmark prints of where the start's time goes. */
export function markStartStep(step: string): void {
  performance.mark(`start ${step}`);
}

const markedOnce = new Set<string>();
/** A step of the start marked the first time only (a render or layout that
 * happens again later is not the start's). */
export function markStartStepOnce(step: string): void {
  if (markedOnce.has(step)) return;
  markedOnce.add(step);
  markStartStep(step);
}

/** The page's start on the wall clock (`origin`, ms since 1970) and each step
 * since, in ms: `origin=… appInfo=… …`. */
function startTimeline(): string {
  const marks: [string, number][] = performance
    .getEntriesByType('mark')
    .filter((m) => m.name.startsWith('start ') || m.name === 'shown balances')
    .map((m) => [m.name.startsWith('shown ') ? 'shown' : m.name.slice('start '.length), m.startTime]);
  // When the page's document had arrived, to tell its loading from the rest
  // (WebKitGTK reports no timing for the custom protocol's sheet and script).
  const loaded: [string, number][] = [];
  const [document] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  if (document?.responseEnd) loaded.push(['html', document.responseEnd]);
  const steps = [...loaded, ...marks].sort((a, b) => a[1] - b[1]).map(([name, at]) => `${name}=${at.toFixed(0)}`);
  return [`origin=${performance.timeOrigin.toFixed(0)}`, ...steps].join(' ');
}
