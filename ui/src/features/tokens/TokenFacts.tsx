// What a token's contract says of itself, as the Add token page and an
// application's wallet_watchAsset page show it: the same facts, the same
// caution. Text only: a token names itself, and whatever it says is hostile.
import type { AddableToken } from '../../api';
import { useI18n } from '../../i18n';
import { CoinMark } from '../../components/CoinMark';
import { FullAddress } from '../../components/FullAddress';
import { formatUnits } from '../../lib/amount';
import { displayAmount } from '../../lib/format';
import { Fact } from '../connect/Asking';

export function TokenFacts({ token }: { token: AddableToken }) {
  const { t } = useI18n();
  return (
    <>
      <div className="row token-head">
        <CoinMark symbol={token.symbol} />
        <span className="label">
          <span data-testid="token-symbol">{token.symbol}</span>
          <small data-testid="token-name">{token.name}</small>
        </span>
      </div>
      <dl className="facts">
        <Fact label={t('tokens.contract')}>
          <FullAddress address={token.contract} />
        </Fact>
        <Fact label={t('tokens.network')}>{token.network}</Fact>
        <Fact label={t('tokens.decimals')} testId="token-decimals">
          {token.decimals}
        </Fact>
        <Fact label={t('tokens.balance')} testId="token-balance">
          {displayAmount(formatUnits(BigInt(token.balance), token.decimals))} {token.symbol}
        </Fact>
      </dl>
      <p className="notice warning small" data-testid="token-caution">
        {t('tokens.caution')}
      </p>
    </>
  );
}
