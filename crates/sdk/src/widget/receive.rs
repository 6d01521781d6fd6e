//! Receiving: an account's address as a person reads it and a payer scans it (an
//! EIP-681 `ethereum:` URI as a QR code drawn here, never by the page).

use alloy::primitives::Address;
use satchel_api::{ServiceAccount, ServiceErrorCode};
use serde::Serialize;

use super::{AccountRef, Widget};
use crate::error::SdkError;

/// What the receive page shows for one account (and token).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ReceiveInfo {
    /// The account as the spec names it; `receive` resolves `{account}`.
    pub account: ServiceAccount,
    /// The address, EIP-55 checksummed.
    pub address: String,
    pub network: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub chain_id: u64,
    /// The coin's or the token's symbol.
    pub symbol: String,
    /// `ethereum:` payment URI (EIP-681): the QR code's text.
    pub uri: String,
}

/// `ethereum:<address>@<chainId>` for the coin; for a token,
/// `ethereum:<contract>@<chainId>/transfer?address=<address>`.
pub fn payment_uri(address: &Address, chain_id: u64, contract: Option<&Address>) -> String {
    match contract {
        None => format!("ethereum:{}@{chain_id}", address.to_checksum(None)),
        Some(token) => format!(
            "ethereum:{}@{chain_id}/transfer?address={}",
            token.to_checksum(None),
            address.to_checksum(None)
        ),
    }
}

/// A QR code of `text` as a PNG: black modules on white, 8 px each, with the
/// 4-module quiet zone scanners need.
pub fn qr_png(text: &str) -> Result<Vec<u8>, SdkError> {
    const SCALE: u32 = 8;
    const QUIET: u32 = 4;
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
        .map_err(SdkError::unknown)?;
    let width = u32::try_from(code.width()).map_err(SdkError::unknown)?;
    let side = (width + 2 * QUIET) * SCALE;
    let colors = code.to_colors();
    let picture = image::GrayImage::from_fn(side, side, |x, y| {
        let (mx, my) = (x / SCALE, y / SCALE);
        let dark = mx >= QUIET
            && my >= QUIET
            && mx < QUIET + width
            && my < QUIET + width
            && colors[((my - QUIET) * width + (mx - QUIET)) as usize] == qrcode::Color::Dark;
        image::Luma([if dark { 0 } else { 255 }])
    });
    let mut png = Vec::new();
    picture
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(SdkError::unknown)?;
    Ok(png)
}

impl Widget {
    /// What to show to receive into one of the user's accounts (`receive`): the
    /// coin's, or the token's at `account.contract`. Any other is refused.
    pub async fn receive(&self, account: &AccountRef) -> Result<ReceiveInfo, SdkError> {
        // An address to be paid at is shown only when this device can check it is
        // its own key's (`accounts` drops any other): never on the service's word.
        let (user_id, _) = self.require_login()?;
        if self.vault.load(&user_id).await?.is_none() {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "this device does not hold the wallet's key, so it cannot check the address; \
                 restore the wallet here first",
            ));
        }
        let entry = self.own_account(account).await?;
        let not_yours = || {
            SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "not one of your accounts",
            )
        };
        let address: Address = entry.address.parse().map_err(|_| not_yours())?;
        let contract: Option<Address> = entry
            .contract
            .as_deref()
            .map(str::parse)
            .transpose()
            .map_err(|_| not_yours())?;
        let chain_id = self.chain_id_of(&entry.network)?;
        let uri = payment_uri(&address, chain_id, contract.as_ref());
        self.state.lock().allowed.allow_qr(&uri);
        Ok(ReceiveInfo {
            account: crate::widget::mapping::service_account(&entry),
            address: address.to_checksum(None),
            network: entry.network.clone(),
            chain_id,
            symbol: entry.symbol.clone(),
            uri,
        })
    }

    /// The QR code of a payment URI this widget has shown for the user (PNG).
    pub fn receive_qr(&self, uri: &str) -> Result<Vec<u8>, SdkError> {
        self.require_login()?;
        if !self.state.lock().allowed.has_qr(uri) {
            return Err(SdkError::service(
                ServiceErrorCode::InvalidParameters,
                "not the address of one of your accounts",
            ));
        }
        qr_png(uri)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payment_uris_follow_eip_681() {
        let me: Address = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
            .parse()
            .expect("address");
        let token: Address = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
            .parse()
            .expect("address");
        assert_eq!(
            payment_uri(&me, 31337, None),
            "ethereum:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266@31337"
        );
        assert_eq!(
            payment_uri(&me, 1, Some(&token)),
            "ethereum:0x5FbDB2315678afecb367f032d93F642f64180aa3@1/transfer?address=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        );
    }

    #[test]
    fn the_qr_code_is_a_png_of_whole_modules_with_a_quiet_zone() {
        let png = qr_png("ethereum:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266@31337").expect("png");
        let picture = image::load_from_memory(&png).expect("decodes").to_luma8();
        assert_eq!(picture.width(), picture.height());
        assert_eq!(picture.width() % 8, 0);
        assert_eq!(picture.get_pixel(0, 0).0, [255], "white quiet zone");
        assert_eq!(
            picture.get_pixel(4 * 8, 4 * 8).0,
            [0],
            "a finder pattern's corner"
        );
    }
}
