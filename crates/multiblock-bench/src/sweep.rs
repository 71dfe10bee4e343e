//! Blocks processed together per call (`--sweep`, `--ways`): Tables 4-7 of
//! Sovyn et al. 2019 time one N-block call on a hot buffer (minimum over
//! many runs) and divide by its bytes. Here one repetition is enough calls on the same N-block
//! buffer to cover `target_bytes`, so that the TSC read costs little; the
//! figure includes the call overhead, as the paper's did.

use crate::measure::{choice, entry, key_for, measure_stats, shown, Label};
use crate::row::{Entry, Kind};
use crate::Failure;
use multiblock::{Cipher, CipherId};

/// The default sweep: the row labels of Sovyn et al. 2019, 1 to 64 blocks.
pub const DEFAULT_WAYS: &[usize] = &[1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64];
/// `--quick`: fewer points.
pub const QUICK_WAYS: &[usize] = &[1, 2, 4, 8, 16, 32, 64];

/// The ciphers of Sovyn et al. 2019's sweep tables (the default sweep set).
pub const PAPER_CIPHERS: &[CipherId] = &[CipherId::Gost89, CipherId::Kalyna128_128];

/// Directions the paper sweeps: GOST encryption only (Tables 4-5), Kalyna both (6-7).
pub fn directions(id: CipherId) -> &'static [&'static str] {
    match id {
        CipherId::Gost89 | CipherId::Magma => &["encrypt"],
        _ => &["encrypt", "decrypt"],
    }
}

pub fn run(id: CipherId, backend: &str, ways: &[usize], target_bytes: usize, reps: usize) -> Result<Vec<Entry>, Failure> {
    let c = Cipher::with_id(id, &key_for(id), None, choice(backend)).map_err(Failure::input)?;
    let info = shown(backend, c.backend());
    let mut out = Vec::new();
    for &n in ways {
        let bytes = n * id.block_bytes();
        let calls = (target_bytes / bytes).max(1);
        let mut buf: Vec<u8> = (0..bytes).map(|i| i as u8).collect();
        let label = Label { ways: n, ..Label::of(Kind::Sweep, id.name(), info) };
        for &direction in directions(id) {
            let stats = measure_stats(reps, || {
                for _ in 0..calls {
                    let r = if direction == "encrypt" { c.encrypt_blocks(&mut buf) } else { c.decrypt_blocks(&mut buf) };
                    r.expect("the buffer is whole blocks");
                }
            });
            out.push(entry(&label, direction, bytes, &stats, calls));
        }
    }
    Ok(out)
}
