// An application's request through the local provider, over whatever page is
// open: connect (who asks, what it will see), sign a message, sign typed data,
// send a transaction or a batch of them, list a token, use the widget for a program's own app.
// Closing the window rejects it (the shell answers 4001).
import { useState } from 'react';
import { api, type ConnectPrompt } from '../../api';
import { useI18n } from '../../i18n';
import { shortAddress } from '../../lib/format';
import { shownAccount, useChosenAccount } from '../../hooks/useAccount';
import { useWalletAccounts } from '../accounts/useWalletAccounts';
import { AskingPage, reject } from './Asking';
import { SignMessage } from './SignMessage';
import { SignTypedData } from './SignTypedData';
import { SendTransaction } from './SendTransaction';
import { SendCalls } from './SendCalls';
import { WatchAsset } from './WatchAsset';
import { UseWidget } from './UseWidget';

/** `onLogIn`: nobody is logged in and the person chose to log in first; the
 * request waits meanwhile. */
export function ConnectRequest({ prompt, loggedIn, onLogIn }: { prompt: ConnectPrompt; loggedIn: boolean; onLogIn?: () => void }) {
  switch (prompt.request.kind) {
    case 'connect':
      return <Connect prompt={prompt} throughExtension={prompt.request.throughExtension} loggedIn={loggedIn} onLogIn={onLogIn} />;
    case 'signMessage':
      return <SignMessage prompt={prompt} review={prompt.request} />;
    case 'signTypedData':
      return <SignTypedData prompt={prompt} review={prompt.request} />;
    case 'sendTransaction':
      return <SendTransaction prompt={prompt} request={prompt.request} />;
    case 'sendCalls':
      return <SendCalls prompt={prompt} request={prompt.request} />;
    case 'watchAsset':
      return <WatchAsset prompt={prompt} asset={prompt.request} />;
    case 'useWidget':
      return <UseWidget prompt={prompt} app={prompt.request} />;
  }
}

function Connect({
  prompt,
  throughExtension,
  loggedIn,
  onLogIn,
}: {
  prompt: ConnectPrompt;
  throughExtension: boolean;
  loggedIn: boolean;
  onLogIn?: () => void;
}) {
  const { t } = useI18n();
  // Which of the wallet's accounts it will see: the one the wallet shows,
  // unless the person ticks others.
  const { accounts } = useWalletAccounts();
  const shown = shownAccount(accounts ?? [], useChosenAccount());
  const [ticked, setTicked] = useState<string[] | null>(null);
  const chosen = ticked ?? (shown ? [shown] : []);
  const tick = (address: string, on: boolean) => setTicked(on ? [...chosen, address] : chosen.filter((a) => a !== address));
  const seen = accounts === null || accounts.length === 0 ? undefined : accounts.filter((a) => chosen.includes(a.address.toLowerCase())).map((a) => a.address);
  return (
    <AskingPage prompt={prompt} title={t('connect.title')}>
      <ul className="connect-facts">
        <li>{t('connect.sees')}</li>
        <li>{t('connect.asks')}</li>
        {throughExtension && <li data-testid="connect-through-extension">{t('connect.throughExtension')}</li>}
      </ul>
      {!throughExtension && !prompt.local && (
        <div className="notice warning" role="note" data-testid="connect-straight-to-satchel">
          {t('connect.straightToSatchel')}
        </div>
      )}
      {loggedIn && accounts && accounts.length > 1 && (
        <fieldset className="connect-accounts" data-testid="connect-accounts">
          <legend>{t('connect.accounts')}</legend>
          {accounts.map((account) => {
            const id = `connect-account-${account.index}`;
            const address = account.address.toLowerCase();
            return (
              <div className="check" key={account.address}>
                <input id={id} type="checkbox" checked={chosen.includes(address)} onChange={(e) => tick(address, e.target.checked)} />
                <label htmlFor={id}>{`${account.label} · ${shortAddress(account.address)}`}</label>
              </div>
            );
          })}
        </fieldset>
      )}
      {!loggedIn && (
        <div className="notice warning" role="note" data-testid="connect-login-first">
          {t('connect.loginFirst')}
        </div>
      )}
      <div className="actions">
        <button type="button" onClick={() => reject(prompt.id)} data-testid="connect-cancel">
          {t('common.cancel')}
        </button>
        {loggedIn || !onLogIn ? (
          <button
            type="button"
            className="primary"
            disabled={!loggedIn || seen?.length === 0}
            onClick={() => void api.answerConnectRequest(prompt.id, true, undefined, undefined, seen).catch(() => undefined)}
            data-testid="connect-approve"
          >
            {t('connect.approve')}
          </button>
        ) : (
          <button type="button" className="primary" onClick={onLogIn} data-testid="connect-log-in">
            {t('connect.logIn')}
          </button>
        )}
      </div>
    </AskingPage>
  );
}
