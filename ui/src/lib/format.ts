// Addresses and amounts shortened or grouped for reading.

/** `0x1234…abcd`. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** The full address in blocks of 4 for reading, the `0x` on its own:
 * `['0x', '5290', '8400', …]`; joined, they are the address again. */
export function addressGroups(address: string): string[] {
  const prefix = address.startsWith('0x') ? ['0x'] : [];
  const rest = address.slice(prefix.length ? 2 : 0);
  return [...prefix, ...(rest.match(/.{1,4}/g) ?? [])];
}

/** A long decimal shortened for display (never exponent form); full value on hover. */
export function displayAmount(amount: string, maxFraction = 6): string {
  const [whole, fraction = ''] = amount.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cut = fraction.slice(0, maxFraction).replace(/0+$/, '');
  if (cut === '' && whole === '0' && /[1-9]/.test(fraction)) return `< 0.${'0'.repeat(maxFraction - 1)}1`;
  return cut ? `${grouped}.${cut}` : grouped;
}

/** Values worked out once per key, at most `limit` kept (all forgotten past
 * it): what builds an `Intl` formatter per currency or language, not per row. */
function remembered<V>(limit: number, work: (key: string) => V) {
  const kept = new Map<string, V>();
  return {
    get(key: string): V {
      let value = kept.get(key);
      if (value === undefined) {
        value = work(key);
        if (kept.size >= limit) kept.clear();
        kept.set(key, value);
      }
      return value;
    },
    size: () => kept.size,
  };
}

/** Each currency's sign and where it goes, by code. Bounded: the app shows one
 * currency at a time, and a page's codes come from the service. */
const currencySigns = remembered(16, platformCurrencySign);

/** How many signs are kept (the bound's test). */
export function keptCurrencySigns(): number {
  return currencySigns.size();
}

/** The currency's sign and where it goes (`$` before, `kr` after), from the
 * platform's own formatting of a constant; the code itself when unknown. */
function platformCurrencySign(currency: string): { sign: string; before: boolean } {
  try {
    const parts = new Intl.NumberFormat('en', { style: 'currency', currency }).formatToParts(1);
    const sign = parts.findIndex((p) => p.type === 'currency');
    const number = parts.findIndex((p) => p.type === 'integer');
    if (sign >= 0) return { sign: parts[sign].value, before: sign < number };
  } catch {
    // Not a currency the platform knows: its code.
  }
  return { sign: currency, before: false };
}

/** A value in a currency to the cent (`"1234.5"` → `$1,234.50`), from its exact
 * decimal string: never through a floating-point number. */
export function money(value: string, currency: string): string {
  const [whole, fraction = ''] = value.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const amount = `${grouped}.${fraction.padEnd(2, '0').slice(0, 2)}`;
  const { sign, before } = currencySigns.get(currency);
  return before ? `${sign}${amount}` : `${amount} ${sign}`;
}

/** Date-and-time formatters by language (a handful; at most 8 kept). */
const dateTimeFormats = remembered(8, (language) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }));

/** A moment (seconds since 1970) as the person's language writes a date and
 * time: "Nov 26, 2026, 9:42 PM", "2026. 11. 26. 오후 9:42". */
export function dateTime(seconds: number, language: string): string {
  return dateTimeFormats.get(language).format(new Date(seconds * 1000));
}

/** Whether typed text is meant as an ENS name (`alice.eth`) rather than an address. */
export function looksLikeName(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.includes('.') && !trimmed.startsWith('0x');
}
