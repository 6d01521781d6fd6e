//! SVG pictures: drawn with `resvg`, loading nothing they point to; nested
//! `data:` pictures only as rasters within a pixel budget; and refused before
//! parsing when their entities, copies, markers or text would take gigabytes to
//! lay out (`svg_weight`).

use super::*;

/// The system's fonts, loaded once (SVG text needs them), and the family that
/// stands in for generic and missing ones: the defaults name fonts (Arial, Times
/// New Roman) that Linux systems seldom have.
pub(super) fn fonts() -> &'static (Arc<usvg::fontdb::Database>, String) {
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
pub(super) fn embedded_raster(data: Arc<Vec<u8>>, budget: &AtomicU64) -> Option<usvg::ImageKind> {
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
pub(super) fn svg_weight(document: &usvg::roxmltree::Document) -> Result<u64, &'static str> {
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
pub(super) fn svg_tag<'a>(node: usvg::roxmltree::Node<'a, '_>) -> Option<&'a str> {
    const SVG_NS: &str = "http://www.w3.org/2000/svg";
    let name = node.tag_name();
    (node.is_element() && matches!(name.namespace(), None | Some(SVG_NS))).then(|| name.name())
}

/// Whether an element sets a marker (on itself and what it contains).
pub(super) fn sets_marker(node: usvg::roxmltree::Node) -> bool {
    node.attributes().any(|a| match a.name() {
        "marker" | "marker-start" | "marker-mid" | "marker-end" => true,
        "style" => a.value().contains("marker"),
        _ => false,
    })
}

/// Where an SVG's markers can reach.
pub(super) struct Markers {
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
pub(super) fn is_shape(tag: &str) -> bool {
    matches!(
        tag,
        "path" | "line" | "polyline" | "polygon" | "rect" | "circle" | "ellipse"
    )
}

/// Weighs elements once each: an element with an `id` (which a `<use>` can
/// copy) is remembered, so `<use>` chains are weighed without being expanded.
pub(super) struct Weigher<'a, 'input> {
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
pub(super) fn vertices(node: usvg::roxmltree::Node) -> u64 {
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
pub(super) fn svg_options() -> usvg::Options<'static> {
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

pub(super) fn render_svg(picture: &[u8], side: u32) -> Result<Vec<u8>, ThumbnailError> {
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
