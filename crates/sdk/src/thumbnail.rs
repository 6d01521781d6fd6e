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

/// A picture an SVG embeds as a `data:` URI, if it may be drawn: a PNG, JPEG,
/// GIF or WebP (told by its bytes, whatever type the URI declares) whose header
/// claims an allowed size, while the document's pixel budget lasts. The default
/// resolver would also parse a nested SVG (each nesting its own) and inflate
/// a nested SVGZ with no limit; those, and anything else, are left out.
fn embedded_raster(data: Arc<Vec<u8>>, budget: &AtomicU64) -> Option<usvg::ImageKind> {
    let format = image::guess_format(&data).ok()?;
    let kind: fn(Arc<Vec<u8>>) -> usvg::ImageKind = match format {
        ImageFormat::Png => usvg::ImageKind::PNG,
        ImageFormat::Jpeg => usvg::ImageKind::JPEG,
        ImageFormat::Gif => usvg::ImageKind::GIF,
        ImageFormat::WebP => usvg::ImageKind::WEBP,
        _ => return None,
    };
    // resvg decodes these with its own decoders (the same PNG, JPEG and WebP
    // parsers as `image`; GIF frames within the gif crate's 50 MB limit), and
    // allocates what the header claims: so the header is judged first.
    let (width, height) = claimed_size(&data, format).ok()?;
    if !size_allowed(width, height) {
        return None;
    }
    // Many allowed pictures in one document would still add up.
    let pixels = u64::from(width) * u64::from(height);
    budget
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
            left.checked_sub(pixels)
        })
        .ok()?;
    Some(kind(data))
}

/// What usvg's tree of an SVG would roughly weigh, in bytes. usvg keeps to a
/// million elements, but copies a `<use>`'s target for every `<use>`, a marker's
/// content for every vertex it marks, and lays out every character of a text
/// anew: 15 KB of SVG can weigh gigabytes. The weights are measured on usvg 0.49.
fn svg_weight(document: &usvg::roxmltree::Document) -> Result<u64, &'static str> {
    let root = document.root_element();
    let markers = Markers::find(root)?;
    let mut weigher = Weigher::new(document);
    // Marker content is weighed once (markers are not nested, `Markers::find`
    // made sure), and counted again for every vertex of every shape.
    if markers.reachable {
        let mut each = 0_u64;
        for marker in root.descendants().filter(|n| svg_tag(*n) == Some("marker")) {
            each = each.saturating_add(weigher.children(marker, 0, false)?);
        }
        weigher = Weigher::new(document);
        weigher.per_vertex = each;
    }
    weigher.element(root, 0, false)
}

/// The SVG element name of a node, if it is one (usvg skips the others).
fn svg_tag<'a>(node: usvg::roxmltree::Node<'a, '_>) -> Option<&'a str> {
    const SVG_NS: &str = "http://www.w3.org/2000/svg";
    let name = node.tag_name();
    (node.is_element() && matches!(name.namespace(), None | Some(SVG_NS))).then(|| name.name())
}

/// Whether an element sets a marker (on itself and what it contains).
fn sets_marker(node: usvg::roxmltree::Node) -> bool {
    node.attributes().any(|a| match a.name() {
        "marker" | "marker-start" | "marker-mid" | "marker-end" => true,
        "style" => a.value().contains("marker"),
        _ => false,
    })
}

/// Where an SVG's markers can reach.
struct Markers {
    /// Some shape may have a marker: the document has markers and sets them.
    reachable: bool,
}

impl Markers {
    /// Also refuses a document nested deeper than usvg reads, and markers within
    /// markers (each level multiplies the copies).
    fn find(root: usvg::roxmltree::Node) -> Result<Self, &'static str> {
        // A style sheet may set markers anywhere. usvg reads `<style>` in any
        // namespace, and its first text only.
        let by_css = root.descendants().any(|n| {
            n.is_element()
                && n.tag_name().name() == "style"
                && n.text().is_some_and(|t| t.contains("marker"))
        });
        let (mut defined, mut set, mut use_in_marker) = (false, by_css, false);
        // Depth first, without recursion: (node, depth, marked from above, in a marker).
        let mut stack = vec![(root, 0_u32, by_css, false)];
        while let Some((node, depth, inherited, in_marker)) = stack.pop() {
            if depth > MAX_SVG_DEPTH {
                return Err("nested too deep");
            }
            let tag = svg_tag(node);
            let marked = inherited || sets_marker(node);
            set |= marked;
            defined |= tag == Some("marker");
            if in_marker {
                if marked && tag.is_some_and(is_shape) {
                    return Err("it has markers within markers");
                }
                use_in_marker |= tag == Some("use");
            }
            let in_marker = in_marker || tag == Some("marker");
            for child in node.children().filter(|c| c.is_element()) {
                stack.push((child, depth + 1, marked, in_marker));
            }
        }
        let reachable = defined && set;
        // What a `<use>` copies into a marker takes its markers from the copy.
        if reachable && use_in_marker {
            return Err("it has markers within markers");
        }
        Ok(Self { reachable })
    }
}

/// Elements usvg draws as a path, and marks.
fn is_shape(tag: &str) -> bool {
    matches!(
        tag,
        "path" | "line" | "polyline" | "polygon" | "rect" | "circle" | "ellipse"
    )
}

/// Weighs elements once each: an element with an `id` (which a `<use>` can
/// copy) is remembered, so `<use>` chains are weighed without being expanded.
struct Weigher<'a, 'input> {
    ids: HashMap<&'a str, usvg::roxmltree::Node<'a, 'input>>,
    /// By element and whether it is inside a text.
    weighed: HashMap<(usvg::roxmltree::NodeId, bool), u64>,
    weighing: HashSet<(usvg::roxmltree::NodeId, bool)>,
    /// What marker content adds to a shape at each vertex.
    per_vertex: u64,
}

impl<'a, 'input> Weigher<'a, 'input> {
    /// A usvg element (its node and copied attributes).
    const ELEMENT: u64 = 256;
    /// A byte of attribute (path data is parsed into points).
    const ATTRIBUTE_BYTE: u64 = 2;
    /// A character of text (shaped, laid out, outlined).
    const CHARACTER: u64 = 2048;

    fn new(document: &'a usvg::roxmltree::Document<'input>) -> Self {
        let mut ids = HashMap::new();
        // The first element of an id wins, as in usvg.
        for node in document.descendants() {
            if let Some(id) = node.attribute("id") {
                ids.entry(id).or_insert(node);
            }
        }
        Self {
            ids,
            weighed: HashMap::new(),
            weighing: HashSet::new(),
            per_vertex: 0,
        }
    }

    fn element(
        &mut self,
        node: usvg::roxmltree::Node<'a, 'input>,
        depth: u32,
        in_text: bool,
    ) -> Result<u64, &'static str> {
        if depth > MAX_SVG_DEPTH {
            return Err("nested too deep");
        }
        let key = (node.id(), in_text);
        let remembered = node.attribute("id").is_some();
        if remembered {
            if let Some(&weight) = self.weighed.get(&key) {
                return Ok(weight);
            }
            // A `<use>` within what it copies: usvg leaves it out.
            if !self.weighing.insert(key) {
                return Ok(0);
            }
        }
        let tag = svg_tag(node).unwrap_or_default();
        let attributes: u64 = node.attributes().map(|a| a.value().len() as u64).sum();
        let mut weight =
            Self::ELEMENT.saturating_add(Self::ATTRIBUTE_BYTE.saturating_mul(attributes));
        // A `<use>` weighs what it copies, every time.
        let target = if tag == "use" {
            self.target(node)
        } else {
            None
        };
        if let Some(target) = target {
            weight = weight.saturating_add(self.element(target, depth + 1, in_text)?);
        }
        if is_shape(tag) {
            weight = weight.saturating_add(self.per_vertex.saturating_mul(vertices(node)));
        }
        // Marker content is weighed per vertex instead, where it is drawn.
        if tag != "marker" {
            let in_text = in_text || tag == "text";
            weight = weight.saturating_add(self.children(node, depth, in_text)?);
        }
        if remembered {
            self.weighing.remove(&key);
            self.weighed.insert(key, weight);
        }
        Ok(weight)
    }

    fn children(
        &mut self,
        node: usvg::roxmltree::Node<'a, 'input>,
        depth: u32,
        in_text: bool,
    ) -> Result<u64, &'static str> {
        let mut weight = 0_u64;
        for child in node.children() {
            let child_weight = if child.is_element() {
                self.element(child, depth + 1, in_text)?
            } else {
                let characters = child.text().map_or(0, |t| t.len() as u64);
                characters.saturating_mul(if in_text { Self::CHARACTER } else { 1 })
            };
            weight = weight.saturating_add(child_weight);
        }
        Ok(weight)
    }

    /// What a `<use>` copies, found as usvg finds it (`href` before `xlink:href`).
    fn target(&self, node: usvg::roxmltree::Node) -> Option<usvg::roxmltree::Node<'a, 'input>> {
        const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
        let href = node
            .attributes()
            .find(|a| a.name() == "href" && a.namespace().is_none())
            .or_else(|| {
                node.attributes()
                    .find(|a| a.name() == "href" && a.namespace() == Some(XLINK_NS))
            })?
            .value();
        let id = href
            .trim_start_matches([' ', '\t', '\n', '\r'])
            .strip_prefix('#')?
            .split(' ')
            .next()?;
        self.ids.get(id).copied()
    }
}

/// At most how many vertices a shape has, so how many markers it carries.
fn vertices(node: usvg::roxmltree::Node) -> u64 {
    let length = |name| node.attribute(name).map_or(0, |v: &str| v.len() as u64);
    let count = match svg_tag(node).unwrap_or_default() {
        // A vertex takes at least a byte ("z") of path data; a point two.
        "path" => length("d"),
        "polyline" | "polygon" => length("points") / 2,
        "line" => 2,
        _ => 9, // a rectangle with rounded corners, at most
    };
    // The start and end markers besides; `per_vertex` adds up every marker.
    count.saturating_add(2)
}

/// How an NFT's SVG is read: nothing outside the document (no files, no URLs),
/// and of the pictures it embeds only rasters of a bounded size.
fn svg_options() -> usvg::Options<'static> {
    let budget = AtomicU64::new(MAX_PIXELS);
    usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(move |_, data, _| embedded_raster(data, &budget)),
            resolve_string: Box::new(|_, _| None),
        },
        fontdb: fonts().0.clone(),
        font_family: fonts().1.clone(),
        ..usvg::Options::default()
    }
}

fn render_svg(picture: &[u8], side: u32) -> Result<Vec<u8>, ThumbnailError> {
    let refused = |why: &str| ThumbnailError::Decode(format!("the SVG is not drawn: {why}"));
    // `render` refuses gzip already; `Tree::from_data` would inflate it unbounded.
    if picture.starts_with(&GZIP_MAGIC) {
        return Err(refused("it is gzip-compressed"));
    }
    let text = std::str::from_utf8(picture).map_err(|e| refused(&e.to_string()))?;
    // roxmltree stops entity loops, but expands every reference anew: 50 KB of
    // `&big;` take a gigabyte. SVGs for pictures have no need of entities.
    if text.contains("<!ENTITY") {
        return Err(refused("it declares XML entities"));
    }
    // As usvg reads it (a DOCTYPE allowed), read once here to be weighed first.
    let document = usvg::roxmltree::Document::parse_with_options(
        text,
        usvg::roxmltree::ParsingOptions {
            allow_dtd: true,
            ..usvg::roxmltree::ParsingOptions::default()
        },
    )
    .map_err(|e| refused(&e.to_string()))?;
    let weight = svg_weight(&document).map_err(refused)?;
    if weight > MAX_SVG_WEIGHT {
        return Err(refused(&format!(
            "too complex (some {} MiB to lay out)",
            weight / (1024 * 1024)
        )));
    }
    // The pixmap is `side` x `side` whatever size the SVG declares.
    let tree = usvg::Tree::from_xmltree(&document, &svg_options())
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

    /// CRC-32 (IEEE), as PNG chunks and gzip trailers carry it.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xffff_ffff_u32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xedb8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    /// A PNG that only claims a size: its header, an empty IDAT and IEND.
    fn png_claiming(width: u32, height: u32) -> Vec<u8> {
        fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
            out.extend_from_slice(&u32::try_from(data.len()).expect("short").to_be_bytes());
            let start = out.len();
            out.extend_from_slice(kind);
            out.extend_from_slice(data);
            let crc = crc32(&out[start..]);
            out.extend_from_slice(&crc.to_be_bytes());
        }
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&width.to_be_bytes());
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // 8-bit RGBA
        chunk(&mut png, b"IHDR", &ihdr);
        chunk(&mut png, b"IDAT", &[]);
        chunk(&mut png, b"IEND", &[]);
        png
    }

    /// A WebP chunk: its name, size, data and padding to an even size.
    fn riff_chunk(out: &mut Vec<u8>, name: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(name);
        out.extend_from_slice(&u32::try_from(data.len()).expect("short").to_le_bytes());
        out.extend_from_slice(data);
        if data.len() % 2 == 1 {
            out.push(0);
        }
    }

    /// A lossless (VP8L) image header: signature, then width-1 and height-1 in
    /// 14 bits each, LSB first.
    fn vp8l(width: u32, height: u32) -> Vec<u8> {
        let mut vp8l = vec![0x2f];
        vp8l.extend_from_slice(&((width - 1) | ((height - 1) << 14)).to_le_bytes());
        vp8l
    }

    fn riff_webp(chunks: &[u8]) -> Vec<u8> {
        let mut webp = b"RIFF".to_vec();
        webp.extend_from_slice(&(4 + u32::try_from(chunks.len()).expect("short")).to_le_bytes());
        webp.extend_from_slice(b"WEBP");
        webp.extend_from_slice(chunks);
        webp
    }

    /// A lossless WebP that only claims a size (each side below 16384).
    fn webp_claiming(width: u32, height: u32) -> Vec<u8> {
        let mut chunks = Vec::new();
        riff_chunk(&mut chunks, b"VP8L", &vp8l(width, height));
        riff_webp(&chunks)
    }

    /// An extended (VP8X) WebP that only claims a canvas size (each side up to
    /// 2^24, the whole below 2^32): resvg would allocate it, 4 bytes a pixel.
    fn webp_extended_claiming(width: u32, height: u32) -> Vec<u8> {
        let mut vp8x = vec![0, 0, 0, 0];
        vp8x.extend_from_slice(&(width - 1).to_le_bytes()[..3]);
        vp8x.extend_from_slice(&(height - 1).to_le_bytes()[..3]);
        let mut chunks = Vec::new();
        riff_chunk(&mut chunks, b"VP8X", &vp8x);
        riff_chunk(&mut chunks, b"VP8L", &vp8l(1, 1));
        riff_webp(&chunks)
    }

    /// `bytes` gzipped, in one stored (uncompressed) deflate block.
    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let len = u16::try_from(bytes.len()).expect("short");
        let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
        out.push(1); // the final block, stored
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(bytes);
        out.extend_from_slice(&crc32(bytes).to_le_bytes());
        out.extend_from_slice(&u32::from(len).to_le_bytes());
        out
    }

    fn base64(bytes: &[u8]) -> String {
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, bytes)
    }

    /// A 10x10 SVG whose one image, the `data:` URI given, covers it all.
    fn svg_embedding(uris: &[String]) -> String {
        let images: String = uris
            .iter()
            .map(|uri| format!("<image width='10' height='10' xlink:href='{uri}'/>"))
            .collect();
        format!(
            "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' viewBox='0 0 10 10'>{images}</svg>"
        )
    }

    /// How many images usvg keeps of an SVG read as `render_svg` reads it.
    fn images_kept(svg: &str) -> usize {
        fn count(group: &usvg::Group) -> usize {
            group
                .children()
                .iter()
                .map(|node| match node {
                    usvg::Node::Group(group) => count(group),
                    usvg::Node::Image(_) => 1,
                    _ => 0,
                })
                .sum()
        }
        let tree = usvg::Tree::from_data(svg.as_bytes(), &svg_options()).expect("parsed");
        count(tree.root())
    }

    const RED_SVG: &str = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='10' height='10' fill='red'/></svg>";

    #[test]
    fn the_test_gzip_is_real_gzip() {
        // Else the tests below would pass for the wrong reason.
        let tree = usvg::Tree::from_data(&gzip(RED_SVG.as_bytes()), &usvg::Options::default())
            .expect("usvg inflates it");
        assert!(tree.root().has_children());
    }

    #[test]
    fn an_svg_inside_an_svg_is_not_drawn() {
        for mime in ["image/svg+xml", "text/plain", "image/png"] {
            let svg =
                svg_embedding(&[format!("data:{mime};base64,{}", base64(RED_SVG.as_bytes()))]);
            let image = decoded(&render(svg.as_bytes(), 16).expect("drawn"));
            assert_eq!(
                image.get_pixel(8, 8).0[3],
                0,
                "{mime}: the nested SVG not drawn"
            );
            assert_eq!(images_kept(&svg), 0, "{mime}: not even parsed");
        }
    }

    #[test]
    fn a_gzip_inside_an_svg_is_not_inflated() {
        for mime in ["image/svg+xml", "text/plain"] {
            let svg = svg_embedding(&[format!(
                "data:{mime};base64,{}",
                base64(&gzip(RED_SVG.as_bytes()))
            )]);
            let image = decoded(&render(svg.as_bytes(), 16).expect("drawn"));
            assert_eq!(image.get_pixel(8, 8).0[3], 0, "{mime}: the SVGZ not drawn");
            assert_eq!(images_kept(&svg), 0, "{mime}: not even inflated");
        }
    }

    #[test]
    fn a_small_raster_inside_an_svg_is_still_drawn() {
        let mut png = Vec::new();
        image::RgbaImage::from_pixel(4, 4, image::Rgba([255, 0, 0, 255]))
            .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .expect("encoded");
        // The declared type does not matter, the bytes do.
        for mime in ["image/png", "text/plain", "image/jpeg"] {
            let svg = svg_embedding(&[format!("data:{mime};base64,{}", base64(&png))]);
            let image = decoded(&render(svg.as_bytes(), 16).expect("drawn"));
            assert_eq!(image.get_pixel(8, 8).0, [255, 0, 0, 255], "{mime}: drawn");
            assert_eq!(images_kept(&svg), 1);
        }
    }

    #[test]
    fn a_gzip_source_is_refused() {
        match render(&gzip(RED_SVG.as_bytes()), 16) {
            Err(ThumbnailError::Decode(message)) => assert!(message.contains("gzip"), "{message}"),
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn a_raster_claiming_a_huge_size_is_refused_before_decoding() {
        let started = std::time::Instant::now();
        for (picture, size) in [
            (png_claiming(100_000, 100_000), "100000x100000"),
            // Each side allowed, the whole too large.
            (png_claiming(8000, 8000), "8000x8000"),
            (webp_claiming(16_000, 16_000), "16000x16000"),
            (webp_extended_claiming(60_000, 60_000), "60000x60000"),
        ] {
            match render(&picture, 64) {
                Err(ThumbnailError::Decode(message)) => {
                    assert!(message.contains(size), "{message}");
                }
                other => panic!("{size} not refused: {other:?}"),
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "nothing decoded"
        );
    }

    #[test]
    fn an_oversize_source_is_refused() {
        let mut png = Vec::new();
        image::RgbaImage::from_pixel(4, 4, image::Rgba([255, 0, 0, 255]))
            .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .expect("encoded");
        assert!(render(&png, 16).is_ok());
        // Bytes after IEND are ignored by the decoder, not by `render`.
        png.resize(MAX_SOURCE_BYTES + 1, 0);
        assert!(matches!(render(&png, 16), Err(ThumbnailError::Decode(_))));
    }

    #[test]
    fn a_raster_inside_an_svg_is_judged_by_its_header() {
        let started = std::time::Instant::now();
        for (picture, size) in [
            (png_claiming(100_000, 100_000), "100000x100000"),
            (png_claiming(8000, 8000), "8000x8000"),
            (webp_claiming(16_000, 16_000), "16000x16000"),
            // resvg would ask for 14 GB at once for this one.
            (webp_extended_claiming(60_000, 60_000), "60000x60000"),
        ] {
            let svg = svg_embedding(&[format!("data:image/webp;base64,{}", base64(&picture))]);
            assert_eq!(images_kept(&svg), 0, "{size} left out");
            assert!(render(svg.as_bytes(), 16).is_ok(), "{size}: the rest drawn");
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "nothing decoded"
        );
        // Each allowed, together too many: one document has one budget.
        let allowed = format!(
            "data:image/png;base64,{}",
            base64(&png_claiming(4096, 4096))
        );
        assert_eq!(
            images_kept(&svg_embedding(std::slice::from_ref(&allowed))),
            1
        );
        assert_eq!(
            images_kept(&svg_embedding(&[allowed.clone(), allowed.clone(), allowed])),
            2
        );
    }

    /// An SVG with 10^`levels` copies of a 14 KB path, by `<use>`s ten at a time.
    fn svg_copying_a_path(levels: usize) -> String {
        let points: String = (0..2000)
            .map(|i| format!(" L{} {}", i % 97, i % 89))
            .collect();
        let mut svg = format!(
            "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' viewBox='0 0 100 100'>\
             <defs><path id='l0' d='M0 0{points}' stroke='red'/>"
        );
        for level in 1..=levels {
            svg.push_str(&format!("<g id='l{level}'>"));
            for _ in 0..10 {
                svg.push_str(&format!("<use xlink:href='#l{}'/>", level - 1));
            }
            svg.push_str("</g>");
        }
        svg.push_str(&format!("</defs><use xlink:href='#l{levels}'/></svg>"));
        svg
    }

    /// An SVG marking each of `vertices` vertices with a 14 KB path.
    fn svg_marking(vertices: usize) -> String {
        let points: String = (0..2000)
            .map(|i| format!(" L{} {}", i % 97, i % 89))
            .collect();
        format!(
            "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>\
             <marker id='m' markerWidth='9' markerHeight='9'><path d='M0 0{points}' stroke='red'/></marker>\
             <path d='M0 0{}' stroke='blue' marker-mid='url(#m)'/></svg>",
            " h1".repeat(vertices)
        )
    }

    fn refused_quickly(svg: &str, why: &str) {
        let started = std::time::Instant::now();
        match render(svg.as_bytes(), 64) {
            Err(ThumbnailError::Decode(message)) => assert!(message.contains(why), "{message}"),
            other => panic!("not refused ({why}): {other:?}"),
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "refused before being laid out"
        );
    }

    #[test]
    fn an_svg_that_would_take_gigabytes_to_lay_out_is_refused() {
        // 15 KB to 100 KB each; usvg 0.49 took 200 MB for each (and ten times
        // that for one more level of `<use>`, or ten times the vertices or text).
        refused_quickly(&svg_copying_a_path(4), "too complex");
        refused_quickly(&svg_marking(10_000), "too complex");
        let text = format!(
            "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><text y='50'>{}</text></svg>",
            "Wg@%".repeat(25_000)
        );
        refused_quickly(&text, "too complex");
        // 50 KB of references to a 45 KB entity: a gigabyte.
        let entities = format!(
            "<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY b '{}'><!ENTITY c '{}'><!ENTITY big '{}'>]>\
             <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'><desc>{}</desc></svg>",
            "x".repeat(200),
            "&b;".repeat(15),
            "&c;".repeat(15),
            "&big;".repeat(10_000)
        );
        refused_quickly(&entities, "entities");
        // Each level of markers within markers multiplies the copies.
        let nested = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'>\
             <marker id='a'><path d='M0 0 h1 h1 h1' marker-mid='url(#b)'/></marker>\
             <marker id='b'><path d='M0 0 h1 h1 h1'/></marker>\
             <path d='M0 0 h1 h1 h1' marker-mid='url(#a)'/></svg>";
        refused_quickly(nested, "markers within markers");
        let deep = format!(
            "<svg xmlns='http://www.w3.org/2000/svg'>{}{}</svg>",
            "<g>".repeat(1100),
            "</g>".repeat(1100)
        );
        refused_quickly(&deep, "too deep");
    }

    #[test]
    fn an_svg_with_some_copies_markers_and_a_doctype_is_drawn() {
        let drawn = |svg: &str| {
            let image = decoded(&render(svg.as_bytes(), 16).expect("drawn"));
            assert_eq!(image.dimensions(), (16, 16));
        };
        drawn(&svg_copying_a_path(2));
        drawn(&svg_marking(10));
        let arrows = "<?xml version='1.0' encoding='UTF-8'?>\
             <!DOCTYPE svg PUBLIC '-//W3C//DTD SVG 1.1//EN' 'http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd'>\
             <svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'>\
             <defs><marker id='arrow' markerWidth='4' markerHeight='4' refX='2' refY='2'><path d='M0 0 L4 2 L0 4 z'/></marker></defs>\
             <line x1='1' y1='5' x2='9' y2='5' stroke='black' marker-end='url(#arrow)'/></svg>";
        drawn(arrows);
    }

    #[tokio::test]
    async fn renders_wait_for_a_free_slot() {
        let dir = tempfile::tempdir().expect("dir");
        let thumbnails = Thumbnails::new(dir.path()).expect("thumbnails");
        let source = format!("data:image/svg+xml;base64,{}", base64(RED_SVG.as_bytes()));
        let every_slot = RENDERS
            .acquire_many(u32::try_from(RENDER_PERMITS).expect("few"))
            .await
            .expect("open");
        let waiting = tokio::time::timeout(
            Duration::from_millis(300),
            thumbnails.png(&source, ThumbnailSize::Tile),
        )
        .await;
        assert!(waiting.is_err(), "no render while every slot is taken");
        drop(every_slot);
        thumbnails
            .png(&source, ThumbnailSize::Tile)
            .await
            .expect("made once a slot is free");
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
