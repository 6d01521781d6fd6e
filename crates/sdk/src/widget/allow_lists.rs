//! The NFT pictures and links the widget has listed for the logged-in user: the
//! only pictures it makes thumbnails of and the only pages it opens, so a page
//! cannot make the app fetch or open any other URL. They grow within a session
//! (an NFT sent away stays allowed until logout) and hold only the user's own.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::nft_listing::{JudgedNfts, PictureHandle};

#[derive(Debug, Default)]
pub(super) struct AllowLists {
    /// Picture URLs by their handle (what the grid names them by), each held
    /// once with the listing that named it.
    pictures: HashMap<PictureHandle, Arc<str>>,
    links: HashSet<String>,
    /// Payment URIs of the user's own accounts the receive page showed.
    qr: HashSet<String>,
}

impl AllowLists {
    /// Allows the pictures and links of the NFTs `judged` lists; a picture
    /// allowed before is then the listing's too (one copy of its URL).
    pub(super) fn extend(&mut self, judged: &mut JudgedNfts) {
        for judged in &mut judged.nfts {
            if let Some(picture) = &mut judged.picture {
                let allowed = self
                    .pictures
                    .entry(picture.handle)
                    .or_insert_with(|| picture.url.clone());
                if **allowed == *picture.url {
                    picture.url = allowed.clone();
                }
            }
            let link = &*judged.external_link;
            if !link.is_empty() && !self.links.contains(link) {
                self.links.insert(link.to_owned());
            }
        }
    }

    pub(super) fn has_picture(&self, url: &str) -> bool {
        self.pictures
            .get(&PictureHandle::of(url))
            .is_some_and(|allowed| **allowed == *url)
    }

    /// The picture URL a handle names, when it is an allowed one.
    pub(super) fn picture_of(&self, handle: PictureHandle) -> Option<Arc<str>> {
        self.pictures.get(&handle).cloned()
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
