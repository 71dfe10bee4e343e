//! The key schedule of every message's first compression, computed at
//! compile time.
//!
//! Stage 2 or 3 of RFC 6986 §8 begins with g_N(IV, m) and N = 0, whose
//! keys K_1 = LPS(IV ⊕ 0), K_(i+1) = LPS(K_i ⊕ C_i) (§7) depend on the IV
//! alone. A kernel given them runs only the state's chain there: 12 LPS
//! instead of 25, and on the AVX2 kernels, which are bound by the latency
//! of one LPS, one chain with nothing beside it instead of two. Every
//! message, every HMAC key block (K ⊕ ipad, K ⊕ opad start from the IV)
//! and every KDF and TLSTREE step has one such compression.
//!
//! The keys are public (the IV and the constants), so the kernels may load
//! them as any other constant.

use super::constants::{iv, A, C, PI, TAU};
use super::compress::Block;

/// LPS (RFC 6986 §6) in const evaluation: S by π's table, P by τ, l bit by
/// bit. Only for constants: not constant-time.
const fn lps(a: &Block) -> Block {
    let mut sp = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        sp[i] = PI[a[TAU[i] as usize] as usize];
        i += 1;
    }
    let mut out = [0u8; 64];
    let mut w = 0;
    while w < 8 {
        let mut word = 0u64;
        let mut b = 0;
        while b < 8 {
            word |= (sp[8 * w + b] as u64) << (8 * b);
            b += 1;
        }
        let mut r = 0u64;
        let mut bit = 0;
        while bit < 64 {
            if word >> (63 - bit) & 1 == 1 {
                r ^= A[bit];
            }
            bit += 1;
        }
        let bytes = r.to_le_bytes();
        let mut b = 0;
        while b < 8 {
            out[8 * w + b] = bytes[b];
            b += 1;
        }
        w += 1;
    }
    out
}

/// K_1..K_13 of g_0(IV, ·) for the IV of a `digest_bytes` (32 or 64) digest,
/// in memory order.
pub(crate) const fn first_keys(digest_bytes: usize) -> [Block; 13] {
    let mut keys = [[0u8; 64]; 13];
    keys[0] = lps(&iv(digest_bytes));
    let mut i = 0;
    while i < 12 {
        let mut k = keys[i];
        let mut b = 0;
        while b < 64 {
            k[b] ^= C[i][b];
            b += 1;
        }
        keys[i + 1] = lps(&k);
        i += 1;
    }
    keys
}

/// [`first_keys`] of Streebog-256 and Streebog-512, for the kernels that
/// take them as they are (`portable`).
static FIRST_KEYS: [[Block; 13]; 2] = [first_keys(32), first_keys(64)];

/// [`FIRST_KEYS`] of a `digest_bytes` digest.
pub(crate) fn keys_of(digest_bytes: usize) -> &'static [Block; 13] {
    by_digest(digest_bytes, &FIRST_KEYS[0], &FIRST_KEYS[1])
}

/// A kernel's table of the IV of a `digest_bytes` digest (32: Streebog-256,
/// else Streebog-512), each made in the kernel's own layout.
#[inline(always)]
pub(crate) fn by_digest<T: ?Sized>(digest_bytes: usize, of_256: &'static T, of_512: &'static T) -> &'static T {
    if digest_bytes == 32 {
        of_256
    } else {
        of_512
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::streebog::reference;
    use crate::test_rng::Rng;

    /// E(K, m) ⊕ IV ⊕ m from these keys, by `lps`, against the reference's
    /// g_0(IV, m), which derives its keys itself: for both IVs on random m
    /// and on m = 0 (a wrong key shows in every digest byte).
    #[test]
    fn the_keys_make_the_reference_first_compression() {
        let kernel = (reference::BACKEND.new)(&());
        let mut rng = Rng(0x1e_4e75);
        for digest_bytes in [32, 64] {
            let keys = first_keys(digest_bytes);
            for trial in 0..8 {
                let m: Block = if trial == 0 { [0; 64] } else { rng.bytes(64).try_into().expect("64 bytes") };
                let mut x = m;
                for k in &keys[..12] {
                    for b in 0..64 {
                        x[b] ^= k[b];
                    }
                    x = lps(&x);
                }
                let iv = iv(digest_bytes);
                let got: Block = core::array::from_fn(|b| x[b] ^ keys[12][b] ^ iv[b] ^ m[b]);
                let mut want = iv;
                kernel.g(&mut want, &[0; 64], &m);
                assert_eq!(got, want, "Streebog-{}, trial {trial}", 8 * digest_bytes);
            }
        }
    }
}
