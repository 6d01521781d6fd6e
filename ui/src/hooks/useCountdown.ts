// Waits the page counts down second by second: the check-e-mail page's resend
// cooldown, and the refresh cooldowns the app keeps (one minute after a balance or
// NFT refresh).
import { useCallback, useEffect, useState } from 'react';
import { api } from '../api';

/** Seconds left, down to 0 one a second; `start(n)` (re)starts from `n`. */
export function useCountdown(initial = 0) {
  const [seconds, start] = useState(initial);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => start((s) => Math.max(0, s - 1)), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);
  return { seconds, start };
}

/** The app's refresh cooldown of `kind`, read from the app on mount and on every
 * `sync()`, counted down in between. `sync()` resolves to the wait the app gave,
 * or null when it could not say (the page then shows none). */
export function useRefreshCooldown(kind: 'balances' | 'nfts') {
  const { seconds, start } = useCountdown();

  const sync = useCallback(async () => {
    const wait = await api.getRefreshWait().then(
      (waits) => waits[kind],
      () => null,
    );
    start(wait ?? 0);
    return wait;
  }, [kind, start]);

  useEffect(() => {
    void sync();
  }, [sync]);

  return { seconds, sync };
}
