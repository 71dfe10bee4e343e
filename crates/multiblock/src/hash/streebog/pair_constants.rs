//! The round constants C_1..C_12 and the IV's keys in the pair layouts of
//! `paired.rs`, `xmm.rs` and `neon.rs`, built at compile time.
//!
//! The three kernels hold the state X of E (RFC 6986 §7) and its key K
//! side by side in 128 bytes: eight 16-byte groups, group j holding byte j
//! of each of the eight 64-bit words of both values ([`Slots`]). They add
//! the constants to what an LPS leaves, so the tables are in the core's
//! domain and carry the k0 that a core with an offset adds to every LPS
//! ([`Domain`]). The constants are public: the kernels load them as any
//! other constant.

use super::constants::C;
use super::iv_keys::first_keys;
use crate::gf256;

/// 128 bytes of a pair layout: group j (bytes 16j..16j + 16) holds byte j
/// of word w of X at `16 j + x_at[w]` and of K `k_after_x` bytes above.
#[derive(Clone, Copy)]
pub(super) struct Slots {
    pub(super) x_at: [usize; 8],
    pub(super) k_after_x: usize,
}

/// The domain of a kernel's π core: its values are `matrix` · x, and every
/// LPS adds k0 (by output byte j) to both values, which a core that
/// returns c ⊕ an offset makes (zero for a core without one).
#[derive(Clone, Copy)]
pub(super) struct Domain {
    pub(super) matrix: u64,
    pub(super) k0: [u8; 8],
}

/// The identity domain, without an offset (`neon`'s π).
#[cfg(any(target_arch = "aarch64", test))]
pub(super) const PLAIN: Domain = Domain { matrix: gf256::IDENTITY, k0: [0; 8] };

/// C_1..C_12 in K's bytes (X's zero but in C_1), as the key chain adds
/// them after an LPS: K_(i+1) ⊕ k0 ⊕ (C_(i+1) ⊕ k0) takes k0 off, and X's
/// bytes of C_1 take it off K_1 in X = m ⊕ K_1 (X ⊕ K after a round
/// cancels it for the later rounds).
pub(super) const fn round_constants(slots: Slots, domain: Domain) -> [[u8; 128]; 12] {
    let mut t = [[0u8; 128]; 12];
    let mut i = 0;
    while i < 12 {
        let mut w = 0;
        while w < 8 {
            let mut j = 0;
            while j < 8 {
                let x = 16 * j + slots.x_at[w];
                t[i][x + slots.k_after_x] = gf256::affine_byte(domain.matrix, C[i][8 * w + j]) ^ domain.k0[j];
                if i == 0 {
                    t[i][x] = domain.k0[j];
                }
                j += 1;
            }
            w += 1;
        }
        i += 1;
    }
    t
}

/// The keys of g_0(IV, ·) ([`first_keys`]) of a `digest_bytes` digest in
/// both values' bytes, as the state's chain adds them: K_1 alone,
/// K_2..K_13 each plus the k0 that the LPS before it leaves.
pub(super) const fn iv_keys(slots: Slots, domain: Domain, digest_bytes: usize) -> [[u8; 128]; 13] {
    let keys = first_keys(digest_bytes);
    let mut t = [[0u8; 128]; 13];
    let mut i = 0;
    while i < 13 {
        let mut w = 0;
        while w < 8 {
            let mut j = 0;
            while j < 8 {
                let x = 16 * j + slots.x_at[w];
                let v = gf256::affine_byte(domain.matrix, keys[i][8 * w + j]) ^ if i == 0 { 0 } else { domain.k0[j] };
                t[i][x] = v;
                t[i][x + slots.k_after_x] = v;
                j += 1;
            }
            w += 1;
        }
        i += 1;
    }
    t
}
