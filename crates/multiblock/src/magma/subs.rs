//! The round's g without the key, `rotl11(S(x))` on dword lanes, once per
//! instruction set, each generic over the machines that have it (so the
//! emulator runs every one of them in tests). See `nibble` for the tables
//! and index words.
//!
//! Instructions per register of lanes (add key and XOR into the other half
//! come on top, in `lanes`):
//! - [`Masks`] (SSSE3): psrld 4 · 2 pand (L, H) · pxor+pand+2 pxor (I1, I2)
//!   · 4 pshufb · 4 pand + 3 por · pslld 11 + psrld 21 + por = 21;
//! - [`Blend`] (AVX2): vpsrld 4 · 2 vpand · 2 vpblendw · 4 vpshufb ·
//!   2 vpblendvb (odd bytes from the second table) · vpxor+vpand+vpxor ·
//!   vpslld + vpsrld + vpor = 17;
//! - [`Masked`] (AVX-512F+BW): vpsrld 4 · vpandd (L) · 2 vpternlogd (I1, I2)
//!   · 4 vpshufb, two merge-masked onto the odd bytes · vpternlogd (nibble
//!   mux) · vprold = 10 (ports on Ice Lake and later: p5 4, p0 2, p05 4;
//!   Sovyn et al. 2019, Zakhyst Informatsii 21(4), Table 5:
//!   1.88 cycles/byte at 64 blocks on Skylake-SP);
//! - [`Permb`] (AVX-512 VBMI): 2 vpternlogd (indexes: nibble | position
//!   << 4) · vpsrld · 2 vpermb · vpord · vprold = 7 (p5 2, p0 2).

use super::lanes::Sub;
use super::nibble::{
    permb_tables, ShufTables, I1_FROM_SHIFTED, I2_FROM_SHIFTED, KEEP_I1, KEEP_P, KEEP_Q, KEEP_R, KEEP_S,
    POSITION_TAGS,
};
use super::Sbox;
use crate::simd::{Avx512, Simd, Vbmi};

/// vpternlogd truth tables over (A, B, C) = (0xF0, 0xCC, 0xAA).
const MUX_B_IF_C_ELSE_A: i32 = 0xD8; // (B & C) | (A & !C)
const MUX_A_IF_C_ELSE_B: i32 = 0xE4; // (A & C) | (B & !C)
const AND_OR: i32 = 0xEA; // (A & B) | C
const XOR_OR: i32 = 0x1E; // A ^ (B | C)

/// The low nibble of every byte, and the high one moved down.
#[inline(always)]
fn nibbles<M: Simd>(m: M, x: M::V, low: M::V) -> (M::V, M::V) {
    (m.and(x, low), m.and(m.shr32::<4>(x), low))
}

/// SSSE3: no byte blend, so four masks keep each lookup's nibbles.
pub(super) struct Masks(ShufTables);

impl<M: Simd> Sub<M> for Masks {
    fn new(sbox: &Sbox) -> Masks {
        Masks(ShufTables::new(sbox))
    }
    /// P, Q, R, S; low nibbles; words 0 of each dword; the four keep masks.
    type Consts = ([M::V; 4], M::V, M::V, [M::V; 4]);
    #[inline(always)]
    fn consts(&self, m: M) -> Self::Consts {
        let keep = [m.splat32(KEEP_P), m.splat32(KEEP_Q), m.splat32(KEEP_R), m.splat32(KEEP_S)];
        (self.0.splat(m), m.splat32(0x0F0F_0F0F), m.splat32(0x0000_FFFF), keep)
    }
    #[inline(always)]
    fn sub_rot(m: M, (t, low, words01, keep): &Self::Consts, x: M::V) -> M::V {
        let (l, h) = nibbles(m, x, *low);
        // I1 = H in bytes 0,1 and L in bytes 2,3; I2 the other way round.
        let d = m.and(m.xor(l, h), *words01);
        let (i1, i2) = (m.xor(l, d), m.xor(h, d));
        let y = m.or(
            m.or(m.and(m.shuffle8(t[0], i1), keep[0]), m.and(m.shuffle8(t[1], i1), keep[1])),
            m.or(m.and(m.shuffle8(t[2], i2), keep[2]), m.and(m.shuffle8(t[3], i2), keep[3])),
        );
        m.rotl32::<11>(y)
    }
}

/// AVX2: word and byte blends instead of the masks.
pub(super) struct Blend(ShufTables);

impl<M: Simd> Sub<M> for Blend {
    fn new(sbox: &Sbox) -> Blend {
        Blend(ShufTables::new(sbox))
    }
    /// P, Q, R, S; low nibbles; odd bytes; the nibbles kept from I1.
    type Consts = ([M::V; 4], M::V, M::V, M::V);
    #[inline(always)]
    fn consts(&self, m: M) -> Self::Consts {
        (self.0.splat(m), m.splat32(0x0F0F_0F0F), m.splat32(0xFF00_FF00), m.splat32(KEEP_I1))
    }
    #[inline(always)]
    fn sub_rot(m: M, (t, low, odd_bytes, keep_i1): &Self::Consts, x: M::V) -> M::V {
        let (l, h) = nibbles(m, x, *low);
        // 16-bit words 0, 2, 4, 6 of each lane (bytes 0,1 of each dword) from the second operand.
        let i1 = m.blend16::<0x55>(l, h);
        let i2 = m.blend16::<0x55>(h, l);
        let s1 = m.blendv(m.shuffle8(t[0], i1), m.shuffle8(t[1], i1), *odd_bytes);
        let s2 = m.blendv(m.shuffle8(t[2], i2), m.shuffle8(t[3], i2), *odd_bytes);
        let y = m.xor(s2, m.and(m.xor(s1, s2), *keep_i1));
        m.rotl32::<11>(y)
    }
}

/// AVX-512F+BW: merge-masked `vpshufb` and `vpternlogd` muxes.
pub(super) struct Masked(ShufTables);

/// Bytes 1 and 3 of every dword.
const ODD_BYTES: u64 = 0xAAAA_AAAA_AAAA_AAAA;

impl<M: Avx512> Sub<M> for Masked {
    fn new(sbox: &Sbox) -> Masked {
        Masked(ShufTables::new(sbox))
    }
    /// P, Q, R, S; low nibbles; I1's and I2's words from x >> 4; the nibbles kept from I1.
    type Consts = ([M::V; 4], M::V, M::V, M::V, M::V);
    #[inline(always)]
    fn consts(&self, m: M) -> Self::Consts {
        let low = m.splat32(0x0F0F_0F0F);
        (self.0.splat(m), low, m.splat32(I1_FROM_SHIFTED), m.splat32(I2_FROM_SHIFTED), m.splat32(KEEP_I1))
    }
    #[inline(always)]
    fn sub_rot(m: M, (t, low, i1_shifted, i2_shifted, keep_i1): &Self::Consts, x: M::V) -> M::V {
        let xs = m.shr32::<4>(x);
        let l = m.and(x, *low);
        // L has clear high nibbles, so the mux also clears them in the bytes taken from x >> 4.
        let i1 = m.ternlog::<MUX_B_IF_C_ELSE_A>(l, xs, *i1_shifted);
        let i2 = m.ternlog::<MUX_B_IF_C_ELSE_A>(l, xs, *i2_shifted);
        let s1 = m.shuffle8_masked(m.shuffle8(t[0], i1), ODD_BYTES, t[1], i1);
        let s2 = m.shuffle8_masked(m.shuffle8(t[2], i2), ODD_BYTES, t[3], i2);
        m.rotl32::<11>(m.ternlog::<MUX_A_IF_C_ELSE_B>(s1, s2, *keep_i1))
    }
}

/// AVX-512 VBMI: one 64-entry lookup per nibble half substitutes every
/// byte with the S-boxes of its position (`vpermb` on zmm; on ymm
/// `vpermi2b` over two halves; on xmm two of those and a blend on bit 5).
pub(super) struct Permb {
    lo: [u8; 64],
    hi: [u8; 64],
}

/// 64 table bytes as registers (only the first `64 / BYTES` are used).
#[inline(always)]
fn pieces<M: Simd>(m: M, t: &[u8; 64]) -> [M::V; 4] {
    let mut p = [m.zero(); 4];
    for (i, v) in p.iter_mut().enumerate().take(64 / M::BYTES) {
        *v = m.load(&t[i * M::BYTES..]);
    }
    p
}

/// Byte k ← t[idx[k] & 63].
#[inline(always)]
fn lookup64<M: Vbmi + Avx512>(m: M, t: &[M::V; 4], idx: M::V) -> M::V {
    match M::BYTES {
        64 => m.permb(t[0], idx),
        32 => m.permi2b(t[0], idx, t[1]),
        _ => m.select_bit::<5>(idx, m.permi2b(t[0], idx, t[1]), m.permi2b(t[2], idx, t[3])),
    }
}

impl<M: Vbmi + Avx512> Sub<M> for Permb {
    fn new(sbox: &Sbox) -> Permb {
        let (lo, hi) = permb_tables(sbox);
        Permb { lo, hi }
    }
    /// Low-nibble and high-nibble tables; low nibbles; position tags.
    type Consts = ([M::V; 4], [M::V; 4], M::V, M::V);
    #[inline(always)]
    fn consts(&self, m: M) -> Self::Consts {
        (pieces(m, &self.lo), pieces(m, &self.hi), m.splat32(0x0F0F_0F0F), m.splat32(POSITION_TAGS))
    }
    #[inline(always)]
    fn sub_rot(m: M, c: &Self::Consts, x: M::V) -> M::V {
        let (sl, sh) = substitute(m, c, x);
        m.rotl32::<11>(m.or(sl, sh))
    }
    /// Below 512 bits (the narrow backend, where one block's latency is
    /// the cost): rotate both lookups and merge them into `y` with one
    /// `vpternlogd`, one step shorter than or, rotate, xor. The 512-bit
    /// kernels keep one rotation (port 0 is their bottleneck on Intel).
    #[inline(always)]
    fn xor_sub_rot(m: M, c: &Self::Consts, x: M::V, y: M::V) -> M::V {
        if M::BYTES == 64 {
            return m.xor(y, Self::sub_rot(m, c, x));
        }
        let (sl, sh) = substitute(m, c, x);
        m.ternlog::<XOR_OR>(y, m.rotl32::<11>(sl), m.rotl32::<11>(sh))
    }
}

/// `Permb`'s two lookups: the S-boxes of the low and of the high nibble of
/// every byte, each in its own nibble (OR gives S(x)).
#[inline(always)]
fn substitute<M: Vbmi + Avx512>(m: M, (lo, hi, low, tags): &<Permb as Sub<M>>::Consts, x: M::V) -> (M::V, M::V) {
    let il = m.ternlog::<AND_OR>(x, *low, *tags);
    let ih = m.ternlog::<AND_OR>(m.shr32::<4>(x), *low, *tags);
    (lookup64(m, lo, il), lookup64(m, hi, ih))
}

#[cfg(test)]
mod tests {
    use super::super::feistel::tests::check;
    use super::super::lanes::Lanes;
    use super::super::key_schedule::RoundKeys;
    use super::*;
    use crate::magma::Keys;
    use crate::simd::emu::Emu;

    fn lanes<S: Sub<Emu<N>>, const N: usize>(keys: &Keys) -> (Lanes<S>, Box<[u32; 32]>, Box<[u32; 32]>) {
        let rk = RoundKeys::new(keys);
        (Lanes::new(keys, S::new(keys.sbox)), Box::new(rk.enc), Box::new(rk.dec))
    }

    macro_rules! every_width {
        ($name:ident, $sub:ty) => {
            #[test]
            fn $name() {
                check::<Emu<16>, _, 1>(Emu, &lanes::<$sub, 16>);
                check::<Emu<16>, _, 3>(Emu, &lanes::<$sub, 16>);
                check::<Emu<32>, _, 2>(Emu, &lanes::<$sub, 32>);
                check::<Emu<64>, _, 1>(Emu, &lanes::<$sub, 64>);
                check::<Emu<64>, _, 4>(Emu, &lanes::<$sub, 64>);
            }
        };
    }

    every_width!(masks_match_the_reference, Masks);
    every_width!(blend_matches_the_reference, Blend);
    every_width!(masked_matches_the_reference, Masked);
    every_width!(permb_matches_the_reference, Permb);
}
