//! Constant-time Kuznyechik for short calls: 1 to 4 blocks, each block in
//! its own zmm, in the AES basis (`aes_basis.rs`), so that L is a matrix
//! product by `vgf2p8mulb` and π two `vpermi2b`.
//!
//! State: φ(block) in 128-bit lane 0 of a zmm (after each L, the same
//! value is in all four lanes; π works on every lane alike).
//!
//! L = R^16 is the 16×16 matrix M over GF(2^8) (GOST R 34.12-2015 §4.1.2):
//! L(a)_i = Σ_j M_ij·a_j, and φ(L(a))_i = Σ_j φ(M_ij)·φ(a_j). For k = 0..3,
//! a `vpermb` spreads byte a_{4k+l} over lane l, `vgf2p8mulb` multiplies it
//! by lane l of column constant k (byte i = φ(M_{i,4k+l})); the four
//! products are summed, and the four lanes folded by three lane rotations
//! (`vpermt2q`) and two `vpternlogq`, which also add the round key.
//!
//! Count per round, one block (all 512-bit; Zen 4 runs each as two 256-bit
//! halves):
//!
//! | step | instructions | µops | on the dependency chain |
//! |---|---|---|---|
//! | π | 2 `vpermi2b`, `vpmovb2m`, `vpblendmb` | 4 | `vpermi2b` → blend |
//! | spread | 4 `vpermb` | 4 | one `vpermb` |
//! | products | 4 `vgf2p8mulb` | 4 | one `vgf2p8mulb` |
//! | sum | `vpternlogq`, `vpxorq` | 2 | 2 logic |
//! | fold + key | 3 `vpermt2q`, 2 `vpternlogq` | 5 | one `vpermt2q`, 2 logic |
//! | **round** | | **19** | 4 shuffles, 1 GF multiply, 5 logic |
//!
//! Against the byte-sliced kernel (`avx512_gfni.rs`) padded to 32 blocks,
//! ~3100 µops for any short call, one block costs 9 × 19 + 6 (loads, the
//! basis change in and out, K1) ≈ 180 µops; latency, not throughput, is
//! the limit, ≈ 9 × (4 shuffles + 1 multiply + 5 logic). Two to four blocks
//! of one call run as independent chains interleaved by the out-of-order
//! core (9 of the 19 µops are shuffles, so four chains share the shuffle
//! ports). Decryption is the same with L⁻¹'s matrix (round keys φ(L⁻¹(K_i)),
//! since L⁻¹(a ⊕ K) = L⁻¹(a) ⊕ L⁻¹(K)) and π'⁻¹.
//!
//! The round keys are converted in registers: φ by `vgf2p8affineqb`, and
//! the decryption keys' L⁻¹ by [`mix`] with L⁻¹'s columns. On CPUs that run
//! this kernel the key schedule itself runs on its round too (`expand`).
//! The column constants are public and built once per process.

use super::aes_basis::{self, PHI, PHI_INV, PI_AES, PI_INV_AES};
use super::layers::{Lookup, Permute};
use super::linear::round_constant;
use super::linear::{l_inv_map, l_map, Linear};
use super::transforms::Block;
use super::keys::Keys;
use crate::kernel::BatchCipher;
use crate::simd::{Avx512, Gfni, Job, Vbmi};
#[cfg(target_arch = "x86_64")]
use crate::simd::{Avx512Gfni, Machine, Zmm};
use std::sync::OnceLock;

/// Blocks per batch: the driver hands over 1 to 4 blocks.
pub(crate) const BLOCKS: usize = 4;

/// The operations of the kernel (on zmm, or `Emu<64>` in tests).
pub(crate) trait Ops: Vbmi + Avx512 + Gfni {}
impl<M: Vbmi + Avx512 + Gfni> Ops for M {}

/// The `vpermb` indices of the spread: index k, lane l, every byte = 4k + l.
const SPREAD: [[u8; 64]; 4] = {
    let mut t = [[0u8; 64]; 4];
    let mut k = 0;
    while k < 4 {
        let mut i = 0;
        while i < 64 {
            t[k][i] = (4 * k + i / 16) as u8;
            i += 1;
        }
        k += 1;
    }
    t
};

/// The `vpermt2q` indices rotating the four lanes by 1, 2, 3: quadword w ←
/// quadword (w + 2r) mod 8 (little-endian, the index in each low byte).
const ROTATE: [[u8; 64]; 3] = {
    let mut t = [[0u8; 64]; 3];
    let mut r = 0;
    while r < 3 {
        let mut w = 0;
        while w < 8 {
            t[r][8 * w] = ((w + 2 * (r + 1)) % 8) as u8;
            w += 1;
        }
        r += 1;
    }
    t
};

/// A linear map's column constants in the AES basis, laid out for
/// [`mix`]: `cols[k]`, lane l, byte i = φ(M_{i, 4k+l}).
pub(crate) struct Columns {
    cols: [[u8; 64]; 4],
}

impl Columns {
    fn new(map: &Linear) -> Columns {
        let mut cols = [[0u8; 64]; 4];
        for j in 0..16 {
            let mut e: Block = [0; 16];
            e[j] = 1;
            let col = map.apply(&e);
            for (i, &c) in col.iter().enumerate() {
                cols[j / 4][16 * (j % 4) + i] = aes_basis::to_aes(c);
            }
        }
        Columns { cols }
    }
}

/// L's and L⁻¹'s columns, built once per process (public constants).
fn columns() -> &'static [Columns; 2] {
    static COLS: OnceLock<[Columns; 2]> = OnceLock::new();
    COLS.get_or_init(|| [Columns::new(l_map()), Columns::new(l_inv_map())])
}

/// The round keys in the AES basis.
#[derive(Clone)]
struct RoundKeys {
    /// φ(K1), …, φ(K10): K1 before the rounds, K_{r+1} after L of round r.
    enc: [Block; 10],
    /// φ(L⁻¹(K10)), …, φ(L⁻¹(K2)) after L⁻¹ of each round, then φ(K1).
    dec: [Block; 10],
}

crate::wipe::wiped_as_slices!(RoundKeys: enc, dec);

/// The narrow cipher of one key.
pub(crate) struct NarrowKernel {
    keys: RoundKeys,
    l: &'static Columns,
    l_inv: &'static Columns,
}

impl NarrowKernel {
    /// Keyed on machine `m`: the round keys through φ, and the decryption
    /// keys' L⁻¹ by the kernel's own product ([`mix`] with L⁻¹'s columns),
    /// in registers (with `linear.rs`'s masked table, L⁻¹ of nine keys was
    /// most of the key setup once the schedule itself ran on the kernel).
    pub(crate) fn new<M: Ops>(m: M, rk: &[Block; 10]) -> NarrowKernel {
        let [l, l_inv] = columns();
        let keys = m.vectorize(MakeRoundKeys { m, rk, l_inv });
        NarrowKernel { keys, l, l_inv }
    }
}

/// [`NarrowKernel::new`]'s round keys, inside the machine's instruction set.
struct MakeRoundKeys<'a, M> {
    m: M,
    rk: &'a [Block; 10],
    l_inv: &'static Columns,
}

impl<M: Ops> Job for MakeRoundKeys<'_, M> {
    type Output = RoundKeys;
    #[inline(always)]
    fn run(self) -> RoundKeys {
        let (m, rk) = (self.m, self.rk);
        let mut keys = RoundKeys { enc: [[0; 16]; 10], dec: [[0; 16]; 10] };
        for (phi_k, k) in keys.enc.iter_mut().zip(rk) {
            m.store_lane(m.affine(m.splat128(k), PHI), 0, phi_k);
        }
        // dec[r] = φ(L⁻¹(K_{10-r})), r = 0..8.
        for (phi_inv_k, k) in keys.dec[..9].iter_mut().zip(rk[1..].iter().rev()) {
            m.store_lane(mix(m, m.affine(m.splat128(k), PHI), self.l_inv, m.zero()), 0, phi_inv_k);
        }
        keys.dec[9] = keys.enc[0];
        keys
    }
}

/// The round keys back in the standard's basis: `avx512-gfni` keys its
/// wide kernel from them on its first long call (`kernel::tiered_backend`).
#[cfg(target_arch = "x86_64")]
impl crate::kernel::KeySchedule<Keys> for NarrowKernel {
    fn key_schedule(&self) -> Keys {
        let mut keys = Keys { rk: [[0; 16]; 10] };
        for (k, phi_k) in keys.rk.iter_mut().zip(&self.keys.enc) {
            *k = aes_basis::block_from_aes(phi_k);
        }
        keys
    }
}

/// L (or L⁻¹, by its columns) then ⊕ key, on φ(state) in lane 0; the
/// result is in all four lanes.
#[inline(always)]
fn mix<M: Ops>(m: M, s: M::V, c: &Columns, key: M::V) -> M::V {
    let mut p = [s; 4];
    for (k, v) in p.iter_mut().enumerate() {
        *v = m.mul(m.permb(s, m.load(&SPREAD[k])), m.load(&c.cols[k]));
    }
    let q = m.xor(m.xor3(p[0], p[1], p[2]), p[3]);
    let r1 = m.permi2q(q, m.load(&ROTATE[0]), q);
    let r2 = m.permi2q(q, m.load(&ROTATE[1]), q);
    let r3 = m.permi2q(q, m.load(&ROTATE[2]), q);
    m.xor3(m.xor3(q, r1, r2), r3, key)
}

/// Encrypts the first N blocks of `blocks` in place.
#[inline(always)]
fn encrypt_n<M: Ops, const N: usize>(m: M, k: &NarrowKernel, blocks: &mut [[u8; 16]]) {
    let keys = &k.keys.enc;
    let mut s = [m.zero(); N];
    for (v, b) in s.iter_mut().zip(blocks.iter()) {
        *v = m.xor(m.affine(m.splat128(b), PHI), m.splat128(&keys[0]));
    }
    for key in &keys[1..] {
        for v in s.iter_mut() {
            *v = Permute::lookup(m, *v, &PI_AES);
        }
        for v in s.iter_mut() {
            *v = mix(m, *v, k.l, m.splat128(key));
        }
    }
    for (v, b) in s.iter().zip(blocks.iter_mut()) {
        m.store_lane(m.affine(*v, PHI_INV), 0, b);
    }
}

/// Decrypts the first N blocks of `blocks` in place.
#[inline(always)]
fn decrypt_n<M: Ops, const N: usize>(m: M, k: &NarrowKernel, blocks: &mut [[u8; 16]]) {
    let keys = &k.keys.dec;
    let mut s = [m.zero(); N];
    for (v, b) in s.iter_mut().zip(blocks.iter()) {
        *v = m.affine(m.splat128(b), PHI);
    }
    for key in &keys[..9] {
        for v in s.iter_mut() {
            *v = mix(m, *v, k.l_inv, m.splat128(key));
        }
        for v in s.iter_mut() {
            *v = Permute::lookup(m, *v, &PI_INV_AES);
        }
    }
    for (v, b) in s.iter().zip(blocks.iter_mut()) {
        m.store_lane(m.affine(m.xor(*v, m.splat128(&keys[9])), PHI_INV), 0, b);
    }
}

/// φ(C_1), …, φ(C_32): the key schedule's round constants in the AES
/// basis (public, built once per process).
fn round_constants_aes() -> &'static [Block; 32] {
    static C: OnceLock<[Block; 32]> = OnceLock::new();
    C.get_or_init(|| core::array::from_fn(|i| aes_basis::block_to_aes(&round_constant(i as u8 + 1))))
}

/// The key schedule (GOST R 34.12-2015 §4.3) on this kernel's round, in
/// constant time: F[C](a1, a0) = (L(S(a1 ⊕ C)) ⊕ a0, a1) is one round of
/// [`encrypt_n`] with a0 in the place of the round key, so the 32 steps run
/// in registers in the AES basis (against one call of the portable or AVX2
/// S-box and one masked-table L per step). Returns false, having done
/// nothing, when the CPU lacks AVX-512 VBMI or GFNI.
#[cfg(target_arch = "x86_64")]
pub(crate) fn expand(key: &[u8; 32], rk: &mut [Block; 10]) -> bool {
    let Some(m) = Zmm::<Avx512Gfni>::detect() else {
        return false;
    };
    m.vectorize(Expand { m, key, rk });
    true
}

/// [`expand`] inside the machine's instruction set.
#[cfg(target_arch = "x86_64")]
struct Expand<'a, M> {
    m: M,
    key: &'a [u8; 32],
    rk: &'a mut [Block; 10],
}

#[cfg(target_arch = "x86_64")]
impl<M: Ops> Job for Expand<'_, M> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        expand_on(self.m, self.key, self.rk);
    }
}

/// K1, K2 from the key, then K_{2i+1}, K_{2i+2} after every eight steps.
#[inline(always)]
fn expand_on<M: Ops>(m: M, key: &[u8; 32], rk: &mut [Block; 10]) {
    let (k1, k2) = key.split_at(16);
    rk[0].copy_from_slice(k1);
    rk[1].copy_from_slice(k2);
    let mut a1 = m.affine(m.splat128(&rk[0]), PHI);
    let mut a0 = m.affine(m.splat128(&rk[1]), PHI);
    let l = &columns()[0];
    for (pair, constants) in rk[2..].chunks_exact_mut(2).zip(round_constants_aes().chunks_exact(8)) {
        for c in constants {
            let t = Permute::lookup(m, m.xor(a1, m.splat128(c)), &PI_AES);
            (a1, a0) = (mix(m, t, l, a0), a1);
        }
        m.store_lane(m.affine(a1, PHI_INV), 0, &mut pair[0]);
        m.store_lane(m.affine(a0, PHI_INV), 0, &mut pair[1]);
    }
}

/// A batch is up to [`BLOCKS`] blocks; a call of more runs batch by batch.
impl<M: Ops> BatchCipher<M> for NarrowKernel {
    type Keys = Keys;
    const BATCH_BYTES: usize = 16 * BLOCKS;
    const GRANULE_BYTES: usize = 16;

    fn new(m: M, keys: &Keys) -> Self {
        NarrowKernel::new(m, &keys.rk)
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        crypt::<M, false>(m, self, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        crypt::<M, true>(m, self, batch)
    }
}

/// Encrypts (`DECRYPT` false) or decrypts one batch in place, the block
/// count picking the number of chains.
#[inline(always)]
fn crypt<M: Ops, const DECRYPT: bool>(m: M, k: &NarrowKernel, batch: &mut [u8]) {
    let (blocks, _) = batch.as_chunks_mut::<16>();
    match blocks.len() {
        0 => {}
        1 => crypt_n::<M, 1, DECRYPT>(m, k, blocks),
        2 => crypt_n::<M, 2, DECRYPT>(m, k, blocks),
        3 => crypt_n::<M, 3, DECRYPT>(m, k, blocks),
        _ => crypt_n::<M, 4, DECRYPT>(m, k, blocks),
    }
}

/// One direction of [`crypt`] on N blocks.
#[inline(always)]
fn crypt_n<M: Ops, const N: usize, const DECRYPT: bool>(m: M, k: &NarrowKernel, blocks: &mut [[u8; 16]]) {
    if DECRYPT {
        decrypt_n::<M, N>(m, k, blocks)
    } else {
        encrypt_n::<M, N>(m, k, blocks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::key_schedule::expand;
    use crate::kuznyechik::backends::reference::tests::every_length;
    use crate::kuznyechik::backends::reference::{decrypt_block, encrypt_block};
    use crate::kuznyechik::transforms::tests::rng_block;
    use crate::kuznyechik::transforms::{l, l_inv};
    use crate::simd::emu::Emu;
    use crate::simd::Simd;

    fn to_aes(b: &Block) -> Block {
        b.map(aes_basis::to_aes)
    }

    #[test]
    fn key_schedule_on_the_kernel_is_the_standard() {
        let mut rng = crate::test_rng::Rng(77);
        for _ in 0..50 {
            let key: [u8; 32] = rng.bytes(32).try_into().unwrap();
            let want = crate::kuznyechik::key_schedule::expand_one_step_at_a_time(&key);
            let mut got = [[0u8; 16]; 10];
            expand_on(Emu::<64>, &key, &mut got);
            assert_eq!(got, want, "emulated");
            #[cfg(target_arch = "x86_64")]
            if super::expand(&key, &mut got) {
                assert_eq!(got, want, "this CPU");
            }
        }
    }

    /// The round keys given back for the wide kernel are the ones keyed.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn key_schedule_comes_back() {
        use crate::kernel::KeySchedule;
        let mut seed = 0x6b5c;
        for _ in 0..20 {
            let rk: [Block; 10] = core::array::from_fn(|_| rng_block(&mut seed));
            assert_eq!(NarrowKernel::new(Emu::<64>, &rk).key_schedule().rk, rk);
        }
    }

    /// `mix` on the emulator is φ(L(a) ⊕ k) (and with L⁻¹'s columns
    /// φ(L⁻¹(a) ⊕ k)) in all four lanes, whatever lanes 1..3 held before.
    #[test]
    fn mix_is_l_in_the_aes_basis() {
        let m = Emu::<64>;
        let [lc, lic] = columns();
        let mut seed = 3;
        for _ in 0..200 {
            let (a, k) = (rng_block(&mut seed), rng_block(&mut seed));
            let mut state = [0u8; 64];
            state[..16].copy_from_slice(&to_aes(&a));
            for (i, b) in state[16..].iter_mut().enumerate() {
                *b = (i as u8).wrapping_mul(37) ^ a[i % 16];
            }
            for (cols, f) in [(lc, l as fn(&mut Block)), (lic, l_inv)] {
                let mut want = a;
                f(&mut want);
                for (w, kb) in want.iter_mut().zip(&k) {
                    *w ^= kb;
                }
                let got = mix(m, state, cols, m.splat128(&to_aes(&k)));
                for lane in got.chunks_exact(16) {
                    assert_eq!(lane, to_aes(&want));
                }
            }
        }
    }

    /// 1 to 4 blocks (and the driver's 0..13) on the emulator equal the
    /// reference both ways, on random keys.
    #[test]
    fn blocks_match_reference() {
        let mut seed = 5;
        for _ in 0..4 {
            let key: Vec<u8> = (0..2).flat_map(|_| rng_block(&mut seed)).collect();
            let rk = expand(&key);
            let kernel = NarrowKernel::new(Emu::<64>, &rk);
            for n in 1..=BLOCKS {
                let data: Vec<u8> = (0..n).flat_map(|_| rng_block(&mut seed)).collect();
                let mut want = data.clone();
                for b in want.as_chunks_mut::<16>().0 {
                    encrypt_block(&rk, b);
                }
                let mut got = data.clone();
                BatchCipher::<Emu<64>>::encrypt(&kernel, Emu::<64>, &mut got);
                assert_eq!(got, want, "encrypt {n} blocks");
                BatchCipher::<Emu<64>>::decrypt(&kernel, Emu::<64>, &mut got);
                assert_eq!(got, data, "decrypt {n} blocks");
                let mut back = want.clone();
                for b in back.as_chunks_mut::<16>().0 {
                    decrypt_block(&rk, b);
                }
                assert_eq!(back, data);
            }
        }
        every_length(crate::kernel::backend::<Emu<64>, NarrowKernel>("emulated", true, BLOCKS), 13);
    }

    /// The round keys are the converted ones, not copies of the raw keys.
    #[test]
    fn decryption_keys_are_l_inverse_in_the_aes_basis() {
        let mut seed = 9;
        let key: Vec<u8> = (0..2).flat_map(|_| rng_block(&mut seed)).collect();
        let rk = expand(&key);
        let k = NarrowKernel::new(Emu::<64>, &rk);
        for r in 0..9 {
            let mut want = rk[9 - r];
            l_inv(&mut want);
            assert_eq!(k.keys.dec[r], to_aes(&want));
        }
        assert_eq!(k.keys.dec[9], to_aes(&rk[0]));
    }
}
