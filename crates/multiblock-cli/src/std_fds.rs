//! The standard descriptors. A descriptor 0, 1 or 2 that the caller closed
//! (`>&-`) is opened on /dev/null at start, so that no file this process
//! opens later (the temporary `--out` file) takes its number and receives
//! what was meant for stdout or stderr; a closed stdin or stdout is
//! remembered, and reading or writing it is an error, not a silent success.
//!
//! Rust's runtime itself opens /dev/null on closed standard descriptors
//! before `main`, which hides the closing; so on Linux they are looked at
//! earlier, from an ELF constructor (`.init_array`, run by the C runtime
//! before Rust's start-up code).

use std::sync::atomic::{AtomicBool, Ordering};

static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Records which of 0, 1 and 2 are closed (before Rust's runtime opens them).
extern "C" fn record_closed() {
    // SAFETY: fcntl(F_GETFD) only queries the descriptor.
    let closed = |fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1;
    if closed(0) {
        STDIN_CLOSED.store(true, Ordering::Relaxed);
    }
    if closed(1) {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RECORD_CLOSED: extern "C" fn() = record_closed;

/// Run first thing in `main`, before any file is opened.
pub fn guard() {
    record_closed();
    for fd in 0..3 {
        // SAFETY: fcntl(F_GETFD) only queries the descriptor.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1 {
            continue;
        }
        // The lowest free number is `fd` (the lower ones are open by now).
        // SAFETY: a plain open(2) of a constant path.
        let got = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) };
        if got >= 0 && got != fd {
            // SAFETY: both descriptors are ours.
            unsafe {
                libc::dup2(got, fd);
                libc::close(got);
            }
        }
    }
}

/// An error if the caller closed stdout.
pub fn stdout_open() -> Result<(), String> {
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return Err("cannot write stdout: it is closed (Bad file descriptor)".into());
    }
    Ok(())
}

/// An error if the caller closed stdin.
pub fn stdin_open() -> Result<(), String> {
    if STDIN_CLOSED.load(Ordering::Relaxed) {
        return Err("cannot read stdin: it is closed (Bad file descriptor)".into());
    }
    Ok(())
}
