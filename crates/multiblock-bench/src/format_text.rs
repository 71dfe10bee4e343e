//! `--text`: the full report as aligned text tables (the header, then the
//! sections of sections.rs), for a terminal wide enough.

use crate::plan::Report;
use crate::{report, sections};
use crate::{out, Failure};

pub fn print(r: &Report) -> Result<(), Failure> {
    let mut text = String::from("multiblock bench\n");
    for (k, v) in r.machine.lines() {
        text.push_str(&format!("{k:>9}: {v}\n"));
    }
    text.push_str(&format!("{:>9}: {}\n\n", "method", report::method(r)));
    for t in sections::all(r) {
        text.push_str(&t.text());
        text.push('\n');
    }
    out::line(text.trim_end())?;
    Ok(())
}
