//! Table-based Kuznyechik (NOT constant-time: addresses depend on the data;
//! chosen only by name), the technique of the study "Magma and Kuznyechik
//! with SSE2/AVX/AVX2 and LUTs" and of Golchevsky & Ushakov 2023 (Bulletin
//! of Syktyvkar University 1(46), doi:10.34130/1992-2752_2023_1_30):
//! fused LS tables T[i][b] = L(π(b)·e_i), 16 × 256 entries of 16 bytes (64 KiB),
//! so a round is LSX[K](a) = ⊕_i T[i][(a⊕K)_i].
//!
//! Decryption (the papers' trick): D = X[K1] S⁻¹ (X[L⁻¹K2] L⁻¹S⁻¹) … (X[L⁻¹K10]
//! L⁻¹S⁻¹) S, with tables T⁻¹[i][b] = L⁻¹(π⁻¹(b)·e_i); the leading S is
//! folded into the first round's offsets (16·π(c_i) from a word table), the
//! trailing S⁻¹ is a byte lookup.
//! L is GF(2^8)-linear, so T[i][b] = π(b)·L(e_i): the tables are built at first
//! use from the 16 columns L(e_i).
//!
//! Per block and round: 2 `pmaddubsw` turn the state into 16-bit words that
//! hold 16·byte (the paper's offset trick; the multiply, unlike and+shift,
//! keeps LLVM from re-masking in general registers), 4 moves to general
//! registers, then per byte a `movzx` or shift and one
//! `pxor xmm, [T + 4096·i + offset]`: ≈ 57 instructions per block-round.
//! Eight blocks go through each round together so their lookups overlap.
//! On a 32 KiB L1D the 64 KiB table makes it L2-bandwidth bound (≈ 9 lines
//! per block-round).

use super::super::linear::l_inv_map;
use super::super::constants::{PI, PI_INV};
use super::super::transforms::{l, l_inv, Block};
use super::super::keys::Keys;
use crate::backend::Backend;
use crate::gf256::{self, KUZNYECHIK};
use crate::kernel::{self, BatchCipher};
use crate::simd::{Simd, Ssse3, Xmm};
use std::sync::OnceLock;
use zeroize::{Zeroize, ZeroizeOnDrop};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Xmm<Ssse3>, Table>("table", false, WAYS);

type M = Xmm<Ssse3>;
type V = <M as Simd>::V;

/// Blocks per interleaved group.
const WAYS: usize = 8;

/// 16 tables of 256 entries of 16 bytes, aligned for `pxor` memory operands.
#[repr(C, align(64))]
struct Lut([[[u8; 16]; 256]; 16]);

struct Luts {
    enc: Lut,
    dec: Lut,
}

/// T[i][b] = s(b) · column i, column i = lin(e_i).
fn build(lut: &mut Lut, s: &[u8; 256], lin: fn(&mut Block)) {
    for i in 0..16 {
        let mut col = [0u8; 16];
        col[i] = 1;
        lin(&mut col);
        for b in 0..256 {
            for j in 0..16 {
                lut.0[i][b][j] = gf256::mul(s[b], col[j], KUZNYECHIK);
            }
        }
    }
}

fn luts() -> &'static Luts {
    static LUTS: OnceLock<Box<Luts>> = OnceLock::new();
    LUTS.get_or_init(|| {
        let mut t = Box::new(Luts { enc: Lut([[[0; 16]; 256]; 16]), dec: Lut([[[0; 16]; 256]; 16]) });
        build(&mut t.enc, &PI, l);
        build(&mut t.dec, &PI_INV, l_inv);
        t
    })
}

#[derive(Zeroize, ZeroizeOnDrop)]
struct Table {
    /// K1..K10.
    rk: [Block; 10],
    /// L⁻¹(K1..K10) (entry 0 unused).
    dk: [Block; 10],
    #[zeroize(skip)]
    luts: &'static Luts,
}

impl Table {
    fn new(rk: &[Block; 10]) -> Table {
        let dk = rk.map(|k| l_inv_map().apply(&k));
        Table { rk: *rk, dk, luts: luts() }
    }
}

impl Lut {
    /// Entry `offset / 16` of table i, for an offset < 4096 (masked to a
    /// multiple of 16 below it, which also lets the compiler drop the
    /// bounds check).
    #[inline(always)]
    fn entry(&self, m: M, i: usize, offset: usize) -> V {
        let offset = offset & 0xff0;
        m.load(&self.0[i].as_flattened()[offset..offset + 16])
    }
}

/// 16-bit word k of `w`, a table offset.
#[inline(always)]
fn word_offset(w: u64, k: usize) -> usize {
    (w >> (16 * k)) as usize
}

/// One round ⊕_i T[i][a_i].
#[inline(always)]
fn lookup_round(m: M, t: &Lut, a: V) -> V {
    // pmaddubsw: word k = 16·byte 2k + 0·byte 2k+1, and the other way round.
    let even = m.maddubs(a, m.splat32(0x0010_0010));
    let odd = m.maddubs(a, m.splat32(0x1000_1000));
    let words = [m.low64(even), m.low64(odd), m.low64(m.unpack_hi::<8>(even, even)), m.low64(m.unpack_hi::<8>(odd, odd))];
    // Byte 2k is word k of `even` (k < 4 in words[0], else words[2]), byte 2k+1 of `odd`.
    let mut acc0 = t.entry(m, 0, word_offset(words[0], 0));
    let mut acc1 = t.entry(m, 1, word_offset(words[1], 0));
    for k in 1..4 {
        acc0 = m.xor(acc0, t.entry(m, 2 * k, word_offset(words[0], k)));
        acc1 = m.xor(acc1, t.entry(m, 2 * k + 1, word_offset(words[1], k)));
    }
    for k in 0..4 {
        acc0 = m.xor(acc0, t.entry(m, 8 + 2 * k, word_offset(words[2], k)));
        acc1 = m.xor(acc1, t.entry(m, 9 + 2 * k, word_offset(words[3], k)));
    }
    m.xor(acc0, acc1)
}

/// Encrypts N blocks (N ≤ WAYS) round by round together.
#[inline(always)]
fn encrypt_group<const N: usize>(m: M, k: &Table, data: &mut [u8]) {
    let mut s = [m.zero(); N];
    for (b, v) in s.iter_mut().enumerate() {
        *v = m.xor(m.load(&data[16 * b..]), m.load(&k.rk[0]));
    }
    for key in &k.rk[1..] {
        for v in s.iter_mut() {
            *v = m.xor(lookup_round(m, &k.luts.enc, *v), m.load(key));
        }
    }
    for (b, v) in s.iter().enumerate() {
        m.store(*v, &mut data[16 * b..]);
    }
}

/// 16·π(b): the table offset of S(b), for the first decryption round.
static PI_OFFSET: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = 16 * PI[b] as u16;
        b += 1;
    }
    t
};

/// The first decryption round T⁻¹(S(c)) = L⁻¹(c), offsets straight from the bytes.
#[inline(always)]
fn first_round_dec(m: M, t: &Lut, c: &[u8]) -> V {
    let mut acc = [m.zero(); 2];
    for (i, &byte) in c[..16].iter().enumerate() {
        acc[i % 2] = m.xor(acc[i % 2], t.entry(m, i, usize::from(PI_OFFSET[usize::from(byte)])));
    }
    m.xor(acc[0], acc[1])
}

/// Decrypts N blocks together.
#[inline(always)]
fn decrypt_group<const N: usize>(m: M, k: &Table, data: &mut [u8]) {
    let mut s = [m.zero(); N];
    for (b, v) in s.iter_mut().enumerate() {
        *v = m.xor(first_round_dec(m, &k.luts.dec, &data[16 * b..16 * b + 16]), m.load(&k.dk[9]));
    }
    for key in k.dk[1..9].iter().rev() {
        for v in s.iter_mut() {
            *v = m.xor(lookup_round(m, &k.luts.dec, *v), m.load(key));
        }
    }
    for (b, v) in s.iter().enumerate() {
        m.store(*v, &mut data[16 * b..]);
    }
    for (i, b) in data[..16 * N].iter_mut().enumerate() {
        *b = PI_INV[*b as usize] ^ k.rk[0][i % 16];
    }
}

impl Table {
    /// A whole group of WAYS blocks, or single blocks for the tail.
    #[inline(always)]
    fn groups<const DECRYPT: bool>(&self, m: M, batch: &mut [u8]) {
        if batch.len() == 16 * WAYS {
            self.group::<WAYS, DECRYPT>(m, batch);
        } else {
            for block in batch.chunks_exact_mut(16) {
                self.group::<1, DECRYPT>(m, block);
            }
        }
    }

    #[inline(always)]
    fn group<const N: usize, const DECRYPT: bool>(&self, m: M, data: &mut [u8]) {
        if DECRYPT {
            decrypt_group::<N>(m, self, data)
        } else {
            encrypt_group::<N>(m, self, data)
        }
    }
}

impl BatchCipher<M> for Table {
    type Keys = Keys;
    const BATCH_BYTES: usize = 16 * WAYS;
    const GRANULE_BYTES: usize = 16;

    fn new(_: M, keys: &Keys) -> Table {
        Table::new(&keys.rk)
    }
    #[inline(always)]
    fn encrypt(&self, m: M, batch: &mut [u8]) {
        self.groups::<false>(m, batch)
    }
    #[inline(always)]
    fn decrypt(&self, m: M, batch: &mut [u8]) {
        self.groups::<true>(m, batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::transforms::s;

    #[test]
    fn tables_are_ls_and_inverse() {
        let t = luts();
        for i in [0usize, 5, 15] {
            for b in [0usize, 1, 0x80, 0xff] {
                let mut a = [0u8; 16];
                a[i] = b as u8;
                let mut want = a;
                s(&mut want);
                want.iter_mut().enumerate().for_each(|(j, x)| if j != i { *x = 0 });
                l(&mut want);
                assert_eq!(t.enc.0[i][b], want);
            }
        }
    }
}
