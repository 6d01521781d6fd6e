//! The NFT pictures and links the widget has listed for the logged-in user: the
//! only pictures it makes thumbnails of and the only pages it opens, so a page
//! cannot make the app fetch or open any other URL. They grow within a session
//! (an NFT sent away stays allowed until logout) and hold only the user's own.

use std::collections::HashSet;

use satchel_api::ServiceNft;

#[derive(Debug, Default)]
pub(super) struct AllowLists {
    pictures: HashSet<String>,
    links: HashSet<String>,
    /// Payment URIs of the user's own accounts the receive page showed.
    qr: HashSet<String>,
}

impl AllowLists {
    /// Allows the pictures and links of `nfts`.
    pub(super) fn extend(&mut self, nfts: &[ServiceNft]) {
        let non_empty = |url: &String| !url.is_empty();
        self.pictures.extend(
            nfts.iter()
                .map(|n| &n.image_url)
                .filter(|u| non_empty(u))
                .cloned(),
        );
        self.links.extend(
            nfts.iter()
                .map(|n| &n.external_link)
                .filter(|u| non_empty(u))
                .cloned(),
        );
    }

    pub(super) fn has_picture(&self, url: &str) -> bool {
        self.pictures.contains(url)
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
