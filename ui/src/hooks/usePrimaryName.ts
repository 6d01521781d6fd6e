import { useEffect, useState } from 'react';
import { api } from '../api';

/**
 * `address`'s primary ENS name on `network` (undefined: the first network
 * whose table names a registry, for what has no network of its own), once the
 * app has checked that it resolves back to the address; null until then, and
 * when it has none. A failed look-up shows nothing: the address stays what the
 * page names.
 */
export function usePrimaryName(network: string | undefined, address: string | null | undefined): string | null {
  const key = address ? `${network ?? ''}:${address.toLowerCase()}` : null;
  const [found, setFound] = useState<{ key: string; name: string | null } | null>(null);
  useEffect(() => {
    if (!key || !address) return;
    let live = true;
    api.primaryName(network, address).then(
      (name) => {
        if (live) setFound({ key, name });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [key, network, address]);
  return found && found.key === key ? found.name : null;
}
