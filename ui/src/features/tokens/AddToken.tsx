// A network's tokens: add one by its contract address (the service reads what
// the contract says of itself, the person looks at it and adds it), remove
// one they added, and hide or show any (kept on this device, as NFT
// collections are: the wallet leaves hidden ones out until asked).
import { useEffect, useState } from 'react';
import { api, collectionKey, type AddableToken, type OwnToken, type TokenBalanceInfo } from '../../api';
import { useAction } from '../../hooks/useAction';
import { useEscape } from '../../hooks/useEscape';
import { useI18n } from '../../i18n';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Header } from '../../components/Header';
import { shortAddress } from '../../lib/format';
import { TokenFacts } from './TokenFacts';

export function AddToken({
  network,
  account,
  tokens = [],
  hidden = [],
  onHidden,
  onBack,
}: {
  network: string;
  /** The account the tokens are added to (its address); none: the first. */
  account?: string;
  /** The network's tokens as the wallet lists them, to hide or show. */
  tokens?: TokenBalanceInfo[];
  /** The hidden keys (`network:contract`). */
  hidden?: string[];
  onHidden?: (keys: string[]) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const [contract, setContract] = useState('');
  const [token, setToken] = useState<AddableToken | null>(null);
  const [added, setAdded] = useState<OwnToken[]>([]);
  const { busy, error, run } = useAction();
  useEscape(onBack);

  useEffect(() => {
    api.getOwnTokens().then(setAdded, () => undefined);
  }, []);

  const look = () =>
    run(async () => {
      setToken(null);
      setToken(await api.previewToken(network, contract.trim(), account));
    });
  const add = (shown: AddableToken) =>
    run(async () => {
      await api.addToken(network, shown.contract, shown.symbol, shown.decimals, account);
      setToken(null);
      setContract('');
      setAdded(await api.getOwnTokens());
    });
  const remove = (own: OwnToken) =>
    run(async () => {
      setAdded(await api.removeToken(own.network, own.contract, account));
    });
  const mine = added.filter((own) => own.network === network);
  const toggle = (token: TokenBalanceInfo) =>
    run(async () => {
      const isHidden = hidden.includes(collectionKey(network, token.contract));
      const choices = await (isHidden ? api.showCollection(network, token.contract) : api.hideCollection(network, token.contract));
      onHidden?.(choices.hidden);
    });

  return (
    <div className="subpage">
      <Header title={t('tokens.addTitle', { network })} onBack={onBack} />
      <main className="page">
        <form
          className="card stack"
          onSubmit={(e) => {
            e.preventDefault();
            void look();
          }}
        >
          <label htmlFor="add-token-contract">{t('tokens.contractLabel')}</label>
          <input
            id="add-token-contract"
            value={contract}
            // While a look-up runs the address stays as asked, so the answer is its own.
            readOnly={busy}
            onChange={(e) => {
              setContract(e.target.value);
              setToken(null);
            }}
            placeholder="0x…"
            spellCheck={false}
            autoComplete="off"
            translate="no"
          />
          <div className="actions">
            <button id="add-token-look" type="submit" className="secondary" disabled={busy || contract.trim() === ''}>
              {t('tokens.look')}
            </button>
          </div>
        </form>
        {/* Why an address is not a token is the service's own words. */}
        {error?.code === 'InvalidParameters' ? (
          <div className="notice error" role="alert">
            {error.message}
          </div>
        ) : (
          <ErrorNotice error={error} />
        )}
        {token && (
          <section className="card" aria-label={t('tokens.found')} data-testid="token-found">
            <TokenFacts token={token} />
            {token.configured || token.tracked ? (
              <p className="muted" data-testid="token-listed">
                {t('tokens.listedAlready', { symbol: token.symbol })}
              </p>
            ) : (
              <div className="actions">
                <button id="add-token-add" type="button" className="primary" disabled={busy} onClick={() => void add(token)}>
                  {t('tokens.add', { symbol: token.symbol })}
                </button>
              </div>
            )}
          </section>
        )}
        {tokens.length > 0 && (
          <section className="card" aria-labelledby="network-tokens-heading">
            <h2 id="network-tokens-heading">{t('tokens.shown')}</h2>
            {tokens.map((token) => {
              const isHidden = hidden.includes(collectionKey(network, token.contract));
              return (
                <div className="row" key={token.contract} data-testid={`token-row-${token.symbol}`}>
                  <span className="label">
                    {token.symbol}
                    <small>{isHidden ? t('tokens.hiddenNow') : shortAddress(token.contract)}</small>
                  </span>
                  <button type="button" className="secondary" disabled={busy} onClick={() => void toggle(token)} data-testid={`toggle-token-${token.symbol}`}>
                    {isHidden ? t('tokens.show') : t('tokens.hide')}
                  </button>
                </div>
              );
            })}
          </section>
        )}
        {mine.length > 0 && (
          <section className="card" aria-labelledby="own-tokens-heading">
            <h2 id="own-tokens-heading">{t('tokens.yours')}</h2>
            {mine.map((own) => (
              <div className="row" key={own.contract} data-testid={`own-token-${own.symbol}`}>
                <span className="label">
                  {own.symbol}
                  <small>
                    {own.name} · {shortAddress(own.contract)}
                  </small>
                </span>
                <button type="button" className="secondary" disabled={busy} onClick={() => void remove(own)} data-testid={`remove-token-${own.symbol}`}>
                  {t('tokens.remove')}
                </button>
              </div>
            ))}
          </section>
        )}
      </main>
    </div>
  );
}
