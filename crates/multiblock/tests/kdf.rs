//! The keyed Streebog constructions (`multiblock::kdf`) against the vectors
//! of RFC 7836 Appendix B, RFC 9189 Appendix A.1.1 and RFC 9367 Appendix A
//! (vectors/keyed/kdf.json), and on random inputs against independent
//! constructions written here: HMAC by the RFC 2104 formula over the
//! RustCrypto Streebog, KDF_TREE against the single-step KDF where
//! RFC 7836 §4.5 says they coincide, and TLSTREE's cache against the
//! three-KDF chain of RFC 9189 §8.1.

mod common;
use common::{hex, Rng};
use multiblock::kdf::hmac::digest::{KeyInit, Mac};
use multiblock::kdf::hmac::{self, HmacStreebog256, HmacStreebog512};
use multiblock::kdf::{kdf_gostr3411_2012_256, kdf_tree_gostr3411_2012_256, tlstree, Suite, TlsTree};
use multiblock::Error;
use serde_json::Value;
use streebog::Digest;

fn vectors() -> Vec<Value> {
    let path = format!("{}/vectors/keyed/kdf.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: Value = serde_json::from_str(&text).expect("vector JSON");
    doc["vectors"].as_array().expect("vectors array").clone()
}

fn field(v: &Value, k: &str) -> Vec<u8> {
    hex(v[k].as_str().unwrap_or_else(|| panic!("{k} missing in {v}")))
}

fn of_kind(kind: &str) -> Vec<Value> {
    let all: Vec<Value> = vectors().into_iter().filter(|v| v["kind"] == kind).collect();
    assert!(!all.is_empty(), "no {kind} vectors");
    all
}

fn suite(name: &str) -> Suite {
    *Suite::ALL.iter().find(|s| s.name() == name).unwrap_or_else(|| panic!("suite {name}"))
}

fn key32(v: &[u8]) -> [u8; 32] {
    v.try_into().expect("a 32-byte key")
}

#[test]
fn hmac_vectors() {
    for v in of_kind("hmac-streebog256") {
        let (key, msg, tag) = (field(&v, "key"), field(&v, "message"), field(&v, "tag"));
        assert_eq!(hmac::hmac_streebog256(&key, &msg)[..], tag, "{}", v["source"]);
        assert_eq!(hmac::verify_hmac_streebog256(&key, &msg, &tag), Ok(()));
        let mut bad = tag.clone();
        bad[31] ^= 1;
        assert_eq!(hmac::verify_hmac_streebog256(&key, &msg, &bad), Err(Error::Authentication));
        assert_eq!(hmac::verify_hmac_streebog256(&key, &msg, &tag[..31]), Err(Error::Authentication));
    }
    for v in of_kind("hmac-streebog512") {
        let (key, msg, tag) = (field(&v, "key"), field(&v, "message"), field(&v, "tag"));
        assert_eq!(hmac::hmac_streebog512(&key, &msg)[..], tag, "{}", v["source"]);
        assert_eq!(hmac::verify_hmac_streebog512(&key, &msg, &tag), Ok(()));
        let mut bad = tag.clone();
        bad[0] ^= 0x80;
        assert_eq!(hmac::verify_hmac_streebog512(&key, &msg, &bad), Err(Error::Authentication));
    }
}

#[test]
fn kdf_vectors() {
    for v in of_kind("kdf") {
        let out = kdf_gostr3411_2012_256(&field(&v, "key"), &field(&v, "label"), &field(&v, "seed"));
        assert_eq!(out[..], field(&v, "output"), "{}", v["source"]);
    }
    for v in of_kind("kdf-tree") {
        let expected = field(&v, "output");
        let r = v["r"].as_u64().unwrap() as usize;
        let mut out = vec![0; expected.len()];
        kdf_tree_gostr3411_2012_256(&field(&v, "key"), &field(&v, "label"), &field(&v, "seed"), r, &mut out).unwrap();
        assert_eq!(out, expected, "{}", v["source"]);
    }
}

#[test]
fn tlstree_vectors() {
    let all = of_kind("tlstree");
    for s in [Suite::KuznyechikCtrOmac, Suite::MagmaCtrOmac, Suite::KuznyechikMgmS, Suite::MagmaMgmL] {
        assert!(all.iter().any(|v| v["suite"] == s.name()), "no vector for {s:?}");
    }
    for v in &all {
        let (s, root) = (suite(v["suite"].as_str().unwrap()), key32(&field(v, "root")));
        let seq = v["seqnum"].as_u64().unwrap();
        let what = format!("{} seqnum {seq}", v["source"]);
        let expected = field(v, "key");
        assert_eq!(tlstree(&root, s, seq)[..], expected, "{what}");
        assert_eq!(TlsTree::new(&root, s).key(seq)[..], expected, "{what} (tree)");
        // The intermediate keys where the RFC prints them.
        if v.get("level1").is_some() {
            let [c1, c2, _] = s.masks();
            let k1 = kdf_gostr3411_2012_256(&root, b"level1", &(seq & c1).to_be_bytes());
            assert_eq!(k1[..], field(v, "level1"), "{what} level 1");
            let k2 = kdf_gostr3411_2012_256(&k1[..], b"level2", &(seq & c2).to_be_bytes());
            assert_eq!(k2[..], field(v, "level2"), "{what} level 2");
        }
    }
    // One tree per (suite, root), walked through the RFC's records in order:
    // the cache must give the same keys as fresh derivations.
    let mut trees: Vec<(Suite, [u8; 32], TlsTree)> = Vec::new();
    for v in &all {
        let (s, root) = (suite(v["suite"].as_str().unwrap()), key32(&field(v, "root")));
        let at = match trees.iter().position(|(ts, tr, _)| *ts == s && *tr == root) {
            Some(at) => at,
            None => {
                trees.push((s, root, TlsTree::new(&root, s)));
                trees.len() - 1
            }
        };
        let seq = v["seqnum"].as_u64().unwrap();
        assert_eq!(trees[at].2.key(seq)[..], field(v, "key"), "{} seqnum {seq} (shared tree)", v["source"]);
    }
}

/// HMAC by RFC 2104 §2, from the hash alone: H((K0 ^ opad) | H((K0 ^ ipad) | text)),
/// K0 the key (hashed first if longer than B = 64) padded with zeros to B.
fn hmac_by_formula<D: Digest>(key: &[u8], text: &[u8]) -> Vec<u8> {
    let mut k0 = [0u8; 64];
    if key.len() > 64 {
        let h = D::digest(key);
        k0[..h.len()].copy_from_slice(&h);
    } else {
        k0[..key.len()].copy_from_slice(key);
    }
    let ipad: Vec<u8> = k0.iter().map(|b| b ^ 0x36).collect();
    let opad: Vec<u8> = k0.iter().map(|b| b ^ 0x5c).collect();
    let inner = D::new().chain_update(&ipad).chain_update(text).finalize();
    D::new().chain_update(&opad).chain_update(inner).finalize().to_vec()
}

#[test]
fn hmac_matches_rfc_2104_formula_on_random_inputs() {
    let mut rng = Rng::new(0x4ac5);
    for round in 0..400 {
        // Keys around the 64-byte block (empty, shorter, exact, hashed) and messages of many lengths.
        let key_len = match round % 4 {
            0 => rng.below(200),
            1 => 63 + rng.below(3),
            _ => rng.below(70),
        };
        let key = rng.bytes(key_len);
        let msg_len = rng.below(300);
        let msg = rng.bytes(msg_len);
        let expected256 = hmac_by_formula::<streebog::Streebog256>(&key, &msg);
        let expected512 = hmac_by_formula::<streebog::Streebog512>(&key, &msg);
        let what = format!("key {} bytes, message {} bytes", key.len(), msg.len());
        assert_eq!(hmac::hmac_streebog256(&key, &msg)[..], expected256, "{what}");
        assert_eq!(hmac::hmac_streebog512(&key, &msg)[..], expected512, "{what}");
        // In pieces through the Mac trait.
        let cut = rng.below(msg.len() + 1);
        let mut mac = <HmacStreebog256 as KeyInit>::new_from_slice(&key).unwrap();
        mac.update(&msg[..cut]);
        mac.update(&msg[cut..]);
        assert_eq!(mac.finalize().into_bytes()[..], expected256, "{what} in pieces");
        let mut mac = <HmacStreebog512 as KeyInit>::new_from_slice(&key).unwrap();
        mac.update(&msg[..cut]);
        mac.update(&msg[cut..]);
        assert!(mac.verify_slice(&expected512).is_ok(), "{what} in pieces");
    }
}

/// KDF_TREE_GOSTR3411_2012_256 by its RFC 7836 §4.4 formula, from HMAC.
fn kdf_tree_by_formula(key: &[u8], label: &[u8], seed: &[u8], r: usize, len: usize) -> Vec<u8> {
    let l = (len as u64 * 8).to_be_bytes();
    let l_b: Vec<u8> = l.iter().copied().skip_while(|&b| b == 0).collect();
    let mut out = Vec::new();
    for i in 1..=len.div_ceil(32) as u64 {
        let msg = [&i.to_be_bytes()[8 - r..], label, &[0], seed, &l_b].concat();
        out.extend_from_slice(&hmac_by_formula::<streebog::Streebog256>(key, &msg));
    }
    out.truncate(len);
    out
}

#[test]
fn kdf_tree_matches_its_formula_and_the_single_step_kdf() {
    let mut rng = Rng::new(0x7ee);
    for _ in 0..150 {
        let key_len = if rng.below(2) == 0 { 32 } else { rng.below(100) };
        let key = rng.bytes(key_len);
        let (label_len, seed_len) = (rng.below(20), rng.below(40));
        let (label, seed) = (rng.bytes(label_len), rng.bytes(seed_len));
        // RFC 7836 §4.5: KDF_GOSTR3411_2012_256 is KDF_TREE with R = 1, L = 256.
        let mut tree = [0u8; 32];
        kdf_tree_gostr3411_2012_256(&key, &label, &seed, 1, &mut tree).unwrap();
        assert_eq!(tree, *kdf_gostr3411_2012_256(&key, &label, &seed));
        let r = 1 + rng.below(4);
        let len = 1 + rng.below(200);
        let mut out = vec![0; len];
        kdf_tree_gostr3411_2012_256(&key, &label, &seed, r, &mut out).unwrap();
        assert_eq!(out, kdf_tree_by_formula(&key, &label, &seed, r, len), "R = {r}, {len} bytes");
    }
    // L spans two bytes from 32 bytes of output on ([L]_b = 01 00), and the
    // KDF output differs from a longer KDF_TREE's first block, since L differs.
    let mut long = [0u8; 64];
    kdf_tree_gostr3411_2012_256(&[1; 32], b"label", b"seed", 1, &mut long).unwrap();
    assert_ne!(long[..32], kdf_gostr3411_2012_256(&[1; 32], b"label", b"seed")[..]);
}

/// TLSTREE by RFC 9189 §8.1 / RFC 9367 §4.1.2, from the public KDF.
fn tlstree_by_chain(root: &[u8; 32], suite: Suite, seq: u64) -> [u8; 32] {
    let [c1, c2, c3] = suite.masks();
    let k1 = kdf_gostr3411_2012_256(root, b"level1", &(seq & c1).to_be_bytes());
    let k2 = kdf_gostr3411_2012_256(&k1[..], b"level2", &(seq & c2).to_be_bytes());
    *kdf_gostr3411_2012_256(&k2[..], b"level3", &(seq & c3).to_be_bytes())
}

#[test]
fn tlstree_cache_matches_the_chain_on_random_sequences() {
    let mut rng = Rng::new(0x9189);
    for suite in Suite::ALL {
        let root = key32(&rng.bytes(32));
        let mut tree = TlsTree::new(&root, suite);
        let mut seq: u64 = rng.next_u64() >> rng.below(64);
        for _ in 0..200 {
            seq = match rng.below(6) {
                0 => rng.next_u64(),
                1 => seq.wrapping_sub(rng.below(300) as u64),
                2 => seq.wrapping_add(1u64 << rng.below(64)),
                _ => seq.wrapping_add(1),
            };
            assert_eq!(*tree.key(seq), tlstree_by_chain(&root, suite, seq), "{suite:?} seqnum {seq:#x}");
        }
    }
}

#[test]
fn suite_masks_are_nested_prefixes() {
    // Each mask is a run of ones from the top bit, and C_1 ⊂ C_2 ⊂ C_3 (RFC 9189 §8.1.1, RFC 9367 §4.1.2).
    for suite in Suite::ALL {
        let [c1, c2, c3] = suite.masks();
        for c in [c1, c2, c3] {
            assert_eq!(c.leading_ones() + c.trailing_zeros(), 64, "{suite:?} {c:#x}");
        }
        assert!(c1 & !c2 == 0 && c2 & !c3 == 0 && c1 != c2 && c2 != c3, "{suite:?}");
        assert!(suite.tls_name().starts_with("TLS_GOSTR341112_256_WITH_"));
    }
}
