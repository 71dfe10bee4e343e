//! `--json`: one object per line, every entry of the run (see row.rs for the keys).

use crate::papers::figure_for;
use crate::plan::Report;
use crate::{out, Failure};

pub fn print(r: &Report) -> Result<(), Failure> {
    for e in &r.entries {
        out::line(e.json(figure_for(e).as_ref()))?;
    }
    Ok(())
}
