//! The machine-code constant-time check (README, "Security"): every case of
//! `ct-check` (key setup, ECB of 1 block, a partial and more than a full
//! batch, the secret-handling modes) runs in a child process once per secret
//! fill (random, all-zero, all-ones) with the CPU's trap flag set around
//! each library call, and records every instruction address and every
//! memory address it touches. See `multiblock_ct::trace`.
//!
//!   ct-trace ct    [--backend A,B] [--except A,B] [--filter TEXT] [--jobs N] [--fills 2|3] [--all-modes|--kernels-once]
//!       every backend flagged constant-time that this CPU runs: the traces
//!       of every fill must be identical, and no gather/scatter may run
//!       (the modes on each cipher's default backend, or with --all-modes
//!       on every backend); --kernels-once: no modes, and each backend's
//!       kernels run once (`Case::kernels_once`); --fills 2: random and
//!       all-zero only (these two are the emulator's share of the work);
//!   ct-trace leaky [--backend A,B] [--filter TEXT] [--jobs N]
//!       every backend not flagged constant-time: each case must differ
//!       (this shows the check can fail);
//!   ct-trace missing
//!       prints the constant-time backends this CPU cannot run, comma
//!       separated (scripts/ci/emulated.sh checks those in the emulator).
//!
//! Exit status 0 when every case is as required, 1 otherwise, 2 on usage.
//! With CT_TRACE_PROFILE set, each case also prints the functions that took
//! the most steps (to keep the cases small: a step costs ~6 µs in a VM,
//! ~0.16 ms inside the Bochs emulator).

use multiblock_ct::cases::{cases, Case, Fill, NoProbe, Selection};
use multiblock_ct::trace::{child, record, report, Recording};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

struct Options {
    selection: Selection,
    backends: Vec<String>,
    /// Backends left out (`portable`: its bitsliced batches are millions of
    /// single steps; Valgrind's ct-check covers it, scripts/ci/ct-trace.sh).
    except: Vec<String>,
    filter: String,
    jobs: usize,
    /// Modes on every backend, not only on each cipher's default.
    all_modes: bool,
    /// Each backend's kernels once and no modes (the emulator's share, see
    /// scripts/ci/emulated.sh).
    kernels_once: bool,
    /// How many of [`Fill::TRACED`] each case runs with (2 or 3).
    fills: usize,
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: ct-trace ct|leaky [--backend A,B] [--except A,B] [--filter TEXT] [--jobs N] [--fills 2|3] [--all-modes|--kernels-once] | ct-trace missing"
    );
    ExitCode::from(2)
}

fn parse(args: &[String]) -> Option<Options> {
    let selection = Selection::from_name(args.first()?)?;
    let mut o = Options { selection, backends: Vec::new(), except: Vec::new(), filter: String::new(), jobs: 0, all_modes: false, kernels_once: false, fills: Fill::TRACED.len() };
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--backend" => o.backends = it.next()?.split(',').filter(|s| !s.is_empty()).map(String::from).collect(),
            "--except" => o.except = it.next()?.split(',').filter(|s| !s.is_empty()).map(String::from).collect(),
            "--filter" => o.filter = it.next()?.clone(),
            "--jobs" => o.jobs = it.next()?.parse().ok()?,
            "--all-modes" => o.all_modes = true,
            "--kernels-once" => o.kernels_once = true,
            "--fills" => o.fills = it.next()?.parse().ok().filter(|n| (2..=Fill::TRACED.len()).contains(n))?,
            _ => return None,
        }
    }
    if o.jobs == 0 {
        o.jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    }
    Some(o)
}

/// `ct-trace --child SELECTION INDEX ONCE FILL MAX_STEPS`: run one case (cut
/// by `Case::kernels_once` when ONCE is 1) with one fill, traced inside its
/// probe regions, and write the recording to standard output.
fn run_child(args: &[String]) -> ExitCode {
    let parsed = (|| {
        let selection = Selection::from_name(args.first()?)?;
        let index: usize = args.get(1)?.parse().ok()?;
        let once = match args.get(2)?.as_str() {
            "0" => false,
            "1" => true,
            _ => return None,
        };
        let fill = *Fill::TRACED.get(args.get(3)?.parse::<usize>().ok()?)?;
        let max_steps: u64 = args.get(4)?.parse().ok()?;
        Some((selection, index, once, fill, max_steps))
    })();
    let Some((selection, index, once, fill, max_steps)) = parsed else { return usage() };
    let (all, _) = cases(selection);
    let Some(case) = all.get(index) else { return usage() };
    let Some(case) = (if once { case.kernels_once() } else { Some(case.clone()) }) else { return usage() };
    // One untraced run first, the same in every child: one-time public set-up
    // (CPU detection, the environment, tables built on first use) is not
    // traced, and the heap is left alike for the traced run. A cache keyed
    // by the key would still show: it hits for one fill and misses for the
    // others.
    let traced = case
        .run_with(Fill::Random, &NoProbe)
        .and_then(|()| child::arm(STEP_CAPACITY, max_steps))
        .and_then(|()| case.run_with(fill, &child::TrapProbe))
        .and_then(|()| child::recording())
        .and_then(|rec| child::send(&rec));
    match traced {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ct-trace: {}: {e}", case.label());
            ExitCode::FAILURE
        }
    }
}

/// Steps a child can store: 136 bytes each, reserved as address space and
/// committed as they fill (the largest constant-time case takes under a
/// million; the leaky `reference` of Kalyna-512 about two).
const STEP_CAPACITY: usize = 8 << 20;

/// How far the first try at a `leaky` case traces: a leak shows within
/// the first few thousand steps of key setup (Kalyna-512's `reference`
/// after 6505, with 1.9 million steps in all, 100 s), so the whole trace is
/// made only when this prefix shows none.
const LEAKY_PREFIX_STEPS: u64 = 100_000;

/// The verdict on one case: `Ok(line)` as required, `Err(line)` if not.
fn check(exe: &Path, selection: Selection, index: usize, once: bool, case: &Case, fills: usize) -> Result<String, String> {
    let start = Instant::now();
    let once = if once { "1" } else { "0" };
    let run = |fill: usize, max_steps: u64| {
        // Same-length arguments for every fill: the child's stack must not move.
        let args: Vec<OsString> =
            ["--child", selection.name(), &index.to_string(), once, &fill.to_string(), &max_steps.to_string()]
                .map(OsString::from)
                .into();
        record(exe, &args)
    };
    // Every fill up to `max_steps` steps: the first recording and how each
    // other fill departs from it (a leaky case stops at the first).
    let trace_fills = |max_steps: u64| -> Result<(Recording, Vec<String>), String> {
        let first = run(0, max_steps).map_err(|e| format!("FAIL (trace error: {e}): {}", case.label()))?;
        if std::env::var_os("CT_TRACE_PROFILE").is_some() {
            eprint!("{}: where the steps go\n{}", case.label(), report::profile(&first, exe, 25));
        }
        if first.regions == 0 {
            return Err(format!("FAIL (no probe region was recorded): {}", case.label()));
        }
        let mut differences = Vec::new();
        for (i, fill) in Fill::TRACED[..fills].iter().enumerate().skip(1) {
            let other = run(i, max_steps).map_err(|e| format!("FAIL (trace error: {e}): {}", case.label()))?;
            if let Some(d) = report::first_difference(&first, &other, exe) {
                differences.push(format!("{} vs {}: {d}", Fill::TRACED[0].name(), fill.name()));
                if selection == Selection::Leaky {
                    break;
                }
            }
        }
        Ok((first, differences))
    };
    let (first, differences) = match selection {
        Selection::ConstantTime => trace_fills(u64::MAX)?,
        Selection::Leaky => match trace_fills(LEAKY_PREFIX_STEPS)? {
            (first, differences) if first.truncated && differences.is_empty() => trace_fills(u64::MAX)?,
            traced => traced,
        },
    };
    let took = start.elapsed().as_secs_f64();
    let upto = if first.truncated { "the first " } else { "" };
    let stats = format!("{upto}{} instructions, {:.1} s", first.steps, took);
    let gathers: Vec<String> = first
        .vsib
        .iter()
        .map(|(ip, text)| format!("gather/scatter `{text}` at {ip:#x} {}", report::symbol(exe, *ip, first.exe_base)))
        .collect();
    match selection {
        Selection::ConstantTime if differences.is_empty() && gathers.is_empty() => {
            Ok(format!("ok ({stats}, {fills} fills identical): {}", case.label()))
        }
        Selection::ConstantTime => {
            let mut lines = vec![format!("FAIL (secret-dependent trace; {stats}): {}", case.label())];
            lines.extend(differences.iter().chain(&gathers).map(|d| format!("    {d}")));
            Err(lines.join("\n"))
        }
        Selection::Leaky if !differences.is_empty() => {
            Ok(format!("ok (flagged as expected; {stats}): {}\n    {}", case.label(), differences[0]))
        }
        Selection::Leaky => Err(format!("FAIL (not flagged: the check missed a leak; {stats}): {}", case.label())),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--child") => return run_child(&args[1..]),
        Some("missing") => {
            let (_, skipped) = cases(Selection::ConstantTime);
            let mut names: Vec<&str> = skipped.iter().map(|s| s.backend).collect();
            names.sort_unstable();
            names.dedup();
            println!("{}", names.join(","));
            return ExitCode::SUCCESS;
        }
        _ => {}
    }
    let Some(opts) = parse(&args) else { return usage() };
    let exe: PathBuf = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("ct-trace: cannot find my own executable: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (all, skipped) = cases(opts.selection);
    let picked: Vec<(usize, Case)> = all
        .iter()
        .enumerate()
        .filter(|(_, c)| opts.backends.is_empty() || opts.backends.iter().any(|b| b == c.backend))
        .filter(|(_, c)| !opts.except.iter().any(|b| b == c.backend))
        .filter(|(_, c)| c.work.is_kernel() || (!opts.kernels_once && (opts.all_modes || c.traced_by_default())))
        .filter_map(|(i, c)| if opts.kernels_once { c.kernels_once() } else { Some(c.clone()) }.map(|c| (i, c)))
        .filter(|(_, c)| c.label().contains(&opts.filter))
        .collect();
    for s in skipped.iter().filter(|s| opts.backends.is_empty() || opts.backends.iter().any(|b| b == s.backend)) {
        println!("skip  {}/{} (needs {}): not on this CPU, not checked here", s.subject, s.backend, s.needs);
    }
    let next = AtomicUsize::new(0);
    let failed = AtomicUsize::new(0);
    let out = Mutex::new(());
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((index, case)) = picked.get(i) else { break };
                let verdict = check(&exe, opts.selection, *index, opts.kernels_once, case, opts.fills);
                let _guard = out.lock().unwrap_or_else(|e| e.into_inner());
                match verdict {
                    Ok(line) => println!("{line}"),
                    Err(line) => {
                        failed.fetch_add(1, Ordering::Relaxed);
                        println!("{line}");
                    }
                }
            });
        }
    });
    let failed = failed.into_inner();
    let ran = picked.len();
    println!(
        "ct-trace {} ({:.0} s): {} passed, {failed} failed, {} skipped",
        opts.selection.name(),
        start.elapsed().as_secs_f64(),
        ran - failed,
        skipped.len()
    );
    if failed == 0 && ran > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
