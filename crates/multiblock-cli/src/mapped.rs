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
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// The mapped range, for the handler to tell our SIGBUS from any other.
static START: AtomicUsize = AtomicUsize::new(0);
static END: AtomicUsize = AtomicUsize::new(0);
/// The whole error line of the file mapped last (a leaked `Box<[u8]>` and
/// its length), made before the first access.
static MESSAGE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static MESSAGE_LEN: AtomicUsize = AtomicUsize::new(0);

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
    set_message(format!("multiblock: error: {what} shrank while it was read (another program truncated it)\n"));
    install(&map).then_some(map)
}

/// Makes `text` the handler's message. A command that maps one file after
/// another (`hash FILE...`) maps the next only after the last mapping is
/// gone, so no handler can be reading the message replaced here.
fn set_message(text: String) {
    let text: Box<[u8]> = text.into_bytes().into_boxed_slice();
    let len = text.len();
    // Null first, so that a handler never pairs the new length with the old text.
    let old = MESSAGE.swap(std::ptr::null_mut(), Ordering::SeqCst);
    let old_len = MESSAGE_LEN.swap(len, Ordering::SeqCst);
    MESSAGE.store(Box::into_raw(text).cast::<u8>(), Ordering::SeqCst);
    if !old.is_null() {
        // SAFETY: `old` came from `Box::into_raw` of a boxed slice of
        // `old_len` bytes, and nothing reads it any more (above).
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(old, old_len)) });
    }
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
    let msg = MESSAGE.load(Ordering::SeqCst);
    if !msg.is_null() {
        // SAFETY: write(2) to the standard error of the leaked message and its length.
        unsafe { libc::write(2, msg.cast(), MESSAGE_LEN.load(Ordering::SeqCst)) };
    }
    // SAFETY: _exit is async-signal-safe and ends every thread at once.
    unsafe { libc::_exit(1) };
}
