// The wallet's accounts this device holds the key of, read when a page opens
// and replaced by what an add or a rename gives back.
import { useCallback, useEffect, useState } from 'react';
import { api, type WalletAccount } from '../../api';

export function useWalletAccounts() {
  const [accounts, setAccounts] = useState<WalletAccount[] | null>(null);
  const reload = useCallback(
    () =>
      api.getWalletAccounts().then(
        (list) => setAccounts(list),
        () => setAccounts((current) => current ?? []),
      ),
    [],
  );
  useEffect(() => {
    void reload();
  }, [reload]);
  return { accounts, setAccounts, reload };
}
