//! Amounts between the smallest unit (wei, a token's base unit) and whole units,
//! exactly (no floating point), on alloy's `format_units` and `parse_units`:
//! `1500000000000000000` at 18 decimals is `"1.5"`, trailing zeros trimmed. The
//! service writes amounts in messages with it, the SDK shows and reads them with
//! it, and the page follows the same rule (`ui/src/lib/amount.ts`); all run the cases
//! in `units_cases.json` beside this file.

use alloy::primitives::U256;
use alloy::primitives::utils::{ParseUnits, Unit};

/// `value` in whole units of `decimals`, trailing zeros (and a bare point)
/// trimmed: `(1500000, 6)` is `"1.5"`, `(0, 18)` is `"0"`. Decimals past the
/// largest unit alloy knows (77) are read as 77.
pub fn format_units(value: U256, decimals: u32) -> String {
    let unit = Unit::new(
        u8::try_from(decimals)
            .unwrap_or(u8::MAX)
            .min(Unit::MAX.get()),
    )
    .unwrap_or(Unit::WEI);
    let text = ParseUnits::from(value).format_units(unit);
    match text.split_once('.') {
        Some((whole, fraction)) => {
            let fraction = fraction.trim_end_matches('0');
            if fraction.is_empty() {
                whole.to_owned()
            } else {
                format!("{whole}.{fraction}")
            }
        }
        None => text,
    }
}

/// Why an amount a person typed is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmountError {
    /// Empty, a sign, an exponent, spaces inside, a second point, any letter.
    NotANumber,
    /// More digits after the point than the coin has decimals.
    TooManyDecimals,
    /// More than a 256-bit integer holds.
    TooLarge,
}

impl AmountError {
    pub fn message(self, decimals: u32) -> String {
        match self {
            Self::NotANumber => {
                "enter the amount as digits with at most one point, like 0.5".into()
            }
            Self::TooManyDecimals => format!("at most {decimals} digits after the point"),
            Self::TooLarge => "that amount is too large".into(),
        }
    }
}

/// An amount typed in whole units (`"0.1"` ether) as the integer in smallest
/// units (`100000000000000000` wei), exactly: digits with at most one point, at
/// most `decimals` of them after it; no sign, exponent or grouping (alloy's
/// parser takes more, so the form is checked first).
pub fn parse_units(text: &str, decimals: u32) -> Result<U256, AmountError> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
        return Err(AmountError::NotANumber);
    }
    if fraction.len() > decimals as usize {
        return Err(AmountError::TooManyDecimals);
    }
    let unit = u8::try_from(decimals)
        .ok()
        .and_then(Unit::new)
        .ok_or(AmountError::TooLarge)?;
    let whole = if whole.is_empty() { "0" } else { whole };
    let text = if fraction.is_empty() {
        whole.to_owned()
    } else {
        format!("{whole}.{fraction}")
    };
    match ParseUnits::parse_units(&text, unit) {
        Ok(parsed) => Ok(parsed.get_absolute()),
        Err(_) => Err(AmountError::TooLarge),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_format_exactly_with_trailing_zeros_trimmed() {
        assert_eq!(format_units(U256::from(1_500_000u64), 6), "1.5");
        assert_eq!(format_units(U256::ZERO, 18), "0");
        assert_eq!(format_units(U256::from(10u64).pow(U256::from(18)), 18), "1");
        assert_eq!(format_units(U256::from(1u64), 18), "0.000000000000000001");
        assert_eq!(format_units(U256::from(123u64), 0), "123");
        assert_eq!(
            format_units(U256::MAX, 18),
            "115792089237316195423570985008687907853269984665640564039457.584007913129639935"
        );
    }

    #[test]
    fn typed_amounts_parse_exactly_as_the_page_parses_them() {
        #[derive(serde::Deserialize)]
        struct Case {
            text: String,
            decimals: u32,
            /// The smallest-unit integer, or the refusal's name.
            expect: String,
        }
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("units_cases.json")).expect("cases");
        assert!(cases.len() > 10);
        for case in cases {
            let got = match parse_units(&case.text, case.decimals) {
                Ok(value) => value.to_string(),
                Err(e) => format!("{e:?}"),
            };
            assert_eq!(
                got, case.expect,
                "{:?} at {} decimals",
                case.text, case.decimals
            );
            if let Ok(value) = parse_units(&case.text, case.decimals) {
                let back = format_units(value, case.decimals);
                assert_eq!(parse_units(&back, case.decimals), Ok(value), "round trip");
            }
        }
    }
}
