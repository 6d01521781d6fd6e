// The account the wallet shows (its balances, NFTs and activity), chosen in the
// switcher and remembered on this device (an address, nothing secret); the first
// when none was chosen or the chosen one is gone. Every page that reads it
// follows a change at once.
import { useSyncExternalStore } from 'react';

const STORAGE_ACCOUNT = 'satchel.account';
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function saved(): string | null {
  return localStorage.getItem(STORAGE_ACCOUNT);
}

export function chooseAccount(address: string) {
  localStorage.setItem(STORAGE_ACCOUNT, address.toLowerCase());
  listeners.forEach((listener) => listener());
}

/** The chosen address (lower case), or null before any choice. */
export function useChosenAccount(): string | null {
  return useSyncExternalStore(subscribe, saved);
}

/** Of `accounts`, the address to show (lower case): the chosen one when it is
 * there, else the first; null for none. */
export function shownAccount(accounts: { address: string }[], chosen: string | null): string | null {
  const addresses = accounts.map((a) => a.address.toLowerCase());
  if (chosen && addresses.includes(chosen.toLowerCase())) return chosen.toLowerCase();
  return addresses[0] ?? null;
}

/** Whether `address` is the shown one (null shows every account). */
export function isShown(address: string, shown: string | null): boolean {
  return shown === null || address.toLowerCase() === shown;
}
