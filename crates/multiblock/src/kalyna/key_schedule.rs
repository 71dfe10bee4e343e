//! The key schedule of DSTU 7624:2014 §6 (Oliynykov et al., "A New Encryption
//! Standard of Ukraine: The Kalyna Block Cipher", IACR ePrint 2015/650, §2.2).
//!
//! 1. The intermediate key K_σ: start from the constant state whose first
//!    column is nb + nk + 1 (all else 0), split the key into K_α (first nb
//!    columns) and K_ω (last nb columns; = K_α when nk = nb), and compute
//!    K_σ = ψ(ψ(ψ(state ⊞ K_α) ⊕ K_ω) ⊞ K_α), ψ = MixColumns∘ShiftRows∘SubBytes.
//! 2. Even round keys K_{2i}: tmv_i = 0x0001000100010001 << i in every column,
//!    φ = K_σ ⊞ tmv_i, and with θ_i the key material for this round,
//!    K_{2i} = ψ(ψ(θ_i ⊞ φ) ⊕ φ) ⊞ φ.
//!    θ_i is the key rotated by one 64-bit column per round key (nk = nb);
//!    for nk = 2·nb the key alternates halves and rotates by one column per
//!    pair of round keys.
//! 3. Odd round keys: K_{2i+1} = K_{2i} rotated left by 2·nb + 3 bytes
//!    (l/4 + 24 bits).
//!
//! The key is secret, so ψ is constant-time: the narrow AVX-512 kernel's
//! round (`narrow.rs`) on CPUs with AVX-512 VBMI and GFNI, else the avx2
//! backend's round on CPUs with AVX2, else the portable backend's bitsliced
//! round.

use super::variant::{Keys, Variant, MAX_BLOCK, MAX_ROUND_KEYS};
use zeroize::Zeroize;

impl Keys {
    /// `key` must be `variant.key_bytes()` long.
    pub fn new(variant: Variant, key: &[u8]) -> Keys {
        assert_eq!(key.len(), variant.key_bytes(), "{} keys are {} bytes", variant.id(), variant.key_bytes());
        let mut keys = Keys { variant, rk: [[0u8; MAX_BLOCK]; MAX_ROUND_KEYS] };
        expand(variant, key, &mut keys.rk);
        keys
    }
}

/// ⊞: column-wise addition mod 2^64 (§5.1), constant-time.
fn add_key(s: &mut [u8], k: &[u8]) {
    for (sc, kc) in s.chunks_exact_mut(8).zip(k.chunks_exact(8)) {
        let a = u64::from_le_bytes(sc.try_into().expect("8-byte column"));
        let b = u64::from_le_bytes(kc.try_into().expect("8-byte column"));
        sc.copy_from_slice(&a.wrapping_add(b).to_le_bytes());
    }
}

/// ⊕ with a round key, constant-time.
fn xor_key(s: &mut [u8], k: &[u8]) {
    for (a, b) in s.iter_mut().zip(k) {
        *a ^= b;
    }
}

/// ψ on whole blocks, in constant time (the key is secret): the narrow
/// AVX-512 round on every block at once, or the AVX2 (NEON) round (64 bytes
/// at a time) when the CPU has AVX2 (NEON), else the
/// portable backend's bitsliced round on all the blocks at once.
fn psi(v: Variant, s: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if super::backends::narrow::psi(v, s) {
        return;
    }
    // The CPU's features do not change: either every chunk runs on the SIMD
    // round or the first one already says no (and is left untouched).
    #[cfg(target_arch = "x86_64")]
    if s.chunks_mut(64).all(|chunk| super::backends::avx2::psi(v, chunk)) {
        return;
    }
    #[cfg(target_arch = "aarch64")]
    if s.chunks_mut(64).all(|chunk| super::backends::neon::psi(v, chunk)) {
        return;
    }
    super::backends::portable::psi_blocks(v, s);
}

/// Step 1: the intermediate key K_σ, for a variant of BB-byte blocks.
fn intermediate_key<const BB: usize>(v: Variant, key: &[u8]) -> [u8; BB] {
    let k_alpha = &key[..BB];
    let k_omega = &key[key.len() - BB..];
    let mut out = [0u8; BB];
    // The constant: first column (little-endian word) = nb + nk + 1.
    out[0] = (v.nb() + v.nk() + 1) as u8;
    add_key(&mut out, k_alpha);
    psi(v, &mut out);
    xor_key(&mut out, k_omega);
    psi(v, &mut out);
    add_key(&mut out, k_alpha);
    psi(v, &mut out);
    out
}

/// Fills `rk[0..=rounds]` (each the first block_bytes of an entry).
pub(crate) fn expand(v: Variant, key: &[u8], rk: &mut [[u8; MAX_BLOCK]; MAX_ROUND_KEYS]) {
    assert_eq!(key.len(), v.key_bytes(), "Kalyna key length");
    // One copy per block and key size: with the sizes fixed, the copies and
    // rotations below compile to register moves. With run-time sizes each
    // would be a memcpy/memmove call of 8-64 bytes, about 40 of them per key
    // (profiled on Zen 4: a fifth of a 64-byte message with key setup).
    match (v.block_bytes(), v.key_bytes()) {
        (16, 16) => expand_sized::<16, 16>(v, key, rk),
        (16, _) => expand_sized::<16, 32>(v, key, rk),
        (32, 32) => expand_sized::<32, 32>(v, key, rk),
        (32, _) => expand_sized::<32, 64>(v, key, rk),
        _ => expand_sized::<64, 64>(v, key, rk),
    }
}

/// [`expand`] for BB-byte blocks and KB-byte keys.
fn expand_sized<const BB: usize, const KB: usize>(v: Variant, key: &[u8], rk: &mut [[u8; MAX_BLOCK]; MAX_ROUND_KEYS]) {
    let nr = v.rounds();
    let mut sigma = intermediate_key::<BB>(v, key);

    // Step 2: even round keys K_{2i} = ψ(ψ(θ_i ⊞ φ_i) ⊕ φ_i) ⊞ φ_i, all i at
    // once (ψ works on many blocks).
    let n = nr / 2 + 1;
    let mut phi = [[0u8; BB]; MAX_ROUND_KEYS / 2 + 1];
    let mut st = [[0u8; BB]; MAX_ROUND_KEYS / 2 + 1];
    let key_columns = KB / 8;
    for i in 0..n {
        // φ_i = K_σ ⊞ tmv_i, tmv_i = 0x0001000100010001 << i in every column.
        let tmv = (0x0001_0001_0001_0001u64 << i).to_le_bytes();
        for col in phi[i].chunks_exact_mut(8) {
            col.copy_from_slice(&tmv);
        }
        add_key(&mut phi[i], &sigma);

        // θ_i: nk = nb uses the whole key rotated by i columns; nk = 2·nb
        // uses half (i mod 2) of the key rotated by ⌊i/2⌋ columns. Column c
        // of θ_i is column (half·nb + c + rotation) mod nk of the key.
        let (rot, half) = if KB == BB { (i, 0) } else { (i / 2, i % 2) };
        for (c, col) in st[i].chunks_exact_mut(8).enumerate() {
            let from = (half * BB / 8 + c + rot) % key_columns;
            col.copy_from_slice(&key[8 * from..8 * from + 8]);
        }
        add_key(&mut st[i], &phi[i]);
    }
    let (k, p) = (st[..n].as_flattened_mut(), phi[..n].as_flattened());
    psi(v, k);
    xor_key(k, p);
    psi(v, k);
    add_key(k, p);
    for (i, rki) in rk.iter_mut().step_by(2).take(n).enumerate() {
        rki[..BB].copy_from_slice(&st[i]);
    }

    // Step 3: odd round keys, K_{2i} rotated left by 2·nb + 3 = BB/4 + 3 bytes.
    for i in (1..nr).step_by(2) {
        let even: [u8; BB] = rk[i - 1][..BB].try_into().expect("BB bytes");
        rk[i][..BB].copy_from_slice(&rotate_left::<BB>(&even, BB / 4 + 3));
    }

    sigma.zeroize();
    phi.as_flattened_mut().zeroize();
    st.as_flattened_mut().zeroize();
}

/// `b` rotated left by `n` bytes: new[j] = old[(j + n) mod BB].
fn rotate_left<const BB: usize>(b: &[u8; BB], n: usize) -> [u8; BB] {
    core::array::from_fn(|j| b[(j + n) % BB])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(b: &[u8]) -> Vec<u64> {
        b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
    }

    /// Kalyna-128/128, key 00..0f: the first and last round keys of the
    /// authors' reference implementation (Roman-Oliynykov/Kalyna-reference,
    /// its key schedule run on that key).
    #[test]
    fn round_keys_128_128() {
        let key: Vec<u8> = (0..16).collect();
        let mut rk = [[0u8; MAX_BLOCK]; MAX_ROUND_KEYS];
        expand(Variant::K128_128, &key, &mut rk);
        assert_eq!(words(&rk[0][..16]), [0xe6b13a9b6b5e5016, 0xf4a082e0dc775b86]);
        assert_eq!(words(&rk[10][..16]), [0x18c4db94a8b12657, 0x6148d7e8d5f30bf6]);
    }

    #[test]
    fn odd_keys_are_rotated_even_keys() {
        for v in Variant::ALL {
            let key: Vec<u8> = (0..v.key_bytes() as u8).map(|x| x.wrapping_mul(7)).collect();
            let mut rk = [[0u8; MAX_BLOCK]; MAX_ROUND_KEYS];
            expand(v, &key, &mut rk);
            let bb = v.block_bytes();
            for i in (1..v.rounds()).step_by(2) {
                let mut e = rk[i - 1][..bb].to_vec();
                e.rotate_left(2 * v.nb() + 3);
                assert_eq!(e, rk[i][..bb]);
            }
            // Unused entries stay zero.
            for r in rk.iter().skip(v.rounds() + 1) {
                assert_eq!(r, &[0u8; MAX_BLOCK]);
            }
        }
    }
}
