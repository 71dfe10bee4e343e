//! `bench`: the benchmark report. Every cipher on every backend this CPU
//! runs (ECB, long messages), seed 000's blocks-per-call sweeps, short
//! messages with key setup, uBlock's multi-key scenario, the peers, and the
//! seed papers' own figures beside ours (bench/papers.rs). Units: TSC ticks
//! per byte and MB/s, best (and median) of `--reps` after a warm-up.
//!
//! The foundation's JSON keys (cipher, backend, constant_time, direction,
//! ways, bytes, mb_per_s, cycles_per_byte, peer, mode) are stable: the
//! report adds keys, never renames them.

mod format_csv;
mod format_json;
mod format_text;
mod header;
pub mod measure;
mod many;
mod openssl;
mod papers;
#[cfg(feature = "peers")]
mod peers;
mod plan;
mod plot;
mod row;
mod sections;
mod short;
mod sizes;
mod sweep;
mod table;

pub use measure::measure;
pub use row::Row;

use crate::args::BenchArgs;
use crate::Failure;

pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    if let Some(t) = args.threads {
        return super::bench_threads::run(args, usize::from(t));
    }
    if let Some(path) = &args.plot {
        plot::check_target(path)?;
    }
    let plan = plan::Plan::from_args(args)?;
    let report = plan.run()?;
    if let Some(path) = &args.plot {
        plot::write(path, &report)?;
    }
    if args.json {
        format_json::print(&report)
    } else if args.csv {
        format_csv::print(&report)
    } else {
        format_text::print(&report, args.markdown)
    }
}
