// The app's commands, typed. Every call goes to the Rust shell; the page never
// holds a token or a key, only what it shows.
import { Channel, convertFileSrc, invoke } from '@tauri-apps/api/core';

// The shapes the commands send, generated from the Rust types (a cargo test fails
// when they are stale): one source for the page and the app.
import type {
  AccountBalanceInfo,
  AppError,
  AppInfo,
  KeyState,
  RefreshWait,
  ServiceLifeCycle,
  ServiceNft,
  ServiceUser,
  SignUpOutcome,
} from './generated/api';

export type {
  AccountBalanceInfo,
  AppError,
  AppInfo,
  ErrorCode,
  KeyState,
  LoginStatus,
  ServiceAccount,
  ServiceLifeCycle,
  ServiceNft,
  ServiceUser,
  TokenBalanceInfo,
} from './generated/api';

export function isAppError(e: unknown): e is AppError {
  return typeof e === 'object' && e !== null && 'code' in e && 'message' in e;
}

/** Any failure as an AppError, so pages handle one shape. */
export function asAppError(e: unknown): AppError {
  return isAppError(e) ? e : { code: 'UnknownError', message: String(e) };
}

export const api = {
  getStatus: () => invoke<ServiceLifeCycle>('getStatus'),
  /** Calls `onStatus` with the life cycle at once and then at every change, through
   * a channel; rejects when the app cannot watch it. */
  watchStatus: (onStatus: (status: ServiceLifeCycle) => void) =>
    invoke<void>('watchStatus', { onEvent: new Channel<ServiceLifeCycle>(onStatus) }),
  getAppInfo: () => invoke<AppInfo>('getAppInfo'),
  getCurrentServiceUser: () => invoke<ServiceUser | null>('getCurrentServiceUser'),
  loginWithEmailAndPassword: (email: string, password: string) =>
    invoke<ServiceUser>('loginWithEmailAndPassword', { email, password }),
  signUpWithEmailAndPassword: (email: string, password: string) =>
    invoke<SignUpOutcome>('signUpWithEmailAndPassword', { email, password }),
  resendVerification: (email: string) => invoke<void>('resendVerification', { email }),
  register: (pin: string) => invoke<ServiceUser>('register', { pin }),
  getKeyState: () => invoke<KeyState>('getKeyState'),
  logout: () => invoke<void>('logout'),
  getBalance: () => invoke<AccountBalanceInfo[]>('getBalance'),
  refreshBalance: () => invoke<AccountBalanceInfo[]>('refreshBalance'),
  getNFTs: (refresh: boolean) => invoke<ServiceNft[]>('getNFTs', { options: { refresh } }),
  getRefreshWait: () => invoke<RefreshWait>('getRefreshWait'),
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
