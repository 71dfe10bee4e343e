//! Runs the constant-time workloads; meant to run under Valgrind memcheck
//! (scripts/ci/ct-valgrind.sh):
//!
//!   valgrind --error-exitcode=1 ct-check ct      # must report nothing
//!   valgrind ct-check leaky                      # must report every case
//!
//! `ct`: every backend flagged constant-time that this CPU runs, for every
//! cipher (every S-box set for gost89), plus the modes that handle secrets;
//! exit 1 if memcheck reported anything. `leaky`: every backend not flagged
//! constant-time; exit 1 unless memcheck reported each of them (this shows
//! the check can fail). An optional third argument keeps only the cases
//! whose label contains it.

use multiblock_ct::cases::{cases, Selection};
use multiblock_ct::secret::{errors_so_far, on_valgrind};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let selection = match args.first().map(String::as_str) {
        Some("ct") => Selection::ConstantTime,
        Some("leaky") => Selection::Leaky,
        _ => {
            eprintln!("usage: ct-check ct|leaky [LABEL-FILTER]   (run it under valgrind)");
            return ExitCode::from(2);
        }
    };
    let filter = args.get(1).cloned().unwrap_or_default();
    if !on_valgrind() {
        eprintln!("ct-check: not running under Valgrind, so nothing is checked; see scripts/ci/ct-valgrind.sh");
        if selection == Selection::Leaky {
            return ExitCode::from(2);
        }
    }
    let (cases, skipped) = cases(selection);
    for s in &skipped {
        println!("skip  {s}: not on this CPU, NOT checked");
    }
    let mut failed = 0;
    let mut ran = 0;
    for case in cases.iter().filter(|c| c.label().contains(&filter)) {
        ran += 1;
        let before = errors_so_far();
        let outcome = case.run();
        let reports = errors_so_far() - before;
        let verdict = match (&outcome, selection, reports) {
            (Err(e), _, _) => format!("FAIL (wrong result: {e})"),
            (Ok(()), Selection::ConstantTime, 0) => "ok".to_string(),
            (Ok(()), Selection::ConstantTime, n) => format!("FAIL ({n} secret-dependent branches/addresses)"),
            (Ok(()), Selection::Leaky, 0) if on_valgrind() => "FAIL (not flagged: the check missed a leak)".to_string(),
            (Ok(()), Selection::Leaky, n) => format!("ok (flagged as expected: {n} reports)"),
        };
        if verdict.starts_with("FAIL") {
            failed += 1;
        }
        println!("{verdict}: {}", case.label());
    }
    println!("ct-check {}: {ran} cases, {failed} failed, {} skipped", args[0], skipped.len());
    if failed == 0 && ran > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
