//! What the widget keeps per person on this device that is not secret (the
//! address book, the hidden collections): one JSON file per user in a folder
//! of the app's data folder, written whole through a temporary file, and the
//! logged-in person's kept in memory once read. Without a folder (tests), in
//! memory only.

use std::path::PathBuf;

use parking_lot::Mutex;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::SdkError;

pub struct UserFiles<T> {
    dir: Option<PathBuf>,
    /// The last person's, once read: (user id, contents).
    loaded: Mutex<Option<(String, T)>>,
}

impl<T> Default for UserFiles<T> {
    fn default() -> Self {
        Self {
            dir: None,
            loaded: Mutex::new(None),
        }
    }
}

impl<T: Serialize + DeserializeOwned + Clone + Default> UserFiles<T> {
    /// Kept as files in `dir`.
    pub fn in_dir(dir: PathBuf) -> Self {
        Self {
            dir: Some(dir),
            loaded: Mutex::new(None),
        }
    }

    pub(crate) fn file(&self, user_id: &str) -> Option<PathBuf> {
        // A user id is the service's; only its safe characters name a file.
        let safe: String = user_id
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .take(100)
            .collect();
        self.dir.as_ref().map(|d| d.join(format!("{safe}.json")))
    }

    /// `user_id`'s contents (the default when there are none, or they do not
    /// read: a damaged file is not believed).
    pub fn read(&self, user_id: &str) -> T {
        let mut loaded = self.loaded.lock();
        if let Some((id, contents)) = loaded.as_ref()
            && id == user_id
        {
            return contents.clone();
        }
        let contents: T = self
            .file(user_id)
            .and_then(|path| std::fs::read(path).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        *loaded = Some((user_id.to_owned(), contents.clone()));
        contents
    }

    /// Replaces `user_id`'s contents; what was written.
    pub fn write(&self, user_id: &str, contents: T) -> Result<T, SdkError> {
        if let Some(path) = self.file(user_id) {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(SdkError::unknown)?;
            }
            let partial = path.with_extension("partial");
            let json = serde_json::to_vec_pretty(&contents).map_err(SdkError::unknown)?;
            std::fs::write(&partial, json).map_err(SdkError::unknown)?;
            std::fs::rename(&partial, &path).map_err(SdkError::unknown)?;
        }
        *self.loaded.lock() = Some((user_id.to_owned(), contents.clone()));
        Ok(contents)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_per_user_survives_a_reload_and_stays_in_its_folder() {
        let dir = tempfile::tempdir().expect("dir");
        let files: UserFiles<Vec<String>> = UserFiles::in_dir(dir.path().to_owned());
        files.write("user-1", vec!["a".into()]).expect("written");
        let again: UserFiles<Vec<String>> = UserFiles::in_dir(dir.path().to_owned());
        assert_eq!(again.read("user-1"), vec!["a".to_owned()]);
        assert!(
            again.read("user-2").is_empty(),
            "another user's is their own"
        );
        assert!(
            again
                .file("../../etc/passwd")
                .expect("a file")
                .starts_with(dir.path())
        );
        std::fs::write(dir.path().join("user-3.json"), b"not json").expect("damaged");
        assert!(
            again.read("user-3").is_empty(),
            "a damaged file is not believed"
        );
    }
}
