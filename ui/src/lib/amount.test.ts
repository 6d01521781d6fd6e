import { describe, expect, it } from 'vitest';
// The cases the app's own parser runs too (crates/sdk/src/mapping.rs).
import cases from '../../../crates/chain/src/units_cases.json';
import { MAX_UINT256, formatUnits, parseUnits } from './amount';

interface Case {
  text: string;
  decimals: number;
  expect: string;
}

const shared: Case[] = cases;

describe('parseUnits', () => {
  it('reads the shared cases file', () => {
    expect(shared.length).toBeGreaterThan(20);
  });

  it.each(shared.map((c) => [JSON.stringify(c.text), c.decimals, c.expect, c] as const))(
    '%s at %i decimals gives %s, as the app does',
    (_, __, ___, c) => {
      const parsed = parseUnits(c.text, c.decimals);
      if (/^\d+$/.test(c.expect)) {
        expect(parsed).toEqual({ ok: true, value: BigInt(c.expect) });
      } else {
        expect(parsed).toEqual({ ok: false, error: c.expect });
      }
    },
  );

  it('reads 0.1 at 18 decimals as exactly 10^17, with no floating point in between', () => {
    expect(parseUnits('0.1', 18)).toEqual({ ok: true, value: 100000000000000000n });
    expect(parseUnits('0.3', 18)).toEqual({ ok: true, value: 300000000000000000n });
  });

  it('refuses exponents, signs, letters, grouping and digits of other scripts', () => {
    for (const text of ['1e-18', '1e3', '-0.1', '+0.1', 'abc', '0.1a', '1,5', '1_000', '１', '٠.١', '0..1', '1 .5']) {
      expect(parseUnits(text, 18)).toEqual({ ok: false, error: 'NotANumber' });
    }
  });

  it('trims the white space Rust trims, and only that', () => {
    expect(parseUnits('\u00a01.5\u3000', 6)).toEqual({ ok: true, value: 1500000n });
    expect(parseUnits('\u00851\n', 0)).toEqual({ ok: true, value: 1n });
    // U+FEFF is no white space to Rust (JavaScript's trim would take it).
    expect(parseUnits('\ufeff1', 0)).toEqual({ ok: false, error: 'NotANumber' });
  });

  it('takes the largest 256-bit amount and refuses one more', () => {
    expect(parseUnits(MAX_UINT256.toString(), 0)).toEqual({ ok: true, value: MAX_UINT256 });
    expect(parseUnits((MAX_UINT256 + 1n).toString(), 0)).toEqual({ ok: false, error: 'TooLarge' });
  });
});

describe('formatUnits', () => {
  it('writes exact decimals, trailing zeros trimmed, never in exponent form', () => {
    expect(formatUnits(100000000000000000n, 18)).toBe('0.1');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
    expect(formatUnits(1500000n, 6)).toBe('1.5');
    expect(formatUnits(2000000n, 6)).toBe('2');
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(42n, 0)).toBe('42');
    expect(formatUnits(MAX_UINT256, 18)).toBe('115792089237316195423570985008687907853269984665640564039457.584007913129639935');
    expect(formatUnits(10n ** 30n, 6)).toBe('1000000000000000000000000');
  });

  it('gives back what parseUnits read, for every case that parses', () => {
    for (const c of shared) {
      const parsed = parseUnits(c.text, c.decimals);
      if (!parsed.ok) continue;
      const text = formatUnits(parsed.value, c.decimals);
      expect(text).not.toMatch(/e/i);
      expect(parseUnits(text, c.decimals)).toEqual(parsed);
    }
  });

  it('round-trips integers at every number of decimals up to 36', () => {
    const values = [0n, 1n, 9n, 10n, 123456789n, 10n ** 18n, 10n ** 18n + 1n, MAX_UINT256];
    for (let decimals = 0; decimals <= 36; decimals++) {
      for (const value of values) {
        expect(parseUnits(formatUnits(value, decimals), decimals)).toEqual({ ok: true, value });
      }
    }
  });
});
