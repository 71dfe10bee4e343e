//! The parent side: starts one traced child (address-space randomisation
//! off, an environment of `MULTIBLOCK_DISABLE` and `MULTIBLOCK_CORE` at most) and reads the recording it writes to its
//! standard output (`child::send`).

use super::Recording;
use std::ffi::OsString;
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

/// Runs `exe args` (a `ct-trace --child` command line) and returns what it
/// recorded. Every fill's child must get arguments of the same lengths, so
/// that its stack starts at the same address.
pub fn record(exe: &std::path::Path, args: &[OsString]) -> Result<Recording, String> {
    let mut cmd = Command::new(exe);
    cmd.args(args).env_clear().stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::inherit());
    // The variables the cases heed: features turned off, as a CPU without
    // them would run, and the class of core whose kernel forms run
    // (`MULTIBLOCK_BACKEND` stays unset: the `auto` cases are what a user
    // gets).
    for name in [multiblock::DISABLE_ENV, multiblock::CORE_ENV] {
        if let Some(value) = std::env::var_os(name) {
            cmd.env(name, value);
        }
    }
    // SAFETY: only an async-signal-safe call between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            if libc::personality(libc::ADDR_NO_RANDOMIZE as libc::c_ulong) < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    if !out.status.success() {
        return Err(format!("the traced case failed ({})", out.status));
    }
    Recording::decode(&out.stdout).ok_or_else(|| format!("the child's recording is malformed ({} bytes)", out.stdout.len()))
}
