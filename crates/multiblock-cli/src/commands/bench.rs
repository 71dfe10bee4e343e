//! `bench`: every cipher on every backend this CPU runs, both directions.
//! Reports TSC ticks per byte and MB/s, the best of `--reps` runs after a
//! warm-up, on `--bytes` of data (1 MiB by default). The JSON keys
//! (cipher, backend, constant_time, direction, ways, bytes, mb_per_s,
//! cycles_per_byte) are stable: later reports extend, never rename them.

use crate::args::BenchArgs;
use crate::{out, Failure};
use multiblock::{backends, tsc, Cipher, CipherId};
use std::time::Instant;

pub struct Row {
    pub cipher: &'static str,
    pub backend: &'static str,
    pub constant_time: bool,
    pub direction: &'static str,
    pub ways: usize,
    pub bytes: usize,
    pub mb_per_s: f64,
    pub cycles_per_byte: f64,
    /// For a peer's row: which independent implementation it is.
    pub peer: Option<&'static str>,
    /// For a mode-of-operation row: the mode (`ecb` rows leave it out).
    pub mode: Option<&'static str>,
}

impl Row {
    fn json(&self) -> String {
        let mut v = serde_json::json!({
            "cipher": self.cipher,
            "backend": self.backend,
            "constant_time": self.constant_time,
            "direction": self.direction,
            "ways": self.ways,
            "bytes": self.bytes,
            "mb_per_s": round(self.mb_per_s, 2),
            "cycles_per_byte": round(self.cycles_per_byte, 3),
        });
        if let Some(p) = self.peer {
            v["peer"] = p.into();
        }
        if let Some(m) = self.mode {
            v["mode"] = m.into();
        }
        v.to_string()
    }

    fn csv(&self) -> String {
        format!(
            "{},{},{},{},{},{},{:.2},{:.3},{},{}",
            self.cipher, self.backend, self.constant_time, self.direction, self.ways, self.bytes,
            self.mb_per_s, self.cycles_per_byte, self.peer.unwrap_or(""), self.mode.unwrap_or("ecb")
        )
    }

    fn table(&self) -> String {
        let cipher = match self.mode {
            Some(m) => format!("{} {m}", self.cipher),
            None => self.cipher.to_string(),
        };
        format!(
            "{:<16} {:<14} {:<4} {:<8} {:>5} {:>9} {:>10.1} {:>10.2}  {}",
            cipher,
            self.backend,
            if self.constant_time { "yes" } else { "no" },
            self.direction,
            self.ways,
            self.bytes,
            self.mb_per_s,
            self.cycles_per_byte,
            self.peer.map(|p| format!("peer: {p}")).unwrap_or_default()
        )
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let m = 10f64.powi(digits);
    (x * m).round() / m
}

/// Best-of-`reps` (ticks, seconds) for one pass of `f` over the buffer.
pub fn measure(reps: usize, mut f: impl FnMut()) -> (u64, f64) {
    f(); // warm-up: page in the buffer, train the predictors, ramp the clock
    let mut best = (u64::MAX, f64::MAX);
    for _ in 0..reps.max(1) {
        let t0 = Instant::now();
        let c0 = tsc::ticks();
        f();
        let c1 = tsc::ticks();
        let secs = t0.elapsed().as_secs_f64();
        if c1 - c0 < best.0 {
            best = (c1 - c0, secs);
        }
    }
    best
}

/// Measures one cipher on one backend in both directions.
pub fn measure_cipher(id: CipherId, backend: &str, bytes: usize, reps: usize) -> Result<Vec<Row>, Failure> {
    let key: Vec<u8> = (0..id.key_bytes()).map(|i| (i * 7 + 1) as u8).collect();
    let c = Cipher::new(id.name(), &key, None, Some(backend)).map_err(Failure::input)?;
    let info = c.backend();
    let len = bytes / id.block_bytes() * id.block_bytes();
    let mut buf: Vec<u8> = (0..len).map(|i| i as u8).collect();
    let mut rows = Vec::new();
    for direction in ["encrypt", "decrypt"] {
        let (ticks, secs) = measure(reps, || {
            let r = if direction == "encrypt" { c.encrypt_blocks(&mut buf) } else { c.decrypt_blocks(&mut buf) };
            r.expect("the buffer is whole blocks");
        });
        rows.push(Row {
            cipher: id.name(),
            backend: info.name,
            constant_time: info.constant_time,
            direction,
            ways: info.ways,
            bytes: len,
            mb_per_s: len as f64 / secs / 1e6,
            cycles_per_byte: ticks as f64 / len.max(1) as f64,
            peer: None,
            mode: None,
        });
    }
    Ok(rows)
}

/// Message size for the `reference` backends (the `bytes` key says which size was used).
const REFERENCE_BYTES: usize = 64 << 10;

pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    let ciphers: Vec<CipherId> = if args.cipher.is_empty() {
        CipherId::ALL.to_vec()
    } else {
        args.cipher.iter().map(|n| CipherId::from_name(n)).collect::<Result<_, _>>().map_err(Failure::input)?
    };
    if args.bytes == 0 {
        return Err(Failure::Input("--bytes must be at least one block (expected a positive number)".into()));
    }
    for b in &args.backend {
        let known = ciphers.iter().any(|id| {
            backends(id.name()).map(|l| l.iter().any(|s| s.info.name == b)).unwrap_or(false)
        });
        if !known {
            return Err(Failure::Input(format!("no selected cipher has a backend '{}' (see `multiblock info`)", b.escape_debug())));
        }
    }

    if args.csv {
        out::line("cipher,backend,constant_time,direction,ways,bytes,mb_per_s,cycles_per_byte,peer,mode")?;
    } else if !args.json {
        out::line(format!("cpu: {}", super::info::cpu_model()))?;
        out::line(format!(
            "{:<16} {:<14} {:<4} {:<8} {:>5} {:>9} {:>10} {:>10}",
            "cipher", "backend", "ct", "dir", "ways", "bytes", "MB/s", "cycles/B"
        ))?;
    }
    for id in ciphers {
        let list = backends(id.name()).map_err(Failure::input)?;
        for b in list.iter().filter(|b| b.available) {
            if !args.backend.is_empty() && !args.backend.iter().any(|n| n == b.info.name) {
                continue;
            }
            // The reference oracles run at hundreds to thousands of ticks per
            // byte: 64 KiB measures them as well as 1 MiB, in a sixteenth of the time.
            let bytes = if b.info.name == "reference" { args.bytes.min(REFERENCE_BYTES) } else { args.bytes };
            for row in measure_cipher(id, b.info.name, bytes.max(id.block_bytes()), args.reps)? {
                print_row(args, &row)?;
            }
        }
        if args.modes {
            for row in super::bench_modes::rows(id, args.bytes.max(id.block_bytes()), args.reps)? {
                print_row(args, &row)?;
            }
        }
        #[cfg(feature = "peers")]
        if args.backend.is_empty() {
            for row in super::peers::rows(id, args.bytes.max(id.block_bytes()), args.reps) {
                print_row(args, &row)?;
            }
        }
    }
    Ok(())
}

fn print_row(args: &BenchArgs, row: &Row) -> Result<(), Failure> {
    out::line(if args.json {
        row.json()
    } else if args.csv {
        row.csv()
    } else {
        row.table()
    })?;
    Ok(())
}
