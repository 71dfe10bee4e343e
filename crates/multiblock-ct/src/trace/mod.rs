//! Differential machine-code traces (`ct-trace`): a case runs in a child
//! process once per secret fill, with the CPU's trap flag set between its
//! probe marks, and records each instruction's address and the effective
//! address of every memory operand it touches (decoded with iced-x86, which
//! knows AVX-512, VBMI and GFNI). A constant-time backend must give the
//! same trace for every fill: any branch or memory address that depends on
//! a key or data shows up as the first difference. A gather or scatter (a
//! vector of secret-dependent addresses) is reported by itself.
//!
//! The children run with address-space randomisation off and identical
//! arguments and environment, so two runs that do the same thing put every
//! stack, heap and code address at the same place.

pub mod child;
mod decode;
pub mod report;
mod run;

pub use run::record;

/// One recorded event: an instruction address (with [`INSN`] set) or a
/// memory operand's effective address (user-space addresses are below 2^47,
/// so the tag bit cannot collide).
pub type Event = u64;

/// Tag of an instruction-address event.
pub const INSN: u64 = 1 << 63;

/// What one traced child did inside its probe regions.
#[derive(Debug, PartialEq, Eq)]
pub struct Recording {
    /// Instruction addresses (tagged [`INSN`]) each followed by the
    /// addresses of the memory it touched.
    pub events: Vec<Event>,
    /// Instructions stepped.
    pub steps: u64,
    /// Probe regions seen.
    pub regions: u64,
    /// Where the executable is mapped (to name functions in reports).
    pub exe_base: u64,
    /// Gathers/scatters met, by instruction address (a failure by itself).
    pub vsib: Vec<(u64, String)>,
    /// The case was traced only up to the step limit.
    pub truncated: bool,
}

impl Recording {
    /// The child-to-parent form: little-endian words (steps, regions,
    /// exe_base, truncated, the event count, the events, the gather count,
    /// then per gather its address, its text's length and the text padded
    /// to whole words).
    pub fn encode(&self) -> Vec<u8> {
        let mut words = vec![self.steps, self.regions, self.exe_base, self.truncated as u64, self.events.len() as u64];
        words.extend(&self.events);
        words.push(self.vsib.len() as u64);
        for (ip, text) in &self.vsib {
            let bytes = text.as_bytes();
            words.extend([*ip, bytes.len() as u64]);
            words.extend(bytes.chunks(8).map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(w)
            }));
        }
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The inverse of [`Recording::encode`]; `None` for a malformed input.
    pub fn decode(bytes: &[u8]) -> Option<Recording> {
        if !bytes.len().is_multiple_of(8) {
            return None;
        }
        let mut words = bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")));
        let mut next = || words.next();
        let (steps, regions, exe_base, truncated) = (next()?, next()?, next()?, next()? != 0);
        let n = usize::try_from(next()?).ok()?;
        let events = (0..n).map(|_| next()).collect::<Option<Vec<_>>>()?;
        let gathers = next()?;
        let mut vsib = Vec::new();
        for _ in 0..gathers {
            let (ip, len) = (next()?, usize::try_from(next()?).ok()?);
            let text: Vec<u8> = (0..len.div_ceil(8)).map(|_| next()).collect::<Option<Vec<_>>>()?
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take(len)
                .collect();
            vsib.push((ip, String::from_utf8(text).ok()?));
        }
        if next().is_some() {
            return None;
        }
        Some(Recording { events, steps, regions, exe_base, vsib, truncated })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recording_survives_the_trip_to_the_parent() {
        let rec = Recording {
            events: vec![0x401000 | INSN, 0x7fff_0000_1230, 0x401004 | INSN],
            steps: 2,
            regions: 1,
            exe_base: 0x400000,
            vsib: vec![(0x401008, "vpgatherdd ymm0,[rax+ymm1*4],ymm2".into()), (0x401010, String::new())],
            truncated: true,
        };
        let bytes = rec.encode();
        assert_eq!(Recording::decode(&bytes), Some(rec));
        assert_eq!(Recording::decode(&bytes[..bytes.len() - 8]), None);
        assert_eq!(Recording::decode(&[bytes.as_slice(), &[0; 8]].concat()), None);
    }
}
