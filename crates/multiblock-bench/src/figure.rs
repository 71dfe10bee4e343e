//! A published figure and the paper, table and CPU it comes from: what a
//! report row cites beside this CPU's number (the figures are in papers.rs).

/// Where a figure was published and measured.
pub struct Source {
    /// A short label for table cells, e.g. "Sovyn 2019 T5" (Sovyn et al. 2019, Table 5).
    pub tag: &'static str,
    pub paper: &'static str,
    pub table: &'static str,
    pub cpu: &'static str,
}

impl Source {
    pub fn cite(&self) -> String {
        format!("{}, {}", self.paper, self.table)
    }
}

/// A paper figure matched to one of our entries.
pub struct Figure {
    pub source: &'static Source,
    pub implementation: String,
    pub cycles_per_byte: Option<f64>,
    pub mb_per_s: Option<f64>,
}
