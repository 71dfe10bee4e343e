//! Table-based Kuznyechik (NOT constant-time: addresses depend on the data;
//! chosen only by name), the technique of the seed papers (notes/seed-003-004):
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

use super::tables::{PI, PI_INV};
use super::linear::l_inv_map;
use super::transforms::{gf_mul, l, l_inv, Block};
use super::Keys;
use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use core::arch::x86_64::*;
use std::sync::OnceLock;
use zeroize::{Zeroize, ZeroizeOnDrop};

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "table", constant_time: false, ways: WAYS, needs: "ssse3" },
    available,
    new: |keys| {
        assert!(available(CpuFeatures::get()), "table kernel on a CPU without SSSE3");
        Box::new(Table::new(&keys.rk))
    },
};

fn available(f: &CpuFeatures) -> bool {
    f.ssse3
}

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
                lut.0[i][b][j] = gf_mul(s[b], col[j]);
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

/// One round ⊕_i T[i][a_i]; only inlined into the SSSE3 functions below.
#[inline(always)]
fn lookup_round(t: &Lut, a: __m128i) -> __m128i {
    // SAFETY: reached only from SSSE3 functions; every offset is
    // 4096·i + 16·byte < 65536, inside the table.
    unsafe {
        // pmaddubsw: word k = 16·byte 2k + 0·byte 2k+1, and the other way round.
        let even = _mm_maddubs_epi16(a, _mm_set1_epi16(0x0010));
        let odd = _mm_maddubs_epi16(a, _mm_set1_epi16(0x1000));
        let words = [
            _mm_cvtsi128_si64(even) as u64,
            _mm_cvtsi128_si64(odd) as u64,
            _mm_cvtsi128_si64(_mm_unpackhi_epi64(even, even)) as u64,
            _mm_cvtsi128_si64(_mm_unpackhi_epi64(odd, odd)) as u64,
        ];
        let base = t.0.as_ptr().cast::<u8>();
        let entry = |i: usize, w: u64, k: usize| {
            let off = ((w >> (16 * k)) & 0xffff) as usize;
            _mm_load_si128(base.add(4096 * i + off).cast())
        };
        // Byte 2k is word k of `even` (k < 4 in words[0], else words[2]), byte 2k+1 of `odd`.
        let mut acc0 = entry(0, words[0], 0);
        let mut acc1 = entry(1, words[1], 0);
        for k in 1..4 {
            acc0 = _mm_xor_si128(acc0, entry(2 * k, words[0], k));
            acc1 = _mm_xor_si128(acc1, entry(2 * k + 1, words[1], k));
        }
        for k in 0..4 {
            acc0 = _mm_xor_si128(acc0, entry(8 + 2 * k, words[2], k));
            acc1 = _mm_xor_si128(acc1, entry(9 + 2 * k, words[3], k));
        }
        _mm_xor_si128(acc0, acc1)
    }
}

#[inline(always)]
fn load(b: &[u8]) -> __m128i {
    let b = &b[..16];
    // SAFETY: 16 readable bytes; SSE2 is baseline.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

#[inline(always)]
fn store(v: __m128i, b: &mut [u8]) {
    let b = &mut b[..16];
    // SAFETY: 16 writable bytes; SSE2 is baseline.
    unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), v) }
}

#[inline(always)]
fn xor(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 is baseline.
    unsafe { _mm_xor_si128(a, b) }
}

/// Encrypts up to WAYS blocks (a whole number) round by round together.
#[inline(always)]
fn encrypt_group<const N: usize>(k: &Table, data: &mut [u8]) {
    let rk: [__m128i; 10] = core::array::from_fn(|i| load(&k.rk[i]));
    let mut s = [rk[0]; N];
    for (b, v) in s.iter_mut().enumerate() {
        *v = xor(load(&data[16 * b..]), rk[0]);
    }
    for key in &rk[1..] {
        for v in s.iter_mut() {
            *v = xor(lookup_round(&k.luts.enc, *v), *key);
        }
    }
    for (b, v) in s.iter().enumerate() {
        store(*v, &mut data[16 * b..]);
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
fn first_round_dec(t: &Lut, c: &[u8]) -> __m128i {
    let base = t.0.as_ptr().cast::<u8>();
    // SAFETY: reached only from SSSE3 functions; offsets < 4096 per table.
    let entry = |i: usize| unsafe {
        _mm_load_si128(base.add(4096 * i + PI_OFFSET[c[i] as usize] as usize).cast())
    };
    let (mut a0, mut a1) = (entry(0), entry(1));
    for i in (2..16).step_by(2) {
        a0 = xor(a0, entry(i));
        a1 = xor(a1, entry(i + 1));
    }
    xor(a0, a1)
}

/// Decrypts N blocks together.
#[inline(always)]
fn decrypt_group<const N: usize>(k: &Table, data: &mut [u8]) {
    let dk: [__m128i; 10] = core::array::from_fn(|i| load(&k.dk[i]));
    let mut s = [dk[0]; N];
    for (b, v) in s.iter_mut().enumerate() {
        *v = xor(first_round_dec(&k.luts.dec, &data[16 * b..16 * b + 16]), dk[9]);
    }
    for key in dk[1..9].iter().rev() {
        for v in s.iter_mut() {
            *v = xor(lookup_round(&k.luts.dec, *v), *key);
        }
    }
    for (b, v) in s.iter().enumerate() {
        store(*v, &mut data[16 * b..]);
    }
    for (i, b) in data[..16 * N].iter_mut().enumerate() {
        *b = PI_INV[*b as usize] ^ k.rk[0][i % 16];
    }
}

impl BlockKernel for Table {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: the kernel exists only where `available` said yes.
        unsafe { encrypt(self, data) }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        // SAFETY: as above.
        unsafe { decrypt(self, data) }
    }
}

#[target_feature(enable = "ssse3")]
unsafe fn encrypt(k: &Table, data: &mut [u8]) {
    let mut chunks = data.chunks_exact_mut(16 * WAYS);
    for c in &mut chunks {
        encrypt_group::<WAYS>(k, c);
    }
    for c in chunks.into_remainder().chunks_exact_mut(16) {
        encrypt_group::<1>(k, c);
    }
}

#[target_feature(enable = "ssse3")]
unsafe fn decrypt(k: &Table, data: &mut [u8]) {
    let mut chunks = data.chunks_exact_mut(16 * WAYS);
    for c in &mut chunks {
        decrypt_group::<WAYS>(k, c);
    }
    for c in chunks.into_remainder().chunks_exact_mut(16) {
        decrypt_group::<1>(k, c);
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
