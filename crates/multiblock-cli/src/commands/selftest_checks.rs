//! What the self-tests of the ciphers (`selftest.rs`) and of the hashes
//! (`selftest_hash.rs`) share: the tally of checks and the generator of
//! the thorough check's random inputs.

use crate::{out, Failure};

/// A small deterministic generator (xorshift64*) for the thorough check.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(super) fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Counts the checks; a failed one is printed as it happens.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) passed: usize,
    pub(super) failed: usize,
}

impl Tally {
    /// Records one check: `Err` holds its FAIL line.
    pub(super) fn record(&mut self, outcome: Result<(), String>) -> Result<(), Failure> {
        match outcome {
            Ok(()) => self.passed += 1,
            Err(line) => {
                self.failed += 1;
                out::line(line)?;
            }
        }
        Ok(())
    }
}
