//! One measurement: the foundation's [`Row`] (its JSON keys are stable) and
//! the report's [`Entry`], which adds what the report sections need.

use crate::figure::Figure;

pub struct Row {
    pub cipher: &'static str,
    pub backend: &'static str,
    pub constant_time: bool,
    pub direction: &'static str,
    /// The backend's width; in a `sweep` entry, the blocks processed per call.
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
    /// The foundation's JSON object (cipher, backend, constant_time,
    /// direction, ways, bytes, mb_per_s, cycles_per_byte, peer, mode).
    pub fn json_value(&self) -> serde_json::Value {
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
        v
    }
}

/// Which experiment an entry belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// ECB over a long message (`--bytes`), one cipher object; peers too.
    Ecb,
    /// Blocks processed per call (`--ways`), a small hot buffer (the method of Sovyn et al. 2019).
    Sweep,
    /// Key setup plus one 64-byte message, per operation.
    Short,
    /// uBlock `multi_key`: four (key, message) streams in one call.
    MultiKey,
    /// `--modes`: a mode of operation on one backend (or `auto`).
    Mode,
    /// Many messages of a serial mode under one key in the SIMD lanes
    /// (`modes::many`), and ECB over one message of the same total.
    Many,
    /// `--size-sweep` (the method of Golchevsky & Ushakov 2023): ECB encryption of one buffer of
    /// each size from `--max-bytes` halving down to one block.
    Size,
    /// `--hashes`: a hash (in `cipher`) over one message, or over many in
    /// one call (`streams`), per backend; HMAC (mode `hmac`); the peers.
    Hash,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Ecb => "ecb",
            Kind::Sweep => "sweep",
            Kind::Short => "short",
            Kind::MultiKey => "multi-key",
            Kind::Mode => "modes",
            Kind::Many => "many-streams",
            Kind::Size => "size-sweep",
            Kind::Hash => "hash",
        }
    }
}

pub struct Entry {
    pub kind: Kind,
    pub row: Row,
    /// The median of the repetitions, in ticks per byte.
    pub median_cycles_per_byte: f64,
    /// Independent (key, message) streams: 4 in `multi-key` entries, else 1.
    pub keys: usize,
    /// Messages processed together under one key (`many-streams`), else 1.
    pub streams: usize,
}

impl Entry {
    pub fn new(kind: Kind, row: Row, median_cycles_per_byte: f64) -> Entry {
        Entry { kind, row, median_cycles_per_byte, keys: 1, streams: 1 }
    }

    /// Long (bulk) or short (64 B with key setup) message.
    pub fn message(&self) -> &'static str {
        match self.kind {
            Kind::Short => "short",
            Kind::MultiKey if self.row.bytes <= 64 * self.keys => "short",
            Kind::Size | Kind::Hash if self.row.bytes <= 64 => "short",
            _ => "long",
        }
    }

    /// The foundation's keys plus `section`, `message`, `keys`,
    /// `median_cycles_per_byte` and, where a published paper has the same
    /// experiment, `paper_*` (its figure, source and CPU).
    pub fn json(&self, paper: Option<&Figure>) -> String {
        let mut v = self.row.json_value();
        v["section"] = self.kind.name().into();
        v["message"] = self.message().into();
        v["keys"] = self.keys.into();
        v["streams"] = self.streams.into();
        v["median_cycles_per_byte"] = round(self.median_cycles_per_byte, 3).into();
        if let Some(f) = paper {
            if let Some(c) = f.cycles_per_byte {
                v["paper_cycles_per_byte"] = round(c, 3).into();
            }
            if let Some(m) = f.mb_per_s {
                v["paper_mb_per_s"] = round(m, 1).into();
            }
            v["paper_implementation"] = f.implementation.as_str().into();
            v["paper_source"] = f.source.cite().into();
            v["paper_cpu"] = f.source.cpu.into();
        }
        v.to_string()
    }

    pub const CSV_HEADER: &'static str = "section,cipher,backend,constant_time,direction,ways,bytes,keys,mb_per_s,cycles_per_byte,median_cycles_per_byte,peer,mode,paper_cycles_per_byte,paper_mb_per_s,paper_source";

    pub fn csv(&self, paper: Option<&Figure>) -> String {
        let r = &self.row;
        let opt = |x: Option<f64>, d: usize| x.map(|x| format!("{x:.d$}")).unwrap_or_default();
        format!(
            "{},{},{},{},{},{},{},{},{:.2},{:.3},{:.3},{},{},{},{},{}",
            self.kind.name(),
            r.cipher,
            r.backend,
            r.constant_time,
            r.direction,
            r.ways,
            r.bytes,
            self.keys,
            r.mb_per_s,
            r.cycles_per_byte,
            self.median_cycles_per_byte,
            csv_field(r.peer.unwrap_or("")),
            r.mode.unwrap_or(if self.kind == Kind::Hash { "" } else { "ecb" }),
            opt(paper.and_then(|f| f.cycles_per_byte), 2),
            opt(paper.and_then(|f| f.mb_per_s), 1),
            csv_field(&paper.map(|f| f.source.cite()).unwrap_or_default()),
        )
    }
}

/// Quotes a CSV field that holds a comma or a quote (RFC 4180).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn round(x: f64, digits: i32) -> f64 {
    let m = 10f64.powi(digits);
    (x * m).round() / m
}
