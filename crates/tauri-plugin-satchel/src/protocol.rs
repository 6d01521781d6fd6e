//! The `satchel:` protocol: the widget's pages, embedded in the plugin at build
//! time (`/index.html`, `/assets/…`, served with the pages' Content Security
//! Policy), and pictures made in Rust, handed to the page (which builds
//! the address with `convertFileSrc`): NFT thumbnails as
//! `satchel://localhost/<tile|tile2x|detail>%2F<picture URL>` or, as the NFT grid names
//! pictures, `satchel://localhost/<tile|tile2x|detail>%2Fnft%2F<handle>`, and the receive page's QR
//! code as `satchel://localhost/qr%2F<payment URI>`. The widget refuses any picture
//! it has not listed, and any QR code it has not shown, for the logged-in user, so
//! the page cannot make the app fetch an arbitrary URL.

use percent_encoding::percent_decode_str;
use satchel_sdk::{ThumbnailSize, Widget};
use tauri::http::{Response, StatusCode, header};

pub const SCHEME: &str = "satchel";

mod assets {
    include!(concat!(env!("OUT_DIR"), "/assets.rs"));
}

/// What the widget's pages may load and reach: their own files and pictures,
/// and Tauri's IPC; nothing from the network, no inline script, never framed
/// (a host's page cannot hold the widget in a frame of its own).
const PAGES_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' satchel: http://satchel.localhost; connect-src ipc: http://ipc.localhost; \
     font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// One of the widget's pages or files, by its path.
fn page(path: &str) -> Option<Response<Vec<u8>>> {
    let path = if path == "/" { "/index.html" } else { path };
    let (_, content_type, bytes) = assets::ASSETS.iter().find(|(p, _, _)| *p == path)?;
    // Vite names each script and style by its content: kept for good; the
    // page itself is read again each time.
    let cache = if path.starts_with("/assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    Response::builder()
        .header(header::CONTENT_TYPE, *content_type)
        .header(header::CACHE_CONTROL, cache)
        .header(header::CONTENT_SECURITY_POLICY, PAGES_CSP)
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .body(bytes.to_vec())
        .ok()
}

/// The answer to one request path.
pub async fn respond(widget: &Widget, path: &str) -> Response<Vec<u8>> {
    if let Some(page) = page(path) {
        return page;
    }
    let decoded = percent_decode_str(path.trim_start_matches('/')).decode_utf8_lossy();
    if let Some(uri) = decoded.strip_prefix("qr/") {
        return match widget.receive_qr(uri) {
            Ok(png) => png_response(png, "no-store"),
            Err(_) => status(StatusCode::NOT_FOUND),
        };
    }
    let Some((size, source)) = decoded
        .split_once('/')
        .and_then(|(size, source)| Some((ThumbnailSize::from_name(size)?, source)))
    else {
        return status(StatusCode::BAD_REQUEST);
    };
    let thumbnail = match source.strip_prefix("nft/") {
        Some(handle) => widget.nft_thumbnail_by_handle(handle, size).await,
        None => widget.nft_thumbnail(source, size).await,
    };
    match thumbnail {
        Ok(png) => png_response(png, "private, max-age=86400"),
        Err(e) => {
            tracing::debug!(code = ?e.code, "no thumbnail");
            status(StatusCode::NOT_FOUND)
        }
    }
}

fn png_response(png: Vec<u8>, cache: &str) -> Response<Vec<u8>> {
    Response::builder()
        .header(header::CONTENT_TYPE, "image/png")
        .header(header::CACHE_CONTROL, cache)
        .body(png)
        .unwrap_or_else(|_| status(StatusCode::INTERNAL_SERVER_ERROR))
}

fn status(code: StatusCode) -> Response<Vec<u8>> {
    let mut response = Response::new(Vec::new());
    *response.status_mut() = code;
    response
}
