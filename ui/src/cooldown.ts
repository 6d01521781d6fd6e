// The refresh cooldown as the app keeps it (one minute after a refresh), counted
// down on the page second by second.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from './api';

export function useCooldown(kind: 'balances' | 'nfts') {
  const [wait, setWait] = useState(0);

  const sync = useCallback(async () => {
    try {
      const waits = await api.getRefreshWait();
      setWait(waits[kind]);
    } catch {
      setWait(0);
    }
  }, [kind]);

  useEffect(() => {
    void sync();
  }, [sync]);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => Math.max(0, w - 1)), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  return useMemo(() => ({ wait, sync }), [wait, sync]);
}
