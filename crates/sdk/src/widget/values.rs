//! What the wallet is worth: each coin and token's balance times its price
//! from the service (`GET /v1/prices`, read from Chainlink feeds), worked out
//! here in exact integers to the cent. A price applies only to an asset the
//! device already accepted (its network table, its own added tokens); a total
//! is given only when every held, shown asset has a fresh price.

use alloy::primitives::{Address, U256};
use reqwest::Method;
use satchel_api::{AssetValue, PricesResponse, ServiceErrorCode, WalletValues};

use super::Widget;
use crate::client::Caller;
use crate::error::SdkError;

/// The most prices taken from one answer of the service.
const MAX_PRICES: usize = 1_024;
/// Digits a price may have after the point (Chainlink's have at most 18).
const MAX_PRICE_SCALE: u32 = 36;

/// A non-negative decimal string as an integer and the count of digits after
/// its point: `"12.50"` is `(1250, 2)`. `None` for anything else.
fn decimal(text: &str) -> Option<(U256, u32)> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || (text.contains('.') && fraction.is_empty())
    {
        return None;
    }
    let scale = u32::try_from(fraction.len())
        .ok()
        .filter(|s| *s <= MAX_PRICE_SCALE)?;
    let mantissa = U256::from_str_radix(&format!("{whole}{fraction}"), 10).ok()?;
    Some((mantissa, scale))
}

/// An amount in cents as a decimal string with two digits after the point.
fn cents_text(cents: U256) -> String {
    let hundred = U256::from(100u64);
    format!("{}.{:02}", cents / hundred, (cents % hundred).to::<u64>())
}

/// `amount` (smallest units, `decimals` of them to one whole) at `price` per
/// whole, in cents, rounded down; `None` when it does not fit 256 bits.
fn value_in_cents(amount: U256, decimals: u32, price: (U256, u32)) -> Option<U256> {
    let (mantissa, scale) = price;
    let product = amount.checked_mul(mantissa)?;
    let shift = decimals.checked_add(scale)?;
    Some(if shift >= 2 {
        // 10^78 and more exceed any product of 256 bits: less than a cent.
        match U256::from(10u64).checked_pow(U256::from(shift - 2)) {
            Some(divisor) => product / divisor,
            None => U256::ZERO,
        }
    } else {
        product.checked_mul(U256::from(10u64).pow(U256::from(2 - shift)))?
    })
}

/// One held or listed asset, as the device accepted it.
#[derive(Clone)]
pub(crate) struct Holding<'a> {
    pub network: &'a str,
    pub address: &'a str,
    pub contract: Option<&'a str>,
    pub symbol: &'a str,
    /// Smallest units (an integer string).
    pub balance: &'a str,
    pub decimals: u32,
    /// Hidden by the person: valued, but left out of the total.
    pub hidden: bool,
    /// How old its price may be before it is stale: the app's network table's
    /// bound for its feed (never the service's word).
    pub price_stale_secs: u64,
}

/// The values of `holdings` at `prices`, as of `now` (Unix seconds).
pub(crate) fn values_of(
    holdings: &[Holding<'_>],
    prices: &PricesResponse,
    now: u64,
) -> WalletValues {
    let price_of = |network: &str, contract: Option<&str>| {
        prices.prices.iter().take(MAX_PRICES).find(|p| {
            p.network == network
                && match (&p.contract, contract) {
                    (None, None) => true,
                    (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                    _ => false,
                }
        })
    };
    let mut total = Some(U256::ZERO);
    let mut priced_at: Option<u64> = None;
    let mut unpriced = Vec::new();
    let mut assets = Vec::with_capacity(holdings.len());
    for holding in holdings {
        let amount = U256::from_str_radix(holding.balance, 10).ok();
        let quote = price_of(holding.network, holding.contract)
            .and_then(|p| decimal(&p.price).map(|d| (p, d)));
        let stale =
            quote.is_some_and(|(p, _)| now.saturating_sub(p.updated_at) > holding.price_stale_secs);
        let cents = quote
            .zip(amount)
            .and_then(|((_, price), amount)| value_in_cents(amount, holding.decimals, price));
        // A balance that does not read as an integer is held, as far as the
        // total knows: it is not valued, so there is no total.
        let held = amount.is_none_or(|a| !a.is_zero());
        if held && !holding.hidden {
            match cents.filter(|_| !stale) {
                Some(cents) => {
                    total = total.and_then(|t| t.checked_add(cents));
                    let updated = quote.map_or(0, |(p, _)| p.updated_at);
                    priced_at = Some(priced_at.map_or(updated, |t| t.min(updated)));
                }
                None => {
                    total = None;
                    if !unpriced.iter().any(|s| s == holding.symbol) {
                        unpriced.push(holding.symbol.to_owned());
                    }
                }
            }
        }
        assets.push(AssetValue {
            network: holding.network.to_owned(),
            address: holding.address.to_owned(),
            contract: holding.contract.map(str::to_owned),
            symbol: holding.symbol.to_owned(),
            price: quote.map(|(p, _)| p.price.clone()),
            value: cents.map(cents_text),
            updated_at: quote.map(|(p, _)| p.updated_at),
            stale,
        });
    }
    WalletValues {
        currency: prices.currency.to_ascii_uppercase(),
        currencies: prices
            .currencies
            .iter()
            .take(MAX_PRICES)
            .filter(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_lowercase()))
            .map(|c| c.to_ascii_uppercase())
            .collect(),
        total: total.map(cents_text),
        priced_at: total.and(priced_at),
        unpriced,
        assets,
    }
}

impl Widget {
    /// The value of every account's coin and tokens in `currency` (an ISO 4217
    /// code, `USD` when none), or only `account`'s, with the total when every
    /// held asset that is not hidden has a fresh price.
    pub async fn get_values(
        &self,
        currency: Option<&str>,
        account: Option<Address>,
    ) -> Result<WalletValues, SdkError> {
        let (user_id, _) = self.require_login()?;
        let currency = currency.unwrap_or("USD").to_ascii_lowercase();
        if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_lowercase()) {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "a currency is a three-letter code, such as USD",
            ));
        }
        let path = format!("v1/prices?currency={currency}");
        let (accounts, prices) = tokio::join!(
            self.accounts(),
            self.login
                .authed::<PricesResponse>(Caller::Rest, Method::GET, &path, None)
        );
        let (accounts, mut prices) = (accounts?, prices?);
        prices.currency = currency;
        let hidden = self.hidden.read(&user_id);
        // An entry the service lists twice is valued once.
        let mut seen = std::collections::HashSet::new();
        let holdings: Vec<Holding<'_>> = accounts
            .accounts
            .iter()
            .filter(|a| account.is_none_or(|only| a.address.parse() == Ok(only)))
            .filter(|a| {
                seen.insert((
                    a.network.as_str(),
                    a.address.to_ascii_lowercase(),
                    a.contract.as_deref().map(str::to_ascii_lowercase),
                ))
            })
            .map(|a| Holding {
                network: &a.network,
                address: &a.address,
                contract: a.contract.as_deref(),
                symbol: &a.symbol,
                balance: &a.balance,
                decimals: a.decimals,
                hidden: a.contract.as_deref().is_some_and(|c| {
                    let key = format!("{}:{}", a.network, c.to_ascii_lowercase());
                    hidden.hidden.contains(&key)
                }),
                price_stale_secs: self
                    .networks
                    .price_stale_secs(&a.network, a.contract.as_deref()),
            })
            .collect();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Ok(values_of(&holdings, &prices, now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use satchel_api::AssetPrice;

    const NOW: u64 = 1_800_000_000;

    fn prices(list: &[(Option<&str>, &str, u64)]) -> PricesResponse {
        PricesResponse {
            currency: "usd".into(),
            currencies: vec!["eur".into(), "usd".into()],
            stale_after_secs: 3_600,
            prices: list
                .iter()
                .map(|(contract, price, age)| AssetPrice {
                    network: "anvil".into(),
                    contract: contract.map(str::to_owned),
                    price: (*price).into(),
                    updated_at: NOW - age,
                })
                .collect(),
        }
    }

    fn holding<'a>(
        contract: Option<&'a str>,
        symbol: &'a str,
        balance: &'a str,
        decimals: u32,
    ) -> Holding<'a> {
        Holding {
            network: "anvil",
            address: "0xabc",
            contract,
            symbol,
            balance,
            decimals,
            hidden: false,
            price_stale_secs: 3_600,
        }
    }

    #[test]
    fn values_are_exact_to_the_cent_and_add_up() {
        let token = "0x00000000000000000000000000000000000000d0";
        // 1.5 ETH at 3012.56789012; 1234.567891 DUSD (6 decimals) at 0.99999.
        let values = values_of(
            &[
                holding(None, "ETH", "1500000000000000000", 18),
                holding(Some(token), "DUSD", "1234567891", 6),
            ],
            &prices(&[(None, "3012.56789012", 30), (Some(token), "0.99999", 60)]),
            NOW,
        );
        assert_eq!(values.currency, "USD");
        assert_eq!(values.currencies, ["EUR", "USD"]);
        assert_eq!(values.assets[0].value.as_deref(), Some("4518.85"));
        assert_eq!(values.assets[1].value.as_deref(), Some("1234.55"));
        assert_eq!(values.total.as_deref(), Some("5753.40"));
        assert_eq!(values.priced_at, Some(NOW - 60), "the oldest price's time");
        assert!(values.unpriced.is_empty());
    }

    #[test]
    fn no_total_when_a_held_asset_has_no_price_or_a_stale_one() {
        let token = "0x00000000000000000000000000000000000000d0";
        let holdings = [
            holding(None, "ETH", "1000000000000000000", 18),
            holding(Some(token), "DEMO", "5", 18),
        ];
        let missing = values_of(&holdings, &prices(&[(None, "3000", 30)]), NOW);
        assert_eq!(missing.total, None);
        assert_eq!(missing.priced_at, None);
        assert_eq!(missing.unpriced, ["DEMO"]);
        assert_eq!(missing.assets[0].value.as_deref(), Some("3000.00"));
        assert_eq!(missing.assets[1].value, None);

        // Two hours old past its feed's hour (the app's table): stale, however
        // long the service says prices keep.
        let mut lenient = prices(&[(None, "3000", 7_200), (Some(token), "1", 0)]);
        lenient.stale_after_secs = u64::MAX;
        let stale = values_of(&holdings, &lenient, NOW);
        assert_eq!(stale.total, None);
        assert!(stale.assets[0].stale);
        assert_eq!(stale.unpriced, ["ETH"]);
        // A feed with a day's heartbeat keeps the same price fresh.
        let mut daily = holdings.clone();
        daily[0].price_stale_secs = 86_400;
        let fresh = values_of(&daily, &lenient, NOW);
        assert!(!fresh.assets[0].stale);
        assert_eq!(fresh.total.as_deref(), Some("3000.00"));

        // Nothing held of the unpriced token, or the person hid it: a total.
        let mut holdings = holdings;
        holdings[1].hidden = true;
        let hidden = values_of(&holdings, &prices(&[(None, "3000", 30)]), NOW);
        assert_eq!(hidden.total.as_deref(), Some("3000.00"));
        holdings[1].hidden = false;
        holdings[1].balance = "0";
        let empty = values_of(&holdings, &prices(&[(None, "3000", 30)]), NOW);
        assert_eq!(empty.total.as_deref(), Some("3000.00"));
    }

    #[test]
    fn a_price_the_service_garbles_values_nothing() {
        for bad in ["", "-1", "1e3", "1.", ".5", "3,000", " 1", "NaN", "0x10"] {
            let values = values_of(
                &[holding(None, "ETH", "1", 18)],
                &prices(&[(None, bad, 0)]),
                NOW,
            );
            assert_eq!(values.assets[0].value, None, "{bad:?}");
            assert_eq!(values.total, None, "{bad:?}");
        }
        // A balance that is not an integer: no value, and no total.
        let values = values_of(
            &[holding(None, "ETH", "1.5", 18)],
            &prices(&[(None, "3000", 0)]),
            NOW,
        );
        assert_eq!(values.assets[0].value, None);
        assert_eq!(values.unpriced, ["ETH"]);
        // Decimals past what a power of ten in 256 bits holds: less than a cent.
        let values = values_of(
            &[holding(None, "ETH", "1", 77)],
            &prices(&[(None, "3000.125", 0)]),
            NOW,
        );
        assert_eq!(values.assets[0].value.as_deref(), Some("0.00"));
        // A balance too large to value: no value, no total, no panic.
        let huge = U256::MAX.to_string();
        let values = values_of(
            &[holding(None, "ETH", &huge, 0)],
            &prices(&[(None, "3000", 0)]),
            NOW,
        );
        assert_eq!(values.assets[0].value, None);
        assert_eq!(values.total, None);
    }
}
