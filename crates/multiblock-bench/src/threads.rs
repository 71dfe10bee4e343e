//! `multiblock-bench --threads N`: CTR streamed through [`CipherStream`] in
//! [`BUF_BYTES`] updates, as `encrypt` streams a file, on 1 thread and on N;
//! reports both rates and the scaling factor (N-thread rate / 1-thread rate).
//! Default ciphers: kuznyechik and kalyna-128-128 (the targets of the
//! "Large files and threads" README section); `--cipher` picks others.

use crate::buffers::BUF_BYTES;
use crate::args::BenchArgs;
use crate::{out, Failure};
use multiblock::modes::stream::CipherStream;
use multiblock::modes::{Mode, Params, Request};
use multiblock::{BackendChoice, CipherId};
use std::time::Instant;

/// At least this much is streamed per measurement, so that every update
/// is split and thread start-up is amortised.
const MIN_TOTAL: usize = 64 << 20;

pub fn run(args: &BenchArgs, threads: usize) -> Result<(), Failure> {
    let ids: Vec<CipherId> = if args.cipher.is_empty() {
        vec![CipherId::Kuznyechik, CipherId::Kalyna128_128]
    } else {
        args.cipher.iter().map(|n| CipherId::from_name(n)).collect::<Result<_, _>>().map_err(Failure::input)?
    };
    let total = args.bytes.max(MIN_TOTAL);
    let reps = args.reps.max(1);
    for id in ids {
        let one = rate(id, 1, total, reps)?;
        let many = rate(id, threads, total, reps)?;
        let scaling = many / one;
        let line = if args.json {
            serde_json::json!({
                "cipher": id.name(), "mode": "ctr", "bytes": total, "threads": threads,
                "mb_per_s_1": (one * 100.0).round() / 100.0, "mb_per_s_n": (many * 100.0).round() / 100.0,
                "scaling": (scaling * 1000.0).round() / 1000.0,
            })
            .to_string()
        } else if args.csv {
            format!("{},ctr,{total},{threads},{one:.2},{many:.2},{scaling:.3}", id.name())
        } else {
            format!("{:<16} ctr  1 thread {one:>9.1} MB/s  {threads} threads {many:>9.1} MB/s  scaling {scaling:.2}x", id.name())
        };
        out::line(line)?;
    }
    Ok(())
}

/// Best MB/s of `reps` runs streaming `total` bytes of CTR on `threads`.
fn rate(id: CipherId, threads: usize, total: usize, reps: usize) -> Result<f64, Failure> {
    let key: Vec<u8> = (0..id.key_bytes()).map(|i| (i * 7 + 1) as u8).collect();
    let n = id.block_bytes();
    let iv_len = if id.family() == multiblock::Family::Kalyna { n } else { n / 2 };
    let req = Request {
        cipher: id,
        mode: Mode::Ctr,
        key: &key,
        sbox: None,
        backend: BackendChoice::Auto,
        params: Params { iv: Some(vec![0x5a; iv_len]), ..Params::default() },
    };
    let buf = vec![0x33u8; BUF_BYTES];
    let mut out = Vec::with_capacity(BUF_BYTES);
    let mut best = 0f64;
    for _ in 0..reps {
        let mut s = CipherStream::encryptor(&req).and_then(|s| s.threads(threads)).map_err(Failure::input)?;
        let start = Instant::now();
        let mut done = 0;
        while done < total {
            out.clear();
            s.update(&buf, &mut out).map_err(Failure::input)?;
            done += BUF_BYTES;
        }
        let secs = start.elapsed().as_secs_f64();
        best = best.max(done as f64 / secs / 1e6);
    }
    Ok(best)
}
