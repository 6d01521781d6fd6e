// A sent transaction followed until the network settles it.
import { useEffect, useState } from 'react';
import { api, type ActivityEntry } from '../api';

/**
 * `initial`, followed: while it is pending the app's activity is read every `every`
 * ms (one read at a time) and the entry kept as it says; the reads stop once the
 * network has settled it, and when the page goes. `set` follows another entry.
 */
export function useTrackedEntry(initial: ActivityEntry, every: number) {
  const [entry, setEntry] = useState(initial);
  const { txHash, status } = entry;
  useEffect(() => {
    if (status !== 'pending') return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const next = () => {
      timer = setTimeout(() => {
        api.getActivity().then(
          (list) => {
            if (!live) return;
            const found = list.find((e) => e.txHash.toLowerCase() === txHash.toLowerCase());
            if (found) setEntry(found);
            if (!found || found.status === 'pending') next();
          },
          () => {
            if (live) next();
          },
        );
      }, every);
    };
    next();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [txHash, status, every]);
  return [entry, setEntry] as const;
}
