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
//!
//! A stdout whose reader went away (`multiblock info | head -1`) ends the
//! process as it ends a coreutils tool: killed by SIGPIPE, no message
//! ([`end_if_stdout_broken`]); unless SIGPIPE came ignored, when the write
//! error is reported as any other.

use std::sync::atomic::{AtomicBool, Ordering};

static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
/// SIGPIPE was ignored by whoever started us (Rust's runtime ignores it
/// itself, so this is looked at before it starts).
static SIGPIPE_IGNORED: AtomicBool = AtomicBool::new(false);
/// A write to stdout failed because its reader went away (EPIPE).
static STDOUT_BROKEN: AtomicBool = AtomicBool::new(false);

/// Records which of 0, 1 and 2 are closed (before Rust's runtime opens them).
fn record_closed() {
    // SAFETY: fcntl(F_GETFD) only queries the descriptor.
    let closed = |fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1;
    if closed(0) {
        STDIN_CLOSED.store(true, Ordering::Relaxed);
    }
    if closed(1) {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// The closed descriptors, and whether SIGPIPE came ignored (Rust's runtime
/// ignores it itself once it starts).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
extern "C" fn record_at_start() {
    record_closed();
    // SAFETY: sigaction with a null new action only reads the disposition.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGPIPE, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN {
            SIGPIPE_IGNORED.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RECORD_AT_START: extern "C" fn() = record_at_start;

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

/// The error of a failed write to stdout, as a one-line message; a reader
/// that went away (EPIPE) is also remembered, see [`end_if_stdout_broken`].
pub fn stdout_error(e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        STDOUT_BROKEN.store(true, Ordering::Relaxed);
    }
    format!("cannot write stdout: {}", crate::os_error::plain(e))
}

/// After a failed command: if stdout's reader went away (`multiblock info |
/// head -1`), end as a coreutils tool does, killed by SIGPIPE without a
/// message (the shell reports status 141). Everything the command opened
/// is closed by now (a temporary `--out` file removed). Returns if stdout
/// is not broken, or if SIGPIPE came ignored from the caller: then, as
/// those tools, the error is reported as any other.
pub fn end_if_stdout_broken() {
    if !STDOUT_BROKEN.load(Ordering::Relaxed) || SIGPIPE_IGNORED.load(Ordering::Relaxed) {
        return;
    }
    // SAFETY: restoring the default disposition of SIGPIPE, unblocking it
    // and sending it to this thread; its default action ends the process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::raise(libc::SIGPIPE);
    }
    // Not reached; the status a shell would show, should the signal not end us.
    std::process::exit(128 + libc::SIGPIPE);
}
