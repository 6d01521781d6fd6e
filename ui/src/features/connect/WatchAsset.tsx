// wallet_watchAsset: an application suggests a token. The page shows what the
// token's contract says of itself (read through the service), never what the
// application claimed; a claim that differs is refused in red.
import { api, type ConnectPrompt, type WatchAssetPrompt } from '../../api';
import { useAction } from '../../hooks/useAction';
import { useI18n } from '../../i18n';
import { ErrorNotice } from '../../components/ErrorNotice';
import { TokenFacts } from '../tokens/TokenFacts';
import { AskingPage, reject } from './Asking';

export function WatchAsset({ prompt, asset }: { prompt: ConnectPrompt; asset: WatchAssetPrompt }) {
  const { t } = useI18n();
  const { busy, error, run } = useAction();
  const refused = asset.refusal !== undefined;
  return (
    <AskingPage prompt={prompt} title={t('tokens.watchTitle')} refusal={asset.refusal} refusedLabel={t('tokens.refused')}>
      <TokenFacts token={asset.token} />
      <ErrorNotice error={error} />
      <div className="actions">
        <button type="button" className={refused ? 'primary' : 'secondary'} disabled={busy} onClick={() => reject(prompt.id)} data-testid="sign-reject">
          {t('sign.reject')}
        </button>
        {!refused && (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void run(() => api.answerConnectRequest(prompt.id, true))}
            data-testid="watch-add"
          >
            {t('tokens.add', { symbol: asset.token.symbol })}
          </button>
        )}
      </div>
    </AskingPage>
  );
}
