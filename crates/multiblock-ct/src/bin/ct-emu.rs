//! The guest side of the constant-time check under QEMU (scripts/ct-qemu.py):
//! the aarch64 build, whose `neon` backends (and `portable` ones, as aarch64
//! compiles them) `ct-trace` cannot single-step on an x86-64 machine. A
//! QEMU plugin (crates/multiblock-ct/qemu/ct_trace_plugin.c) records every
//! instruction and memory address between the marks below; the driver runs
//! each case once per secret fill and requires the same recording.
//!
//!   ct-emu list ct|leaky [--all-modes]
//!       the cases, one per line: INDEX, backend and label, tab-separated
//!       (the modes on each cipher's default backend unless --all-modes,
//!       as `ct-trace` picks them);
//!   ct-emu run ct|leaky INDEX FILL
//!       case INDEX once untraced, then with secret fill FILL (0 random,
//!       1 all-zero, 2 all-ones) with every library call between the marks.
//!
//! Exit status 0 on success, 1 when a case fails its own round trip, 2 on usage.

use multiblock_ct::cases::{cases, Fill, NoProbe, Probe, Selection};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU32, Ordering};

/// Counts the marks; the two functions must keep different bodies, or LLVM
/// may merge them into one address and the plugin could not tell them apart.
static MARKS: AtomicU32 = AtomicU32::new(0);

/// Start of a recorded region (the plugin looks this symbol up).
#[no_mangle]
#[inline(never)]
pub extern "C" fn multiblock_ct_mark_enter() {
    MARKS.fetch_add(1, Ordering::SeqCst);
}

/// End of a recorded region.
#[no_mangle]
#[inline(never)]
pub extern "C" fn multiblock_ct_mark_leave() {
    MARKS.fetch_sub(1, Ordering::SeqCst);
}

struct MarkProbe;

impl Probe for MarkProbe {
    fn enter(&self) {
        multiblock_ct_mark_enter();
    }
    fn leave(&self) {
        multiblock_ct_mark_leave();
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: ct-emu list ct|leaky [--all-modes] | ct-emu run ct|leaky INDEX FILL");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["list", sel, rest @ ..] => {
            let Some(sel) = Selection::from_name(sel) else { return usage() };
            let all_modes = match rest {
                [] => false,
                ["--all-modes"] => true,
                _ => return usage(),
            };
            let (all, skipped) = cases(sel);
            for (i, c) in all.iter().enumerate().filter(|(_, c)| all_modes || c.traced_by_default()) {
                println!("{i}\t{}\t{}", c.backend, c.label());
            }
            for s in skipped {
                eprintln!("skip  {s}: not on this CPU");
            }
            ExitCode::SUCCESS
        }
        ["run", sel, index, fill] => {
            let (Some(sel), Ok(index), Ok(fill)) = (Selection::from_name(sel), index.parse::<usize>(), fill.parse::<usize>()) else {
                return usage();
            };
            let (all, _) = cases(sel);
            let (Some(case), Some(&fill)) = (all.get(index), Fill::TRACED.get(fill)) else { return usage() };
            // One untraced run first, as in `ct-trace`: one-time public
            // set-up (CPU detection, tables built on first use) stays out of
            // the recording, and the heap is left alike for the traced run.
            let result = case.run_with(Fill::Random, &NoProbe).and_then(|()| case.run_with(fill, &MarkProbe));
            match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("ct-emu: {}: {e}", case.label());
                    ExitCode::FAILURE
                }
            }
        }
        _ => usage(),
    }
}
