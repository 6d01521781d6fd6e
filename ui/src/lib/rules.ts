// The password rules of crates/api/src/rules.rs (PASSWORD_RULES), with the same
// tests, so the sign-up page marks a rule as met exactly when the service will
// agree: 8 to 128 characters, a letter of any script, an ASCII digit.

/** Shortest and longest password, in characters (PASSWORD_MIN_CHARS, PASSWORD_MAX_CHARS). */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 128;

/** Long enough and not too long, counted in characters (Unicode code points, as
 * Rust's `chars().count()`), not UTF-16 units. (`has_length`) */
export function hasLength(password: string): boolean {
  const chars = [...password].length;
  return chars >= PASSWORD_MIN_CHARS && chars <= PASSWORD_MAX_CHARS;
}

/** A letter of any script: a character with Unicode's Alphabetic property, which
 * is what Rust's `char::is_alphabetic` tests (every `\p{L}`, and also letter
 * numbers such as Ⅻ and vowel signs such as Devanagari's). (`has_letter`) */
export function hasLetter(password: string): boolean {
  return /\p{Alphabetic}/u.test(password);
}

/** An ASCII digit, 0 to 9 (Rust's `is_ascii_digit`). (`has_digit`) */
export function hasDigit(password: string): boolean {
  return /[0-9]/.test(password);
}

/** Each rule, met or not, for the sign-up page's list. */
export function passwordChecks(password: string) {
  return { length: hasLength(password), letter: hasLetter(password), digit: hasDigit(password) };
}

/** Whether `password` follows every rule (`is_password_form`). */
export function isPasswordForm(password: string): boolean {
  return hasLength(password) && hasLetter(password) && hasDigit(password);
}

/** Whether a 6-digit PIN is one of those anyone guesses first, as the device
 * refuses it (`is_common_pin` in crates/api/src/rules.rs, with the same
 * examples in rules.test.ts): one digit repeated, a run up or down (wrapping:
 * 901234), a pair or a triple repeated, a mirrored triple, a favourite. The
 * page says so before asking, rather than a refusal without a reason. */
export function isCommonPin(pin: string): boolean {
  if (!/^\d{6}$/.test(pin)) return false;
  const d = [...pin].map(Number);
  const run = (step: number) => d.slice(1).every((x, i) => ((d[i] ?? 0) + step) % 10 === x);
  const same = (a: number, b: number, n: number) => pin.slice(a, a + n) === pin.slice(b, b + n);
  return (
    run(0) ||
    run(1) ||
    run(9) ||
    (same(0, 2, 2) && same(2, 4, 2)) ||
    same(0, 3, 3) ||
    (d[0] === d[5] && d[1] === d[4] && d[2] === d[3]) ||
    ['112233', '147258', '159753', '147852', '258369', '696969'].includes(pin)
  );
}
