//! Short messages, as Gao et al. 2024 ("Fast software implementation of
//! the block cipher uBlock algorithm", §3.3) measure them: key setup plus
//! one 64-byte message per operation; and uBlock's multi-key
//! scenario (`ublock::multi_key`: four keys, four streams, one call).

use crate::measure::{choice, entry, key_for, measure_stats, shown, Label};
use crate::row::{Entry, Kind};
use crate::Failure;
use multiblock::ublock::{self, Variant};
use multiblock::Direction;
use multiblock::{backends, BackendChoice, BackendInfo, Cipher, CipherId};
use std::hint::black_box;

/// The short message: 64 bytes, a whole number of blocks for every cipher.
pub const SHORT_BYTES: usize = 64;
/// Streams in the multi-key scenario (Gao et al.'s four keys).
pub const STREAMS: usize = 4;

fn info(id: CipherId, backend: &str) -> Result<BackendInfo, Failure> {
    backends(id.name())
        .map_err(Failure::input)?
        .into_iter()
        .find(|b| b.info.name == backend)
        .map(|b| b.info)
        .ok_or_else(|| Failure::Input(format!("{id} has no backend '{backend}'")))
}

/// Key setup and a 64-byte message, `ops` times per repetition, on
/// `backend` ([`crate::measure::AUTO`]: none forced).
pub fn single_key(id: CipherId, backend: &str, ops: usize, reps: usize) -> Result<Vec<Entry>, Failure> {
    let key = key_for(id);
    let choice = choice(backend);
    let info = Cipher::with_id(id, &key, None, choice).map_err(Failure::input)?.backend();
    let label = Label::of(Kind::Short, id.name(), shown(backend, info));
    let mut buf = [0u8; SHORT_BYTES];
    let mut out = Vec::new();
    for direction in ["encrypt", "decrypt"] {
        let stats = measure_stats(reps, || {
            for _ in 0..ops {
                let c = Cipher::with_id(id, black_box(&key), None, choice).expect("checked above");
                let r = if direction == "encrypt" { c.encrypt_blocks(&mut buf) } else { c.decrypt_blocks(&mut buf) };
                r.expect("64 bytes are whole blocks");
            }
            black_box(&buf);
        });
        out.push(entry(&label, direction, SHORT_BYTES, &stats, ops));
    }
    Ok(out)
}

pub fn ublock_variant(id: CipherId) -> Option<Variant> {
    match id {
        CipherId::Ublock128_128 => Some(Variant::U128_128),
        CipherId::Ublock128_256 => Some(Variant::U128_256),
        CipherId::Ublock256_256 => Some(Variant::U256_256),
        _ => None,
    }
}

/// Four streams of `stream_bytes` under four keys in one `multi_key` call
/// (key setup included), `ops` calls per repetition.
pub fn multi_key(id: CipherId, backend: &str, stream_bytes: usize, ops: usize, reps: usize) -> Result<Vec<Entry>, Failure> {
    let variant = ublock_variant(id).ok_or_else(|| Failure::Input(format!("{id} has no multi-key API")))?;
    let len = (stream_bytes / id.block_bytes()).max(1) * id.block_bytes();
    let keys: Vec<Vec<u8>> = (0..STREAMS).map(|s| key_for(id).iter().map(|b| b ^ s as u8).collect()).collect();
    let mut data: Vec<Vec<u8>> = (0..STREAMS).map(|s| vec![s as u8; len]).collect();
    let label = Label::of(Kind::MultiKey, id.name(), info(id, backend)?);
    let choice = BackendChoice::Named(backend);
    let mut out = Vec::new();
    for (direction, dir) in [("encrypt", Direction::Encrypt), ("decrypt", Direction::Decrypt)] {
        let mut failed = None;
        let stats = measure_stats(reps, || {
            for _ in 0..ops {
                let mut streams: Vec<(&[u8], &mut [u8])> =
                    keys.iter().map(Vec::as_slice).zip(data.iter_mut().map(Vec::as_mut_slice)).collect();
                if let Err(e) = ublock::multi_key(variant, &mut streams, dir, choice) {
                    failed = Some(e);
                }
            }
        });
        if let Some(e) = failed {
            return Err(Failure::input(e));
        }
        let mut e = entry(&label, direction, len * STREAMS, &stats, ops);
        e.keys = STREAMS;
        out.push(e);
    }
    Ok(out)
}
