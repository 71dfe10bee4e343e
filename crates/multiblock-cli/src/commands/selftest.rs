//! `selftest`: the ECB vectors of the library's vectors/, built into the binary, on
//! every backend this CPU runs, in both directions; then the hashes' published
//! digests on every hash backend ([`super::selftest_hash`]).

use crate::args::SelftestArgs;
use super::selftest_checks::{Rng, Tally};
use crate::{hex, out, Failure};
use multiblock::hash::HashId;
use multiblock::{backends, Cipher, CipherId};
use serde_json::Value;

const FILES: [(&str, &str); 5] = multiblock::hazmat::VECTORS;

/// Monte-Carlo vectors longer than this are left to `cargo test`.
const MAX_ITERATIONS: u64 = 10_000;

fn field<'a>(v: &'a Value, k: &str) -> Result<&'a str, String> {
    v.get(k).and_then(Value::as_str).ok_or_else(|| format!("built-in vector lacks '{k}'"))
}

/// Runs one vector on one backend; Err describes the mismatch.
fn check(v: &Value, backend: &str) -> Result<(), String> {
    let key = hex::decode(field(v, "key")?, "key")?;
    let pt = hex::decode(field(v, "plaintext")?, "plaintext")?;
    let ct = hex::decode(field(v, "ciphertext")?, "ciphertext")?;
    let iterations = v.get("iterations").and_then(Value::as_u64).unwrap_or(1);
    let sbox = v.get("sbox").and_then(Value::as_str);
    let c = Cipher::new(field(v, "cipher")?, &key, sbox, Some(backend)).map_err(|e| e.to_string())?;
    let mut buf = pt.clone();
    for _ in 0..iterations {
        c.encrypt_blocks(&mut buf).map_err(|e| e.to_string())?;
    }
    if buf != ct {
        return Err(format!("encrypt gave {}, expected {}", hex::encode(&buf), hex::encode(&ct)));
    }
    for _ in 0..iterations {
        c.decrypt_blocks(&mut buf).map_err(|e| e.to_string())?;
    }
    if buf != pt {
        return Err(format!("decrypt gave {}, expected {}", hex::encode(&buf), hex::encode(&pt)));
    }
    Ok(())
}

/// The block counts `against_reference` tries on a backend of `ways`.
fn lengths(ways: usize) -> Vec<usize> {
    let mut lengths: Vec<usize> = (0..=2 * ways + 3).collect();
    lengths.extend([4 * ways + 1, 97, 300]);
    lengths
}

/// Compares each backend of `tested` (name and ways) with `reference` on
/// random keys and data of every length 0..=2*ways+3 blocks and three
/// longer ones, both directions. The reference encrypts each key and data
/// once for every backend that takes that length: it is most of the work
/// (in an emulated CPU, nearly all). One outcome per backend.
fn against_reference(id: CipherId, tested: &[(&str, usize)], rng: &mut Rng) -> Vec<Result<(), String>> {
    let n = id.block_bytes();
    let sboxes: &[Option<&str>] = if id == CipherId::Gost89 {
        &[Some("tc26-z"), Some("test"), Some("cryptopro-a"), Some("cryptopro-b"), Some("cryptopro-c"), Some("cryptopro-d"), Some("dstu4145")]
    } else {
        &[None]
    };
    let each: Vec<Vec<usize>> = tested.iter().map(|&(_, ways)| lengths(ways)).collect();
    let mut all: Vec<usize> = each.iter().flatten().copied().collect();
    all.sort_unstable();
    all.dedup();
    let mut outcomes: Vec<Result<(), String>> = vec![Ok(()); tested.len()];
    for &sbox in sboxes {
        for &blocks in &all {
            let key = rng.bytes(id.key_bytes());
            let data = rng.bytes(blocks * n);
            let keyed = |backend| Cipher::with_id(id, &key, sbox, multiblock::BackendChoice::Named(backend)).map_err(|e| e.to_string());
            let want = keyed("reference").and_then(|slow| {
                let mut b = data.clone();
                slow.encrypt_blocks(&mut b).map_err(|e| e.to_string())?;
                Ok(b)
            });
            for ((&(backend, _), takes), outcome) in tested.iter().zip(&each).zip(outcomes.iter_mut()) {
                if outcome.is_err() || !takes.contains(&blocks) {
                    continue;
                }
                *outcome = want.clone().and_then(|want| {
                    let fast = keyed(backend)?;
                    let mut a = data.clone();
                    fast.encrypt_blocks(&mut a).map_err(|e| e.to_string())?;
                    if a != want {
                        return Err(format!("encrypt of {blocks} blocks differs from reference (sbox {sbox:?})"));
                    }
                    fast.decrypt_blocks(&mut a).map_err(|e| e.to_string())?;
                    if a != data {
                        return Err(format!("decrypt of {blocks} blocks does not invert encrypt (sbox {sbox:?})"));
                    }
                    Ok(())
                });
            }
        }
    }
    outcomes
}

fn wanted(args: &SelftestArgs, backend: &str) -> bool {
    args.backend.is_empty() || args.backend.iter().any(|b| b == backend)
}

/// Every `--backend` must name a backend that some cipher has and this CPU
/// runs: otherwise nothing would be tested and the run would look passed.
fn check_backends(args: &SelftestArgs) -> Result<(), Failure> {
    let mut all = Vec::new();
    for id in CipherId::ALL {
        all.extend(backends(id.name()).map_err(Failure::input)?);
    }
    for id in HashId::NAMED {
        all.extend(multiblock::hash::backends(id));
    }
    for name in &args.backend {
        let named: Vec<_> = all.iter().filter(|b| b.info.name == name).collect();
        if named.is_empty() {
            let mut known: Vec<&str> = all.iter().map(|b| b.info.name).collect();
            known.dedup();
            known.sort();
            known.dedup();
            return Err(Failure::Input(format!(
                "selftest: no cipher or hash has a backend '{}' (expected one of: {})",
                name.escape_debug(),
                known.join(", ")
            )));
        }
        if !named.iter().any(|b| b.available) {
            return Err(Failure::Input(format!(
                "selftest: backend '{name}' needs {}, which this CPU does not have: nothing to test",
                named[0].info.needs
            )));
        }
    }
    Ok(())
}

pub fn run(args: &SelftestArgs) -> Result<(), Failure> {
    check_backends(args)?;
    let mut tally = Tally::default();
    let mut skipped = 0usize;
    for (family, text) in FILES {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("built-in {family} vectors: {e}"))?;
        let vectors = doc["vectors"].as_array().cloned().unwrap_or_default();
        for v in vectors.iter().filter(|v| v["mode"] == "ecb") {
            let cipher = field(v, "cipher")?;
            if v.get("iterations").and_then(Value::as_u64).unwrap_or(1) > MAX_ITERATIONS {
                skipped += 1;
                continue;
            }
            for b in backends(cipher).map_err(Failure::input)?.iter().filter(|b| b.available && wanted(args, b.info.name)) {
                tally.record(check(v, b.info.name).map_err(|e| format!("FAIL {cipher} on {}: {e}", b.info.name)))?;
            }
        }
    }
    if args.thorough {
        let mut rng = Rng(0x6d75_6c74_6962_6c6b);
        for id in CipherId::ALL {
            let tested: Vec<(&str, usize)> = backends(id.name())
                .map_err(Failure::input)?
                .iter()
                .filter(|b| b.available && b.info.name != "reference" && wanted(args, b.info.name))
                .map(|b| (b.info.name, b.info.ways))
                .collect();
            if tested.is_empty() {
                continue;
            }
            for ((backend, _), outcome) in tested.iter().zip(against_reference(id, &tested, &mut rng)) {
                tally.record(outcome.map_err(|e| format!("FAIL {id} on {backend}: {e}")))?;
            }
        }
    }
    super::selftest_hash::run(args.thorough, &|b| wanted(args, b), &mut tally)?;
    let Tally { passed, failed } = tally;
    out::line(format!(
        "selftest: {passed} passed, {failed} failed ({skipped} long Monte-Carlo vectors left to cargo test)"
    ))?;
    if failed > 0 {
        return Err(Failure::Input(format!("selftest: {failed} vector checks failed")));
    }
    if passed == 0 {
        return Err(Failure::Input("selftest: no check ran".into()));
    }
    Ok(())
}
