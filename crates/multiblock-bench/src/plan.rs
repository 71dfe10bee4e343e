//! What one benchmark run measures (from the arguments: the default run,
//! `--full`, `--quick`, `--size-sweep`), as a list of jobs run under a
//! progress bar on stderr (drawn only when stderr is a terminal).

use crate::header::Machine;
use crate::measure::{ecb_entries, AUTO, PEERS};
use multiblock::hazmat::tsc_hz;
use crate::row::{Entry, Kind};
use crate::{hashes, many, openssl, short, sizes, sweep};
use crate::args::BenchArgs;
use crate::Failure;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use multiblock::hash::HashId;
use multiblock::{backends, CipherId};
use std::time::Duration;

/// Sizes and repetitions of one run.
pub struct Settings {
    pub quick: bool,
    /// `--full`: every backend, the sweeps, many streams.
    pub full: bool,
    /// Times the whole list of jobs runs, interleaved; each row keeps its
    /// fastest round, so that a burst of load from other processes does not
    /// fall on all the repetitions of one row.
    pub rounds: usize,
    /// Long-message size (`--bytes`, 1 MiB by default).
    pub bytes: usize,
    /// Long-message size for the `reference` oracles (hundreds of ticks per
    /// byte), and for the modes on `portable`: its chained modes pay a whole
    /// bitsliced batch (up to 128 blocks) for each block, thousands of ticks
    /// per byte, minutes per mode at the full size.
    pub reference_bytes: usize,
    pub reps: usize,
    pub ways: Vec<usize>,
    /// Bytes processed per repetition at each sweep point.
    pub sweep_bytes: usize,
    /// Key setups plus 64-byte messages per repetition.
    pub short_ops: usize,
    /// The OpenSSL peer's two file sizes and runs.
    pub openssl: (usize, usize, usize),
    pub tsc_span: Duration,
    /// Bytes per message in the many-streams section.
    pub many_bytes: usize,
    /// `--size-sweep`: the largest size (0: no size sweep).
    pub max_bytes: usize,
    /// Bytes hashed per repetition by a row of the hashing section (a short
    /// message is hashed that many bytes' worth of times).
    pub hash_budget: usize,
}

/// Rounds of the default run (each about 2-3 s on a 2-vCPU x86-64 machine).
pub const DEFAULT_ROUNDS: usize = 20;

enum Job {
    Ecb(CipherId, &'static str),
    /// Every mode of the cipher.
    Modes(CipherId, &'static str),
    /// CTR, CBC and the AEAD mode (the default run).
    SomeModes(CipherId, &'static str),
    Many(CipherId),
    Sizes(CipherId, Vec<&'static str>),
    #[cfg(feature = "peers")]
    Peer(CipherId),
    #[cfg(feature = "peers")]
    Aes,
    OpenSsl(Vec<CipherId>),
    Sweep(CipherId, &'static str),
    Short(CipherId, &'static str),
    MultiKey(CipherId, &'static str, bool),
    /// A hash on a backend (or `auto`): every message size, many messages.
    Hash(HashId, &'static str),
    #[cfg(feature = "peers")]
    HashPeers(HashId),
    /// HMAC-Streebog-256 of 64 B with key setup (and its peer).
    Hmac,
    /// The OpenSSL gost engine's Streebog digests of these hashes.
    HashOpenSsl(Vec<&'static str>),
}

pub struct Plan {
    pub settings: Settings,
    jobs: Vec<Job>,
}

/// Everything a run measured, for the formatters.
pub struct Report {
    pub machine: Machine,
    pub settings: Settings,
    pub entries: Vec<Entry>,
    /// Lines for the report (skipped peers and the like).
    pub notes: Vec<String>,
    /// Whether peers were measured in this build (cargo feature `peers`).
    pub peers_built: bool,
}

/// The backends of `id` this CPU runs, kept by `filter` (empty: all).
fn available(id: CipherId, filter: &[String]) -> Result<Vec<&'static str>, Failure> {
    Ok(backends(id.name())
        .map_err(Failure::input)?
        .into_iter()
        .filter(|b| b.available && (filter.is_empty() || filter.iter().any(|n| n == b.info.name)))
        .map(|b| b.info.name)
        .collect())
}

/// [`available`] and, first, [`AUTO`] (no backend forced) unless `filter`
/// names backends and not `auto`.
fn with_auto(id: CipherId, filter: &[String]) -> Result<Vec<&'static str>, Failure> {
    let auto = filter.is_empty() || filter.iter().any(|b| b == AUTO);
    Ok(auto.then_some(AUTO).into_iter().chain(available(id, filter)?).collect())
}

/// The table backends of `id` this CPU runs (`table12` before `table`).
fn tables(id: CipherId) -> Result<Vec<&'static str>, Failure> {
    let mut v: Vec<&'static str> = available(id, &[])?.into_iter().filter(|b| b.starts_with("table")).collect();
    v.sort_by_key(|b| *b == "table");
    Ok(v)
}

/// The backend the library picks for `id` on this CPU.
fn default_of(id: CipherId) -> Result<&'static str, Failure> {
    backends(id.name())
        .map_err(Failure::input)?
        .into_iter()
        .find(|b| b.is_default)
        .map(|b| b.info.name)
        .ok_or_else(|| Failure::Input(format!("{id} has no default backend on this CPU")))
}

/// The default run: each cipher's default backend against its table code
/// and the peers (long messages), 64 B with key setup on `auto` and the
/// table code, CTR, CBC and the AEAD mode on `auto` (every mode with
/// `--modes`), uBlock's four-key calls. `--backend` names the backends instead.
fn default_jobs(args: &BenchArgs, ciphers: &[CipherId]) -> Result<Vec<Job>, Failure> {
    let filter = &args.backend;
    let mut jobs = Vec::new();
    for &id in ciphers {
        let (long, short, modes): (Vec<&'static str>, Vec<&'static str>, Vec<&'static str>) = if filter.is_empty() {
            let mut long = vec![default_of(id)?];
            long.extend(tables(id)?);
            let mut short = vec![AUTO];
            short.extend(tables(id)?);
            (long, short, vec![AUTO])
        } else {
            let named = available(id, filter)?;
            let auto = filter.iter().any(|b| b == AUTO);
            let mut long = named.clone();
            if auto && !long.contains(&default_of(id)?) {
                long.insert(0, default_of(id)?);
            }
            (long, with_auto(id, filter)?, with_auto(id, filter)?)
        };
        for b in long {
            jobs.push(Job::Ecb(id, b));
        }
        #[cfg(feature = "peers")]
        if peers_wanted(filter) {
            jobs.push(Job::Peer(id));
        }
        for b in short {
            jobs.push(Job::Short(id, b));
        }
        for b in modes {
            jobs.push(if args.modes { Job::Modes(id, b) } else { Job::SomeModes(id, b) });
        }
        if short::ublock_variant(id).is_some() {
            let multi: Vec<&'static str> = if filter.is_empty() { vec![default_of(id)?] } else { available(id, filter)? };
            for b in multi.into_iter().filter(|&b| b != "reference") {
                jobs.push(Job::MultiKey(id, b, true));
                jobs.push(Job::MultiKey(id, b, false));
            }
        }
    }
    jobs.extend(reference_points(filter, ciphers));
    Ok(jobs)
}

/// Whether a run measures the peers: always unless `--backend` names
/// backends, and then if it names [`PEERS`] too.
fn peers_wanted(filter: &[String]) -> bool {
    filter.is_empty() || filter.iter().any(|b| b == PEERS)
}

/// The runs every report has when no backend is forced (or `peers` is
/// named): AES-128-CTR on the AES instructions (with the peers built in)
/// for scale, and OpenSSL's providers for the GOST R 34.12-2015 ciphers
/// among `ciphers`.
fn reference_points(filter: &[String], ciphers: &[CipherId]) -> Vec<Job> {
    let mut jobs = Vec::new();
    if !peers_wanted(filter) || ciphers.is_empty() {
        return jobs;
    }
    #[cfg(feature = "peers")]
    jobs.push(Job::Aes);
    let gost_r: Vec<CipherId> = ciphers.iter().copied().filter(|c| matches!(c, CipherId::Kuznyechik | CipherId::Magma)).collect();
    if !gost_r.is_empty() {
        jobs.push(Job::OpenSsl(gost_r));
    }
    jobs
}

/// `--full`: every backend this CPU runs (ECB, 64 B), the modes with
/// `--modes`, the many-streams and multi-key sections, every peer.
fn full_jobs(args: &BenchArgs, ciphers: &[CipherId]) -> Result<Vec<Job>, Failure> {
    let filter = &args.backend;
    let mut jobs = Vec::new();
    for &id in ciphers {
        for b in available(id, filter)? {
            jobs.push(Job::Ecb(id, b));
        }
        if args.modes {
            // `reference` only when named: it takes minutes per mode at full size.
            for b in with_auto(id, filter)?.into_iter().filter(|&b| b != "reference" || !filter.is_empty()) {
                jobs.push(Job::Modes(id, b));
            }
        }
        if filter.is_empty() || filter.iter().any(|b| b == AUTO) {
            jobs.push(Job::Many(id));
        }
        #[cfg(feature = "peers")]
        if peers_wanted(filter) {
            jobs.push(Job::Peer(id));
        }
    }
    jobs.extend(reference_points(filter, ciphers));
    for &id in ciphers {
        for b in with_auto(id, filter)? {
            jobs.push(Job::Short(id, b));
        }
    }
    for &id in ciphers.iter().filter(|&&id| short::ublock_variant(id).is_some()) {
        for b in available(id, filter)?.into_iter().filter(|&b| b != "reference") {
            jobs.push(Job::MultiKey(id, b, true));
            jobs.push(Job::MultiKey(id, b, false));
        }
    }
    Ok(jobs)
}

/// The hashes of this run: `--hash`; every hash with `--hashes`, and in a
/// run that names no cipher (unless `--no-hashes`); none in a size sweep.
fn hashes_of(args: &BenchArgs) -> Result<Vec<HashId>, Failure> {
    if !args.hash.is_empty() {
        return args.hash.iter().map(|n| HashId::from_name(n)).collect::<Result<_, _>>().map_err(Failure::input);
    }
    let by_default = args.cipher.is_empty() && !args.no_hashes && !args.size_sweep;
    Ok(if args.hashes || by_default { hashes::all() } else { Vec::new() })
}

/// The hashing section: `auto` on every size (every backend with `--full`,
/// or those `--backend` names), the peers, HMAC, and OpenSSL's Streebog.
fn hash_jobs(args: &BenchArgs, ids: &[HashId]) -> Vec<Job> {
    let filter = &args.backend;
    let auto = filter.is_empty() || filter.iter().any(|b| b == AUTO);
    let mut jobs = Vec::new();
    for &id in ids {
        if auto {
            jobs.push(Job::Hash(id, AUTO));
        }
        if args.full || !filter.is_empty() {
            for b in hashes::available(id, filter) {
                jobs.push(Job::Hash(id, b));
            }
        }
        #[cfg(feature = "peers")]
        if peers_wanted(filter) {
            jobs.push(Job::HashPeers(id));
        }
    }
    if auto && ids.contains(&HashId::Streebog256) {
        jobs.push(Job::Hmac);
    }
    let streebog: Vec<&'static str> = ids.iter().filter(|id| matches!(id, HashId::Streebog256 | HashId::Streebog512)).map(|&id| hashes::name(id)).collect();
    if peers_wanted(filter) && !streebog.is_empty() {
        jobs.push(Job::HashOpenSsl(streebog));
    }
    jobs
}

impl Plan {
    pub fn from_args(args: &BenchArgs) -> Result<Plan, Failure> {
        let hash_ids = hashes_of(args)?;
        // `--hash` without `--cipher` measures the hashes alone.
        let ciphers: Vec<CipherId> = if args.cipher.is_empty() && !args.hash.is_empty() {
            Vec::new()
        } else if args.cipher.is_empty() {
            CipherId::ALL.to_vec()
        } else {
            args.cipher.iter().map(|n| CipherId::from_name(n)).collect::<Result<_, _>>().map_err(Failure::input)?
        };
        if args.bytes == 0 {
            return Err(Failure::Input("--bytes must be at least one block (expected a positive number)".into()));
        }
        if args.reps == 0 {
            return Err(Failure::Input("--reps must be at least 1".into()));
        }
        for b in &args.backend {
            let known = b == AUTO
                || b == PEERS
                || ciphers.iter().any(|id| backends(id.name()).map(|l| l.iter().any(|s| s.info.name == b)).unwrap_or(false))
                || hash_ids.iter().any(|&id| multiblock::hash::backends(id).iter().any(|s| s.info.name == b));
            if !known {
                return Err(Failure::Input(format!("no selected cipher or hash has a backend '{}' (see `multiblock info`)", b.escape_debug())));
            }
        }
        let q = args.quick;
        let default_ways = if q { sweep::QUICK_WAYS } else { sweep::DEFAULT_WAYS };
        let settings = Settings {
            quick: q,
            full: args.full,
            rounds: args.rounds.map_or(if q || args.full || args.size_sweep { 1 } else { DEFAULT_ROUNDS }, usize::from),
            bytes: if q { args.bytes.min(64 << 10) } else { args.bytes },
            reference_bytes: args.bytes.min(if q { 8 << 10 } else { 64 << 10 }),
            reps: if q { args.reps.min(3) } else { args.reps },
            ways: if args.ways.is_empty() { default_ways.to_vec() } else { args.ways.iter().map(|&w| w as usize).collect() },
            sweep_bytes: if q { 4 << 10 } else { 16 << 10 },
            short_ops: if q { 16 } else { 64 },
            openssl: if q { (256 << 10, 2 << 20, 1) } else { (1 << 20, 8 << 20, 3) },
            tsc_span: Duration::from_millis(if q { 20 } else { 100 }),
            many_bytes: if q { 16 << 10 } else { 256 << 10 },
            max_bytes: if args.size_sweep { args.max_bytes } else { 0 },
            hash_budget: if q { 32 << 10 } else { 256 << 10 },
        };
        if args.size_sweep {
            let jobs = ciphers.iter().map(|&id| Ok(Job::Sizes(id, with_auto(id, &args.backend)?))).collect::<Result<_, Failure>>()?;
            return Ok(Plan { settings, jobs });
        }
        let mut jobs = if args.full { full_jobs(args, &ciphers)? } else { default_jobs(args, &ciphers)? };
        jobs.extend(hash_jobs(args, &hash_ids));
        if !ciphers.is_empty() && (args.full || args.sweep || !args.ways.is_empty()) {
            // The sweep: Sovyn et al. 2019's two ciphers unless --cipher names others.
            let swept: Vec<CipherId> = if args.cipher.is_empty() { sweep::PAPER_CIPHERS.to_vec() } else { ciphers.clone() };
            for &id in &swept {
                for b in with_auto(id, &args.backend)?.into_iter().filter(|&b| b != "reference") {
                    jobs.push(Job::Sweep(id, b));
                }
            }
        }
        Ok(Plan { settings, jobs })
    }

    pub fn run(self) -> Result<Report, Failure> {
        let s = &self.settings;
        let weights: Vec<u64> = self.jobs.iter().map(|j| weight(j, s)).collect();
        let total = self.jobs.iter().zip(&weights).map(|(j, w)| w * rounds_of(j, s) as u64).sum::<u64>() + 1;
        let bar = if std::io::stderr().is_terminal() {
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} [{bar:30}] {percent:>3}% about {eta} left: {wide_msg}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar.set_message("TSC frequency");
        let machine = Machine::detect(tsc_hz(s.tsc_span));
        bar.inc(1);
        let mut entries = Vec::new();
        let mut notes = Vec::new();
        for round in 0..s.rounds {
            for (job, w) in self.jobs.iter().zip(&weights) {
                if round >= rounds_of(job, s) {
                    continue;
                }
                let of = if s.rounds > 1 { format!(" (round {} of {})", round + 1, s.rounds) } else { String::new() };
                bar.set_message(describe(job) + &of);
                match job {
                    Job::Ecb(id, b) => {
                        let bytes = if *b == "reference" { s.reference_bytes } else { s.bytes };
                        entries.extend(ecb_entries(*id, b, bytes, s.reps)?);
                    }
                    Job::Many(id) => entries.extend(many::rows(*id, s.many_bytes, s.reps)?),
                    Job::Sizes(id, bks) => {
                        let mut buf = crate::buffers::zeroed(s.max_bytes.max(id.block_bytes()), "the size sweep")?;
                        for (i, b) in buf.iter_mut().enumerate() {
                            *b = i as u8;
                        }
                        for b in bks {
                            bar.set_message(format!("{id} {b} sizes"));
                            entries.extend(sizes::run(*id, b, &mut buf, s.max_bytes, s.reps)?);
                        }
                    }
                    Job::Modes(id, b) | Job::SomeModes(id, b) => {
                        let bytes = if matches!(*b, "reference" | "portable") { s.reference_bytes } else { s.bytes };
                        let only = matches!(job, Job::SomeModes(..)).then(|| crate::mode_rows::few(*id));
                        for row in crate::mode_rows::rows(*id, b, bytes.max(id.block_bytes()), s.reps, only.as_deref())? {
                            // mode_rows keeps only the best repetition: it stands for the median too.
                            let median = row.cycles_per_byte;
                            entries.push(Entry::new(Kind::Mode, row, median));
                        }
                    }
                    #[cfg(feature = "peers")]
                    Job::Peer(id) => entries.extend(crate::peers::rows(*id, s.bytes, s.reps)),
                    #[cfg(feature = "peers")]
                    Job::Aes => entries.push(crate::peers::aes_ctr(s.bytes, s.reps)),
                    Job::OpenSsl(ids) => {
                        let (small, large, reps) = s.openssl;
                        match openssl::rows(ids, small, large, reps, machine.tsc_hz) {
                            Ok(rows) => entries.extend(rows),
                            Err(note) => notes.push(note),
                        }
                    }
                    Job::Sweep(id, b) => entries.extend(sweep::run(*id, b, &s.ways, s.sweep_bytes, s.reps.max(3))?),
                    Job::Short(id, b) => entries.extend(short::single_key(*id, b, s.short_ops, s.reps)?),
                    Job::Hash(id, b) => {
                        let long = if *b == "reference" { s.reference_bytes } else { s.bytes };
                        entries.extend(hashes::rows(*id, b, long, s.hash_budget, s.reps)?);
                    }
                    #[cfg(feature = "peers")]
                    Job::HashPeers(id) => entries.extend(hashes::peers::rows(*id, s.bytes, s.hash_budget, s.reps)),
                    Job::Hmac => {
                        entries.push(hashes::hmac_row(s.hash_budget, s.reps)?);
                        #[cfg(feature = "peers")]
                        entries.push(hashes::peers::hmac_row(s.hash_budget, s.reps));
                    }
                    Job::HashOpenSsl(names) => {
                        let (small, large, reps) = s.openssl;
                        match openssl::hash_rows(names, small, large, reps, machine.tsc_hz) {
                            Ok(rows) => entries.extend(rows),
                            Err(note) => notes.push(note),
                        }
                    }
                    Job::MultiKey(id, b, is_short) => {
                        let (stream, ops) = if *is_short { (short::SHORT_BYTES, s.short_ops) } else { (s.bytes / short::STREAMS, 1) };
                        entries.extend(short::multi_key(*id, b, stream, ops, s.reps)?);
                    }
                }
                bar.inc(*w);
            }
        }
        bar.finish_and_clear();
        let entries = best_of_rounds(entries);
        Ok(Report { machine, settings: self.settings, entries, notes, peers_built: cfg!(feature = "peers") })
    }
}

/// Rounds of the hashing section at most: its rows hash about as many bytes
/// as the ciphers' (several sizes, the peers), and a few rounds already
/// give each a quiet one.
pub const HASH_ROUNDS: usize = 5;

/// The rounds `job` runs in: every round, but the OpenSSL peers (a few
/// seconds of process runs) in the first only and the hashing section in
/// the first [`HASH_ROUNDS`].
fn rounds_of(job: &Job, s: &Settings) -> usize {
    match job {
        Job::OpenSsl(_) | Job::HashOpenSsl(_) => 1,
        Job::Hash(..) | Job::Hmac => s.rounds.min(HASH_ROUNDS),
        #[cfg(feature = "peers")]
        Job::HashPeers(_) => s.rounds.min(HASH_ROUNDS),
        _ => s.rounds,
    }
}

/// One entry per measurement: across the rounds, the fastest (its median
/// the median of the rounds' medians, never below the best), in the order
/// first measured.
fn best_of_rounds(entries: Vec<Entry>) -> Vec<Entry> {
    let key = |e: &Entry| {
        let r = &e.row;
        (e.kind, r.cipher, r.backend, r.direction, r.ways, r.bytes, r.peer, r.mode, e.keys, e.streams)
    };
    let mut out: Vec<(Entry, Vec<f64>)> = Vec::new();
    for e in entries {
        match out.iter_mut().find(|(o, _)| key(o) == key(&e)) {
            Some((o, medians)) => {
                medians.push(e.median_cycles_per_byte);
                if e.row.cycles_per_byte < o.row.cycles_per_byte {
                    *o = e;
                }
            }
            None => {
                let m = e.median_cycles_per_byte;
                out.push((e, vec![m]));
            }
        }
    }
    out.into_iter()
        .map(|(mut e, mut medians)| {
            medians.sort_by(f64::total_cmp);
            e.median_cycles_per_byte = medians[medians.len() / 2].max(e.row.cycles_per_byte);
            e
        })
        .collect()
}

fn describe(job: &Job) -> String {
    match job {
        Job::Ecb(id, b) => format!("{id} {b} ECB"),
        Job::Modes(id, b) => format!("{id} {b} modes"),
        Job::SomeModes(id, b) => format!("{id} {b} CTR, CBC, AEAD"),
        Job::Many(id) => format!("{id} many streams"),
        Job::Sizes(id, _) => format!("{id} sizes"),
        #[cfg(feature = "peers")]
        Job::Peer(id) => format!("{id} peer"),
        #[cfg(feature = "peers")]
        Job::Aes => "AES-128-CTR".into(),
        Job::OpenSsl(_) => "OpenSSL gost engine".into(),
        Job::Sweep(id, b) => format!("{id} {b} sweep"),
        Job::Short(id, b) => format!("{id} {b} 64 B"),
        Job::MultiKey(id, b, _) => format!("{id} {b} multi-key"),
        Job::Hash(id, b) => format!("{id} {b} hashing"),
        #[cfg(feature = "peers")]
        Job::HashPeers(id) => format!("{id} peers"),
        Job::Hmac => "HMAC-Streebog-256".into(),
        Job::HashOpenSsl(_) => "OpenSSL gost engine digests".into(),
    }
}

/// A job's share of the progress bar: roughly its running time in tenths of
/// a second on a 2-vCPU x86-64 machine (an estimate for the bar only).
fn weight(job: &Job, s: &Settings) -> u64 {
    let long = |b: &str| if matches!(b, "reference" | "portable") { 20 } else { 1 };
    let w: u64 = match job {
        Job::Ecb(_, b) => long(b),
        Job::Modes(_, b) => 4 * long(b),
        Job::SomeModes(_, b) => 2 * long(b),
        Job::Many(_) => 30,
        Job::Sizes(..) => 200,
        #[cfg(feature = "peers")]
        Job::Peer(_) | Job::Aes => 1,
        Job::OpenSsl(_) => 30,
        Job::Sweep(..) => 3,
        Job::Short(_, b) => long(b),
        Job::MultiKey(..) => 1,
        Job::Hash(_, b) => 6 * long(b),
        #[cfg(feature = "peers")]
        Job::HashPeers(_) => 6,
        Job::Hmac => 1,
        Job::HashOpenSsl(_) => 20,
    };
    if s.quick { w.div_ceil(4) } else { w }
}
