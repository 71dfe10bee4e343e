//! `bench --short`: what a short message costs on each backend.
//!
//! - direction `key+64B`: keying a fresh cipher and encrypting 64 bytes, the
//!   one-shot short message of DESIGN.md ("64 B including key setup");
//! - directions `1blk`, `2blk`, `4blk`, `8blk`: one `encrypt_blocks` call of
//!   that many blocks on an already keyed cipher, which is what a serial
//!   mode (CBC/CFB/OFB encryption, CMAC, CCM, KW) pays per step.
//!
//! `cycles_per_byte` is ticks per byte of the call, as elsewhere; the table's
//! bytes column says how big the call was. Each figure is the best of `reps`
//! runs of a loop of `CALLS` calls, divided by `CALLS`.

use super::bench::{measure, Row};
use crate::Failure;
use multiblock::{backends, Cipher, CipherId};

/// Calls per timed loop: enough to hide the timer's own cost.
const CALLS: usize = 200;

pub fn rows(id: CipherId, only: &[String], reps: usize) -> Result<Vec<Row>, Failure> {
    let key: Vec<u8> = (0..id.key_bytes()).map(|i| (i * 7 + 1) as u8).collect();
    let n = id.block_bytes();
    let mut rows = Vec::new();
    let list = backends(id.name()).map_err(Failure::input)?;
    for b in list.iter().filter(|b| b.available) {
        let name = b.info.name;
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let mut row = |direction: &'static str, bytes: usize, ticks: u64, secs: f64| {
            rows.push(Row {
                cipher: id.name(),
                backend: name,
                constant_time: b.info.constant_time,
                direction,
                ways: b.info.ways,
                bytes,
                mb_per_s: (bytes * CALLS) as f64 / secs / 1e6,
                cycles_per_byte: ticks as f64 / (bytes * CALLS) as f64,
                peer: None,
                mode: None,
            });
        };
        let mut msg = [0x5au8; 64];
        let (ticks, secs) = measure(reps, || {
            for _ in 0..CALLS {
                let c = Cipher::new(id.name(), &key, None, Some(name)).expect("listed backend keys");
                c.encrypt_blocks(&mut msg[..64 / n * n]).expect("whole blocks");
            }
        });
        row("key+64B", 64 / n * n, ticks, secs);
        let c = Cipher::new(id.name(), &key, None, Some(name)).map_err(Failure::input)?;
        let mut buf = vec![0x33u8; 8 * n];
        for (direction, blocks) in [("1blk", 1), ("2blk", 2), ("4blk", 4), ("8blk", 8)] {
            let (ticks, secs) = measure(reps, || {
                for _ in 0..CALLS {
                    c.encrypt_blocks(&mut buf[..blocks * n]).expect("whole blocks");
                }
            });
            row(direction, blocks * n, ticks, secs);
        }
    }
    Ok(rows)
}
