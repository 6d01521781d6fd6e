// Satchel's wallet widget for a desktop application, with the spec's method
// names and shapes (the web widget SDK's, plus the React Native variant's
// getNFTs and receive). In a Tauri app it talks to the Satchel plugin
// (`tauri-plugin-satchel`, added in Rust with one line); in any other program
// (Node, Electron) to the installed Satchel app's local endpoint
// (`endpointTransport`). Either way the widget's pages open in a window of
// their own, and the PIN, the recovery phrase and the service's tokens never
// reach the application.
//
//   import { SatchelWidget } from '@satchel/widget';
//   const satchel = new SatchelWidget({ appId, appKey });
//   await satchel.init({ defaultLanguage: 'en' });
//   const user = await satchel.loginWithUI();
//   const accounts = await satchel.getAccounts();

import type {
  AccountBalanceInfo,
  AppInfo,
  ExternalLoginOutcome,
  LoginProviderChoice,
  ServiceAccount,
  ServiceErrorCode,
  ServiceLifeCycle,
  ServiceNft,
  ServiceUser,
  SendResult,
  ReceiveInfo,
} from './generated.js';
import { tauriTransport, type Transport } from './transport.js';

export type {
  AccountBalanceInfo,
  AppInfo,
  ExternalLoginOutcome,
  LoginProviderChoice,
  ServiceAccount,
  ServiceErrorCode,
  ServiceLifeCycle,
  ServiceNft,
  ServiceUser,
  SendResult,
  ReceiveInfo,
} from './generated.js';
export { DEFAULT_ENDPOINT, endpointTransport, tauriTransport, type Transport } from './transport.js';

/** The six states of the widget's life cycle, as `getStatus` answers them. */
export const LIFE_CYCLE: readonly ServiceLifeCycle[] = [
  'not_initialized',
  'initializing',
  'initialized',
  'before_login',
  'login',
  'login_before_register',
];

/** A failure with one of the spec's `ServiceError` codes and a message. */
export class SatchelError extends Error {
  readonly code: ServiceErrorCode | string;
  constructor(code: ServiceErrorCode | string, message: string) {
    super(message);
    this.name = 'SatchelError';
    this.code = code;
  }
}

/** Any failure as a SatchelError: the plugin's `{code, message}`, or a refusal
 * by the host's permissions (`UnknownError`, with Tauri's words). */
function asSatchelError(e: unknown): SatchelError {
  if (e instanceof SatchelError) return e;
  if (typeof e === 'object' && e !== null && 'code' in e && 'message' in e) {
    const { code, message } = e as { code: unknown; message: unknown };
    return new SatchelError(String(code), String(message));
  }
  return new SatchelError('UnknownError', String(e));
}

/** What `init` takes, as the spec's web widget names it. */
export interface WidgetAttributes {
  /** `'hide'` (the default) keeps the widget closed until a method opens it;
   * `'show'` opens it once initialised. */
  type?: 'hide' | 'show';
  /** The widget's language: `'en'`, `'ko'` or `'ja'`. */
  defaultLanguage?: 'en' | 'ko' | 'ja';
  /** The currency values are shown in: `'USD'` or `'EUR'`. */
  defaultCurrency?: string;
  /** The OAuth providers `loginWithUI` offers when called without a list. */
  loginProviders?: LoginProviderChoice[];
}

/** An account as `send` and `receive` take it. */
export interface AccountRef {
  network: string;
  address: string;
  contract?: string;
}

/** `getAccounts`' options. */
export interface AccountOptions {
  networks?: string[];
  withEoa?: boolean;
}

/** `getNFTs`' options. */
export interface NftOptions {
  refresh: boolean;
  networks?: string[];
}

/** `send`'s transaction data: the recipient (`to`, or the React Native
 * variant's `toAddress`) and the amount in whole units (`'0.5'`). */
export interface TxData {
  to?: string;
  toAddress?: string;
  amount: string;
}

/** An EIP-1193 provider (`getProvider('ethereum')`): viem's `custom()`,
 * ethers' `BrowserProvider` and wagmi take it. */
export interface EthereumProvider {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): EthereumProvider;
  removeListener(event: string, listener: (...args: unknown[]) => void): EthereumProvider;
}

/** An EIP-1193 refusal: `code` 4001 (rejected), 4100 (not connected), 4200… */
export class ProviderRpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProviderRpcError';
    this.code = code;
    this.data = data;
  }
}

/** The widget SDK. */
export class SatchelWidget {
  readonly appId: string;
  readonly appKey: string;
  /** The login library, as the spec's `login` property. */
  readonly login: SatchelLogin;
  private readonly transport: Transport;
  private initialized = false;
  private attributes: WidgetAttributes = {};

  constructor(options: { appId: string; appKey: string; transport?: Transport }) {
    if (!options.appId || !options.appKey) {
      throw new SatchelError('InvalidParameters', 'appId and appKey are required');
    }
    this.appId = options.appId;
    this.appKey = options.appKey;
    this.transport = options.transport ?? tauriTransport();
    this.login = new SatchelLogin(this.transport);
  }

  private call<T>(method: string, args?: Record<string, unknown>): Promise<T> {
    return this.transport.call<T>(method, args).catch((e: unknown) => {
      throw asSatchelError(e);
    });
  }

  /** Initialises the widget: reaches the service with the app's key and
   * checks that the plugin serves this app (`InvalidAppKey` otherwise);
   * `AlreadyInitialized` on a second call. */
  async init(attributes: WidgetAttributes = {}): Promise<void> {
    if (this.initialized) throw new SatchelError('AlreadyInitialized', 'the widget is already initialised');
    if (this.transport.init) {
      // The installed Satchel app: it asks the person, then serves this app.
      await this.transport.init({ appId: this.appId, appKey: this.appKey }).catch((e: unknown) => {
        throw asSatchelError(e);
      });
    } else {
      const info = await this.call<AppInfo>('getAppInfo');
      if (info.appId !== this.appId) {
        throw new SatchelError(
          'InvalidAppKey',
          `the Satchel plugin is configured for the app ${info.appId}, not ${this.appId}`,
        );
      }
    }
    this.attributes = attributes;
    this.initialized = true;
    if (attributes.defaultLanguage !== undefined) {
      // A default: a language the person chose in the widget stays theirs.
      await this.call<void>('changeLanguage', { language: attributes.defaultLanguage, asDefault: true });
    }
    if (attributes.type === 'show') await this.openWidget();
  }

  /** Whether `init` succeeded (and `finalize` has not been called since). */
  isInitialized(): boolean {
    return this.initialized;
  }

  getStatus(): Promise<ServiceLifeCycle> {
    return this.call<ServiceLifeCycle>('getStatus');
  }

  /** The logged-in user at once; otherwise the widget's login page, and the
   * user once they log in (`UserCancelled` when the widget is closed).
   * `providers`: the OAuth buttons (an empty list: e-mail only). */
  loginWithUI(providers?: LoginProviderChoice[], email?: string): Promise<ServiceUser> {
    const chosen = providers ?? this.attributes.loginProviders;
    return this.call<ServiceUser>('loginWithUI', {
      ...(chosen === undefined ? {} : { providers: chosen }),
      ...(email === undefined ? {} : { email }),
    });
  }

  /** Opens the widget; `false` when no one is logged in (nothing opens). */
  openWidget(): Promise<boolean> {
    return this.call<boolean>('openWidget');
  }

  /** Closes the widget; never logs out. */
  closeWidget(): Promise<boolean> {
    return this.call<boolean>('closeWidget');
  }

  /** Opens the widget's registration page (the PIN is chosen there) and
   * answers the user once registered. Only in `login_before_register`. */
  register(): Promise<ServiceUser> {
    return this.call<ServiceUser>('registerWithUI');
  }

  /** registerUserEmail: the widget's e-mail registration for an OAuth
   * account without an e-mail, then the user. */
  registerUserEmail(provider: string, idToken?: string, accessToken?: string): Promise<ServiceUser> {
    return this.call<ServiceUser>('registerUserEmail', {
      provider,
      ...(idToken === undefined ? {} : { idToken }),
      ...(accessToken === undefined ? {} : { accessToken }),
    });
  }

  getAccounts(options?: AccountOptions): Promise<ServiceAccount[]> {
    return this.call<ServiceAccount[]>('getAccounts', options === undefined ? {} : { options });
  }

  getBalance(accounts?: AccountRef[]): Promise<AccountBalanceInfo[]> {
    return this.call<AccountBalanceInfo[]>('getBalance', accounts === undefined ? {} : { accounts });
  }

  getNFTs(options: NftOptions): Promise<ServiceNft[]> {
    return this.call<ServiceNft[]>('getNFTs', { options });
  }

  /** Opens the widget's send page for `account`, filled from `txData`; the
   * person confirms with their PIN there. Answers `{txId}`. */
  send(account: AccountRef, txData?: TxData): Promise<SendResult> {
    const data =
      txData === undefined
        ? {}
        : { txData: { to: txData.to ?? txData.toAddress ?? '', amount: txData.amount } };
    return this.call<SendResult>('send', { account, ...data });
  }

  /** What the receive page shows for `account`, and the page opened. */
  async receive(account: AccountRef): Promise<{ account: AccountRef }> {
    await this.call<ReceiveInfo>('receive', { account });
    await this.openWidget();
    return { account };
  }

  /** The widget's pages speak `language` from now: `'en'`, `'ko'` or `'ja'`
   * (`InvalidParameters` for another). */
  changeLanguage(language: 'en' | 'ko' | 'ja'): Promise<void> {
    return this.call<void>('changeLanguage', { language });
  }

  /** The widget's EIP-1193 provider: `'ethereum'` is the one network family
   * Satchel serves. Its requests are answered as Satchel's local endpoint
   * answers a program (the host connects with the person's yes; each
   * signature and transaction is approved on the widget's own page, with the
   * PIN there). Events (`accountsChanged`, `chainChanged`) are not sent yet:
   * ask `eth_accounts` and `eth_chainId` again after a login or a switch. */
  getProvider(network: 'ethereum'): EthereumProvider {
    if (network !== 'ethereum') throw new SatchelError('InvalidParameters', `no provider for ${String(network)}`);
    const transport = this.transport;
    if (!transport.request) throw new SatchelError('InvalidParameters', 'this transport has no provider');
    const provider: EthereumProvider = {
      request: ({ method, params }) =>
        transport.request!(method, params ?? []).catch((e: unknown) => {
          const { code, message, data } = (e ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
          // Satchel not running is EIP-1193's 4900 (disconnected).
          const rpcCode = typeof code === 'number' ? code : code === 'NotInitialized' ? 4900 : -32603;
          throw new ProviderRpcError(rpcCode, String(message ?? e), data);
        }),
      on: () => provider,
      removeListener: () => provider,
    };
    return provider;
  }

  /** Logs out of the service; the widget stays initialised. */
  logout(): Promise<void> {
    return this.call<void>('logout');
  }

  /** Ends the use of the widget: `not_initialized`. */
  async finalize(): Promise<void> {
    await this.call<void>('finalize');
    this.initialized = false;
  }
}

/** The login library (`widget.login`). Methods that would hand the page a
 * token (`getRefreshIdentityToken`, `getLoginSession`) are not offered: the
 * tokens stay in the OS keychain, behind the plugin; `loginService` is done by
 * the plugin as part of each login, whose result is the user. `getSignForLogin`
 * belongs to the application's backend, which holds the authentication key. */
export class SatchelLogin {
  constructor(private readonly transport: Transport) {}

  private call<T>(method: string, args?: Record<string, unknown>): Promise<T> {
    return this.transport.call<T>(method, args).catch((e: unknown) => {
      throw asSatchelError(e);
    });
  }

  /** The system browser's OAuth login, then the user (or `{registerEmail}`). */
  loginWithOauthProvider(params: { provider: string; withLogout?: boolean }): Promise<ExternalLoginOutcome> {
    return this.call<ExternalLoginOutcome>('loginWithOauthProvider', params);
  }

  signUpWithEmailAndPassword(email: string, password: string): Promise<unknown> {
    return this.call('signUpWithEmailAndPassword', { email, password });
  }

  loginWithEmailAndPassword(email: string, password: string): Promise<ServiceUser> {
    return this.call<ServiceUser>('loginWithEmailAndPassword', { email, password });
  }

  /** An id token of the application's backend and its `sign`. */
  loginWithIdToken(params: { token: string; sign: string }): Promise<ExternalLoginOutcome> {
    return this.call<ExternalLoginOutcome>('loginWithIdToken', params);
  }

  loginWithAccessToken(params: { provider: string; token: string; sign: string }): Promise<ExternalLoginOutcome> {
    return this.call<ExternalLoginOutcome>('loginWithAccessToken', params);
  }

  /** The logged-in user, without tokens, or `null`. */
  getCurrentServiceUser(): Promise<ServiceUser | null> {
    return this.call<ServiceUser | null>('getCurrentServiceUser');
  }

  sendVerifyEmail(params: { email: string }): Promise<boolean> {
    return this.call<boolean>('sendVerifyEmail', params);
  }

  async logout(): Promise<boolean> {
    await this.call<void>('logout');
    return true;
  }

  async finalize(): Promise<void> {
    await this.call<void>('finalize');
  }
}
