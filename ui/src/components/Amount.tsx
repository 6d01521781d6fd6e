// An exact amount shortened for reading.
import { displayAmount } from '../lib/format';

/** An exact amount shortened for reading, the full value on hover. */
export function Amount({ value, symbol, testId }: { value: string; symbol: string; testId?: string }) {
  return (
    <span className="amount" title={`${value} ${symbol}`} data-testid={testId}>
      {displayAmount(value)} {symbol}
    </span>
  );
}
