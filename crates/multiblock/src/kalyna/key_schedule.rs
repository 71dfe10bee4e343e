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

use super::Variant;

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
    if super::narrow::psi(v, s) {
        return;
    }
    // The CPU's features do not change: either every chunk runs on the SIMD
    // round or the first one already says no (and is left untouched).
    #[cfg(target_arch = "x86_64")]
    if s.chunks_mut(64).all(|chunk| super::avx2::psi(v, chunk)) {
        return;
    }
    #[cfg(target_arch = "aarch64")]
    if s.chunks_mut(64).all(|chunk| super::neon::psi(v, chunk)) {
        return;
    }
    super::portable::psi_blocks(v, s);
}

/// Largest block in bytes (Kalyna-512).
pub(crate) const MAX_BLOCK: usize = 64;
/// Most round keys of any variant: 18 rounds + 1.
pub(crate) const MAX_ROUND_KEYS: usize = 19;

/// Rotates `b` left by `n` bytes: new[j] = old[(j + n) mod len].
fn rotate_left_bytes(b: &mut [u8], n: usize) {
    b.rotate_left(n % b.len());
}

/// Step 1: the intermediate key K_σ (`out`, block_bytes long).
fn intermediate_key(v: Variant, key: &[u8], out: &mut [u8]) {
    let bb = v.block_bytes();
    let k_alpha = &key[..bb];
    let k_omega = &key[key.len() - bb..];
    out.fill(0);
    // The constant: first column (little-endian word) = nb + nk + 1.
    out[0] = (v.nb() + v.nk() + 1) as u8;
    add_key(out, k_alpha);
    psi(v, out);
    xor_key(out, k_omega);
    psi(v, out);
    add_key(out, k_alpha);
    psi(v, out);
}

/// Fills `rk[0..=rounds]` (each the first block_bytes of an entry).
pub(crate) fn expand(v: Variant, key: &[u8], rk: &mut [[u8; MAX_BLOCK]; MAX_ROUND_KEYS]) {
    assert_eq!(key.len(), v.key_bytes(), "Kalyna key length");
    let bb = v.block_bytes();
    let kb = v.key_bytes();
    let nr = v.rounds();

    let mut sigma = [0u8; MAX_BLOCK];
    intermediate_key(v, key, &mut sigma[..bb]);

    // Step 2: even round keys K_{2i} = ψ(ψ(θ_i ⊞ φ_i) ⊕ φ_i) ⊞ φ_i, all i at
    // once (ψ works on many blocks).
    let n = nr / 2 + 1;
    let mut phi = [0u8; MAX_BLOCK * (MAX_ROUND_KEYS / 2 + 1)];
    let mut st = [0u8; MAX_BLOCK * (MAX_ROUND_KEYS / 2 + 1)];
    for i in 0..n {
        let p = &mut phi[i * bb..(i + 1) * bb];
        // φ_i = K_σ ⊞ tmv_i, tmv_i = 0x0001000100010001 << i in every column.
        let tmv_word = 0x0001_0001_0001_0001u64 << i;
        for col in p.chunks_exact_mut(8) {
            col.copy_from_slice(&tmv_word.to_le_bytes());
        }
        add_key(p, &sigma[..bb]);

        // θ_i: nk = nb uses the whole key rotated by i columns; nk = 2·nb
        // uses half (i mod 2) of the key rotated by ⌊i/2⌋ columns.
        let (rot, half) = if kb == bb { (i, 0) } else { (i / 2, i % 2) };
        let mut rotated = [0u8; MAX_BLOCK];
        rotated[..kb].copy_from_slice(key);
        rotate_left_bytes(&mut rotated[..kb], 8 * rot);
        let k = &mut st[i * bb..(i + 1) * bb];
        k.copy_from_slice(&rotated[half * bb..half * bb + bb]);
        add_key(k, p);
        rotated.fill(0);
    }
    let (k, p) = (&mut st[..n * bb], &phi[..n * bb]);
    psi(v, k);
    xor_key(k, p);
    psi(v, k);
    add_key(k, p);
    for (i, rki) in rk.iter_mut().step_by(2).take(n).enumerate() {
        rki[..bb].copy_from_slice(&st[i * bb..(i + 1) * bb]);
    }
    st.fill(0);

    // Step 3: odd round keys.
    for i in (1..nr).step_by(2) {
        let (lo, hi) = rk.split_at_mut(i);
        let k = &mut hi[0][..bb];
        k.copy_from_slice(&lo[i - 1][..bb]);
        rotate_left_bytes(k, 2 * v.nb() + 3);
    }

    sigma.fill(0);
    phi.fill(0);
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
