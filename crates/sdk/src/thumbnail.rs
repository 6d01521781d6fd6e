//! NFT pictures made into small square PNG thumbnails on the device and kept in a
//! disk cache, so the wallet's webview never loads remote content: the app hands it
//! these bytes instead. Raster images are decoded with `image` (within size limits
//! against decompression bombs); SVG is drawn with `resvg`, without loading
//! anything the SVG points to.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use image::{ImageFormat, ImageReader, Limits, imageops::FilterType};
use resvg::{tiny_skia, usvg};
use satchel_chain::MetadataFetcher;
use sha2::{Digest, Sha256};

/// The largest picture read from the network or a `data:` URI.
const MAX_SOURCE_BYTES: usize = 16 * 1024 * 1024;
/// The largest picture decoded, in pixels per side.
const MAX_SIDE: u32 = 8192;
/// How long one picture may take to arrive.
const FETCH_TIMEOUT: Duration = Duration::from_secs(20);
/// Where an `ipfs://` picture is read; the service resolves most of them already.
const IPFS_GATEWAY: &str = "https://ipfs.io/ipfs/";

/// The two sizes a page shows: grid tiles and the detail view (CSS pixels x2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThumbnailSize {
    Tile,
    Detail,
}

impl ThumbnailSize {
    pub fn pixels(self) -> u32 {
        match self {
            Self::Tile => 256,
            Self::Detail => 640,
        }
    }

    /// The name a URL uses for it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "tile" => Some(Self::Tile),
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
        let png = tokio::task::spawn_blocking(move || render(&picture, size.pixels()))
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

fn render_raster(picture: &[u8], side: u32) -> Result<Vec<u8>, ThumbnailError> {
    let mut reader = ImageReader::new(Cursor::new(picture))
        .with_guessed_format()
        .map_err(|e| ThumbnailError::Decode(e.to_string()))?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(256 * 1024 * 1024);
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

/// The system's fonts, loaded once (SVG text needs them), and the family that
/// stands in for generic and missing ones: the defaults name fonts (Arial, Times
/// New Roman) that Linux systems seldom have.
fn fonts() -> &'static (Arc<usvg::fontdb::Database>, String) {
    static FONTS: OnceLock<(Arc<usvg::fontdb::Database>, String)> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        let has = |name: &str| {
            db.faces()
                .any(|face| face.families.iter().any(|(family, _)| family == name))
        };
        let family = [
            "DejaVu Sans",
            "Liberation Sans",
            "Noto Sans",
            "Arial",
            "Helvetica",
        ]
        .into_iter()
        .find(|name| has(name))
        .map(str::to_owned)
        .or_else(|| {
            db.faces()
                .next()
                .and_then(|face| face.families.first().map(|(family, _)| family.clone()))
        })
        .unwrap_or_default();
        if !family.is_empty() {
            db.set_sans_serif_family(family.clone());
            db.set_serif_family(family.clone());
        }
        (Arc::new(db), family)
    })
}

fn render_svg(picture: &[u8], side: u32) -> Result<Vec<u8>, ThumbnailError> {
    let options = usvg::Options {
        // Nothing outside the document: no files, no URLs; embedded data only.
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_string: Box::new(|_, _| None),
            ..usvg::ImageHrefResolver::default()
        },
        fontdb: fonts().0.clone(),
        font_family: fonts().1.clone(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_data(picture, &options)
        .map_err(|e| ThumbnailError::Decode(e.to_string()))?;
    let size = tree.size();
    let scale = side as f32 / size.width().min(size.height());
    let (dx, dy) = (
        (side as f32 - size.width() * scale) / 2.0,
        (side as f32 - size.height() * scale) / 2.0,
    );
    let mut pixmap = tiny_skia::Pixmap::new(side, side)
        .ok_or_else(|| ThumbnailError::Decode("empty picture".into()))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_row(scale, 0.0, 0.0, scale, dx, dy),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| ThumbnailError::Decode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(png: &[u8]) -> image::RgbaImage {
        image::load_from_memory_with_format(png, ImageFormat::Png)
            .expect("a PNG")
            .to_rgba8()
    }

    #[test]
    fn an_svg_becomes_a_square_png_of_the_asked_size() {
        let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 60"><rect width="120" height="60" fill="#ff0000"/></svg>"##;
        let png = render(svg, 256).expect("drawn");
        let image = decoded(&png);
        assert_eq!(image.dimensions(), (256, 256));
        assert_eq!(
            image.get_pixel(128, 128).0,
            [255, 0, 0, 255],
            "covers the middle"
        );
        assert_eq!(
            image.get_pixel(0, 0).0,
            [255, 0, 0, 255],
            "cropped, not letterboxed"
        );
    }

    #[test]
    fn a_raster_picture_is_cropped_to_the_centre_and_scaled() {
        let mut source = image::RgbaImage::from_pixel(400, 200, image::Rgba([0, 0, 255, 255]));
        for y in 0..200 {
            for x in 0..50 {
                source.put_pixel(x, y, image::Rgba([0, 255, 0, 255]));
            }
        }
        let mut bytes = Vec::new();
        source
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .expect("encoded");
        let image = decoded(&render(&bytes, 64).expect("scaled"));
        assert_eq!(image.dimensions(), (64, 64));
        assert_eq!(
            image.get_pixel(32, 32).0,
            [0, 0, 255, 255],
            "the centre kept"
        );
        assert_eq!(
            image.get_pixel(0, 32).0,
            [0, 0, 255, 255],
            "the green edge cropped off"
        );
    }

    #[test]
    fn what_is_no_picture_is_refused() {
        assert!(matches!(
            render(b"{\"name\": \"not a picture\"}", 64),
            Err(ThumbnailError::Decode(_))
        ));
        assert!(matches!(
            render(b"<svg", 64),
            Err(ThumbnailError::Decode(_))
        ));
    }

    #[test]
    fn an_svg_pointing_at_a_local_file_draws_without_it() {
        // A real, opaque picture on disk: drawn, it would fill the thumbnail.
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("secret.png");
        image::RgbaImage::from_pixel(10, 10, image::Rgba([255, 0, 0, 255]))
            .save(&file)
            .expect("saved");
        let svg = format!(
            "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' viewBox='0 0 10 10'>\
             <image width='10' height='10' xlink:href='{}'/></svg>",
            file.display()
        );
        let image = decoded(&render(svg.as_bytes(), 16).expect("drawn"));
        assert_eq!(image.get_pixel(8, 8).0[3], 0, "nothing was loaded");
    }

    #[tokio::test]
    async fn a_thumbnail_is_made_once_then_read_from_the_cache() {
        let dir = tempfile::tempdir().expect("dir");
        let thumbnails = Thumbnails::new(dir.path()).expect("thumbnails");
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 120 120'><rect width='120' height='120' fill='#00ff00'/>\
                   <text x='60' y='106' font-family='sans-serif' font-size='14' text-anchor='middle' fill='white'>Pal #1</text></svg>";
        let source = format!(
            "data:image/svg+xml;base64,{}",
            base64::Engine::encode(&base64::engine::general_purpose::STANDARD, svg)
        );
        let first = thumbnails
            .png(&source, ThumbnailSize::Tile)
            .await
            .expect("made");
        assert_eq!(decoded(&first).dimensions(), (256, 256));
        let cached: Vec<_> = std::fs::read_dir(dir.path())
            .expect("cache")
            .filter_map(Result::ok)
            .collect();
        assert_eq!(cached.len(), 1, "one file, no temporary left behind");
        // The cache answers now: a changed file is what comes back.
        std::fs::write(cached[0].path(), b"cached").expect("written");
        assert_eq!(
            thumbnails
                .png(&source, ThumbnailSize::Tile)
                .await
                .expect("cached"),
            b"cached"
        );
        let detail = thumbnails
            .png(&source, ThumbnailSize::Detail)
            .await
            .expect("its own size");
        assert_eq!(decoded(&detail).dimensions(), (640, 640));
    }

    #[tokio::test]
    async fn clear_removes_every_cached_thumbnail() {
        let dir = tempfile::tempdir().expect("dir");
        let thumbnails = Thumbnails::new(dir.path()).expect("thumbnails");
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><rect width='4' height='4' fill='red'/></svg>";
        let source = format!(
            "data:image/svg+xml;base64,{}",
            base64::Engine::encode(&base64::engine::general_purpose::STANDARD, svg)
        );
        thumbnails
            .png(&source, ThumbnailSize::Tile)
            .await
            .expect("made");
        let pngs = || {
            std::fs::read_dir(dir.path())
                .expect("dir")
                .filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "png"))
                })
                .count()
        };
        assert_eq!(pngs(), 1);
        thumbnails.clear().expect("cleared");
        assert_eq!(pngs(), 0);
        Thumbnails::new(dir.path().join("never-made"))
            .expect("thumbnails")
            .clear()
            .expect("nothing to clear");
    }

    #[tokio::test]
    async fn an_unreadable_source_is_a_fetch_error() {
        let dir = tempfile::tempdir().expect("dir");
        let thumbnails = Thumbnails::new(dir.path()).expect("thumbnails");
        assert!(matches!(
            thumbnails
                .png("ftp://example.invalid/x.png", ThumbnailSize::Tile)
                .await,
            Err(ThumbnailError::Fetch(_))
        ));
    }
}
