// The account's private key, for another wallet (as Frame, Rabby and MetaMask
// allow): a warning the person must accept, the PIN, then the key shown once
// with Copy. The key lives in this component's state only while it shows; it
// is dropped on Done and when the person leaves.
import { useState } from 'react';
import { api } from '../../api';
import { useI18n } from '../../i18n';
import { Header } from '../../components/Header';
import { PinPrompt } from '../../components/Pin';
import { CopyButton } from '../../components/CopyButton';
import { useEscape } from '../../hooks/useEscape';
import { shownAccount, useChosenAccount } from '../../hooks/useAccount';
import { useWalletAccounts } from '../accounts/useWalletAccounts';
import { shortAddress } from '../../lib/format';

type Step = 'warning' | 'pin' | 'key';

export function ExportKey({ onDone }: { onDone: () => void }) {
  const { t } = useI18n();
  const [step, setStep] = useState<Step>('warning');
  const [understood, setUnderstood] = useState(false);
  const [key, setKey] = useState<string | null>(null);
  // The key of the account the wallet shows, named on every step.
  const { accounts } = useWalletAccounts();
  const shown = shownAccount(accounts ?? [], useChosenAccount());
  const account = accounts?.find((a) => a.address.toLowerCase() === shown);
  const leave = () => {
    setKey(null);
    onDone();
  };
  useEscape(leave);

  return (
    <div className="subpage">
      <Header title={t('exportKey.title')} onBack={leave} />
      <main className="page">
        {step === 'warning' && (
          <section className="card" aria-labelledby="export-key-heading">
            <h2 id="export-key-heading">{t('exportKey.warningTitle')}</h2>
            {account && (
              <p className="muted small" data-testid="export-key-account">
                {`${account.label} · ${shortAddress(account.address)}`}
              </p>
            )}
            <div className="notice danger" role="alert" data-testid="export-key-warning">
              <p>{t('exportKey.warningTakes')}</p>
              <p>{t('exportKey.warningNeverAsk')}</p>
            </div>
            <div className="check">
              <input id="export-key-understood" type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
              <label htmlFor="export-key-understood">{t('exportKey.understood')}</label>
            </div>
            <div className="actions">
              <button type="button" className="secondary" onClick={leave}>
                {t('common.cancel')}
              </button>
              <button id="export-key-continue" type="button" className="danger" disabled={!understood || !account} onClick={() => setStep('pin')}>
                {t('exportKey.continue')}
              </button>
            </div>
          </section>
        )}
        {step === 'pin' && (
          <PinPrompt
            id="export-key-pin"
            title={t('exportKey.pinTitle')}
            submitLabel={t('exportKey.show')}
            onSubmit={async (pin) => {
              if (!account) return;
              setKey(await api.exportPrivateKey(pin, account.address));
              setStep('key');
            }}
            onCancel={leave}
          />
        )}
        {step === 'key' && key && (
          <section className="card" aria-labelledby="export-key-shown">
            <h2 id="export-key-shown">{t('exportKey.keyTitle')}</h2>
            <p className="muted small">{t('exportKey.keyHint')}</p>
            <pre className="sign-message hex" translate="no" data-testid="export-key-value">
              {key}
            </pre>
            <div className="actions">
              <CopyButton text={key} label={t('exportKey.copy')} testId="export-key-copy" />
              <button id="export-key-done" type="button" className="primary" onClick={leave}>
                {t('exportKey.done')}
              </button>
            </div>
          </section>
        )}
      </main>
    </div>
  );
}
