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
