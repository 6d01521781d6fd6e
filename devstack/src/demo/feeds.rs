//! The demo price feeds: Chainlink `AggregatorV3Interface` contracts
//! (`DemoFeed`) for the coin and each demo token in US dollars and euros, named
//! in the service's configuration, and the local stack's market that moves them.

use std::collections::BTreeMap;

use alloy::primitives::{Address, U256, utils::parse_units};
use alloy::providers::DynProvider;
use alloy::sol;

use super::Demo;

sol!(
    #[sol(rpc)]
    DemoFeed,
    "contracts/artifacts/DemoFeed.json"
);

/// The demo price feeds' decimals, as Chainlink's fiat feeds have.
pub const FEED_DECIMALS: u8 = 8;

/// The demo feeds: the coin and each demo token, in US dollars and euros, with
/// their first prices.
const FEEDS: [(&str, &str, &str); 6] = [
    ("ETH", "usd", "3000"),
    ("ETH", "eur", "2760"),
    ("DEMO", "usd", "1.25"),
    ("DEMO", "eur", "1.15"),
    ("DUSD", "usd", "1"),
    ("DUSD", "eur", "0.92"),
];

/// Deploys the demo feeds at their first prices, by symbol and currency.
pub(super) async fn deploy(
    provider: &DynProvider,
) -> anyhow::Result<BTreeMap<(String, String), Address>> {
    let mut feeds = std::collections::BTreeMap::new();
    for (symbol, currency, price) in FEEDS {
        let answer = alloy::primitives::I256::from_raw(parse_units(price, FEED_DECIMALS)?.into());
        let description = format!("{symbol} / {}", currency.to_uppercase());
        let feed = *DemoFeed::deploy(provider, FEED_DECIMALS, description, answer)
            .await?
            .address();
        feeds.insert((symbol.to_owned(), currency.to_owned()), feed);
    }
    Ok(feeds)
}

impl Demo {
    /// The price feeds of an asset by currency, as the service's configuration
    /// names them.
    pub(super) fn feeds_of(&self, symbol: &str) -> satchel_service::config::PriceFeeds {
        self.feeds
            .iter()
            .filter(|((s, _), _)| s == symbol)
            .map(|((_, currency), feed)| (currency.clone(), feed.to_checksum(None)))
            .collect()
    }

    /// Moves a demo feed: `price` (a decimal string) is its new answer, a new
    /// round stamped with the next block's time.
    pub async fn set_price(&self, symbol: &str, currency: &str, price: &str) -> anyhow::Result<()> {
        let feed = self
            .feeds
            .get(&(symbol.to_owned(), currency.to_owned()))
            .ok_or_else(|| anyhow::anyhow!("no demo feed of {symbol} in {currency}"))?;
        let answer = alloy::primitives::I256::from_raw(parse_units(price, FEED_DECIMALS)?.into());
        let receipt = DemoFeed::new(*feed, &self.provider)
            .setAnswer(answer)
            .send()
            .await?
            .get_receipt()
            .await?;
        // A receipt comes for a reverted transaction too.
        anyhow::ensure!(
            receipt.status(),
            "the {symbol}/{currency} feed did not take {price}"
        );
        Ok(())
    }

    /// Moves every demo feed by up to half a percent each minute, for ever: the
    /// local stack's market, so its prices stay fresh and values change.
    pub async fn move_prices(self) {
        use rand::Rng as _;
        let mut every_minute = tokio::time::interval(std::time::Duration::from_secs(60));
        every_minute.tick().await;
        loop {
            every_minute.tick().await;
            for (symbol, currency) in self.feeds.keys() {
                let Ok(now) = self.price(symbol, currency).await else {
                    continue;
                };
                let Ok(now) = parse_units(&now, FEED_DECIMALS) else {
                    continue;
                };
                let now: U256 = now.into();
                // A step of -50..=50 basis points.
                let step = rand::thread_rng().gen_range(-50i64..=50);
                let moved = now * U256::from(10_000 + step) / U256::from(10_000u64);
                let price = alloy::primitives::utils::format_units(moved, FEED_DECIMALS)
                    .unwrap_or_default();
                if let Err(e) = self.set_price(symbol, currency, &price).await {
                    tracing::warn!("demo feed {symbol}/{currency} not moved: {e}");
                }
            }
        }
    }

    /// A demo feed's answer now, as a decimal string.
    pub async fn price(&self, symbol: &str, currency: &str) -> anyhow::Result<String> {
        let feed = self
            .feeds
            .get(&(symbol.to_owned(), currency.to_owned()))
            .ok_or_else(|| anyhow::anyhow!("no demo feed of {symbol} in {currency}"))?;
        let round = DemoFeed::new(*feed, &self.provider)
            .latestRoundData()
            .call()
            .await?;
        Ok(alloy::primitives::utils::format_units(
            round.answer_.into_raw(),
            FEED_DECIMALS,
        )?)
    }
}
