//! The published digests the self-test carries (`hazmat::HASH_VECTORS`) on
//! every hash backend this CPU runs: the file the self-test reads must
//! hold what the standards print.

use multiblock::hash::{backends, HashId, Hasher};
use multiblock::BackendChoice;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn built_in_digests_on_every_backend() {
    let doc: serde_json::Value = serde_json::from_str(multiblock::hazmat::HASH_VECTORS).unwrap();
    let vectors = doc["vectors"].as_array().unwrap();
    let mut seen = Vec::new();
    for v in vectors {
        let id = HashId::from_name(v["hash"].as_str().unwrap()).unwrap();
        let message = hex(v["message"].as_str().unwrap());
        let want = hex(v["digest"].as_str().unwrap());
        for b in backends(id).into_iter().filter(|b| b.available) {
            let mut h = Hasher::with_backend(id, BackendChoice::Named(b.info.name)).unwrap();
            h.update(&message);
            assert_eq!(h.finalize(), want, "{id} on {}: {}", b.info.name, v["source"]);
        }
        seen.push(id);
    }
    for id in HashId::NAMED {
        assert!(seen.contains(&id), "no built-in vector for {id}");
    }
}
