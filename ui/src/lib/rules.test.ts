// The password rules as crates/api/src/rules.rs tests them (`password_forms`), and
// where JavaScript's own ideas of "length" and "letter" would differ from Rust's.
import { describe, expect, it } from 'vitest';
import { hasDigit, hasLength, hasLetter, isCommonPin, isPasswordForm, passwordChecks } from './rules';

describe('password rules', () => {
  it('agree with the Rust rules on their own examples', () => {
    expect(isPasswordForm('correct1horse')).toBe(true);
    expect(isPasswordForm('비밀번호비밀번호1')).toBe(true);
    expect(isPasswordForm('short1')).toBe(false);
    expect(isPasswordForm('onlyletters')).toBe(false);
    expect(isPasswordForm('1234567890')).toBe(false);
    expect(isPasswordForm(`a1${'x'.repeat(127)}`)).toBe(false);
  });

  it('take a Korean password: Hangul letters, eight and a digit', () => {
    expect(passwordChecks('비밀번호비밀번호1')).toEqual({ length: true, letter: true, digit: true });
  });

  it('count characters (code points), not UTF-16 units, from 8 to 128', () => {
    // Seven emoji are fourteen UTF-16 units but seven characters: too short.
    expect(hasLength('😀'.repeat(7))).toBe(false);
    expect(hasLength('😀'.repeat(8))).toBe(true);
    expect(hasLength('a1'.repeat(64))).toBe(true);
    expect(hasLength(`${'a1'.repeat(64)}x`)).toBe(false);
    // 128 characters that are 256 UTF-16 units are still 128.
    expect(hasLength('😀'.repeat(128))).toBe(true);
  });

  it('count a letter of any script, as char::is_alphabetic does', () => {
    for (const letter of ['a', 'Z', 'ß', 'é', '비', 'ひ', '漢', 'Ж', 'ا']) expect(hasLetter(letter), letter).toBe(true);
    // Alphabetic beyond \p{L}: a Roman numeral (a letter number) and a Devanagari vowel sign.
    expect(hasLetter('Ⅻ')).toBe(true);
    expect(hasLetter('\u093E')).toBe(true);
    for (const other of ['1', '١', '😀', ' ', '-', '_', '']) expect(hasLetter(other), other).toBe(false);
  });

  it('count only ASCII digits as digits, as is_ascii_digit does', () => {
    expect(hasDigit('0')).toBe(true);
    expect(hasDigit('abc9')).toBe(true);
    // Arabic-Indic and full-width digits are digits to Unicode, not to the rule.
    expect(hasDigit('١٢٣')).toBe(false);
    expect(hasDigit('１２３')).toBe(false);
    expect(passwordChecks('12345678')).toEqual({ length: true, letter: false, digit: true });
  });
});

describe('PINs anyone guesses first', () => {
  // The examples of crates/api/src/rules.rs's test, so the page and the device agree.
  it('are the ones the device refuses', () => {
    for (const common of ['000000', '999999', '123456', '654321', '890123', '121212', '123123', '123321', '112233', '147258']) {
      expect(isCommonPin(common), common).toBe(true);
    }
    for (const other of ['246810', '135790', '246813', '975318', '580264']) {
      expect(isCommonPin(other), other).toBe(false);
    }
    expect(isCommonPin('12345')).toBe(false);
  });
});
