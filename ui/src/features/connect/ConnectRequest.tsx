// An application's request through the local provider, over whatever page is
// open: connect (who asks, what it will see), sign a message, sign typed data,
// send a transaction, list a token.
// Closing the window rejects it (the shell answers 4001).
import { api, type ConnectPrompt } from '../../api';
import { useI18n } from '../../i18n';
import { AskingPage, reject } from './Asking';
import { SignMessage } from './SignMessage';
import { SignTypedData } from './SignTypedData';
import { SendTransaction } from './SendTransaction';
import { WatchAsset } from './WatchAsset';

/** `onLogIn`: nobody is logged in and the person chose to log in first; the
 * request waits meanwhile. */
export function ConnectRequest({ prompt, loggedIn, onLogIn }: { prompt: ConnectPrompt; loggedIn: boolean; onLogIn?: () => void }) {
  switch (prompt.request.kind) {
    case 'connect':
      return <Connect prompt={prompt} loggedIn={loggedIn} onLogIn={onLogIn} />;
    case 'signMessage':
      return <SignMessage prompt={prompt} review={prompt.request} />;
    case 'signTypedData':
      return <SignTypedData prompt={prompt} review={prompt.request} />;
    case 'sendTransaction':
      return <SendTransaction prompt={prompt} request={prompt.request} />;
    case 'watchAsset':
      return <WatchAsset prompt={prompt} asset={prompt.request} />;
  }
}

function Connect({ prompt, loggedIn, onLogIn }: { prompt: ConnectPrompt; loggedIn: boolean; onLogIn?: () => void }) {
  const { t } = useI18n();
  return (
    <AskingPage prompt={prompt} title={t('connect.title')}>
      <ul className="connect-facts">
        <li>{t('connect.sees')}</li>
        <li>{t('connect.asks')}</li>
      </ul>
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
            disabled={!loggedIn}
            onClick={() => void api.answerConnectRequest(prompt.id, true).catch(() => undefined)}
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
