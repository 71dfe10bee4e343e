//! Byte-sliced multi-block Kuznyechik, written once for every vector width.
//!
//! Layout: a batch of B blocks (B = bytes per vector register) is held in 16
//! registers, register j = byte j (printed order) of all B blocks. The block
//! order inside a register is whatever the transposition gives; every round
//! treats all lanes alike, and the inverse transposition restores it.
//!
//! Round (GOST R 34.12-2015 §4.4): S is one call of [`Machine::sub`] per
//! register. L = R^16 is run as the LFSR itself, in place on the 16 registers
//! (see [`step`]): with x[j] = byte j, step n = 0..15 does
//!     x[15-n] ^= Σ_{i<15} c_i · x[(i-n) mod 16]          (c = ℓ's coefficients)
//! and after the 16 steps x holds L(x) in the same register order. Each step
//! is an involution, so L⁻¹ is the same steps in the order n = 15..0.
//! ℓ's coefficients are a palindrome (c_i = c_{14-i}), so a step is 6 pair
//! XORs, 7 multiplications by a constant (148, 32, 133, 16, 194, 192, 251) and
//! a sum of 7 products + 3 terms of coefficient 1 + 1 constant = 5 three-way
//! XORs: 18 vector operations, 288 per L.
//!
//! Round keys cost nothing extra: the key added after L is folded into the
//! per-step constants (a step writes its byte already keyed; later steps that
//! read a keyed byte correct for it through their constant, see
//! [`step_constants`]). Decryption uses L⁻¹(X[K](a)) = L⁻¹(a) ⊕ L⁻¹(K).

use super::constants::L_COEFFS;
use super::linear::Linear;
use super::transforms::{l_inv, Block};
use crate::gf256::{self, KUZNYECHIK};
use super::keys::Keys;
use crate::kernel::BatchCipher;
use crate::simd::{Narrow, Simd};
use std::sync::OnceLock;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The seven non-unit coefficients of ℓ after pairing c_i = c_{14-i}:
/// `MULS[k]` multiplies the pair (k, 14-k) for k < 6, `MULS[6]` byte 7.
pub(crate) const MULS: [u8; 7] = [148, 32, 133, 16, 194, 192, 251];

/// The 8×8 bit matrix of x ↦ c·x in GF(2^8)/0x1c3 for `vgf2p8affineqb`.
pub(crate) const fn mul_matrix(c: u8) -> u64 {
    crate::gf256::mul_matrix(c, crate::gf256::KUZNYECHIK)
}

/// `mul_matrix` of each of [`MULS`].
pub(crate) const MUL_MATRICES: [u64; 7] = {
    let mut m = [0u64; 7];
    let mut k = 0;
    while k < 7 {
        m[k] = mul_matrix(MULS[k]);
        k += 1;
    }
    m
};

/// How a machine runs the byte-wise maps of a round: π, π⁻¹ and the
/// multiplications by ℓ's constants (`layers.rs` has one per instruction
/// set; each is generic over the machines that have it).
pub(crate) trait Layer<M: Simd>: Send + Sync + 'static {
    /// π on each byte.
    fn sub(m: M, x: M::V) -> M::V;
    /// π⁻¹ on each byte.
    fn sub_inv(m: M, x: M::V) -> M::V;
    /// Each byte times `MULS[k]` in GF(2^8)/0x1C3.
    fn mul(m: M, x: M::V, k: usize) -> M::V;
}

/// Per-batch constants derived from the round keys.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct SlicedKeys {
    /// K1, byte j repeated 8 times.
    k1: [u64; 16],
    /// Step constants of the 9 encryption rounds (L then X[K2..K10]).
    enc: [[u64; 16]; 9],
    /// Step constants of the 9 decryption rounds (L⁻¹ then X[L⁻¹(K10..K2)]).
    dec: [[u64; 16]; 9],
}

fn splat_byte(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// The slot written by step n and the slot that coefficient i reads.
const fn slot_written(n: usize) -> usize {
    15 - n
}
const fn slot_read(i: usize, n: usize) -> usize {
    (i + 16 - n) % 16
}

/// Constants C_n that make the steps, run in `order`, produce L(a) ⊕ kk
/// (or L⁻¹(a) ⊕ kk) instead of L(a). Step n stores z = true ⊕ kk[p] into its
/// slot p; a later step that reads a stored z at slot q with coefficient c
/// gets c·kk[q] too much, which its constant cancels.
pub(crate) fn step_constants(kk: &Block, order: impl Iterator<Item = usize>) -> [u8; 16] {
    let mut written = [false; 16];
    let mut c = [0u8; 16];
    for n in order {
        let p = slot_written(n);
        let mut v = kk[p];
        for (i, &coef) in L_COEFFS.iter().enumerate().take(15) {
            let q = slot_read(i, n);
            if written[q] {
                v ^= gf256::mul(coef, kk[q], KUZNYECHIK);
            }
        }
        written[p] = true;
        c[n] = v;
    }
    c
}

impl SlicedKeys {
    pub(crate) fn new(rk: &[Block; 10]) -> SlicedKeys {
        let mut k = SlicedKeys { k1: [0; 16], enc: [[0; 16]; 9], dec: [[0; 16]; 9] };
        for j in 0..16 {
            k.k1[j] = splat_byte(rk[0][j]);
        }
        // Both maps are GF(2^8)-linear in the round key: tabulated once, then
        // applied in constant time (see `linear.rs`).
        static ENC: OnceLock<Linear> = OnceLock::new();
        static DEC: OnceLock<Linear> = OnceLock::new();
        let enc = ENC.get_or_init(|| Linear::new(|kk| step_constants(kk, 0..16)));
        let dec = DEC.get_or_init(|| {
            Linear::new(|kk| {
                let mut dk = *kk;
                l_inv(&mut dk);
                step_constants(&dk, (0..16).rev())
            })
        });
        for r in 0..9 {
            let mut c = enc.apply(&rk[r + 1]);
            for n in 0..16 {
                k.enc[r][n] = splat_byte(c[n]);
            }
            let mut d = dec.apply(&rk[9 - r]);
            for n in 0..16 {
                k.dec[r][n] = splat_byte(d[n]);
            }
            c.zeroize();
            d.zeroize();
        }
        k
    }
}

/// The byte-sliced cipher of one key, for backends on layer `S`.
pub(crate) struct Sliced<S> {
    keys: SlicedKeys,
    layer: core::marker::PhantomData<fn() -> S>,
}

/// A batch is 16 registers of M (one block per register byte); a tail of
/// up to half that runs on the half-width machine.
impl<M: Narrow, S: Layer<M> + Layer<M::Half>> BatchCipher<M> for Sliced<S> {
    type Keys = Keys;
    const BATCH_BYTES: usize = 16 * M::BYTES;
    const GRANULE_BYTES: usize = 8 * M::BYTES;

    fn new(_: M, keys: &Keys) -> Self {
        Sliced { keys: SlicedKeys::new(&keys.rk), layer: core::marker::PhantomData }
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        self.crypt::<M, false>(m, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        self.crypt::<M, true>(m, batch)
    }
}

/// The byte-sliced cipher for machines without a half width (NEON): every
/// batch is 16 whole registers, a tail zero-padded to one.
#[allow(dead_code)] // the aarch64 backend's (tested on the emulator everywhere)
pub(crate) struct SlicedWhole<S>(Sliced<S>);

impl<M: Simd, S: Layer<M>> BatchCipher<M> for SlicedWhole<S> {
    type Keys = Keys;
    const BATCH_BYTES: usize = 16 * M::BYTES;
    const GRANULE_BYTES: usize = 16 * M::BYTES;

    fn new(_: M, keys: &Keys) -> Self {
        SlicedWhole(Sliced { keys: SlicedKeys::new(&keys.rk), layer: core::marker::PhantomData })
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        encrypt_batch::<M, S>(m, &self.0.keys, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        decrypt_batch::<M, S>(m, &self.0.keys, batch)
    }
}

impl<S> Sliced<S> {
    /// A whole batch on M, a tail on the half-width machine.
    #[inline(always)]
    fn crypt<M: Narrow, const DECRYPT: bool>(&self, m: M, batch: &mut [u8])
    where
        S: Layer<M> + Layer<M::Half>,
    {
        match (batch.len() == 16 * M::BYTES, DECRYPT) {
            (true, false) => encrypt_batch::<M, S>(m, &self.keys, batch),
            (true, true) => decrypt_batch::<M, S>(m, &self.keys, batch),
            (false, false) => encrypt_batch::<M::Half, S>(m.half(), &self.keys, batch),
            (false, true) => decrypt_batch::<M::Half, S>(m.half(), &self.keys, batch),
        }
    }
}

/// One LFSR step n (see the module comment), keyed by constant `c`.
/// The critical input is the byte written by the previous step; it enters
/// through the pair of coefficient 148 and the last XOR.
#[inline(always)]
fn step<M: Simd, S: Layer<M>, const N: usize>(m: M, x: &mut [M::V; 16], c: u64) {
    let q = |i: usize| x[slot_read(i, N)];
    let pair = |i: usize| m.xor(q(i), q(14 - i));
    let p1 = S::mul(m, pair(1), 1);
    let p2 = S::mul(m, pair(2), 2);
    let p3 = S::mul(m, pair(3), 3);
    let p4 = S::mul(m, pair(4), 4);
    let p5 = S::mul(m, pair(5), 5);
    let p7 = S::mul(m, q(7), 6);
    let s = m.xor3(p1, p2, p3);
    let s = m.xor3(s, p4, p5);
    let s = m.xor3(s, p7, q(6));
    let s = m.xor3(s, q(8), m.splat64(c));
    let p0 = S::mul(m, pair(0), 0);
    let w = slot_written(N);
    x[w] = m.xor3(s, x[w], p0);
}

/// The 16 steps, in the order given.
macro_rules! steps {
    ($m:ident, $x:ident, $c:ident, $($n:literal)+) => {
        $(step::<M, S, $n>($m, $x, $c[$n]);)+
    };
}

/// L (steps 0..15) with the output key folded into `c`.
#[inline(always)]
fn lfsr<M: Simd, S: Layer<M>>(m: M, x: &mut [M::V; 16], c: &[u64; 16]) {
    steps!(m, x, c, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
}

/// L⁻¹ (steps 15..0) with the output key folded into `c`.
#[inline(always)]
fn lfsr_inv<M: Simd, S: Layer<M>>(m: M, x: &mut [M::V; 16], c: &[u64; 16]) {
    steps!(m, x, c, 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0);
}

/// One unpack stage: registers i and i|BIT (i without BIT) → lo and hi.
#[inline(always)]
fn stage<M: Simd, const W: usize, const BIT: usize>(m: M, a: &mut [M::V; 16]) {
    for i in 0..16 {
        if i & BIT == 0 {
            let (u, v) = (a[i], a[i | BIT]);
            a[i] = m.unpack_lo::<W>(u, v);
            a[i | BIT] = m.unpack_hi::<W>(u, v);
        }
    }
}

/// 16×16 byte transpose inside each 16-byte lane: afterwards register
/// `BITREV[c]` holds byte c of the inputs, input register r at byte r.
/// (Stage s moves lane byte-address bit 3-s into register-index bit s.)
#[inline(always)]
fn transpose<M: Simd>(m: M, a: &mut [M::V; 16]) {
    stage::<M, 1, 1>(m, a);
    stage::<M, 2, 2>(m, a);
    stage::<M, 4, 4>(m, a);
    stage::<M, 8, 8>(m, a);
}

/// 4-bit bit reversal.
const BITREV: [usize; 16] = [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15];

/// Loads a batch (16·BLOCKS bytes) into byte-sliced form.
#[inline(always)]
fn load_sliced<M: Simd>(m: M, data: &[u8]) -> [M::V; 16] {
    let n = M::BYTES;
    let mut a = [m.zero(); 16];
    for (r, v) in a.iter_mut().enumerate() {
        *v = m.load(&data[r * n..(r + 1) * n]);
    }
    transpose(m, &mut a);
    let mut x = a;
    for (j, v) in x.iter_mut().enumerate() {
        *v = a[BITREV[j]];
    }
    x
}

/// Stores a byte-sliced batch back as blocks.
#[inline(always)]
fn store_sliced<M: Simd>(m: M, mut x: [M::V; 16], data: &mut [u8]) {
    let n = M::BYTES;
    transpose(m, &mut x);
    for r in 0..16 {
        m.store(x[BITREV[r]], &mut data[r * n..(r + 1) * n]);
    }
}

/// Encrypts one batch of exactly `M::BYTES` blocks in place.
#[inline(always)]
pub(crate) fn encrypt_batch<M: Simd, S: Layer<M>>(m: M, k: &SlicedKeys, data: &mut [u8]) {
    let mut x = load_sliced(m, data);
    for j in 0..16 {
        x[j] = m.xor(x[j], m.splat64(k.k1[j]));
    }
    for c in &k.enc {
        for v in x.iter_mut() {
            *v = S::sub(m, *v);
        }
        lfsr::<M, S>(m, &mut x, c);
    }
    store_sliced(m, x, data);
}

/// Decrypts one batch of exactly `M::BYTES` blocks in place.
#[inline(always)]
pub(crate) fn decrypt_batch<M: Simd, S: Layer<M>>(m: M, k: &SlicedKeys, data: &mut [u8]) {
    let mut x = load_sliced(m, data);
    for c in &k.dec {
        lfsr_inv::<M, S>(m, &mut x, c);
        for v in x.iter_mut() {
            *v = S::sub_inv(m, *v);
        }
    }
    for j in 0..16 {
        x[j] = m.xor(x[j], m.splat64(k.k1[j]));
    }
    store_sliced(m, x, data);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kuznyechik::backends::reference::{decrypt_block, encrypt_block};
    use crate::kuznyechik::key_schedule::expand;
    use crate::kuznyechik::layers::{Nibble, NibbleGfni, Registers, Vbmi, VbmiQuarters};
    use crate::kuznyechik::backends::reference::tests::every_length;
    use crate::kuznyechik::transforms::tests::rng_block;
    use crate::kuznyechik::transforms::{gf_mul, l};
    use crate::simd::emu::{affine_byte, Emu};

    #[test]
    fn affine_layout_matches_the_known_identity() {
        // The identity matrix of vgf2p8affineqb, as used everywhere with GFNI.
        assert_eq!(mul_matrix(1), 0x0102_0408_1020_4080);
        for x in 0..=255u8 {
            assert_eq!(affine_byte(0x0102_0408_1020_4080, x), x);
        }
    }

    #[test]
    fn mul_matrices_multiply() {
        for (k, &c) in MULS.iter().enumerate() {
            for x in 0..=255u8 {
                assert_eq!(affine_byte(MUL_MATRICES[k], x), gf_mul(c, x), "{c}·{x}");
            }
        }
    }

    #[test]
    fn pairs_match_the_coefficients() {
        for i in 0..6 {
            assert_eq!(L_COEFFS[i], MULS[i]);
            assert_eq!(L_COEFFS[14 - i], MULS[i]);
        }
        assert_eq!(L_COEFFS[7], MULS[6]);
        assert_eq!((L_COEFFS[6], L_COEFFS[8], L_COEFFS[15]), (1, 1, 1));
    }

    /// Runs L (or L⁻¹) with key folding on a single-lane emulated machine.
    fn sliced_l(a: &Block, kk: &Block, inverse: bool) -> Block {
        let m = Emu::<16>;
        type S = Vbmi;
        let mut x: [[u8; 16]; 16] = core::array::from_fn(|j| [a[j]; 16]);
        let c = if inverse {
            step_constants(kk, (0..16).rev())
        } else {
            step_constants(kk, 0..16)
        };
        let c: [u64; 16] = core::array::from_fn(|n| splat_byte(c[n]));
        if inverse {
            lfsr_inv::<_, S>(m, &mut x, &c);
        } else {
            lfsr::<_, S>(m, &mut x, &c);
        }
        core::array::from_fn(|j| x[j][0])
    }

    #[test]
    fn lfsr_is_l_and_folds_the_key() {
        let mut seed = 1;
        for _ in 0..200 {
            let (a, kk) = (rng_block(&mut seed), rng_block(&mut seed));
            let mut want = a;
            l(&mut want);
            for j in 0..16 {
                want[j] ^= kk[j];
            }
            assert_eq!(sliced_l(&a, &kk, false), want);
            let mut want = a;
            l_inv(&mut want);
            for j in 0..16 {
                want[j] ^= kk[j];
            }
            assert_eq!(sliced_l(&a, &kk, true), want);
        }
    }

    #[test]
    fn transpose_round_trip_and_layout() {
        let m = Emu::<64>;
        let data: Vec<u8> = (0..1024).map(|i| (i * 7 + i / 256) as u8).collect();
        let x = load_sliced(m, &data);
        // Every register j holds byte j of 64 distinct blocks.
        for (j, reg) in x.iter().enumerate() {
            let mut seen = [false; 64];
            for &b in reg.iter() {
                let blk = (0..64).find(|&k| data[16 * k + j] == b && !seen[k]).unwrap();
                seen[blk] = true;
            }
        }
        let mut out = vec![0u8; 1024];
        store_sliced(m, x, &mut out);
        assert_eq!(out, data);
    }

    /// Byte-sliced batches on emulated 16-, 32- and 64-byte registers equal
    /// the reference, both ways.
    fn batch_matches_reference<const N: usize, S: Layer<Emu<N>>>() {
        let mut seed = 7;
        let key: Vec<u8> = (0..32).map(|i| rng_block(&mut seed)[i % 16]).collect();
        let rk = expand(&key);
        let k = SlicedKeys::new(&rk);
        let data: Vec<u8> = (0..N).flat_map(|_| rng_block(&mut seed)).collect();
        let mut want = data.clone();
        for b in want.chunks_exact_mut(16) {
            let blk: &mut Block = b.try_into().unwrap();
            encrypt_block(&rk, blk);
        }
        let mut got = data.clone();
        encrypt_batch::<_, S>(Emu::<N>, &k, &mut got);
        assert_eq!(got, want, "encrypt N={N}");
        decrypt_batch::<_, S>(Emu::<N>, &k, &mut got);
        assert_eq!(got, data, "decrypt N={N}");
        let mut d = want.clone();
        for b in d.chunks_exact_mut(16) {
            let blk: &mut Block = b.try_into().unwrap();
            decrypt_block(&rk, blk);
        }
        assert_eq!(d, data);
    }

    /// The whole backend (adapter, driver, tails on the half-width machine)
    /// on the emulator, every length from 0 to 2 batches + 3 blocks.
    fn adapter_matches_reference<M: Narrow, S: Layer<M> + Layer<M::Half>>() {
        every_length(crate::kernel::backend::<M, Sliced<S>>("emulated", true, M::BYTES), 2 * M::BYTES + 3);
    }

    #[test]
    fn emulated_backends_cover_every_length() {
        adapter_matches_reference::<Emu<64>, Vbmi>();
        adapter_matches_reference::<Emu<64>, VbmiQuarters>();
        adapter_matches_reference::<Emu<32>, Nibble>();
        adapter_matches_reference::<Emu<32>, NibbleGfni>();
    }

    /// The whole-register form (NEON's) on the emulator, every length from
    /// 0 to 2 batches + 3 blocks.
    #[test]
    fn whole_batches_cover_every_length() {
        every_length(crate::kernel::backend::<Emu<16>, SlicedWhole<Registers>>("emulated", true, 16), 35);
    }

    #[test]
    fn emulated_batches_match_reference() {
        batch_matches_reference::<16, Vbmi>();
        batch_matches_reference::<32, Vbmi>();
        batch_matches_reference::<64, Vbmi>();
        batch_matches_reference::<64, VbmiQuarters>();
        batch_matches_reference::<32, Nibble>();
        batch_matches_reference::<32, NibbleGfni>();
        batch_matches_reference::<16, Registers>();
    }
}
