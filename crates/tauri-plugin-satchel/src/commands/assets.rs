//! Accounts, balances and NFTs, and what the receive page shows.
#![allow(non_snake_case)] // command names are the spec's method names

use satchel_api::{AccountBalanceInfo, AddableToken, ServiceAccount, ServiceNft};
use satchel_sdk::{
    AccountRef, CollectionChoices, NftFilter, NftGrid, NftTiles, OrUnknown, OwnToken, ReceiveInfo,
    Refresh,
};
use serde::Serialize;

use super::{Page, Result};
use satchel_desktop::application::{self, AccountOptions, NftOptions};

#[tauri::command]
pub async fn getAccounts(
    widget: Page,
    options: Option<AccountOptions>,
) -> Result<Vec<ServiceAccount>> {
    application::get_accounts(&widget, options).await
}

#[tauri::command]
pub async fn getBalance(
    widget: Page,
    accounts: Option<Vec<AccountRef>>,
) -> Result<Vec<AccountBalanceInfo>> {
    application::get_balance(&widget, accounts).await
}

/// Re-reads every balance from the chain; refused within a minute of the last.
#[tauri::command]
pub async fn refreshBalance(widget: Page) -> Result<Vec<AccountBalanceInfo>> {
    widget.refresh_balances().await
}

/// What each coin and token is worth in `currency` (ISO 4217, USD when none),
/// of every account or only `account`, and their total when every held asset
/// has a fresh price.
#[tauri::command]
pub async fn getValues(
    widget: Page,
    currency: Option<String>,
    account: Option<alloy::primitives::Address>,
) -> Result<satchel_api::WalletValues> {
    widget.get_values(currency.as_deref(), account).await
}

#[tauri::command]
pub async fn getNFTs(widget: Page, options: Option<NftOptions>) -> Result<Vec<ServiceNft>> {
    application::get_nfts(&widget, options).await
}

/// Reads the NFTs for the NFT tab, which keeps them here and asks for the
/// tiles in view (`getNftTiles`); `refresh` re-reads them from the chain, as
/// `getNFTs` does.
#[tauri::command]
pub async fn getNftGrid(widget: Page, refresh: Option<bool>) -> Result<NftGrid> {
    widget.get_nft_grid(refresh.unwrap_or(false)).await
}

/// Up to `count` of the last grid's NFTs that `filter` matches, from the
/// `from`th on.
#[tauri::command]
pub fn getNftTiles(widget: Page, filter: NftFilter, from: u32, count: u32) -> Result<NftTiles> {
    widget.nft_tiles(&filter, from, count)
}

/// One NFT of the last grid, in full, for its detail and its send page.
#[tauri::command]
pub fn getNftDetail(widget: Page, id: String) -> Result<ServiceNft> {
    widget.nft_detail(&id)
}

/// Seconds until balances and NFTs may be refreshed again.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RefreshWait {
    balances: u64,
    nfts: u64,
}

/// Rounded up, so a page that counts it down never asks a moment too early.
fn whole_seconds(wait: std::time::Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

#[tauri::command]
pub fn getRefreshWait(widget: Page) -> RefreshWait {
    RefreshWait {
        balances: whole_seconds(widget.refresh_wait(Refresh::Balances)),
        nfts: whole_seconds(widget.refresh_wait(Refresh::Nfts)),
    }
}

/// Opens an NFT's external link in the system browser (the page asks the
/// person first). Only links of NFTs the widget has listed, only http(s).
#[tauri::command]
pub fn openNftLink(widget: Page, link: String) -> Result<()> {
    let url = widget.nft_link(&link)?;
    // The opener's function, not its plugin: a host need not register it.
    tauri_plugin_opener::open_url(url.as_str(), None::<&str>).or_unknown()
}

/// receive: what the receive page shows for one of the user's accounts (and
/// token); the QR code comes through the `satchel:` protocol.
#[tauri::command]
pub async fn receive(widget: Page, account: AccountRef) -> Result<ReceiveInfo> {
    widget.receive(&account).await
}

/// The collections (NFT collections and tokens, `network:contract`) the person
/// hid, and the NFT collections they show although they look like spam; kept
/// on this device.
#[tauri::command]
pub fn getCollectionChoices(widget: Page) -> Result<CollectionChoices> {
    widget.collection_choices()
}

/// Hides a collection from the NFT grid (or a token from the wallet's list);
/// the choices after.
#[tauri::command]
pub fn hideCollection(
    widget: Page,
    network: String,
    contract: String,
) -> Result<CollectionChoices> {
    widget.hide_collection(&network, &contract)
}

/// Shows a hidden collection again, or one that looks like spam; the choices
/// after.
#[tauri::command]
pub fn showCollection(
    widget: Page,
    network: String,
    contract: String,
) -> Result<CollectionChoices> {
    widget.show_collection(&network, &contract)
}

/// The tokens the person added by contract address, as they accepted them.
#[tauri::command]
pub fn getOwnTokens(widget: Page) -> Result<Vec<OwnToken>> {
    widget.own_tokens()
}

/// What a token contract says of itself and the account's balance of it, for
/// the Add token page to show before the person adds it.
#[tauri::command]
pub async fn previewToken(
    widget: Page,
    network: String,
    contract: String,
    account: Option<alloy::primitives::Address>,
) -> Result<AddableToken> {
    widget.preview_token(&network, &contract, account).await
}

/// Adds the token the page showed (its symbol and decimals, checked again).
#[tauri::command]
pub async fn addToken(
    widget: Page,
    network: String,
    contract: String,
    symbol: String,
    decimals: u32,
    account: Option<alloy::primitives::Address>,
) -> Result<AddableToken> {
    widget
        .add_token(&network, &contract, &symbol, decimals, account)
        .await
}

/// Removes a token the person added; the added ones after.
#[tauri::command]
pub async fn removeToken(
    widget: Page,
    network: String,
    contract: String,
    account: Option<alloy::primitives::Address>,
) -> Result<Vec<OwnToken>> {
    widget.remove_token(&network, &contract, account).await
}
