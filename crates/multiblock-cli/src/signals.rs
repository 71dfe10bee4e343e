//! SIGINT, SIGTERM and SIGHUP while a temporary `--out` file exists: the
//! file is removed, then the process dies of the signal as it would have
//! (the shell sees "terminated by SIGTERM", exit status 128 + n).
//!
//! The signals are taken by a thread (signal-hook's iterator), not in a
//! handler, so the removal may lock and allocate; it runs while the main
//! thread is blocked anywhere (a read from a slow pipe included). The lock
//! is also held across the final rename, so a signal either finds the
//! temporary file and removes it, or finds the output complete.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, Once};

/// The temporary file to remove on a signal, if any.
static PENDING: Mutex<Option<PathBuf>> = Mutex::new(None);

pub fn pending() -> MutexGuard<'static, Option<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the temporary file from inside a synchronous signal handler
/// (SIGBUS, see [`crate::mapped`]): no allocation and no waiting. The lock
/// is only tried (it is held only around creating and renaming the file),
/// and kept: the process exits next.
pub fn remove_pending_in_handler() {
    if let Ok(guard) = PENDING.try_lock() {
        let mut buf = [0u8; 4096];
        if let Some(c) = guard.as_deref().and_then(|p| c_path(p, &mut buf)) {
            // SAFETY: unlink(2) of a NUL-terminated path; async-signal-safe.
            unsafe { libc::unlink(c.as_ptr().cast()) };
        }
        std::mem::forget(guard);
    }
}

/// Starts the signal thread (once); call before the temporary file exists.
pub fn install() -> Result<(), String> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = Signals::new([SIGINT, SIGTERM, SIGHUP])
            .map_err(|e| format!("cannot handle signals: {e}"))
            .and_then(|mut signals| {
                std::thread::Builder::new()
                    .name("signals".into())
                    .spawn(move || {
                        if let Some(sig) = signals.forever().next() {
                            let mut p = pending();
                            if let Some(path) = p.take() {
                                let _ = std::fs::remove_file(path);
                            }
                            // Keep the lock: nothing may rename it into place now.
                            let _ = signal_hook::low_level::emulate_default_handler(sig);
                            std::process::exit(128 + sig);
                        }
                    })
                    .map(|_| ())
                    .map_err(|e| format!("cannot handle signals: {e}"))
            });
    });
    result
}

/// The path as a NUL-terminated C string in `buf`, if it fits (no allocation).
fn c_path<'a>(path: &std::path::Path, buf: &'a mut [u8; 4096]) -> Option<&'a [u8]> {
    let bytes = path.as_os_str().as_bytes();
    if bytes.len() >= buf.len() || bytes.contains(&0) {
        return None;
    }
    buf[..bytes.len()].copy_from_slice(bytes);
    buf[bytes.len()] = 0;
    Some(&buf[..=bytes.len()])
}
