//! `reference`: GOST R 34.11-2012 as RFC 6986 §6–7 write it, one byte and
//! one bit at a time: the oracle of the other backends. Not constant-time
//! (π by table, l by a branch on each bit).

use super::constants::{A, C, PI, TAU};
use super::compress::{Block, Compress};
use crate::backend::{always, Backend};
use crate::BackendInfo;

pub(super) const BACKEND: Backend<(), Box<dyn Compress>> = Backend {
    info: BackendInfo { name: "reference", constant_time: false, ways: 1, needs: "nothing" },
    available: always,
    new: |_| Box::new(Reference),
};

struct Reference;

impl Compress for Reference {
    fn g(&self, h: &mut Block, n: &Block, m: &Block) {
        *h = g(h, n, m);
    }
}

fn xor(a: &Block, b: &Block) -> Block {
    core::array::from_fn(|i| a[i] ^ b[i])
}

/// S (§6): π on each byte.
fn s(a: &Block) -> Block {
    a.map(|x| PI[x as usize])
}

/// P (§6): byte i ← byte τ(i).
fn p(a: &Block) -> Block {
    core::array::from_fn(|i| a[TAU[i] as usize])
}

/// L (§6): l on each 64-bit word; l(b) = ⊕ A[i] over the bits b_(63−i) = 1.
fn l(a: &Block) -> Block {
    let mut out = [0u8; 64];
    for (o, w) in out.chunks_exact_mut(8).zip(a.chunks_exact(8)) {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        let mut r = 0u64;
        for (i, row) in A.iter().enumerate() {
            if w >> (63 - i) & 1 == 1 {
                r ^= row;
            }
        }
        o.copy_from_slice(&r.to_le_bytes());
    }
    out
}

fn lps(a: &Block) -> Block {
    l(&p(&s(a)))
}

/// g_N(h, m) = E(LPS(h ⊕ N), m) ⊕ h ⊕ m (§7), with
/// E(K, m) = X[K13]·LPSX[K12]·…·LPSX[K1](m) and K_(i+1) = LPS(K_i ⊕ C_i).
fn g(h: &Block, n: &Block, m: &Block) -> Block {
    let mut k = lps(&xor(h, n));
    let mut state = *m;
    for c in &C {
        state = lps(&xor(&state, &k));
        k = lps(&xor(&k, c));
    }
    xor(&xor(&xor(&state, &k), h), m)
}
