//! The `avx2` backend's kernel, written once for xmm (one 64-byte chunk per
//! register group) and ymm (two) machines: the half-row layout, MixColumns
//! by doubling, InvMixColumns as M⁻²·M (see `avx2.rs` for the counts).
//!
//! Layout. A chunk's state is 8 rows × 8 columns (the columns of all its
//! blocks side by side) in four 16-byte lanes, lane a holding row a (columns
//! 0..7) then row a+4; rows a and a+4 use the same S-box π_a. A group is 4
//! registers: one chunk on xmm, two on ymm (one per 128-bit lane).

use super::nibble::{dup, from_rows, sbox, to_rows, Lane, DEC_ROWS, ENC_ROWS};
use super::constants::{SBOX, SBOX_INV};
use super::variant::{Keys, Variant};
use crate::gf256::{self, KALYNA};
use crate::kernel;
use crate::simd::{Job, Simd, Table256};
use zeroize::Zeroize;

/// How a machine applies π_a (or π_a⁻¹) to every byte of a register of rows.
pub(crate) trait SubBytes<M: Simd>: 'static {
    fn sub(m: M, x: M::V, a: usize, inverse: bool) -> M::V;
}

/// The nibble rows of `nibble.rs` (`pshufb` and a blend tree, 35 ops).
pub(crate) struct NibbleRows;

impl<M: Simd> SubBytes<M> for NibbleRows {
    #[inline(always)]
    fn sub(m: M, x: M::V, a: usize, inverse: bool) -> M::V {
        sbox(m, x, if inverse { &DEC_ROWS.0[a] } else { &ENC_ROWS.0[a] })
    }
}

/// The whole table in registers ([`Table256`]: NEON `TBL` and `TBX`, 7 ops).
#[allow(dead_code)] // only the aarch64 backend uses it
pub(crate) struct RegisterTable;

impl<M: Table256> SubBytes<M> for RegisterTable {
    #[inline(always)]
    fn sub(m: M, x: M::V, a: usize, inverse: bool) -> M::V {
        m.lookup256(if inverse { &SBOX_INV[a] } else { &SBOX[a] }, x)
    }
}

#[repr(align(32))]
struct MulTables([[Lane; 2]; 4]);

/// For each coefficient c_j: [c_j·n, c_j·(n << 4)] for the nibbles n.
const fn mul_tables(v: &[u8; 4]) -> MulTables {
    let mut t = [[[0u8; 32]; 2]; 4];
    let mut j = 0;
    while j < 4 {
        let (mut lo, mut hi) = ([0u8; 16], [0u8; 16]);
        let mut n = 0;
        while n < 16 {
            lo[n] = gf256::mul(v[j], n as u8, KALYNA);
            hi[n] = gf256::mul(v[j], (n << 4) as u8, KALYNA);
            n += 1;
        }
        t[j] = [dup(lo), dup(hi)];
        j += 1;
    }
    MulTables(t)
}

/// The nonzero coefficients of M⁻² (at offsets 0, 2, 4, 6).
pub(super) const MDS_INV2: [u8; 4] = [0x17, 0x93, 0x66, 0xbd];

static INV2_MUL: MulTables = mul_tables(&MDS_INV2);

/// The field's reduction byte and zero, kept in registers over a batch.
#[derive(Clone, Copy)]
struct Consts<V> {
    poly: V,
    zero: V,
}

#[inline(always)]
fn consts<M: Simd>(m: M) -> Consts<M::V> {
    Consts { poly: m.splat8(KALYNA), zero: m.splat8(0) }
}

/// ×2 in GF(2^8)/0x11d on every byte.
#[inline(always)]
fn dbl<M: Simd>(m: M, c: Consts<M::V>, x: M::V) -> M::V {
    m.xor(m.add8(x, x), m.blendv_opaque(c.zero, c.poly, x))
}

/// MixColumns, v = (01 01 05 01 08 06 07 04): out_a = A + 2(B + 2(C + 2D)) with
/// A = W_a+W_{a+1}+W_{a+2}+W_{a+3}+W_{a+6}, B = W_{a+5}+W_{a+6},
/// C = W_{a+2}+W_{a+5}+W_{a+6}+W_{a+7}, D = W_{a+4} (indices mod 8), where the
/// 8 row views are W_r = y_r and W_{r+4} = y_r with its halves swapped.
#[inline(always)]
fn mix<M: Simd>(m: M, c: Consts<M::V>, y: [M::V; 4]) -> [M::V; 4] {
    let (s0, s1) = (m.shuffle32::<0x4e>(y[0]), m.shuffle32::<0x4e>(y[1]));
    let (s2, s3) = (m.shuffle32::<0x4e>(y[2]), m.shuffle32::<0x4e>(y[3]));
    let w = [y[0], y[1], y[2], y[3], s0, s1, s2, s3];
    // Pair sums P_r = W_r + W_{r+1}.
    let mut p = w;
    for r in 0..8 {
        p[r] = m.xor(w[r], w[(r + 1) % 8]);
    }
    let mut out = y;
    for (a, o) in out.iter_mut().enumerate() {
        let big_a = m.xor(m.xor(p[a], p[(a + 2) % 8]), w[(a + 6) % 8]);
        let big_b = p[(a + 5) % 8];
        let big_c = m.xor(m.xor(big_b, w[(a + 2) % 8]), w[(a + 7) % 8]);
        let t = m.xor(big_c, dbl(m, c, w[(a + 4) % 8]));
        let t = m.xor(big_b, dbl(m, c, t));
        *o = m.xor(big_a, dbl(m, c, t));
    }
    out
}

/// c_j · y_k by two nibble tables: c·x = (c·lo x) ⊕ (c·hi x).
#[inline(always)]
fn mul_nibbles<M: Simd>(m: M, lo: &[M::V; 4], hi: &[M::V; 4], j: usize, k: usize) -> M::V {
    let t = &INV2_MUL.0[j];
    m.xor(m.shuffle8(m.load(&t[0]), lo[k]), m.shuffle8(m.load(&t[1]), hi[k]))
}

/// InvMixColumns as M⁻¹ = M⁻²·M: MixColumns (cheap, by doubling) and then
/// the circulant M⁻² = (17 00 93 00 66 00 BD 00), which has only four terms:
/// out_a = 17·W_a + 93·W_{a+2} + 66·W_{a+4} + BD·W_{a+6}. Each product uses
/// two 16-entry nibble tables; the products of swapped views are summed
/// apart and swapped once: out_a = U_a ⊕ swap(V_a). (M⁸ = 8E·I, so
/// M⁻² = M⁶/8E; see the unit test.)
#[inline(always)]
fn inv_mix<M: Simd>(m: M, c: Consts<M::V>, y: [M::V; 4]) -> [M::V; 4] {
    let y = mix(m, c, y);
    let low = m.splat8(0x0f);
    let (mut lo, mut hi) = (y, y);
    for k in 0..4 {
        lo[k] = m.and(y[k], low);
    }
    for k in 0..4 {
        hi[k] = m.and(m.shr16::<4>(y[k]), low);
    }
    // Coefficient index j: 0 → 17, 1 → 93, 2 → 66, 3 → BD (offsets 0, 2, 4, 6).
    // a = 0, 1: W_{a+2} = y_{a+2};  a = 2, 3: W_{a+2} = swap y_{a−2}.
    // Term (j, k): c_j · y_k; U sums the unswapped views, V the swapped.
    const U: [[(usize, usize); 2]; 4] = [[(0, 0), (1, 2)], [(0, 1), (1, 3)], [(0, 2), (3, 0)], [(0, 3), (3, 1)]];
    const V: [[(usize, usize); 2]; 4] = [[(2, 0), (3, 2)], [(2, 1), (3, 3)], [(2, 2), (1, 0)], [(2, 3), (1, 1)]];
    let (mut u, mut v) = (y, y);
    for (a, [(j0, k0), (j1, k1)]) in U.into_iter().enumerate() {
        u[a] = m.xor(mul_nibbles(m, &lo, &hi, j0, k0), mul_nibbles(m, &lo, &hi, j1, k1));
    }
    for (a, [(j0, k0), (j1, k1)]) in V.into_iter().enumerate() {
        v[a] = m.xor(mul_nibbles(m, &lo, &hi, j0, k0), mul_nibbles(m, &lo, &hi, j1, k1));
    }
    let mut out = y;
    for a in 0..4 {
        out[a] = m.xor(u[a], m.shuffle32::<0x4e>(v[a]));
    }
    out
}

/// The ShiftRows and InvShiftRows shuffles of lanes 0..3 for nb columns:
/// row i's column j goes to (j + δ_i) mod nb inside its block.
const fn shift_rows_shuffles(nb: usize) -> [[Lane; 4]; 2] {
    let mut t = [[[0u8; 32]; 4]; 2];
    let mut a = 0;
    while a < 4 {
        let mut h = 0;
        while h < 2 {
            let d = (a + 4 * h) * nb / 8;
            let mut c = 0;
            while c < 8 {
                let (blk, j) = (c / nb, c % nb);
                let dst = 8 * h + blk * nb + (j + d) % nb;
                t[0][a][dst] = (8 * h + c) as u8;
                t[0][a][16 + dst] = (8 * h + c) as u8;
                t[1][a][8 * h + c] = dst as u8;
                t[1][a][16 + 8 * h + c] = dst as u8;
                c += 1;
            }
            h += 1;
        }
        a += 1;
    }
    t
}

/// [ShiftRows, InvShiftRows] shuffles for nb = 2, 4, 8.
static SHIFT_ROWS: [[[Lane; 4]; 2]; 3] = [shift_rows_shuffles(2), shift_rows_shuffles(4), shift_rows_shuffles(8)];

fn shift_rows_for(nb: usize) -> &'static [[Lane; 4]; 2] {
    &SHIFT_ROWS[nb.trailing_zeros() as usize - 1]
}

/// ψ = MixColumns∘ShiftRows∘SubBytes on one 64-byte chunk of whole blocks
/// (nb columns each), on an xmm machine: the key schedule's round.
#[inline(always)]
pub(super) fn psi_chunk<M: Simd, B: SubBytes<M>>(m: M, nb: usize, buf: &mut [u8; 64]) {
    let sr = &shift_rows_for(nb)[0];
    let mut y = to_rows(m, load4(m, buf));
    for (a, v) in y.iter_mut().enumerate() {
        *v = m.shuffle8(B::sub(m, *v, a, false), m.load(&sr[a]));
    }
    store4(m, from_rows(m, mix(m, consts(m), y)), buf);
}

/// ψ on whole blocks (at most 64 bytes) in place inside `m`'s instruction
/// set, without secret-indexed memory: the key schedule's round.
pub(super) fn psi<M: Simd, B: SubBytes<M>>(m: M, v: Variant, s: &mut [u8]) {
    struct Psi<'a, M, B>(M, usize, &'a mut [u8; 64], core::marker::PhantomData<fn() -> B>);
    impl<M: Simd, B: SubBytes<M>> Job for Psi<'_, M, B> {
        type Output = ();
        #[inline(always)]
        fn run(self) {
            psi_chunk::<M, B>(self.0, self.1, self.2)
        }
    }
    assert!(s.len() <= 64 && s.len().is_multiple_of(v.block_bytes()));
    let mut buf = [0u8; 64];
    buf[..s.len()].copy_from_slice(s);
    m.vectorize(Psi::<M, B>(m, v.nb(), &mut buf, core::marker::PhantomData));
    s.copy_from_slice(&buf[..s.len()]);
    buf.as_mut_slice().zeroize(); // one memset, not a write per byte
}

/// Register i of a group = piece i (16 bytes) of each of its chunks.
#[inline(always)]
fn load4<M: Simd>(m: M, src: &[u8]) -> [M::V; 4] {
    let mut x = [m.zero(); 4];
    for (i, v) in x.iter_mut().enumerate() {
        *v = m.load_lanes(&src[16 * i..], 64);
    }
    x
}

#[inline(always)]
fn store4<M: Simd>(m: M, x: [M::V; 4], dst: &mut [u8]) {
    for (i, v) in x.into_iter().enumerate() {
        m.store_lanes(v, &mut dst[16 * i..], 64);
    }
}

/// The keyed kernel: round keys in the lane layout, and K_0, K_t in the
/// natural layout (for ⊞/⊟ before and after the transposes).
pub(crate) struct HalfRow {
    variant: Variant,
    /// rk[r][a]: lane a of round key r.
    rk: [[Lane; 4]; 19],
    /// first[i] / last[i]: piece i (bytes 16i..16i+16 of a chunk) of K_0 / K_t.
    first: [Lane; 4],
    last: [Lane; 4],
    /// ShiftRows / InvShiftRows shuffles for lanes 0..3.
    sr: [Lane; 4],
    isr: [Lane; 4],
}

impl Drop for HalfRow {
    fn drop(&mut self) {
        // Slice wipes are one memset each; the derive's array wipe would be
        // ~3 KiB of single-byte volatile writes per key.
        self.rk.as_flattened_mut().as_flattened_mut().zeroize();
        self.first.as_flattened_mut().zeroize();
        self.last.as_flattened_mut().zeroize();
    }
}

/// The 4 registers of a group plus or minus (`SUB`) a natural-layout key.
#[inline(always)]
fn add_key<M: Simd, const SUB: bool>(m: M, mut x: [M::V; 4], k: &[Lane; 4]) -> [M::V; 4] {
    for (v, k) in x.iter_mut().zip(k) {
        *v = if SUB { m.sub64(*v, m.load(k)) } else { m.add64(*v, m.load(k)) };
    }
    x
}

impl HalfRow {
    /// Built in place on the heap (the struct is ~3 KiB). Key setup matters
    /// for short messages: byte gathers with masks instead of `%` by the
    /// run-time block width, and 16-byte copies for the duplicated halves.
    pub(crate) fn new(keys: &Keys) -> Box<HalfRow> {
        let v = keys.variant;
        let (nb, bb, t) = (v.nb(), v.block_bytes(), v.rounds());
        let mut k = Box::new(HalfRow {
            variant: v,
            rk: [[[0; 32]; 4]; 19],
            first: [[0; 32]; 4],
            last: [[0; 32]; 4],
            sr: [[0; 32]; 4],
            isr: [[0; 32]; 4],
        });
        // Lane a, byte 8h + c: row a + 4h, chunk column c = block·nb + j
        // (nb is 2, 4 or 8, so c mod nb = c & (nb − 1)).
        let col = nb - 1;
        for (r, rk) in k.rk.iter_mut().enumerate().take(t + 1) {
            let key = &keys.rk[r];
            for (a, lane) in rk.iter_mut().enumerate() {
                let mut half = [0u8; 16];
                for (i, b) in half.iter_mut().enumerate() {
                    *b = key[8 * ((i % 8) & col) + a + 4 * (i / 8)];
                }
                lane[..16].copy_from_slice(&half);
                lane[16..].copy_from_slice(&half);
            }
        }
        // Register i of a 64-byte chunk holds bytes 16i..16i+16, i.e. block
        // bytes (16i mod bb).. of one block, in both 128-bit halves.
        for i in 0..4 {
            let off = (16 * i) % bb;
            for (dst, src) in [(&mut k.first[i], keys.round_key(0)), (&mut k.last[i], keys.round_key(t))] {
                dst[..16].copy_from_slice(&src[off..off + 16]);
                dst[16..].copy_from_slice(&src[off..off + 16]);
            }
        }
        [k.sr, k.isr] = *shift_rows_for(nb);
        k
    }

    /// SubBytes and ShiftRows of one group.
    #[inline(always)]
    fn sub_shift<M: Simd, B: SubBytes<M>>(&self, m: M, y: &mut [M::V; 4]) {
        for (a, v) in y.iter_mut().enumerate() {
            *v = m.shuffle8(B::sub(m, *v, a, false), m.load(&self.sr[a]));
        }
    }

    /// InvShiftRows and InvSubBytes of one group, ⊕ K_r when r > 0.
    #[inline(always)]
    fn inv_shift_sub<M: Simd, B: SubBytes<M>>(&self, m: M, y: &mut [M::V; 4], r: usize) {
        for (a, v) in y.iter_mut().enumerate() {
            let sb = B::sub(m, m.shuffle8(*v, m.load(&self.isr[a])), a, true);
            *v = if r > 0 { m.xor(sb, m.load(&self.rk[r][a])) } else { sb };
        }
    }

    /// Encrypts (DEC false) or decrypts G groups (G × 4 registers,
    /// G·4·M::BYTES bytes of `data`): ⊞K_0 (⊟K_t) in the natural layout,
    /// the rounds on rows, ⊞K_t (⊟K_0).
    #[inline(always)]
    pub(crate) fn groups<M: Simd, B: SubBytes<M>, const G: usize, const DEC: bool>(&self, m: M, data: &mut [u8]) {
        let gb = 4 * M::BYTES;
        let (into, out) = if DEC { (&self.last, &self.first) } else { (&self.first, &self.last) };
        let mut s = [[m.zero(); 4]; G];
        for (g, y) in s.iter_mut().enumerate() {
            *y = to_rows(m, add_key::<M, DEC>(m, load4(m, &data[g * gb..]), into));
        }
        if DEC {
            self.decrypt_rounds::<M, B, G>(m, &mut s);
        } else {
            self.encrypt_rounds::<M, B, G>(m, &mut s);
        }
        for (g, y) in s.iter().enumerate() {
            store4(m, add_key::<M, DEC>(m, from_rows(m, *y), out), &mut data[g * gb..]);
        }
    }

    /// Rounds 1..=t on rows: SubBytes and ShiftRows of every group, then
    /// MixColumns ⊕ K_r (none after the last).
    #[inline(always)]
    fn encrypt_rounds<M: Simd, B: SubBytes<M>, const G: usize>(&self, m: M, s: &mut [[M::V; 4]; G]) {
        let (c, t) = (consts(m), self.variant.rounds());
        for r in 1..=t {
            for y in s.iter_mut() {
                self.sub_shift::<M, B>(m, y);
            }
            // Straight-line over the groups: once inlined into the whole
            // call, LLVM kept this loop rolled, one group's MixColumns
            // after the other (avx2 encryption 6% slower on Intel).
            kernel::unrolled!(g in G => {
                let y = &mut s[g];
                *y = mix(m, c, *y);
                if r < t {
                    for (v, k) in y.iter_mut().zip(&self.rk[r]) {
                        *v = m.xor(*v, m.load(k));
                    }
                }
            });
        }
    }

    /// Rounds t−1..=0 backwards: InvMixColumns, then InvShiftRows,
    /// InvSubBytes ⊕ K_r of every group.
    #[inline(always)]
    fn decrypt_rounds<M: Simd, B: SubBytes<M>, const G: usize>(&self, m: M, s: &mut [[M::V; 4]; G]) {
        let c = consts(m);
        for r in (0..self.variant.rounds()).rev() {
            for y in s.iter_mut() {
                *y = inv_mix(m, c, *y);
            }
            for y in s.iter_mut() {
                self.inv_shift_sub::<M, B>(m, y, r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::backends::reference;
    use super::super::constants::{MDS, MDS_INV};
    use super::*;
    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;

    /// Product of circulants given by first rows (out_i = Σ_j c_j s_{i+j}).
    fn conv(a: &[u8; 8], b: &[u8; 8]) -> [u8; 8] {
        let mut c = [0u8; 8];
        for i in 0..8 {
            for j in 0..8 {
                c[(i + j) % 8] ^= gf256::mul(a[i], b[j], KALYNA);
            }
        }
        c
    }

    #[test]
    fn inverse_mds_is_m_inv2_times_m() {
        let inv2 = [MDS_INV2[0], 0, MDS_INV2[1], 0, MDS_INV2[2], 0, MDS_INV2[3], 0];
        assert_eq!(conv(&MDS_INV, &MDS_INV), inv2);
        assert_eq!(conv(&inv2, &MDS), MDS_INV);
    }

    #[test]
    fn shift_rows_shuffles_invert() {
        for v in Variant::ALL {
            let keys = Keys::new(v, &vec![0u8; v.key_bytes()]);
            let k = HalfRow::new(&keys);
            for a in 0..4 {
                for p in 0..16 {
                    assert_eq!(k.sr[a][k.isr[a][p] as usize] as usize, p, "{v:?} lane {a}");
                }
            }
        }
    }

    /// G groups on machine M (4·G·M::BYTES bytes) against the reference.
    fn check<M: Simd, B: SubBytes<M>, const G: usize>(m: M, rng: &mut Rng) {
        for v in Variant::ALL {
            let key: Vec<u8> = (0..v.key_bytes()).map(|_| rng.next() as u8).collect();
            let keys = Keys::new(v, &key);
            let (k, oracle) = (HalfRow::new(&keys), (reference::BACKEND.new)(&keys));
            let data: Vec<u8> = (0..4 * G * M::BYTES).map(|_| rng.next() as u8).collect();
            let (mut got, mut want) = (data.clone(), data.clone());
            k.groups::<M, B, G, false>(m, &mut got);
            oracle.encrypt_blocks(&mut want);
            assert_eq!(got, want, "{v:?} encrypt, {} bytes per register", M::BYTES);
            k.groups::<M, B, G, true>(m, &mut got);
            assert_eq!(got, data, "{v:?} decrypt, {} bytes per register", M::BYTES);
        }
    }

    #[test]
    fn kernel_matches_the_reference_on_xmm_and_ymm_widths() {
        let mut rng = Rng(0x7624);
        check::<_, NibbleRows, 1>(Emu::<16>, &mut rng);
        check::<_, NibbleRows, 1>(Emu::<32>, &mut rng);
        check::<_, NibbleRows, 2>(Emu::<32>, &mut rng);
        // NEON's form: register-table S-boxes, one and two xmm groups.
        check::<_, RegisterTable, 1>(Emu::<16>, &mut rng);
        check::<_, RegisterTable, 2>(Emu::<16>, &mut rng);
    }

    #[test]
    fn psi_matches_the_reference_round() {
        let mut rng = Rng(0x1234_5678);
        for v in Variant::ALL {
            let mut s = [0u8; 64];
            s.iter_mut().for_each(|b| *b = rng.next() as u8);
            let mut want = s;
            for b in want.chunks_exact_mut(v.block_bytes()) {
                reference::psi_block(b);
            }
            let mut t = s;
            psi_chunk::<_, NibbleRows>(Emu::<16>, v.nb(), &mut s);
            assert_eq!(s, want, "{v:?}");
            psi_chunk::<_, RegisterTable>(Emu::<16>, v.nb(), &mut t);
            assert_eq!(t, want, "{v:?} register table");
        }
    }
}
