//! The NFT pictures the widget has listed for the logged-in user, by handle:
//! the only pictures it makes thumbnails of, so a page cannot make the app
//! fetch any other URL. They grow within a session (an NFT sent away stays
//! allowed until logout) and hold only the user's own.
//!
//! Their URLs are kept in a file, not in memory: an on-chain picture's `data:`
//! URI is often hundreds of bytes or kilobytes, and a collection has thousands,
//! where a tile needs only the handle. Memory holds each picture's handle and
//! place in the file (about 32 bytes); the URL is read back when a thumbnail is
//! made or an NFT's detail shown. The file is unnamed (nobody can open it by a
//! path; the system removes it when the app ends or the person logs out) and
//! lives in the thumbnail cache's folder, on disk, beside what is made of it.
//! Each URL is written once however many listings name it.

use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io;
use std::path::PathBuf;

use parking_lot::Mutex;
use sha2::{Digest, Sha256};

/// What the page asks the thumbnail protocol for instead of a picture's URL:
/// 96 bits of the URL's SHA-256, written in hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PictureHandle([u8; 12]);

impl PictureHandle {
    pub fn of(url: &str) -> Self {
        let mut handle = [0; 12];
        handle.copy_from_slice(&Sha256::digest(url.as_bytes())[..12]);
        PictureHandle(handle)
    }

    /// The handle a page wrote; `None` when it is not one.
    pub fn parse(hex: &str) -> Option<Self> {
        let mut handle = [0; 12];
        hex::decode_to_slice(hex, &mut handle).ok()?;
        Some(PictureHandle(handle))
    }
}

impl fmt::Display for PictureHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

/// The most the file may hold. A listing is bounded by the service's body
/// limit; this bounds a long session of listings with ever new pictures. A
/// picture past it is refused (its NFT listed without one) until logout.
const MAX_FILE_BYTES: u64 = 1 << 30;

#[derive(Debug)]
pub(super) struct PictureUrls {
    /// The folder the file is made in; the system's temporary folder until the
    /// app names one.
    dir: Mutex<Option<PathBuf>>,
    kept: Mutex<Kept>,
    /// [`MAX_FILE_BYTES`] (less in tests).
    limit: u64,
}

impl Default for PictureUrls {
    fn default() -> Self {
        Self {
            dir: Mutex::default(),
            kept: Mutex::default(),
            limit: MAX_FILE_BYTES,
        }
    }
}

#[derive(Debug, Default)]
struct Kept {
    /// Made at the first write.
    file: Option<File>,
    /// How much of the file is written: a failed write leaves it where it was.
    written: u64,
    /// The URLs that come after `written`, written together once they fill
    /// [`WRITE_BYTES`] (a listing keeps thousands, one by one).
    unwritten: Vec<u8>,
    places: HashMap<PictureHandle, Place>,
}

/// How much waits in memory before it is written.
const WRITE_BYTES: usize = 64 * 1024;

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
        let at = kept.written + kept.unwritten.len() as u64;
        let len = u32::try_from(url.len())
            .ok()
            .filter(|len| at + u64::from(*len) <= self.limit)
            .ok_or_else(|| io::Error::other("the NFT pictures' file is full"))?;
        kept.unwritten.extend_from_slice(url.as_bytes());
        if kept.unwritten.len() >= WRITE_BYTES
            && let Err(e) = self.write(&mut kept)
        {
            // Not kept; what waited before it still waits.
            let before = kept.unwritten.len() - url.len();
            kept.unwritten.truncate(before);
            return Err(e);
        }
        kept.places.insert(handle, Place { at, len });
        Ok(handle)
    }

    /// The URL of the allowed picture `handle` names.
    pub fn url(&self, handle: PictureHandle) -> Option<String> {
        let kept = self.kept.lock();
        let place = *kept.places.get(&handle)?;
        let url = match place.at.checked_sub(kept.written) {
            Some(waiting) => {
                let from = usize::try_from(waiting).ok()?;
                kept.unwritten
                    .get(from..from + place.len as usize)?
                    .to_vec()
            }
            None => {
                let mut url = vec![0; place.len as usize];
                if let Err(e) = read_exact_at(kept.file.as_ref()?, &mut url, place.at) {
                    tracing::warn!(error = %e, "an NFT picture's URL could not be read back");
                    return None;
                }
                url
            }
        };
        String::from_utf8(url).ok()
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

    /// Writes what waits, after what is written.
    fn write(&self, kept: &mut Kept) -> io::Result<()> {
        let file = match kept.file.take() {
            Some(file) => file,
            None => self.new_file()?,
        };
        let written = write_all_at(&file, &kept.unwritten, kept.written);
        kept.file = Some(file);
        written?;
        kept.written += kept.unwritten.len() as u64;
        kept.unwritten.clear();
        Ok(())
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

    fn url(i: usize) -> String {
        format!("https://example.com/pictures/{i:08}.png")
    }

    #[test]
    fn a_kept_url_is_read_back_by_its_handle_and_written_once() {
        let dir = tempfile::tempdir().expect("dir");
        let pictures = PictureUrls::default();
        pictures.set_dir(dir.path().join("thumbnails"));
        // Enough to be written to the file, and some still waiting in memory.
        let count = WRITE_BYTES / url(0).len() * 2 + 10;
        for i in 0..count {
            assert_eq!(
                pictures.keep(&url(i)).expect("kept"),
                PictureHandle::of(&url(i))
            );
        }
        assert_eq!(
            pictures.keep(&url(0)).expect("kept again"),
            PictureHandle::of(&url(0))
        );
        {
            let kept = pictures.kept.lock();
            assert!(kept.written > 0 && !kept.unwritten.is_empty());
            let all = kept.written + kept.unwritten.len() as u64;
            assert_eq!(all, (count * url(0).len()) as u64, "each written once");
        }
        for i in [0, count / 2, count - 1] {
            assert_eq!(pictures.url(PictureHandle::of(&url(i))), Some(url(i)));
            assert!(pictures.has(&url(i)));
        }
        assert!(!pictures.has(&url(count)));
        assert_eq!(pictures.url(PictureHandle::of(&url(count))), None);
        // The file has no name in the folder.
        let names: Vec<_> = std::fs::read_dir(dir.path().join("thumbnails"))
            .expect("the folder was made")
            .collect();
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn logout_forgets_every_picture() {
        let pictures = PictureUrls::default();
        let handle = pictures.keep(&url(1)).expect("kept");
        pictures.clear();
        assert_eq!(pictures.url(handle), None);
        assert!(!pictures.has(&url(1)));
    }

    #[test]
    fn a_picture_past_the_files_bound_is_refused_and_the_others_stay() {
        let pictures = PictureUrls {
            limit: 3 * url(0).len() as u64,
            ..PictureUrls::default()
        };
        for i in 0..3 {
            pictures.keep(&url(i)).expect("within the bound");
        }
        let e = pictures.keep(&url(3)).expect_err("past the bound");
        assert!(e.to_string().contains("full"), "{e}");
        assert!(!pictures.has(&url(3)));
        assert!((0..3).all(|i| pictures.has(&url(i))));
    }

    #[test]
    fn a_picture_that_cannot_be_written_is_not_kept_and_loses_nothing() {
        let dir = tempfile::tempdir().expect("dir");
        let not_a_folder = dir.path().join("a-file");
        std::fs::write(&not_a_folder, b"").expect("written");
        let pictures = PictureUrls::default();
        pictures.set_dir(not_a_folder);
        let mut i = 0;
        let failed = loop {
            match pictures.keep(&url(i)) {
                Ok(_) => i += 1,
                Err(_) => break i,
            }
        };
        assert!(failed > 0, "the first ones wait in memory");
        assert!(!pictures.has(&url(failed)));
        assert!((0..failed).all(|i| pictures.has(&url(i))));
    }
}
