// A quote's fee at one speed, the total and the balances after, as rows of a
// `<dl className="facts">`: the send form and the review show the same.
import type { FeeOption, SendQuote } from '../api';
import { useI18n } from '../i18n';
import { Amount } from './Amount';

export function FeeFacts({ quote, option }: { quote: SendQuote; option: FeeOption }) {
  const { t } = useI18n();
  return (
    <>
      <dt>{t('send.fee')}</dt>
      <dd>
        <Amount value={option.fee} symbol={quote.coinSymbol} testId="send-fee" />
        <small>{t('send.feeDetail', { speed: t(`send.speed.${option.speed}`), gwei: option.maxFeePerGasGwei })}</small>
      </dd>
      {option.total !== undefined && (
        <>
          <dt>{t('send.total')}</dt>
          <dd>
            <Amount value={option.total} symbol={quote.coinSymbol} testId="send-total" />
          </dd>
        </>
      )}
      <dt>{t('send.after')}</dt>
      <dd data-testid="send-after">
        {option.tokenAfter !== undefined && <Amount value={option.tokenAfter} symbol={quote.symbol} />}
        <Amount value={option.coinAfter} symbol={quote.coinSymbol} />
      </dd>
    </>
  );
}
