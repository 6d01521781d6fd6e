// The account bar above the wallet and the NFTs: which account they show, a
// switch between the wallet's accounts, and the way to add and name them.
import { useI18n } from '../../i18n';
import { shortAddress } from '../../lib/format';
import { chooseAccount } from '../../hooks/useAccount';
import type { WalletAccount } from '../../api';

export function AccountSwitcher({
  accounts,
  shown,
  onManage,
}: {
  accounts: WalletAccount[];
  /** The shown account's address, lower case. */
  shown: string | null;
  /** Opens the accounts page (add, rename); none: no button. */
  onManage?: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="account-bar" data-testid="account-bar">
      <label htmlFor="account-switch" className="visually-hidden">
        {t('accounts.switch')}
      </label>
      <select
        id="account-switch"
        value={shown ?? ''}
        onChange={(e) => chooseAccount(e.target.value)}
        disabled={accounts.length < 2}
      >
        {accounts.map((account) => (
          <option key={account.address} value={account.address.toLowerCase()}>
            {`${account.label} · ${shortAddress(account.address)}`}
          </option>
        ))}
      </select>
      {onManage && (
        <button id="accounts-manage" type="button" className="secondary" onClick={onManage}>
          {t('accounts.manage')}
        </button>
      )}
    </div>
  );
}
