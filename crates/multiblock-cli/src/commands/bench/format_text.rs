//! The report as aligned text (the default) or as Markdown (`--markdown`):
//! the header, then the sections of sections.rs.

use super::plan::Report;
use super::sections;
use crate::{out, Failure};

fn method(r: &Report) -> String {
    let s = &r.settings;
    format!(
        "{}TSC ticks per byte and MB/s (10^6 B/s), best of {} repetitions after a warm-up (median in --json); long messages {} KiB ({} KiB for the reference oracles and the modes on `portable`); sweeps {} KiB per repetition; short messages 64 B with key setup.",
        if s.quick { "--quick run. " } else { "" },
        s.reps,
        s.bytes / 1024,
        s.reference_bytes / 1024,
        s.sweep_bytes / 1024
    )
}

pub fn print(r: &Report, markdown: bool) -> Result<(), Failure> {
    let mut text = String::new();
    if markdown {
        for (k, v) in r.machine.lines() {
            text.push_str(&format!("- **{k}**: {v}\n"));
        }
        text.push_str(&format!("- **method**: {}\n\n", method(r)));
    } else {
        text.push_str("multiblock bench\n");
        for (k, v) in r.machine.lines() {
            text.push_str(&format!("{k:>9}: {v}\n"));
        }
        text.push_str(&format!("{:>9}: {}\n\n", "method", method(r)));
    }
    for t in sections::all(r) {
        text.push_str(&if markdown { t.markdown() } else { t.text() });
        text.push('\n');
    }
    out::line(text.trim_end())?;
    Ok(())
}
