//! A regular `--out` file written through a temporary file beside it.
//!
//! The temporary file has a random name and is created with
//! `O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0600 (the `tempfile` crate's
//! `Builder::make_in`): a file or symlink planted at any name in a shared
//! directory is never opened, only skipped. It takes the mode and (where
//! the kernel permits: root, or the same owner) the owner and group of the
//! file it replaces; a new output keeps mode 0600 whatever it holds
//! (plaintext of `decrypt`, or ciphertext and tags: one simple rule). On
//! success it is synced, renamed over the output and the directory synced;
//! dropped uncommitted (an error, a failed tag check) it is removed, and a
//! signal removes it too (see [`crate::signals`]).

use crate::os_error::plain;
use crate::signals;
use crate::target::{error, Keep};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

pub struct Staged {
    file: Option<NamedTempFile<File>>,
    dest: PathBuf,
    shown: PathBuf,
}

impl Staged {
    /// `dest`: the resolved output; `shown`: the `--out` given, for messages.
    pub fn create(dest: PathBuf, keep: Option<Keep>, shown: &Path) -> Result<Staged, String> {
        signals::install()?;
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let prefix = format!(".{name}.");
        // The lock is held from before the file exists until it is
        // registered: a signal in between waits, then finds it to remove.
        let mut pending = signals::pending();
        let file = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(".multiblock-tmp")
            .make_in(&dir, |p| {
                OpenOptions::new().read(true).write(true).create_new(true).mode(0o600).custom_flags(libc::O_NOFOLLOW).open(p)
            })
            .map_err(|e| error(shown, plain(&e)))?;
        *pending = Some(file.path().to_path_buf());
        drop(pending);
        let staged = Staged { file: Some(file), dest, shown: shown.to_path_buf() };
        if let Some(k) = keep {
            staged.keep(k)?;
        }
        Ok(staged)
    }

    /// The old file's owner and group where permitted, then its mode.
    fn keep(&self, k: Keep) -> Result<(), String> {
        let f = self.file.as_ref().expect("open until committed").as_file();
        let fd = f.as_raw_fd();
        // SAFETY: fchown/fchmod on a descriptor we own. A refused fchown
        // (EPERM: not root, another owner) leaves us the owner, and the
        // mode below still applies: no wider access than the old file had.
        unsafe {
            if libc::fchown(fd, k.uid, k.gid) != 0 {
                libc::fchown(fd, u32::MAX, k.gid);
            }
        }
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(k.mode)).map_err(|e| error(&self.shown, plain(&e)))
    }

    /// The temporary file itself (read and write), for work in place.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("open until committed").as_file_mut()
    }

    pub fn write(&mut self, data: &[u8]) -> Result<(), String> {
        let f = self.file.as_mut().expect("open until committed");
        f.write_all(data).map_err(|e| error(&self.shown, plain(&e)))
    }

    /// Sync, rename into place, sync the directory.
    pub fn commit(mut self) -> Result<(), String> {
        let file = self.file.take().expect("open until committed");
        file.as_file().sync_all().map_err(|e| error(&self.shown, plain(&e)))?;
        // Under the lock: a signal now waits, then finds the output complete.
        let mut pending = signals::pending();
        match file.persist(&self.dest) {
            Ok(_) => {
                *pending = None;
                drop(pending);
                if let Some(dir) = self.dest.parent().filter(|d| !d.as_os_str().is_empty()) {
                    let _ = File::open(dir).and_then(|d| d.sync_all());
                }
                Ok(())
            }
            Err(e) => {
                let why = plain(&e.error);
                drop(e.file); // removes the temporary file
                *pending = None;
                Err(error(&self.shown, why))
            }
        }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let mut pending = signals::pending();
            drop(file); // NamedTempFile removes its file
            *pending = None;
        }
    }
}
