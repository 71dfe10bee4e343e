//! The hash part of `selftest`: the published digests on every hash backend
//! this CPU runs and, when thorough, every backend against `reference` on
//! pseudo-random messages of every length to 300 bytes and a few longer.

use super::selftest_checks::{Rng, Tally};
use crate::{hex, Failure};
use multiblock::hash::{backends, HashId, Hasher};
use multiblock::BackendChoice;
use serde_json::Value;

fn digest(id: HashId, backend: &str, message: &[u8]) -> Result<Vec<u8>, String> {
    let mut h = Hasher::with_backend(id, BackendChoice::Named(backend)).map_err(|e| e.to_string())?;
    h.update(message);
    Ok(h.finalize())
}

/// Runs one published vector on one backend; Err describes the mismatch.
fn check(v: &Value, backend: &str) -> Result<(), String> {
    let field = |k: &str| v.get(k).and_then(Value::as_str).ok_or_else(|| format!("built-in hash vector lacks '{k}'"));
    let id = HashId::from_name(field("hash")?).map_err(|e| e.to_string())?;
    let message = hex::decode(field("message")?, "message")?;
    let want = hex::decode(field("digest")?, "digest")?;
    let got = digest(id, backend, &message)?;
    if got != want {
        return Err(format!("{id} gave {}, expected {}", hex::encode(&got), hex::encode(&want)));
    }
    Ok(())
}

/// Compares each backend of `tested` with `reference` for one hash on
/// random messages, the reference digest of each computed once (it is most
/// of the work). One outcome per backend.
fn against_reference(id: HashId, tested: &[&str], rng: &mut Rng) -> Vec<Result<(), String>> {
    let mut outcomes: Vec<Result<(), String>> = vec![Ok(()); tested.len()];
    for len in (0..=300).chain([1000, 4096 + 7]) {
        let message = rng.bytes(len);
        let want = digest(id, "reference", &message);
        for (backend, outcome) in tested.iter().zip(outcomes.iter_mut()) {
            if outcome.is_ok() {
                *outcome = match (digest(id, backend, &message), &want) {
                    (Ok(got), Ok(want)) if got == *want => Ok(()),
                    (Ok(_), Ok(_)) => Err(format!("{id} of {len} bytes differs from reference")),
                    (Err(e), _) => Err(e),
                    (_, Err(e)) => Err(e.clone()),
                };
            }
        }
    }
    outcomes
}

/// The hash backends of `id` this CPU runs that `wanted` accepts.
fn runnable(id: HashId, wanted: &dyn Fn(&str) -> bool) -> Vec<&'static str> {
    backends(id).into_iter().filter(|b| b.available && wanted(b.info.name)).map(|b| b.info.name).collect()
}

pub fn run(thorough: bool, wanted: &dyn Fn(&str) -> bool, tally: &mut Tally) -> Result<(), Failure> {
    let doc: Value =
        serde_json::from_str(multiblock::hazmat::HASH_VECTORS).map_err(|e| format!("built-in hash vectors: {e}"))?;
    for v in doc["vectors"].as_array().into_iter().flatten() {
        let name = v["hash"].as_str().unwrap_or_default();
        let id = HashId::from_name(name).map_err(|e| format!("built-in hash vectors: {e}"))?;
        for backend in runnable(id, wanted) {
            tally.record(check(v, backend).map_err(|e| format!("FAIL {name} on {backend}: {e}")))?;
        }
    }
    if thorough {
        let mut rng = Rng(0x6861_7368_6573_7421);
        for id in HashId::NAMED {
            let tested: Vec<&str> = runnable(id, wanted).into_iter().filter(|b| *b != "reference").collect();
            if tested.is_empty() {
                continue; // no reference digests to compute
            }
            for (backend, outcome) in tested.iter().zip(against_reference(id, &tested, &mut rng)) {
                tally.record(outcome.map_err(|e| format!("FAIL {id} on {backend}: {e}")))?;
            }
        }
    }
    Ok(())
}
