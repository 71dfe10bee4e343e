//! `portable`: constant-time Streebog in plain Rust, every CPU.
//!
//! - S: π is Kuznyechik's (RFC 6986 §5), so its bitsliced circuit
//!   (`crate::bitslice::circuits`, built from the structure Biryukov, Perrin
//!   and Udovenko found in π, EUROCRYPT 2016) does the 64 bytes of a state
//!   in one call;
//! - P: a fixed byte permutation (public addresses);
//! - L: for each of the 64 bits of a word, its row of A ANDed with a mask
//!   made by arithmetic (0 − bit) and XORed in: 64 × 3 word operations per
//!   word, no table indexed by data.
//!
//! A message's first compression, g_0(IV, m), takes its keys from
//! `iv_keys.rs`: 12 LPS instead of 25.
//!
//! Count per block: 25 S (12 for the keys, 12 for the state, one for K1)
//! × ≈ 1 900 for the circuit and its transposes, and 24 L (the last
//! round's two share one, see `g`) × 8 × 64 × 3 ≈ 1 540: ≈ 84 500 word
//! operations, ≈ 1 300 per byte. Measured on
//! Zen 4 (1 MiB): ≈ 370–400 cycles/byte, against 20.6 for RustCrypto
//! `streebog`'s lookup tables (not constant-time).

use super::constants::{A, C, TAU};
use super::iv_keys::keys_of;
use super::compress::{Block, Compress, State};
use crate::backend::{always, Backend};
use crate::bitslice::{self, circuits};
use crate::BackendInfo;
use zeroize::Zeroize;

pub(super) const BACKEND: Backend<(), Box<dyn Compress>> = Backend {
    info: BackendInfo { name: "portable", constant_time: true, ways: 1, needs: "nothing" },
    available: always,
    new: |_| Box::new(Portable),
};

struct Portable;

impl Compress for Portable {
    fn g(&self, h: &mut Block, n: &Block, m: &Block) {
        let mut k = xor(h, n);
        lps(&mut k);
        let mut state = xor(m, &k);
        let (last, rounds) = C.split_last().expect("12 round constants");
        for c in rounds {
            lps(&mut state);
            k = xor(&k, c);
            lps(&mut k);
            state = xor(&state, &k);
        }
        // The last round's LPS(X) ⊕ LPS(K_12 ⊕ C_12) is L·P(S(X) ⊕
        // S(K_12 ⊕ C_12)): L and P are linear, and K_13 serves nothing else.
        k = xor(&k, last);
        sub(&mut state);
        sub(&mut k);
        state = xor(&state, &k);
        lp(&mut state);
        *h = xor(&xor(&state, h), m);
        k[..].zeroize();
        state[..].zeroize();
    }
    fn chain_from_iv(&self, digest_bytes: usize, h: &mut Block, n: &[Block], m: &[Block]) {
        if let [first, rest @ ..] = m {
            g_from_iv(digest_bytes, h, first);
            self.chain(h, &n[1..], rest);
        }
    }
    fn blocks_from_iv(&self, digest_bytes: usize, st: &mut State, data: &[u8]) {
        if let Some((first, rest)) = data.split_first_chunk::<64>() {
            g_from_iv(digest_bytes, &mut st.h, first);
            st.advance(first);
            self.blocks(st, rest);
        }
    }
    fn g_many_from_iv(&self, digest_bytes: usize, h: &mut [Block], m: &[Block]) {
        for (h, m) in h.iter_mut().zip(m) {
            g_from_iv(digest_bytes, h, m);
        }
    }
}

/// h ← g_0(IV, m), h the IV of a `digest_bytes` digest: the state's chain
/// alone, its keys from the tables.
fn g_from_iv(digest_bytes: usize, h: &mut Block, m: &Block) {
    let keys = keys_of(digest_bytes);
    let mut state = xor(m, &keys[0]);
    for k in &keys[1..] {
        lps(&mut state);
        state = xor(&state, k);
    }
    *h = xor(&xor(&state, h), m);
    state[..].zeroize();
}

#[inline(always)]
fn xor(a: &Block, b: &Block) -> Block {
    core::array::from_fn(|i| a[i] ^ b[i])
}

/// a ← L(P(S(a))).
fn lps(a: &mut Block) {
    sub(a);
    lp(a);
}

/// a ← S(a): π on every byte by its bitsliced circuit.
fn sub(a: &mut Block) {
    bitslice::sub_bytes(a, circuits::kuznyechik_pi::<u64>);
}

/// a ← L(P(a)).
fn lp(a: &mut Block) {
    let mut p: Block = core::array::from_fn(|i| a[TAU[i] as usize]);
    for (o, w) in a.as_chunks_mut::<8>().0.iter_mut().zip(p.as_chunks::<8>().0) {
        *o = l(u64::from_le_bytes(*w)).to_le_bytes();
    }
    p[..].zeroize();
}

/// l(w) = ⊕ A[i]·w_(63−i), each term masked by arithmetic.
#[inline(always)]
fn l(w: u64) -> u64 {
    let mut r = 0u64;
    for (i, row) in A.iter().enumerate() {
        r ^= row & 0u64.wrapping_sub(w >> (63 - i) & 1);
    }
    r
}
