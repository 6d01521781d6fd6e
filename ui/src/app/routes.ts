// Where the widget is: the pages, the home tabs, and the page the SDK's life
// cycle starts on.
import type { AppError, OAuthProvider, RegisterEmailProvider, ServiceLifeCycle } from '../api';
import type { SendTarget } from '../features/send/Send';

export type Tab = 'wallet' | 'nfts' | 'settings';
export type Route =
  | { page: 'starting' }
  /** `detail`: the service URL tried and what went wrong, when the app knows. */
  | { page: 'offline'; detail?: string }
  /** `notice`: how an OAuth login that came back here ended, shown under the buttons. */
  | { page: 'login'; email: string; notice?: AppError }
  /** Waiting for an OAuth login in the system browser. */
  | { page: 'oauth'; provider: OAuthProvider }
  /** A login refused for want of an e-mail: add one (after an OAuth login, or an
   * application's `registerUserEmail`). */
  | { page: 'registerEmail'; provider: RegisterEmailProvider }
  | { page: 'signup' }
  | { page: 'check'; email: string }
  | { page: 'forgot'; email: string }
  | { page: 'register' }
  /** `activity`: the wallet's activity takes the focus (after a send). */
  | { page: 'home'; tab: Tab; activity?: boolean }
  /** The send page, from a wallet row or an application's `send` (`requestId`). */
  | ({ page: 'send' } & SendTarget);

export function routeFor(status: ServiceLifeCycle): Route {
  switch (status) {
    case 'not_initialized':
    case 'initializing':
      return { page: 'starting' };
    case 'login':
      return { page: 'home', tab: 'wallet' };
    case 'login_before_register':
      return { page: 'register' };
    default:
      return { page: 'login', email: '' };
  }
}
