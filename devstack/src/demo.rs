//! The demo contracts: two ERC-20s (18 and 6 decimals), an ERC-721 and an ERC-1155,
//! deployed from the artifacts in `devstack/contracts/artifacts`, with NFT metadata
//! as `data:` URIs so the service reads it with no network.

use alloy::network::EthereumWallet;
use alloy::primitives::{Address, B256, U256, utils::parse_units};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::types::TransactionRequest;
use alloy::signers::local::PrivateKeySigner;
use alloy::sol;
use satchel_service::config::{NetworkConfig, TokenConfig};
use url::Url;

use crate::anvil::CHAIN_ID;

mod ens;
mod feeds;
mod nfts;
pub use ens::DemoEns;
pub use feeds::FEED_DECIMALS;
pub use nfts::metadata_uri;

sol!(
    // EIP-2612's `permit` takes seven arguments and the contract itself.
    #[allow(clippy::too_many_arguments)]
    #[sol(rpc)]
    DemoToken,
    "contracts/artifacts/DemoToken.json"
);
sol!(
    #[sol(rpc)]
    DemoNft,
    "contracts/artifacts/DemoNft.json"
);
sol!(
    #[sol(rpc)]
    DemoMulti,
    "contracts/artifacts/DemoMulti.json"
);

/// An EIP-2612 permit of a demo token, as its owner signs it.
#[derive(Debug, Clone, Copy)]
pub struct Permit {
    pub owner: Address,
    pub spender: Address,
    pub value: U256,
    pub deadline: U256,
}

/// Anvil's first well-known development key: it holds 10,000 test ether.
pub const DEPLOYER_KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

/// The deployed demo contracts and a signer that owns them.
#[derive(Clone)]
pub struct Demo {
    provider: DynProvider,
    pub rpc_url: Url,
    /// "Demo Token", 18 decimals.
    pub token18: Address,
    /// "Demo Dollar", 6 decimals.
    pub dollar6: Address,
    /// "Satchel Pals", ERC-721.
    pub pals: Address,
    /// "Satchel Items", ERC-1155.
    pub items: Address,
    /// The price feeds by asset symbol and currency (`("ETH", "usd")`).
    pub feeds: std::collections::BTreeMap<(String, String), Address>,
    /// The ENS registry, resolver and reverse registrar, with demo names.
    pub ens: DemoEns,
}

impl Demo {
    /// Deploys the demo contracts from the deployer account: the tokens, the
    /// NFTs, the price feeds and the ENS.
    pub async fn deploy(rpc_url: &Url) -> anyhow::Result<Self> {
        let signer: PrivateKeySigner = DEPLOYER_KEY.parse()?;
        let provider = ProviderBuilder::new()
            .wallet(EthereumWallet::from(signer))
            .connect_http(rpc_url.clone())
            .erased();
        let supply18: U256 = parse_units("1000000000", 18)?.into();
        let supply6: U256 = parse_units("1000000000", 6)?.into();
        let token18 =
            *DemoToken::deploy(&provider, "Demo Token".into(), "DEMO".into(), 18, supply18)
                .await?
                .address();
        let dollar6 =
            *DemoToken::deploy(&provider, "Demo Dollar".into(), "DUSD".into(), 6, supply6)
                .await?
                .address();
        let pals_uri = metadata_uri(
            "Satchel Pals",
            "Friendly circles that live in your Satchel.",
            "#6d5dfc",
            serde_json::json!({}),
        );
        let pals = *DemoNft::deploy(&provider, "Satchel Pals".into(), "PALS".into(), pals_uri)
            .await?
            .address();
        let items_uri = metadata_uri(
            "Satchel Items",
            "Things to carry: coins and clips.",
            "#f59e0b",
            serde_json::json!({}),
        );
        let items = *DemoMulti::deploy(&provider, "Satchel Items".into(), items_uri)
            .await?
            .address();
        let multi = DemoMulti::new(items, &provider);
        let coin = metadata_uri(
            "Gold Coin",
            "A shiny coin. Holders have several.",
            "#eab308",
            serde_json::json!({}),
        );
        multi
            .setURI(U256::from(1), coin)
            .send()
            .await?
            .get_receipt()
            .await?;
        let clip = metadata_uri(
            "Launch Clip",
            "A short video of the first launch.",
            "#ef4444",
            serde_json::json!({"animation_url": "data:video/mp4;base64,AAAAIGZ0eXBpc29t"}),
        );
        multi
            .setURI(U256::from(2), clip)
            .send()
            .await?
            .get_receipt()
            .await?;
        let feeds = feeds::deploy(&provider).await?;
        // Last, so the contracts before keep their addresses.
        let ens = ens::deploy(&provider, rpc_url).await?;
        Ok(Self {
            provider,
            rpc_url: rpc_url.clone(),
            token18,
            dollar6,
            pals,
            items,
            feeds,
            ens,
        })
    }

    /// The account that deploys the demo contracts and mints their NFTs.
    pub fn deployer(&self) -> Address {
        DEPLOYER_KEY
            .parse::<PrivateKeySigner>()
            .expect("the deployer key parses")
            .address()
    }

    /// The service's configuration of this chain, tracking both demo tokens.
    pub fn network_config(&self, name: &str) -> NetworkConfig {
        NetworkConfig {
            name: name.to_owned(),
            chain_id: CHAIN_ID,
            rpc_url: self.rpc_url.clone(),
            coin_id: 60,
            coin_name: "Ether".into(),
            symbol: "ETH".into(),
            decimals: 18,
            icon_url: "https://satchel.dev/icons/eth.svg".into(),
            ids: "ethereum".into(),
            nft_start_block: 0,
            log_window: 1_000,
            // A local node: its blocks told at once, reading it costs nothing.
            head_poll_ms: 20,
            price_feeds: self.feeds_of("ETH"),
            tokens: vec![
                TokenConfig {
                    contract: self.token18.to_checksum(None),
                    name: "Demo Token".into(),
                    symbol: "DEMO".into(),
                    decimals: 18,
                    icon_url: "https://satchel.dev/icons/demo.svg".into(),
                    ids: "demo-token".into(),
                    dust_below: None,
                    price_feeds: self.feeds_of("DEMO"),
                },
                TokenConfig {
                    contract: self.dollar6.to_checksum(None),
                    name: "Demo Dollar".into(),
                    symbol: "DUSD".into(),
                    decimals: 6,
                    icon_url: "https://satchel.dev/icons/dusd.svg".into(),
                    ids: "demo-dollar".into(),
                    dust_below: None,
                    price_feeds: self.feeds_of("DUSD"),
                },
            ],
            nft_collections: vec![self.pals.to_checksum(None), self.items.to_checksum(None)],
            ens_registry: Some(self.ens.registry.to_checksum(None)),
            tracked: Default::default(),
        }
    }

    /// Deploys another ERC-20 (the deployer holds `supply`), one that no
    /// service configuration names: a token a person adds by its address.
    pub async fn deploy_token(
        &self,
        name: &str,
        symbol: &str,
        decimals: u8,
        supply: U256,
    ) -> anyhow::Result<Address> {
        Ok(
            *DemoToken::deploy(&self.provider, name.into(), symbol.into(), decimals, supply)
                .await?
                .address(),
        )
    }

    /// `owner` (a key the test holds, with ether for gas) approves `spender`
    /// for `amount` of the ERC-20 `token`.
    pub async fn approve_as(
        &self,
        owner: &PrivateKeySigner,
        token: Address,
        spender: Address,
        amount: U256,
    ) -> anyhow::Result<()> {
        let provider = self.provider_of(owner);
        DemoToken::new(token, &provider)
            .approve(spender, amount)
            .send()
            .await?
            .get_receipt()
            .await?;
        Ok(())
    }

    /// `owner` makes `operator` an operator of all its NFTs of the ERC-721
    /// `nft` (or withdraws it).
    pub async fn set_operator_as(
        &self,
        owner: &PrivateKeySigner,
        nft: Address,
        operator: Address,
        approved: bool,
    ) -> anyhow::Result<()> {
        let provider = self.provider_of(owner);
        DemoNft::new(nft, &provider)
            .setApprovalForAll(operator, approved)
            .send()
            .await?
            .get_receipt()
            .await?;
        Ok(())
    }

    /// Whether `operator` may move all of `owner`'s NFTs of `nft`.
    pub async fn is_operator(
        &self,
        nft: Address,
        owner: Address,
        operator: Address,
    ) -> anyhow::Result<bool> {
        Ok(DemoNft::new(nft, &self.provider)
            .isApprovedForAll(owner, operator)
            .call()
            .await?)
    }

    /// Deploys an ERC-721 collection from `deployer` (one no configuration
    /// names: a stranger's, as an airdrop's is).
    pub async fn deploy_collection_as(
        &self,
        deployer: &PrivateKeySigner,
        name: &str,
    ) -> anyhow::Result<Address> {
        let uri = metadata_uri(name, "A collection.", "#999999", serde_json::json!({}));
        Ok(
            *DemoNft::deploy(&self.provider_of(deployer), name.into(), "NFT".into(), uri)
                .await?
                .address(),
        )
    }

    /// `minter` mints an NFT of the ERC-721 `nft` to `to`; its token id and
    /// the transaction's hash.
    pub async fn mint_as(
        &self,
        minter: &PrivateKeySigner,
        nft: Address,
        to: Address,
        name: &str,
    ) -> anyhow::Result<(U256, B256)> {
        let contract = DemoNft::new(nft, self.provider_of(minter));
        let id = contract.nextId().call().await?;
        let uri = metadata_uri(name, "An NFT.", "#999999", serde_json::json!({}));
        let receipt = contract.mint(to, uri).send().await?.get_receipt().await?;
        Ok((id, receipt.transaction_hash))
    }

    /// `claimer` mints an NFT of the ERC-721 `nft` to itself; its token id.
    pub async fn claim_as(
        &self,
        claimer: &PrivateKeySigner,
        nft: Address,
        name: &str,
    ) -> anyhow::Result<U256> {
        let contract = DemoNft::new(nft, self.provider_of(claimer));
        let id = contract.nextId().call().await?;
        let uri = metadata_uri(name, "An NFT.", "#999999", serde_json::json!({}));
        contract.claim(uri).send().await?.get_receipt().await?;
        Ok(id)
    }

    /// `owner` sends its NFT `id` of the ERC-721 `nft` to `to`.
    pub async fn transfer_nft_as(
        &self,
        owner: &PrivateKeySigner,
        nft: Address,
        to: Address,
        id: U256,
    ) -> anyhow::Result<()> {
        DemoNft::new(nft, self.provider_of(owner))
            .transferFrom(owner.address(), to, id)
            .send()
            .await?
            .get_receipt()
            .await?;
        Ok(())
    }

    fn provider_of(&self, signer: &PrivateKeySigner) -> DynProvider {
        ProviderBuilder::new()
            .wallet(EthereumWallet::from(signer.clone()))
            .connect_http(self.rpc_url.clone())
            .erased()
    }

    /// Sends `wei` of ether to `to`.
    pub async fn send_ether(&self, to: Address, wei: U256) -> anyhow::Result<()> {
        let tx = TransactionRequest::default().to(to).value(wei);
        self.provider
            .send_transaction(tx)
            .await?
            .get_receipt()
            .await?;
        Ok(())
    }

    /// Sends `amount` (smallest units) of a demo token to `to`.
    pub async fn send_token(
        &self,
        token: Address,
        to: Address,
        amount: U256,
    ) -> anyhow::Result<()> {
        DemoToken::new(token, &self.provider)
            .transfer(to, amount)
            .send()
            .await?
            .get_receipt()
            .await?;
        Ok(())
    }

    /// Submits an EIP-2612 permit `owner` signed for `spender` on the demo token
    /// `token` (as the spender would: the deployer pays the gas); the chain
    /// refuses a signature that is not the owner's.
    pub async fn submit_permit(
        &self,
        token: Address,
        permit: Permit,
        signature: &alloy::primitives::Signature,
    ) -> anyhow::Result<()> {
        let receipt = DemoToken::new(token, &self.provider)
            .permit(
                permit.owner,
                permit.spender,
                permit.value,
                permit.deadline,
                27 + u8::from(signature.v()),
                signature.r().into(),
                signature.s().into(),
            )
            .send()
            .await?
            .get_receipt()
            .await?;
        anyhow::ensure!(receipt.status(), "the permit was refused on chain");
        Ok(())
    }

    /// What `spender` may spend of `owner`'s demo token `token`.
    pub async fn allowance(
        &self,
        token: Address,
        owner: Address,
        spender: Address,
    ) -> anyhow::Result<U256> {
        Ok(DemoToken::new(token, &self.provider)
            .allowance(owner, spender)
            .call()
            .await?)
    }

    /// Gives an address what a demo wallet shows: ether, both tokens, two Pals and
    /// some items (one of them a video).
    pub async fn fund(&self, to: Address) -> anyhow::Result<()> {
        self.send_ether(to, parse_units("10", 18)?.into()).await?;
        self.send_token(self.token18, to, parse_units("1250.5", 18)?.into())
            .await?;
        self.send_token(self.dollar6, to, parse_units("420.25", 6)?.into())
            .await?;
        self.mint_pal(to, "Pal #1", "#6d5dfc").await?;
        self.mint_pal(to, "Pal #2", "#10b981").await?;
        self.mint_items(to, &[(1, 3), (2, 1)]).await?;
        Ok(())
    }
}
