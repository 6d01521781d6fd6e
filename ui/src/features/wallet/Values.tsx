// What the holdings are worth: each row's value under its amount, and the
// wallet's total with the age of its prices, in the chosen currency.
import { useEffect, useRef, useState } from 'react';
import { api, type AssetValue, type WalletValues } from '../../api';
import { savedCurrency } from '../../hooks/useCurrency';
import { useI18n } from '../../i18n';
import { money } from '../../lib/format';

/** How old a price is, in the largest whole unit: "12 s", "5 min", "3 h", "2 d". */
export function useAge() {
  const { t } = useI18n();
  return (seconds: number) => {
    const s = Math.max(0, Math.floor(seconds));
    if (s < 60) return t('wallet.ageSeconds', { n: s });
    if (s < 3600) return t('wallet.ageMinutes', { n: Math.floor(s / 60) });
    if (s < 86400) return t('wallet.ageHours', { n: Math.floor(s / 3600) });
    return t('wallet.ageDays', { n: Math.floor(s / 86400) });
  };
}

/** A row's value in the chosen currency under its amount: muted, amber when the
 * price is stale; the price and its age on hover. */
export function RowValue({ value, symbol, currency, now }: { value: AssetValue | undefined; symbol: string; currency: string; now: number }) {
  const { t } = useI18n();
  const age = useAge();
  if (!value?.value || !value.price || value.updatedAt === undefined) return null;
  const title = t('wallet.priceTitle', { symbol, price: value.price, currency, age: age(now / 1000 - value.updatedAt) });
  return (
    <small className={value.stale ? 'value stale' : 'value'} title={title} data-testid={`value-${symbol}`}>
      {money(value.value, currency)}
      {value.stale && ` · ${t('wallet.stale')}`}
    </small>
  );
}

/** The values, read after the balances (`readValues`) and again when the window
 * comes back to the front (prices move while it is away). A failure shows no
 * values, never wrong ones; of reads that overlap only the newest one shows. */
export function useWalletValues(account: string | null = null) {
  const [values, setValues] = useState<WalletValues | null>(null);
  // The account whose values a read asks for: the newest one rendered.
  const shownAccount = useRef(account);
  useEffect(() => {
    shownAccount.current = account;
  }, [account]);
  // Reads may overlap (load, refresh, focus): only the newest one's answer shows.
  const valuesRead = useRef(0);
  const readValues = () => {
    const read = ++valuesRead.current;
    const latest = () => read === valuesRead.current;
    return api.getValues(savedCurrency(), shownAccount.current).then(
      (answer) => latest() && setValues(answer),
      () => latest() && setValues(null),
    );
  };
  useEffect(() => {
    const again = () => void readValues();
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, []);
  const valueOf = (network: string, address: string, contract?: string) =>
    values?.assets.find(
      (v) =>
        v.network === network &&
        v.address.toLowerCase() === address.toLowerCase() &&
        (v.contract ?? '').toLowerCase() === (contract ?? '').toLowerCase(),
    );
  return { values, readValues, valueOf };
}

/** The total above the balances, with the age of its oldest price; or why
 * there is none. */
export function WalletTotal({ values, now }: { values: WalletValues; now: number }) {
  const { t } = useI18n();
  const age = useAge();
  return (
    <section id="wallet-total" className="total" aria-label={t('wallet.total')}>
      {values.total !== undefined ? (
        <>
          <strong data-testid="wallet-total">{money(values.total, values.currency)}</strong>
          {values.pricedAt !== undefined && <small>{t('wallet.pricesAge', { age: age(now / 1000 - values.pricedAt) })}</small>}
        </>
      ) : (
        <small data-testid="wallet-no-total">{t('wallet.noTotal', { symbols: values.unpriced.join(', ') })}</small>
      )}
    </section>
  );
}
