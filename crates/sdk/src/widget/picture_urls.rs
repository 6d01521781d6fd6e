//! The NFT pictures the widget has listed for the logged-in user, by handle:
//! the only pictures it makes thumbnails of, so a page cannot make the app
//! fetch any other URL. They grow within a session (an NFT sent away stays
//! allowed until logout) and hold only the user's own.
//!
//! Their URLs are kept in a file, not in memory: an on-chain picture's `data:`
//! URI is often hundreds of bytes or kilobytes, and a collection has thousands,
//! where a tile needs only the handle. Memory holds each picture's handle and
//! place in the file (about 32 bytes); the URL is read back when a thumbnail is made
//! or an NFT's detail shown. The file is unnamed (nobody can open it by a
//! path; the system removes it when the app ends or the person logs out) and
//! lives in the thumbnail cache's folder, on disk, beside what is made of it.
//! Each URL is written once however many listings name it.

use std::collections::HashMap;
use std::fs::File;
use std::io;
use std::path::PathBuf;

use parking_lot::Mutex;

use super::nft_listing::PictureHandle;

/// The most the file may hold. A listing is bounded by the service's body
/// limit; this bounds a long session of listings with ever new pictures. A
/// picture past it is refused (its NFT listed without one) until logout.
const MAX_FILE_BYTES: u64 = 1 << 30;

#[derive(Debug, Default)]
pub(super) struct PictureUrls {
    /// The folder the file is made in; the system's temporary folder until the
    /// app names one.
    dir: Mutex<Option<PathBuf>>,
    kept: Mutex<Kept>,
}

#[derive(Debug, Default)]
struct Kept {
    /// Made at the first picture.
    file: Option<File>,
    /// How much of the file is written: a failed write leaves it where it was.
    end: u64,
    places: HashMap<PictureHandle, Place>,
}

/// Where a URL is in the file.
#[derive(Debug, Clone, Copy)]
struct Place {
    at: u64,
    len: u32,
}

impl PictureUrls {
    /// Makes the file in `dir` from the next one on (after a logout, or at the
    /// first picture).
    pub fn set_dir(&self, dir: PathBuf) {
        *self.dir.lock() = Some(dir);
    }

    /// Allows the picture at `url` (not empty); its handle. An error when it
    /// cannot be kept (the folder cannot be written, or the file is full).
    pub fn keep(&self, url: &str) -> io::Result<PictureHandle> {
        let handle = PictureHandle::of(url);
        let mut kept = self.kept.lock();
        if kept.places.contains_key(&handle) {
            return Ok(handle);
        }
        let len = u32::try_from(url.len())
            .ok()
            .filter(|len| kept.end + u64::from(*len) <= MAX_FILE_BYTES)
            .ok_or_else(|| io::Error::other("the NFT pictures' file is full"))?;
        let at = kept.end;
        let file = match kept.file.take() {
            Some(file) => file,
            None => self.new_file()?,
        };
        let written = write_all_at(&file, url.as_bytes(), at);
        kept.file = Some(file);
        written?;
        kept.end = at + u64::from(len);
        kept.places.insert(handle, Place { at, len });
        Ok(handle)
    }

    /// The URL of the allowed picture `handle` names.
    pub fn url(&self, handle: PictureHandle) -> Option<String> {
        let kept = self.kept.lock();
        let place = *kept.places.get(&handle)?;
        let file = kept.file.as_ref()?;
        let mut url = vec![0; place.len as usize];
        match read_exact_at(file, &mut url, place.at) {
            Ok(()) => String::from_utf8(url).ok(),
            Err(e) => {
                tracing::warn!(error = %e, "an NFT picture's URL could not be read back");
                None
            }
        }
    }

    /// Whether `url` is an allowed picture.
    pub fn has(&self, url: &str) -> bool {
        self.url(PictureHandle::of(url))
            .is_some_and(|kept| kept == url)
    }

    /// Forgets every picture (at logout); the file goes with them.
    pub fn clear(&self) {
        *self.kept.lock() = Kept::default();
    }

    fn new_file(&self) -> io::Result<File> {
        match &*self.dir.lock() {
            Some(dir) => {
                std::fs::create_dir_all(dir)?;
                tempfile::tempfile_in(dir)
            }
            None => tempfile::tempfile(),
        }
    }
}

#[cfg(unix)]
fn write_all_at(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

#[cfg(unix)]
fn read_exact_at(file: &File, bytes: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, bytes, at)
}

#[cfg(windows)]
fn write_all_at(file: &File, mut bytes: &[u8], mut at: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !bytes.is_empty() {
        match file.seek_write(bytes, at)? {
            0 => return Err(io::ErrorKind::WriteZero.into()),
            n => {
                bytes = &bytes[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut bytes: &mut [u8], mut at: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !bytes.is_empty() {
        match file.seek_read(bytes, at)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                bytes = &mut bytes[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_url_is_read_back_by_its_handle_and_written_once() {
        let dir = tempfile::tempdir().expect("dir");
        let pictures = PictureUrls::default();
        pictures.set_dir(dir.path().join("thumbnails"));
        let one = "data:image/svg+xml,<svg>One</svg>";
        let two = "https://example.com/2.png";
        let handle = pictures.keep(one).expect("kept");
        assert_eq!(handle, PictureHandle::of(one));
        assert_eq!(pictures.keep(two).expect("kept"), PictureHandle::of(two));
        assert_eq!(pictures.keep(one).expect("kept again"), handle);
        assert_eq!(pictures.kept.lock().end, (one.len() + two.len()) as u64);
        assert_eq!(pictures.url(handle).as_deref(), Some(one));
        assert_eq!(pictures.url(PictureHandle::of(two)).as_deref(), Some(two));
        assert!(pictures.has(one) && pictures.has(two));
        assert!(!pictures.has("https://example.com/3.png"));
        assert_eq!(
            pictures.url(PictureHandle::of("https://example.com/3.png")),
            None
        );
        // The file has no name in the folder.
        let names: Vec<_> = std::fs::read_dir(dir.path().join("thumbnails"))
            .expect("the folder was made")
            .collect();
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn logout_forgets_every_picture() {
        let pictures = PictureUrls::default();
        let handle = pictures.keep("https://example.com/1.png").expect("kept");
        pictures.clear();
        assert_eq!(pictures.url(handle), None);
        assert!(!pictures.has("https://example.com/1.png"));
    }

    #[test]
    fn a_picture_past_the_files_bound_is_refused_and_the_others_stay() {
        let pictures = PictureUrls::default();
        let handle = pictures.keep("https://example.com/1.png").expect("kept");
        pictures.kept.lock().end = MAX_FILE_BYTES - 4;
        let e = pictures
            .keep("https://example.com/2.png")
            .expect_err("past the bound");
        assert!(e.to_string().contains("full"), "{e}");
        assert!(!pictures.has("https://example.com/2.png"));
        assert_eq!(
            pictures.url(handle).as_deref(),
            Some("https://example.com/1.png")
        );
    }
}
