// Amounts as the person types them and as the app sends them: exact decimal
// strings and integers in the smallest unit (wei), never floating point. The rule
// is the app's own (crates/sdk/src/mapping.rs `parse_units`); both run the cases in
// crates/chain/src/units_cases.json.

export type AmountError = 'NotANumber' | 'TooManyDecimals' | 'TooLarge';
export type ParsedAmount = { ok: true; value: bigint } | { ok: false; error: AmountError };

/** The largest amount a 256-bit integer holds. */
export const MAX_UINT256 = (1n << 256n) - 1n;

// What Rust's `str::trim` takes off both ends: Unicode White_Space (JavaScript's
// own trim differs: it takes U+FEFF, and leaves U+0085).
const EDGE_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
const DIGITS = /^[0-9]*$/;

/**
 * An amount typed in whole units (`"0.1"` ether) as the integer in smallest units
 * (`100000000000000000n` wei), exactly: ASCII digits with at most one point, at
 * most `decimals` of them after it; no sign, exponent, grouping or spaces inside.
 */
export function parseUnits(text: string, decimals: number): ParsedAmount {
  const trimmed = text.replace(EDGE_SPACE, '');
  const point = trimmed.indexOf('.');
  const whole = point < 0 ? trimmed : trimmed.slice(0, point);
  const fraction = point < 0 ? '' : trimmed.slice(point + 1);
  if ((whole === '' && fraction === '') || !DIGITS.test(whole) || !DIGITS.test(fraction)) {
    return { ok: false, error: 'NotANumber' };
  }
  if (fraction.length > decimals) return { ok: false, error: 'TooManyDecimals' };
  const value = BigInt(`${whole}${fraction.padEnd(decimals, '0')}` || '0');
  if (value > MAX_UINT256) return { ok: false, error: 'TooLarge' };
  return { ok: true, value };
}

/** `value` smallest units in whole units, exactly: no exponent, no trailing zeros
 * after the point (`100000000000000000n`, 18 → `"0.1"`). */
export function formatUnits(value: bigint, decimals: number): string {
  if (value < 0n) return `-${formatUnits(-value, decimals)}`;
  const digits = value.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
