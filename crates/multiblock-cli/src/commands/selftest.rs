//! `selftest`: the ECB vectors of tests/vectors, built into the binary, on
//! every backend this CPU runs, in both directions.

use crate::{hex, out, Failure};
use multiblock::{backends, Cipher};
use serde_json::Value;

const FILES: [(&str, &str); 5] = [
    ("kalyna", include_str!("../../../../tests/vectors/kalyna.json")),
    ("kuznyechik", include_str!("../../../../tests/vectors/kuznyechik.json")),
    ("magma", include_str!("../../../../tests/vectors/magma.json")),
    ("gost89", include_str!("../../../../tests/vectors/gost89.json")),
    ("ublock", include_str!("../../../../tests/vectors/ublock.json")),
];

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

pub fn run() -> Result<(), Failure> {
    let (mut passed, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    for (family, text) in FILES {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("built-in {family} vectors: {e}"))?;
        let vectors = doc["vectors"].as_array().cloned().unwrap_or_default();
        for v in vectors.iter().filter(|v| v["mode"] == "ecb") {
            let cipher = field(v, "cipher")?;
            if v.get("iterations").and_then(Value::as_u64).unwrap_or(1) > MAX_ITERATIONS {
                skipped += 1;
                continue;
            }
            for b in backends(cipher).map_err(Failure::input)?.iter().filter(|b| b.available) {
                match check(v, b.info.name) {
                    Ok(()) => passed += 1,
                    Err(e) => {
                        failed += 1;
                        out::line(format!("FAIL {cipher} on {}: {e}", b.info.name))?;
                    }
                }
            }
        }
    }
    out::line(format!(
        "selftest: {passed} passed, {failed} failed ({skipped} long Monte-Carlo vectors left to cargo test)"
    ))?;
    if failed > 0 {
        return Err(Failure::Input(format!("selftest: {failed} vector checks failed")));
    }
    Ok(())
}
