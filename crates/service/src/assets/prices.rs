//! Prices of the networks' coins and configured tokens, from the Chainlink
//! feeds the configuration names (`price_feeds`), each network's feeds read in
//! one batch and kept for `price_cache_secs`.

use std::sync::Arc;

use satchel_api::{AssetPrice, PricesResponse};
use satchel_chain::Address;

use crate::config::is_currency_code;
use crate::error::{ApiError, ApiResult};
use crate::state::{AppState, Network};

/// The currency prices are in when a request names none.
pub const DEFAULT_CURRENCY: &str = "usd";

impl AppState {
    /// Every network's prices in `currency` (a lowercase three-letter code).
    pub async fn prices(&self, currency: Option<&str>) -> ApiResult<PricesResponse> {
        let currency = currency.unwrap_or(DEFAULT_CURRENCY);
        if !is_currency_code(currency) {
            return Err(ApiError::bad_request(
                "`currency` is a lowercase three-letter code, such as usd",
            ));
        }
        let currencies = self.currencies();
        // A currency no feed is in has no prices: nothing is read or kept.
        if !currencies.iter().any(|c| c == currency) {
            return Ok(PricesResponse {
                currency: currency.to_owned(),
                currencies,
                stale_after_secs: self.settings.price_stale_secs,
                prices: Vec::new(),
            });
        }
        let mut names: Vec<&String> = self.networks.keys().collect();
        names.sort();
        let reads = names
            .iter()
            .map(|name| network_prices(&self.networks[*name], currency));
        // A network whose node fails has no prices this time; the others do.
        let mut prices = Vec::new();
        for read in futures::future::join_all(reads).await {
            match read {
                Ok(read) => prices.extend(read.iter().cloned()),
                Err(e) => tracing::warn!("prices not read: {e}"),
            }
        }
        Ok(PricesResponse {
            currency: currency.to_owned(),
            currencies,
            stale_after_secs: self.settings.price_stale_secs,
            prices,
        })
    }

    /// The currencies some feed is configured in, sorted.
    fn currencies(&self) -> Vec<String> {
        let mut currencies = std::collections::BTreeSet::new();
        for network in self.networks.values() {
            let config = &network.config;
            currencies.extend(config.price_feeds.keys());
            for token in &config.tokens {
                currencies.extend(token.price_feeds.keys());
            }
        }
        currencies.into_iter().cloned().collect()
    }
}

/// One network's prices in `currency`: from memory, or read from its feeds by
/// one request while the others wait for what it reads.
async fn network_prices(
    network: &Network,
    currency: &str,
) -> Result<Arc<Vec<AssetPrice>>, satchel_chain::ChainError> {
    let cache = &network.prices;
    if let Some(prices) = cache.by_currency.get(currency) {
        return Ok(prices);
    }
    let _reading = cache.reading.lock().await;
    if let Some(prices) = cache.by_currency.get(currency) {
        return Ok(prices);
    }
    let config = &network.config;
    // The coin (no contract) and each token with a feed in the currency.
    let mut priced: Vec<(Option<String>, Address)> = Vec::new();
    if let Some(feed) = config
        .price_feeds
        .get(currency)
        .and_then(|f| f.parse().ok())
    {
        priced.push((None, feed));
    }
    for token in &config.tokens {
        let feed = token.price_feeds.get(currency).and_then(|f| f.parse().ok());
        let contract = token.contract.parse::<Address>().ok();
        if let (Some(feed), Some(contract)) = (feed, contract) {
            priced.push((Some(contract.to_checksum(None)), feed));
        }
    }
    priced.truncate(satchel_chain::MAX_FEEDS);
    let feeds: Vec<Address> = priced.iter().map(|(_, feed)| *feed).collect();
    let now = u64::try_from(crate::clock::now()).unwrap_or(0);
    let answers = network.chain.feed_answers(&feeds, now).await?;
    let prices: Vec<AssetPrice> = priced
        .into_iter()
        .zip(answers)
        .filter_map(|((contract, _), answer)| {
            let answer = answer?;
            Some(AssetPrice {
                network: config.name.clone(),
                contract,
                price: answer.price(),
                updated_at: answer.updated_at,
            })
        })
        .collect();
    let prices = Arc::new(prices);
    cache
        .by_currency
        .insert(currency.to_owned(), prices.clone());
    Ok(prices)
}
