// The wallet's accounts: each with its name (renamed here) and address, the one
// shown, and Add account: the phrase's next account, derived on this device
// behind the PIN and proven to the service with its own key.
import { useState, type FormEvent } from 'react';
import { api, type WalletAccount } from '../../api';
import { useI18n } from '../../i18n';
import { useAction } from '../../hooks/useAction';
import { useEscape } from '../../hooks/useEscape';
import { chooseAccount } from '../../hooks/useAccount';
import { Header } from '../../components/Header';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FullAddress } from '../../components/FullAddress';
import { PinPrompt } from '../../components/Pin';

/** As many as a wallet keeps (the service's bound too). */
export const MAX_ACCOUNTS = 20;
const MAX_LABEL = 32;

function AccountRow({
  account,
  shown,
  onRenamed,
}: {
  account: WalletAccount;
  shown: boolean;
  onRenamed: (label: string) => void;
}) {
  const { t } = useI18n();
  const [label, setLabel] = useState(account.label);
  const { busy, error, run } = useAction();
  const id = `account-${account.index}`;
  const trimmed = label.trim();
  const changed = trimmed !== account.label && trimmed.length > 0;
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!changed) return;
    void run(async () => {
      await api.renameAccount(account.address, trimmed);
      onRenamed(trimmed);
    });
  };
  return (
    <li className="card stack" data-testid={id} aria-current={shown ? 'true' : undefined}>
      <form className="row-form" onSubmit={save}>
        <label htmlFor={`${id}-label`} className="visually-hidden">
          {t('accounts.name')}
        </label>
        <input id={`${id}-label`} className="text-input" value={label} maxLength={MAX_LABEL} onChange={(e) => setLabel(e.target.value)} />
        <button id={`${id}-save`} type="submit" className="secondary" disabled={!changed || busy}>
          {t('accounts.rename')}
        </button>
      </form>
      <FullAddress address={account.address} className="muted small" />
      <ErrorNotice error={error} />
      {shown ? (
        <span className="muted small" data-testid={`${id}-shown`}>
          {t('accounts.shown')}
        </span>
      ) : (
        <button id={`${id}-show`} type="button" className="link" onClick={() => chooseAccount(account.address)}>
          {t('accounts.show')}
        </button>
      )}
    </li>
  );
}

export function Accounts({
  accounts,
  shown,
  onChange,
  onBack,
}: {
  accounts: WalletAccount[];
  shown: string | null;
  onChange: (accounts: WalletAccount[]) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  useEscape(onBack);
  const [adding, setAdding] = useState(false);
  const [label, setLabel] = useState('');
  const [added, setAdded] = useState<WalletAccount | null>(null);
  const full = accounts.length >= MAX_ACCOUNTS;
  const name = label.trim() || t('accounts.defaultName', { n: accounts.length + 1 });

  const add = async (pin: string) => {
    const after = await api.addAccount(pin, name);
    const fresh = after.find((a) => !accounts.some((b) => b.address === a.address)) ?? null;
    onChange(after);
    setAdded(fresh);
    if (fresh) chooseAccount(fresh.address);
    setAdding(false);
    setLabel('');
  };

  return (
    <div className="subpage">
      <Header title={t('accounts.title')} onBack={onBack} />
      <main className="page">
        {added && (
          <div className="notice success" role="status" data-testid="account-added">
            {t('accounts.added', { name: added.label })}
          </div>
        )}
        <ul className="plain-list stack" aria-label={t('accounts.title')}>
          {accounts.map((account) => (
            <AccountRow
              key={account.address}
              account={account}
              shown={account.address.toLowerCase() === shown}
              onRenamed={(renamed) => onChange(accounts.map((a) => (a.address === account.address ? { ...a, label: renamed } : a)))}
            />
          ))}
        </ul>
        {full ? (
          <p className="muted">{t('accounts.full', { max: MAX_ACCOUNTS })}</p>
        ) : adding ? (
          <section className="card stack" aria-labelledby="account-add-title">
            <h2 id="account-add-title">{t('accounts.addTitle')}</h2>
            <p className="muted small">{t('accounts.addHint')}</p>
            <div className="field">
              <label htmlFor="account-add-label">{t('accounts.name')}</label>
              <input
                id="account-add-label"
                className="text-input"
                value={label}
                maxLength={MAX_LABEL}
                placeholder={t('accounts.defaultName', { n: accounts.length + 1 })}
                onChange={(e) => setLabel(e.target.value)}
              />
            </div>
            <PinPrompt id="account-add-pin" framed={false} submitLabel={t('accounts.add')} onSubmit={add} onCancel={() => setAdding(false)} />
          </section>
        ) : (
          <button id="account-add" type="button" className="primary" onClick={() => setAdding(true)}>
            {t('accounts.add')}
          </button>
        )}
      </main>
    </div>
  );
}
