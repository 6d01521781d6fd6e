//! The demo NFTs: Satchel Pals (ERC-721) and Satchel Items (ERC-1155), minted
//! with their metadata as `data:` URIs so the service reads it with no network.

use alloy::primitives::{Address, U256};
use base64::Engine as _;

use super::{Demo, DemoMulti, DemoNft};

/// A metadata document as a `data:` URI, with a generated SVG picture.
pub fn metadata_uri(
    name: &str,
    description: &str,
    colour: &str,
    extra: serde_json::Value,
) -> String {
    let svg = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 120 120'>\
         <rect width='120' height='120' fill='{colour}'/>\
         <circle cx='60' cy='52' r='26' fill='white' fill-opacity='0.85'/>\
         <text x='60' y='106' font-family='sans-serif' font-size='14' text-anchor='middle' fill='white'>{name}</text></svg>"
    );
    let b64 = base64::engine::general_purpose::STANDARD;
    let mut doc = serde_json::json!({
        "name": name,
        "description": description,
        "image": format!("data:image/svg+xml;base64,{}", b64.encode(svg)),
        "external_url": "https://satchel.dev/demo",
    });
    if let (Some(doc), serde_json::Value::Object(extra)) = (doc.as_object_mut(), extra) {
        doc.extend(extra);
    }
    format!(
        "data:application/json;base64,{}",
        b64.encode(doc.to_string())
    )
}

impl Demo {
    /// The id the next Satchel Pal minted (or claimed) gets.
    pub async fn next_pal_id(&self) -> anyhow::Result<U256> {
        Ok(DemoNft::new(self.pals, &self.provider)
            .nextId()
            .call()
            .await?)
    }

    /// Who holds Satchel Pal `id` (the zero address: nobody yet).
    pub async fn pal_owner(&self, id: U256) -> anyhow::Result<Address> {
        Ok(DemoNft::new(self.pals, &self.provider)
            .ownerOf(id)
            .call()
            .await?)
    }

    /// Mints a Satchel Pal to `to` and returns its token id.
    pub async fn mint_pal(&self, to: Address, name: &str, colour: &str) -> anyhow::Result<U256> {
        self.mint_pal_at(
            to,
            metadata_uri(name, "A Satchel Pal.", colour, serde_json::json!({})),
        )
        .await
    }

    /// Mints a Satchel Pal whose metadata is at `uri`; returns its token id.
    pub async fn mint_pal_at(&self, to: Address, uri: String) -> anyhow::Result<U256> {
        let nft = DemoNft::new(self.pals, &self.provider);
        let id = nft.nextId().call().await?;
        nft.mint(to, uri).send().await?.get_receipt().await?;
        Ok(id)
    }

    /// Mints ERC-1155 items to `to` in one batch: `(id, amount)` pairs.
    pub async fn mint_items(&self, to: Address, items: &[(u64, u64)]) -> anyhow::Result<()> {
        let ids = items.iter().map(|(id, _)| U256::from(*id)).collect();
        let amounts = items.iter().map(|(_, n)| U256::from(*n)).collect();
        DemoMulti::new(self.items, &self.provider)
            .mintBatch(to, ids, amounts)
            .send()
            .await?
            .get_receipt()
            .await?;
        Ok(())
    }

    /// How many of Satchel Item `id` (ERC-1155) `owner` holds.
    pub async fn item_balance(&self, owner: Address, id: u64) -> anyhow::Result<U256> {
        Ok(DemoMulti::new(self.items, &self.provider)
            .balanceOf(owner, U256::from(id))
            .call()
            .await?)
    }
}
