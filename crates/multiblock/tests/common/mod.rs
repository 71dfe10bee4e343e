//! Shared test helpers: the JSON vectors and hex.
#![allow(dead_code)]

use serde_json::Value;

pub fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(s.len() % 2 == 0, "odd hex in a vector: {s}");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// All vectors of one file in vectors/ (each file names its sources).
pub fn vectors(file: &str) -> Vec<Value> {
    let path = format!("{}/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: Value = serde_json::from_str(&text).expect("vector JSON");
    doc["vectors"].as_array().expect("vectors array").clone()
}

/// Every vector of every family, with the file it came from.
pub fn all_vectors() -> Vec<Value> {
    ["kalyna.json", "kuznyechik.json", "magma.json", "gost89.json", "ublock.json"]
        .iter()
        .flat_map(|f| vectors(f))
        .collect()
}

pub fn field<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
    /// Random data of 0..=max_blocks whole blocks.
    pub fn blocks(&mut self, block_bytes: usize, max_blocks: usize) -> Vec<u8> {
        let n = self.below(max_blocks + 1);
        self.bytes(n * block_bytes)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
