//! `--csv`: a header line, then one line per entry of the run.

use crate::papers::figure_for;
use crate::plan::Report;
use crate::row::Entry;
use crate::{out, Failure};

pub fn print(r: &Report) -> Result<(), Failure> {
    out::line(Entry::CSV_HEADER)?;
    for e in &r.entries {
        out::line(e.csv(figure_for(e).as_ref()))?;
    }
    Ok(())
}
