//! The progress bar of long `encrypt` / `decrypt` / `mac` runs: bytes done,
//! throughput and time left on stderr, only when stderr is a terminal, the
//! input size is known and above [`MIN_BYTES`], and `--quiet` is not given.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Inputs up to this size finish too fast for a bar to help.
pub const MIN_BYTES: u64 = 8 << 20;

pub struct Progress(Option<ProgressBar>);

impl Progress {
    pub fn new(total: Option<u64>, quiet: bool) -> Progress {
        let show = !quiet && std::io::stderr().is_terminal();
        let bar = total.filter(|&t| show && t > MIN_BYTES).map(|t| {
            let bar = ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} eta {eta}",
            )
            .expect("a valid template");
            bar.set_style(style);
            bar
        });
        Progress(bar)
    }

    pub fn advance(&self, bytes: usize) {
        if let Some(bar) = &self.0 {
            bar.inc(bytes as u64);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
