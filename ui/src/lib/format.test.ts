import { describe, expect, it } from 'vitest';
import { addressGroups, dateTime, displayAmount, keptCurrencySigns, money, shortAddress } from './format';

describe('displayAmount', () => {
  it('groups the whole part in thousands and keeps a short fraction as it is', () => {
    expect(displayAmount('1250.5')).toBe('1,250.5');
    expect(displayAmount('1000000')).toBe('1,000,000');
    expect(displayAmount('999')).toBe('999');
    expect(displayAmount('0')).toBe('0');
  });

  it('cuts the fraction to six digits without rounding up, and drops the zeros that are left at its end', () => {
    expect(displayAmount('1.1234567')).toBe('1.123456');
    expect(displayAmount('0.9999999')).toBe('0.999999');
    expect(displayAmount('2.5000009')).toBe('2.5');
    expect(displayAmount('3.0000001')).toBe('3');
  });

  it('shows a positive amount too small for six digits as "< 0.000001", never as 0 or in exponent form', () => {
    expect(displayAmount('0.000000000000000001')).toBe('< 0.000001');
    expect(displayAmount('0.0000009')).toBe('< 0.000001');
    expect(displayAmount('0.000001')).toBe('0.000001');
    expect(displayAmount('0.0000015')).toBe('0.000001');
  });

  it('shows a huge amount digit for digit, grouped, with no exponent and no precision lost', () => {
    const shown = displayAmount('123456789012345678901234567890.123456789');
    expect(shown).toBe('123,456,789,012,345,678,901,234,567,890.123456');
    expect(shown).not.toMatch(/e/i);
    // uint256's largest value at 18 decimals, as the SDK's format_units gives it.
    expect(displayAmount('115792089237316195423570985008687907853269984665640564039457.584007913129639935')).toBe(
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584007',
    );
  });

  it('honours a smaller number of fraction digits', () => {
    expect(displayAmount('0.129', 2)).toBe('0.12');
    expect(displayAmount('0.001', 2)).toBe('< 0.01');
    expect(displayAmount('12.5', 0)).toBe('12');
  });

  // A zero never reads as a tiny positive amount.
  it('shows a zero written with trailing zeros as 0, not as a tiny positive amount', () => {
    expect(displayAmount('0.0000000')).toBe('0');
  });
});

describe('shortAddress', () => {
  it('shortens a full address to its first six and last four characters', () => {
    expect(shortAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x5290…9EE7');
  });

  it('leaves a string of twelve characters or fewer whole, and shortens one of thirteen', () => {
    expect(shortAddress('0x1234567890')).toBe('0x1234567890');
    expect(shortAddress('0x1234567890a')).toBe('0x1234…890a');
    expect(shortAddress('')).toBe('');
  });
});

describe('addressGroups', () => {
  it('splits a full address into 0x and ten blocks of four that join back into the address, case kept', () => {
    const address = '0x52908400098527886E0F7030069857D2E4169EE7';
    const groups = addressGroups(address);
    expect(groups).toEqual(['0x', '5290', '8400', '0985', '2788', '6E0F', '7030', '0698', '57D2', 'E416', '9EE7']);
    expect(groups.join('')).toBe(address);
  });

  it('keeps a short last block, and a string without 0x in blocks from its start', () => {
    expect(addressGroups('0x123456')).toEqual(['0x', '1234', '56']);
    expect(addressGroups('abcdefghij')).toEqual(['abcd', 'efgh', 'ij']);
    expect(addressGroups('')).toEqual([]);
  });
});

describe('money', () => {
  it('keeps at most 16 currencies\' signs, and stays right past the bound', () => {
    for (let i = 0; i < 40; i++) money('1', `X${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`);
    expect(keptCurrencySigns()).toBeGreaterThan(0);
    expect(keptCurrencySigns()).toBeLessThanOrEqual(16);
    expect(money('1234.5', 'USD')).toBe('$1,234.50');
    expect(money('1234.5', 'USD')).toBe('$1,234.50');
  });

  it('shows exact decimal strings to the cent with the sign where it goes', () => {
    expect(money('1234.5', 'USD')).toBe('$1,234.50');
    expect(money('9007199254740993.07', 'USD')).toBe('$9,007,199,254,740,993.07');
    expect(money('0.00', 'EUR')).toBe('€0.00');
    expect(money('12', 'USD')).toBe('$12.00');
  });
  it('names a currency the platform does not know by its code', () => {
    expect(money('5.25', 'XQQ')).toMatch(/5\.25/);
  });
});

describe('dateTime', () => {
  it("writes a moment as the language does, the same each time it is asked", () => {
    const moment = Date.UTC(2026, 10, 26, 21, 42) / 1000;
    const expected = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(moment * 1000));
    expect(dateTime(moment, 'en')).toBe(expected);
    expect(dateTime(moment, 'en')).toBe(expected);
    expect(dateTime(moment, 'ko')).toBe(new Intl.DateTimeFormat('ko', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(moment * 1000)));
    expect(dateTime(moment, 'en')).toMatch(/2026/);
  });
});
