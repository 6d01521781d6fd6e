//! The NFT links the widget has listed for the logged-in user: the only pages
//! it opens, so a page cannot make the app open any other URL. They grow
//! within a session (an NFT sent away stays allowed until logout) and hold only
//! the user's own. (Its pictures are allowed likewise, kept on disk:
//! [`super::picture_urls`].)

use std::collections::HashSet;

use super::nft_listing::JudgedNfts;

#[derive(Debug, Default)]
pub(super) struct AllowLists {
    links: HashSet<String>,
    /// Payment URIs of the user's own accounts the receive page showed.
    qr: HashSet<String>,
}

impl AllowLists {
    /// Allows the links of the NFTs `judged` lists.
    pub(super) fn extend(&mut self, judged: &JudgedNfts) {
        for judged in &judged.nfts {
            let link = &*judged.external_link;
            if !link.is_empty() && !self.links.contains(link) {
                self.links.insert(link.to_owned());
            }
        }
    }

    pub(super) fn has_link(&self, url: &str) -> bool {
        self.links.contains(url)
    }

    pub(super) fn allow_qr(&mut self, uri: &str) {
        self.qr.insert(uri.to_owned());
    }

    pub(super) fn has_qr(&self, uri: &str) -> bool {
        self.qr.contains(uri)
    }
}
