// The app's commands, typed. Every call goes to the Rust shell; the page never
// holds a token or a key, only what it shows.
import { convertFileSrc, invoke } from '@tauri-apps/api/core';

export type ServiceLifeCycle =
  | 'not_initialized'
  | 'initializing'
  | 'initialized'
  | 'before_login'
  | 'login'
  | 'login_before_register';

export type LoginStatus = 'complete' | 'pinRequired' | 'registerRequired';

export interface ServiceUser {
  status: 'success' | 'fail';
  userInfo?: { userId: string; email: string; provider: string; use2FA: boolean };
  userStatus: { loginStatus: LoginStatus; pinRequired?: boolean };
  walletId?: string;
}

export interface TokenBalanceInfo {
  symbol: string;
  balance: string;
  contract: string;
}

export interface AccountBalanceInfo {
  network: string;
  address: string;
  symbol: string;
  balance: string;
  tokens: TokenBalanceInfo[];
}

export interface ServiceAccount {
  address: string;
  network: string;
  contract?: string;
  isAA?: boolean;
}

export interface ServiceNft {
  account: ServiceAccount;
  contract: {
    name: string;
    address: string;
    scheme: 'ERC721' | 'ERC1155';
    description?: string;
    network: string;
    externalLink?: string;
    imageUrl?: string;
  };
  name: string;
  description: string;
  externalLink: string;
  imageUrl: string;
  contentUrl?: string;
  quantity: number;
  contentType: 'image' | 'video';
  state: number;
}

export interface AppInfo {
  appId: string;
  name: string;
  providers: string[];
  networks: { name: string; chainId: number; symbol: string; decimals: number; iconUrl: string }[];
  emailVerification: boolean;
  emailDomains: string[];
  passwordRules: string;
}

/** The codes an error can carry: the spec's ServiceError codes, the login
 * library's strings, and the desktop SDK's own. */
export type ErrorCode =
  | 'ApiRequestError'
  | 'InvalidParameters'
  | 'NotInitialized'
  | 'InvalidAppKey'
  | 'InvalidLoginProvider'
  | 'InvalidToken'
  | 'InvalidLoginSession'
  | 'UserCancelled'
  | 'UnknownError'
  | 'NotConnectedInternet'
  | 'FailedLogin'
  | 'AlreadyLogout'
  | 'AlreadyInitialized'
  | 'InvalidEmailDomain'
  | 'FailedSendEmail'
  | 'RequiredEmailVerified'
  | 'IncorrectEmailForm'
  | 'IncorrectPasswordForm'
  | 'NotInitializedNetwork'
  | 'RequiredSignupEmail'
  | 'FailedEmailVerified'
  | 'FailedPasswordStateSetting'
  | 'FailedPasswordSetting'
  | 'ExistedEmail'
  | 'NotActivity'
  | 'auth/email-verified'
  | 'auth/existed-email'
  | 'fail/send-email'
  | 'fail/email-verified'
  | 'Already logout'
  | 'login module not initialized'
  | 'KeychainUnavailable'
  | 'TooManyRequests';

export interface AppError {
  code: ErrorCode;
  message: string;
}

export function isAppError(e: unknown): e is AppError {
  return typeof e === 'object' && e !== null && 'code' in e && 'message' in e;
}

/** Any failure as an AppError, so pages handle one shape. */
export function asAppError(e: unknown): AppError {
  return isAppError(e) ? e : { code: 'UnknownError', message: String(e) };
}

export const api = {
  getStatus: () => invoke<ServiceLifeCycle>('getStatus'),
  getAppInfo: () => invoke<AppInfo>('getAppInfo'),
  getCurrentServiceUser: () => invoke<ServiceUser | null>('getCurrentServiceUser'),
  loginWithEmailAndPassword: (email: string, password: string) =>
    invoke<ServiceUser>('loginWithEmailAndPassword', { email, password }),
  signUpWithEmailAndPassword: (email: string, password: string) =>
    invoke<{ verificationSent: boolean; user?: ServiceUser }>('signUpWithEmailAndPassword', { email, password }),
  resendVerification: (email: string) => invoke<void>('resendVerification', { email }),
  register: (pin: string) => invoke<ServiceUser>('register', { pin }),
  logout: () => invoke<void>('logout'),
  getBalance: () => invoke<AccountBalanceInfo[]>('getBalance'),
  refreshBalance: () => invoke<AccountBalanceInfo[]>('refreshBalance'),
  getNFTs: (refresh: boolean) => invoke<ServiceNft[]>('getNFTs', { options: { refresh } }),
  getRefreshWait: () => invoke<{ balances: number; nfts: number }>('getRefreshWait'),
  openNftLink: (link: string) => invoke<void>('openNftLink', { link }),
  /** Tells the app a page is on screen (the desktop benchmark's stopwatch). */
  markShown: (what: 'balances') => invoke<void>('markShown', { what }),
};

/** The app's PNG thumbnail of one of the user's NFT pictures (the `satchel:`
 * protocol); the webview never loads the remote picture itself. */
export function thumbnailSrc(imageUrl: string, size: 'tile' | 'detail'): string {
  return convertFileSrc(`${size}/${imageUrl}`, 'satchel');
}

/** Calls `markShown` once the browser has painted what was just rendered. */
export function markShownAfterPaint(what: 'balances'): void {
  requestAnimationFrame(() => setTimeout(() => void api.markShown(what).catch(() => undefined), 0));
}
