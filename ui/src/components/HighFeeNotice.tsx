// The red notice of a fee far above what the network asks (or a large share
// of what is sent), with the box the person ticks to send anyway: every
// review that signs a transaction shows the same one.
import type { FeeOption, HighFee, SendQuote } from '../api';
import { useI18n } from '../i18n';

export function HighFeeNotice({
  id,
  highFee,
  quote,
  option,
  accepted,
  onAccept,
}: {
  /** The page's prefix for the notice's and the box's ids. */
  id: string;
  highFee: HighFee;
  quote: SendQuote;
  option: FeeOption | undefined;
  accepted: boolean;
  onAccept: (yes: boolean) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="notice danger" role="alert" data-testid={`${id}-high-fee`}>
      <p>{t(`send.highFee.${highFee}`, { fee: option?.fee ?? '', symbol: quote.coinSymbol, base: quote.baseFeeGwei })}</p>
      <div className="check">
        <input id={`${id}-accept-high-fee`} type="checkbox" checked={accepted} onChange={(e) => onAccept(e.target.checked)} data-testid={`${id}-accept-high-fee`} />
        <label htmlFor={`${id}-accept-high-fee`}>{t('send.acceptHighFee')}</label>
      </div>
    </div>
  );
}
