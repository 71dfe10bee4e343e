//! The OpenSSL gost engine (Debian `libengine-gost-openssl`) as a peer of
//! the ciphers and of Streebog, where it is installed: `openssl enc -engine
//! gost` (and `openssl dgst`) over a small and a large file, timed from
//! here; the difference of the two runs removes the process start-up, and
//! the TSC frequency turns seconds into ticks.

use crate::row::{Entry, Kind, Row};
use multiblock::CipherId;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// (our cipher, the engine's cipher, key hex, IV hex if the mode takes one).
const CIPHERS: &[(CipherId, &str, &str, Option<&str>)] = &[
    (CipherId::Kuznyechik, "kuznyechik-ecb", KEY, None),
    // The engine has no magma-ecb; CTR costs one block encryption per block too.
    (CipherId::Magma, "magma-ctr", KEY, Some("01020304")),
];
const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";

/// Whether `openssl` runs and has the gost engine: `Err` holds the reason.
pub fn available() -> Result<(), String> {
    let out = Command::new("openssl")
        .args(["engine", "gost", "-c"])
        .stdin(Stdio::null())
        .output()
        .map_err(|_| "openssl not installed: OpenSSL gost engine skipped".to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    if out.status.success() && text.contains("kuznyechik-ecb") {
        Ok(())
    } else {
        Err("gost engine not installed (Debian: libengine-gost-openssl): OpenSSL peers skipped".into())
    }
}

/// Seconds of one `openssl enc` run over `input`, or `None` if it failed.
fn run_once(cipher: &str, key: &str, iv: Option<&str>, input: &Path) -> Option<f64> {
    let mut cmd = Command::new("openssl");
    cmd.args(["enc", "-engine", "gost", &format!("-{cipher}"), "-K", key, "-nopad", "-out", "/dev/null", "-in"]);
    cmd.arg(input);
    if let Some(iv) = iv {
        cmd.args(["-iv", iv]);
    }
    let t0 = Instant::now();
    let status = cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status().ok()?;
    status.success().then(|| t0.elapsed().as_secs_f64())
}

/// A scratch file removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str, bytes: usize) -> Option<Scratch> {
        let p = std::env::temp_dir().join(format!("multiblock-bench-{}-{tag}.bin", std::process::id()));
        std::fs::write(&p, vec![0x5au8; bytes]).ok()?;
        Some(Scratch(p))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Encryption speed of each selected engine cipher: `small` and `large`
/// byte files, best of `reps` runs each. `Err` is a note for the report.
pub fn rows(selected: &[CipherId], small: usize, large: usize, reps: usize, tsc_hz: f64) -> Result<Vec<Entry>, String> {
    available()?;
    let (Some(a), Some(b)) = (Scratch::new("small", small), Scratch::new("large", large)) else {
        return Err("cannot write a scratch file in the temporary directory: OpenSSL peers skipped".into());
    };
    let mut out = Vec::new();
    for &(id, name, key, iv) in CIPHERS.iter().filter(|c| selected.contains(&c.0)) {
        let best = |p: &Path| (0..reps.max(1)).filter_map(|_| run_once(name, key, iv, p)).reduce(f64::min);
        let (Some(ta), Some(tb)) = (best(&a.0), best(&b.0)) else {
            return Err(format!("openssl enc -{name} failed: OpenSSL peers skipped"));
        };
        if tb <= ta {
            continue; // too noisy to tell: leave the row out rather than print nonsense
        }
        let bytes_per_s = (large - small) as f64 / (tb - ta);
        out.push(Entry::new(
            Kind::Ecb,
            Row {
                cipher: id.name(),
                backend: "openssl-gost",
                constant_time: false,
                direction: "encrypt",
                ways: 1,
                bytes: large,
                mb_per_s: bytes_per_s / 1e6,
                cycles_per_byte: tsc_hz / bytes_per_s,
                peer: Some(if id == CipherId::Magma { "OpenSSL gost engine (magma-ctr)" } else { "OpenSSL gost engine (kuznyechik-ecb)" }),
                mode: (id == CipherId::Magma).then_some("ctr"),
            },
            tsc_hz / bytes_per_s,
        ));
    }
    Ok(out)
}

/// The engine's Streebog digests (`openssl dgst -engine gost -md_gost12_*`)
/// of the selected hashes, timed as [`rows`] times `enc`.
const DIGESTS: &[(&str, &str)] = &[("streebog-256", "md_gost12_256"), ("streebog-512", "md_gost12_512")];

/// Seconds of one `openssl dgst` run over `input`, or `None` if it failed.
fn digest_once(md: &str, input: &Path) -> Option<f64> {
    let mut cmd = Command::new("openssl");
    cmd.args(["dgst", "-engine", "gost", &format!("-{md}"), "-r"]).arg(input);
    let t0 = Instant::now();
    let status = cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status().ok()?;
    status.success().then(|| t0.elapsed().as_secs_f64())
}

/// Hashing speed of each selected Streebog through the engine: `small` and
/// `large` byte files, best of `reps` runs each. `Err` is a note for the report.
pub fn hash_rows(selected: &[&'static str], small: usize, large: usize, reps: usize, tsc_hz: f64) -> Result<Vec<Entry>, String> {
    available()?;
    let (Some(a), Some(b)) = (Scratch::new("hash-small", small), Scratch::new("hash-large", large)) else {
        return Err("cannot write a scratch file in the temporary directory: OpenSSL hash peers skipped".into());
    };
    let mut out = Vec::new();
    for &(name, md) in DIGESTS.iter() {
        let Some(&cipher) = selected.iter().find(|s| **s == name) else { continue };
        let best = |p: &Path| (0..reps.max(1)).filter_map(|_| digest_once(md, p)).reduce(f64::min);
        let (Some(ta), Some(tb)) = (best(&a.0), best(&b.0)) else {
            return Err(format!("openssl dgst -{md} failed: OpenSSL hash peers skipped"));
        };
        if tb <= ta {
            continue; // too noisy to tell
        }
        let bytes_per_s = (large - small) as f64 / (tb - ta);
        out.push(Entry::new(
            Kind::Hash,
            Row {
                cipher,
                backend: "openssl-gost",
                constant_time: false,
                direction: "hash",
                ways: 1,
                bytes: large,
                mb_per_s: bytes_per_s / 1e6,
                cycles_per_byte: tsc_hz / bytes_per_s,
                peer: Some(if md.ends_with("256") { "OpenSSL gost engine (md_gost12_256)" } else { "OpenSSL gost engine (md_gost12_512)" }),
                mode: None,
            },
            tsc_hz / bytes_per_s,
        ));
    }
    Ok(out)
}
