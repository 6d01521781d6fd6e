//! NFT pictures made into small square PNG thumbnails on the device and kept in a
//! disk cache, so the wallet's webview never loads remote content: the app hands it
//! these bytes instead. Raster images are decoded with `image` (within size limits
//! against decompression bombs); SVG is drawn with `resvg`, without loading
//! anything the SVG points to. Every size is checked from the header before
//! anything is decoded: a few crafted bytes can claim any size, and decoders
//! allocate for the size claimed.

use std::collections::{HashMap, HashSet};
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use image::{ImageFormat, ImageReader, Limits, imageops::FilterType};
use resvg::{tiny_skia, usvg};
use satchel_chain::MetadataFetcher;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

/// The largest picture read from the network or a `data:` URI, and drawn.
const MAX_SOURCE_BYTES: usize = 16 * 1024 * 1024;
/// The largest picture decoded, in pixels per side...
const MAX_SIDE: u32 = 8192;
/// ...and in all (128 MiB as 8-bit RGBA). It is also what all the pictures one
/// SVG embeds may add up to.
const MAX_PIXELS: u64 = 32 * 1024 * 1024;
/// What one decode may allocate: a 16-bit RGBA picture of `MAX_PIXELS`.
const MAX_ALLOC: u64 = MAX_PIXELS * 8;
/// What usvg's tree of one SVG may weigh, as `svg_weight` estimates it.
const MAX_SVG_WEIGHT: u64 = 64 * 1024 * 1024;
/// How deep usvg follows elements and `<use>`s (it refuses deeper documents).
const MAX_SVG_DEPTH: u32 = 1024;
/// The magic of gzip: `usvg` inflates it (SVGZ) without any limit.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// Pictures drawn at once in this process, so a page of crafted NFTs cannot
/// run a hundred large decodes side by side.
const RENDER_PERMITS: usize = 2;
static RENDERS: Semaphore = Semaphore::const_new(RENDER_PERMITS);
/// How long one picture may take to arrive.
const FETCH_TIMEOUT: Duration = Duration::from_secs(20);
/// Where an `ipfs://` picture is read; the service resolves most of them already.
const IPFS_GATEWAY: &str = "https://ipfs.io/ipfs/";

/// The sizes a page shows: a grid tile (about 180 CSS pixels wide in the
/// 400-pixel window) on a screen of one device pixel a CSS pixel or of two, and
/// the detail view. A tile drawn at the size it is shown: the page holds each
/// decoded picture in view, and a 256-pixel one for 1x took 1.8 times the
/// memory of a 192-pixel one (and was blurred on 2x screens).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThumbnailSize {
    Tile,
    Tile2x,
    Detail,
}

impl ThumbnailSize {
    pub fn pixels(self) -> u32 {
        match self {
            Self::Tile => 192,
            Self::Tile2x => 384,
            Self::Detail => 640,
        }
    }

    /// The name a URL uses for it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "tile" => Some(Self::Tile),
            "tile2x" => Some(Self::Tile2x),
            "detail" => Some(Self::Detail),
            _ => None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ThumbnailError {
    #[error("the picture could not be read: {0}")]
    Fetch(String),
    #[error("the picture is not an image this wallet can show: {0}")]
    Decode(String),
    #[error("the thumbnail cache cannot be written: {0}")]
    Cache(#[from] std::io::Error),
}

/// Makes and keeps thumbnails in one folder.
#[derive(Debug, Clone)]
pub struct Thumbnails {
    dir: PathBuf,
    fetcher: MetadataFetcher,
}

impl Thumbnails {
    pub fn new(dir: impl Into<PathBuf>) -> Result<Self, ThumbnailError> {
        let gateway = IPFS_GATEWAY
            .parse()
            .map_err(|e| ThumbnailError::Fetch(format!("{e}")))?;
        // Pictures come from URLs anyone can write on chain: the public web only.
        let fetcher = MetadataFetcher::new(
            gateway,
            FETCH_TIMEOUT,
            MAX_SOURCE_BYTES,
            satchel_chain::safe_http::HostPolicy::default(),
        )
        .map_err(|e| ThumbnailError::Fetch(e.to_string()))?;
        Ok(Self {
            dir: dir.into(),
            fetcher,
        })
    }

    /// The folder they are kept in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The PNG thumbnail of the picture at `source` (http(s), `ipfs://` or
    /// `data:`), from the cache when it was made before.
    pub async fn png(&self, source: &str, size: ThumbnailSize) -> Result<Vec<u8>, ThumbnailError> {
        let path = self.cache_path(source, size);
        if let Ok(bytes) = tokio::fs::read(&path).await {
            return Ok(bytes);
        }
        let picture = self
            .fetcher
            .read(source)
            .await
            .map_err(|e| ThumbnailError::Fetch(e.to_string()))?;
        let permit = RENDERS
            .acquire()
            .await
            .map_err(|e| ThumbnailError::Decode(e.to_string()))?;
        // The permit goes with the work: were this future dropped, the blocking
        // render would go on, and still hold its slot.
        let png = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            render(&picture, size.pixels())
        })
        .await
        .map_err(|e| ThumbnailError::Decode(e.to_string()))??;
        let dir = self.dir.clone();
        tokio::task::spawn_blocking(move || store(&dir, &path, &png).map(|()| png))
            .await
            .map_err(|e| ThumbnailError::Decode(e.to_string()))?
    }

    /// Removes every cached thumbnail (at logout: the next person on this
    /// device does not see the pictures of the last one's NFTs).
    pub fn clear(&self) -> std::io::Result<()> {
        match std::fs::read_dir(&self.dir) {
            Ok(entries) => {
                for entry in entries.flatten() {
                    if entry.path().extension().is_some_and(|e| e == "png") {
                        std::fs::remove_file(entry.path())?;
                    }
                }
                Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn cache_path(&self, source: &str, size: ThumbnailSize) -> PathBuf {
        let digest = Sha256::digest(source.as_bytes());
        self.dir
            .join(format!("{}-{}.png", hex(&digest), size.pixels()))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Writes the file whole or not at all, so a crash never leaves half a PNG.
fn store(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), ThumbnailError> {
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut file, bytes)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The picture as a `side` x `side` PNG, cropped to the centre like a CSS cover.
pub fn render(picture: &[u8], side: u32) -> Result<Vec<u8>, ThumbnailError> {
    // The fetcher keeps to this, but `render` is public: it keeps to it too.
    if picture.len() > MAX_SOURCE_BYTES {
        return Err(ThumbnailError::Decode(format!(
            "larger than {} MiB",
            MAX_SOURCE_BYTES / (1024 * 1024)
        )));
    }
    if picture.starts_with(&GZIP_MAGIC) {
        return Err(ThumbnailError::Decode(
            "a gzip-compressed picture (SVGZ) is not drawn".into(),
        ));
    }
    if looks_like_svg(picture) {
        render_svg(picture, side)
    } else {
        render_raster(picture, side)
    }
}

fn looks_like_svg(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(512)];
    let text = String::from_utf8_lossy(head);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    text.starts_with("<svg") || (text.starts_with("<?xml") && text.contains("<svg"))
}

/// Whether a picture of this size may be decoded.
fn size_allowed(width: u32, height: u32) -> bool {
    width <= MAX_SIDE && height <= MAX_SIDE && u64::from(width) * u64::from(height) <= MAX_PIXELS
}

/// The size a raster picture's header claims, read without decoding it.
fn claimed_size(picture: &[u8], format: ImageFormat) -> image::ImageResult<(u32, u32)> {
    let mut reader = ImageReader::with_format(Cursor::new(picture), format);
    // No size limit here, so that the size comes back to be judged; what a
    // header read may allocate (PNG metadata) is still bounded.
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    reader.into_dimensions()
}

fn render_raster(picture: &[u8], side: u32) -> Result<Vec<u8>, ThumbnailError> {
    let format = image::guess_format(picture).map_err(|e| ThumbnailError::Decode(e.to_string()))?;
    let (width, height) =
        claimed_size(picture, format).map_err(|e| ThumbnailError::Decode(e.to_string()))?;
    if !size_allowed(width, height) {
        return Err(ThumbnailError::Decode(format!(
            "{width}x{height} pixels is too large (at most {MAX_SIDE} a side, {} Mpx)",
            MAX_PIXELS / (1024 * 1024)
        )));
    }
    // The same limits again, for the decoder itself: a second guard should a
    // decoder allocate from something other than the header read above.
    let mut reader = ImageReader::with_format(Cursor::new(picture), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let image = reader
        .decode()
        .map_err(|e| ThumbnailError::Decode(e.to_string()))?;
    let thumb = image.resize_to_fill(side, side, FilterType::Triangle);
    let mut png = Vec::new();
    thumb
        .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .map_err(|e| ThumbnailError::Decode(e.to_string()))?;
    Ok(png)
}

mod svg;

use svg::*;

#[cfg(test)]
mod tests;
