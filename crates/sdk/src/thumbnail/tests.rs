//! The thumbnail guard's tests: crafted pictures (bombs by header, nesting,
//! copies, markers, entities), each with bytes of its own.

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
        let svg = svg_embedding(&[format!("data:{mime};base64,{}", base64(RED_SVG.as_bytes()))]);
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
    assert_eq!(decoded(&first).dimensions(), (192, 192));
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

#[tokio::test]
async fn a_tile_is_drawn_for_the_screen_it_is_asked_for_each_size_kept_apart() {
    let dir = tempfile::tempdir().expect("dir");
    let thumbnails = Thumbnails::new(dir.path()).expect("thumbnails");
    let source = format!("data:image/svg+xml;base64,{}", base64(RED_SVG.as_bytes()));
    for (name, pixels) in [("tile", 192), ("tile2x", 384), ("detail", 640)] {
        let size = ThumbnailSize::from_name(name).expect("a size a URL names");
        let png = thumbnails.png(&source, size).await.expect("made");
        assert_eq!(decoded(&png).dimensions(), (pixels, pixels), "{name}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).expect("cache").count(), 3);
    assert_eq!(ThumbnailSize::from_name("huge"), None);
}
