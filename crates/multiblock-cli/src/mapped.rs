//! An input file mapped into memory, so that a mode that reads its input in
//! the pass that writes its output (CTR: `CipherStream::zero_copy`) reads
//! the page cache directly instead of a copy made by `read(2)`. On a 2-core
//! machine that copy is a sixth of the CPU time of CTR to stdout.
//!
//! A mapped file that another program truncates while we read it makes the
//! next access to a page past its new end raise SIGBUS. A handler, installed
//! with the mapping, turns that into the CLI's one-line error and exit
//! status 1, after removing the temporary `--out` file, rather than a crash
//! that leaves the temporary file behind.

use crate::signals;
use memmap2::{Advice, Mmap};
use std::fs::File;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The mapped range, for the handler to tell our SIGBUS from any other.
static START: AtomicUsize = AtomicUsize::new(0);
static END: AtomicUsize = AtomicUsize::new(0);
/// The whole error line, made before the first access.
static MESSAGE: OnceLock<Box<[u8]>> = OnceLock::new();

/// Maps `file` (a regular file of `size` > 0 bytes) read-only, or `None`
/// where it cannot be mapped (the caller then reads it).
pub fn map(file: &File, size: u64, what: &str) -> Option<Mmap> {
    if size == 0 || usize::try_from(size).is_err() {
        return None;
    }
    // SAFETY: the map is only read. A file changed under it changes the
    // bytes we read (as it would between two reads); one truncated under it
    // raises SIGBUS, which `install` turns into an error exit.
    let map = unsafe { memmap2::MmapOptions::new().len(size as usize).map(file) }.ok()?;
    let _ = map.advise(Advice::Sequential);
    let _ = MESSAGE.set(format!("multiblock: error: {what} shrank while it was read (another program truncated it)\n").into_bytes().into_boxed_slice());
    install(&map).then_some(map)
}

/// Installs the SIGBUS handler and records the mapped range.
fn install(map: &Mmap) -> bool {
    START.store(map.as_ptr() as usize, Ordering::SeqCst);
    END.store(map.as_ptr() as usize + map.len(), Ordering::SeqCst);
    // SAFETY: a plain sigaction with an `extern "C"` handler that only makes
    // async-signal-safe calls (unlink, write, _exit) and atomic loads.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0
    }
}

extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo_t to an SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() } as usize;
    let ours = (START.load(Ordering::SeqCst)..END.load(Ordering::SeqCst)).contains(&addr);
    if !ours {
        // Not the mapping: the default action (a core dump), as without us.
        // SAFETY: restoring the default disposition; the fault repeats on return.
        unsafe { libc::signal(libc::SIGBUS, libc::SIG_DFL) };
        return;
    }
    signals::remove_pending_in_handler();
    if let Some(msg) = MESSAGE.get() {
        // SAFETY: write(2) of a buffer we own to the standard error.
        unsafe { libc::write(2, msg.as_ptr().cast(), msg.len()) };
    }
    // SAFETY: _exit is async-signal-safe and ends every thread at once.
    unsafe { libc::_exit(1) };
}
