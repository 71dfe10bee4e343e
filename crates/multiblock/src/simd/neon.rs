//! 128-bit registers on aarch64 Advanced SIMD (NEON), `uint8x16_t`, with
//! the x86 semantics the kernels were written for (checked against the
//! emulator in `simd::tests`):
//! - `pshufb` is `TBL` on idx & 0x8f (TBL gives 0 for an index ≥ 16, pshufb
//!   takes idx & 15 unless bit 7 is set);
//! - shifts are `USHL` by a register count, whose result is 0 for a count of
//!   the element size or more, as `psrlw` and friends (a constant count
//!   becomes the immediate form);
//! - `pmaddubsw` is two widening multiplies and a saturating add,
//!   `packuswb` two `SQXTUN`.
//!
//! SAFETY (of every `unsafe` block here): a [`Neon`] token exists only on a
//! CPU with Advanced SIMD (see `Machine`); loads and stores are
//! bounds-checked by slicing first.

use super::{Interleave, Job, Machine, Simd, Table256};
use crate::cpu::CpuFeatures;
use core::arch::aarch64::*;

/// The aarch64 Advanced SIMD machine (16-byte registers).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neon(());

type V = uint8x16_t;

/// A 16-byte mask of 0xff where bit i of `imm` is set, per element of `W`
/// bytes (the constant of `blend16` / `blend32`).
#[inline(always)]
fn element_mask<const W: usize>(imm: i32) -> [u8; 16] {
    let mut m = [0u8; 16];
    for (i, b) in m.iter_mut().enumerate() {
        *b = if imm >> (i / W) & 1 == 1 { 0xff } else { 0 };
    }
    m
}

impl Machine for Neon {
    const NEEDS: &'static str = "neon";
    fn available(f: &CpuFeatures) -> bool {
        f.neon
    }
    unsafe fn new_unchecked() -> Self {
        Neon(())
    }
    #[inline(always)]
    fn vectorize<J: Job>(self, job: J) -> J::Output {
        #[target_feature(enable = "neon")]
        #[inline]
        unsafe fn compiled<J: Job>(job: J) -> J::Output {
            job.run()
        }
        // SAFETY: the token exists, so the CPU has NEON.
        unsafe { compiled(job) }
    }
}

impl Simd for Neon {
    type V = V;
    const BYTES: usize = 16;

    #[inline(always)]
    fn zero(self) -> V {
        unsafe { vdupq_n_u8(0) }
    }
    #[inline(always)]
    fn load(self, src: &[u8]) -> V {
        let src = &src[..16];
        unsafe { vld1q_u8(src.as_ptr()) }
    }
    #[inline(always)]
    fn store(self, v: V, dst: &mut [u8]) {
        let dst = &mut dst[..16];
        unsafe { vst1q_u8(dst.as_mut_ptr(), v) }
    }
    #[inline(always)]
    fn splat8(self, b: u8) -> V {
        unsafe { vdupq_n_u8(b) }
    }
    #[inline(always)]
    fn splat32(self, w: u32) -> V {
        unsafe { vreinterpretq_u8_u32(vdupq_n_u32(w)) }
    }
    #[inline(always)]
    fn splat64(self, q: u64) -> V {
        unsafe { vreinterpretq_u8_u64(vdupq_n_u64(q)) }
    }
    #[inline(always)]
    fn splat128(self, lane: &[u8; 16]) -> V {
        unsafe { vld1q_u8(lane.as_ptr()) }
    }

    #[inline(always)]
    fn xor(self, a: V, b: V) -> V {
        unsafe { veorq_u8(a, b) }
    }
    #[inline(always)]
    fn xor3(self, a: V, b: V, c: V) -> V {
        unsafe { veorq_u8(veorq_u8(a, b), c) }
    }
    #[inline(always)]
    fn and(self, a: V, b: V) -> V {
        unsafe { vandq_u8(a, b) }
    }
    #[inline(always)]
    fn or(self, a: V, b: V) -> V {
        unsafe { vorrq_u8(a, b) }
    }
    #[inline(always)]
    fn andnot(self, a: V, b: V) -> V {
        // BIC: b ∧ ¬a.
        unsafe { vbicq_u8(b, a) }
    }

    #[inline(always)]
    fn add8(self, a: V, b: V) -> V {
        unsafe { vaddq_u8(a, b) }
    }
    #[inline(always)]
    fn sub8(self, a: V, b: V) -> V {
        unsafe { vsubq_u8(a, b) }
    }
    #[inline(always)]
    fn add32(self, a: V, b: V) -> V {
        unsafe { vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b))) }
    }
    #[inline(always)]
    fn add64(self, a: V, b: V) -> V {
        unsafe { vreinterpretq_u8_u64(vaddq_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b))) }
    }
    #[inline(always)]
    fn sub64(self, a: V, b: V) -> V {
        unsafe { vreinterpretq_u8_u64(vsubq_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b))) }
    }
    #[inline(always)]
    fn eq8(self, a: V, b: V) -> V {
        unsafe { vceqq_u8(a, b) }
    }
    #[inline(always)]
    fn gt8(self, a: V, b: V) -> V {
        unsafe { vcgtq_s8(vreinterpretq_s8_u8(a), vreinterpretq_s8_u8(b)) }
    }

    #[inline(always)]
    fn shl16<const N: i32>(self, a: V) -> V {
        unsafe { vreinterpretq_u8_u16(vshlq_u16(vreinterpretq_u16_u8(a), vdupq_n_s16(N as i16))) }
    }
    #[inline(always)]
    fn shr16<const N: i32>(self, a: V) -> V {
        unsafe { vreinterpretq_u8_u16(vshlq_u16(vreinterpretq_u16_u8(a), vdupq_n_s16(-N as i16))) }
    }
    #[inline(always)]
    fn shl32<const N: i32>(self, a: V) -> V {
        unsafe { vreinterpretq_u8_u32(vshlq_u32(vreinterpretq_u32_u8(a), vdupq_n_s32(N))) }
    }
    #[inline(always)]
    fn shr32<const N: i32>(self, a: V) -> V {
        unsafe { vreinterpretq_u8_u32(vshlq_u32(vreinterpretq_u32_u8(a), vdupq_n_s32(-N))) }
    }
    #[inline(always)]
    fn shl64<const N: i32>(self, a: V) -> V {
        unsafe { vreinterpretq_u8_u64(vshlq_u64(vreinterpretq_u64_u8(a), vdupq_n_s64(N.into()))) }
    }
    #[inline(always)]
    fn shr64<const N: i32>(self, a: V) -> V {
        unsafe { vreinterpretq_u8_u64(vshlq_u64(vreinterpretq_u64_u8(a), vdupq_n_s64((-N).into()))) }
    }
    #[inline(always)]
    fn rotl32<const N: i32>(self, a: V) -> V {
        self.or(self.shl32::<N>(a), self.shr32_by(a, 32 - N))
    }
    #[inline(always)]
    fn rotl64<const N: i32>(self, a: V) -> V {
        let right = unsafe { vdupq_n_s64((N - 64).into()) };
        self.or(self.shl64::<N>(a), unsafe { vreinterpretq_u8_u64(vshlq_u64(vreinterpretq_u64_u8(a), right)) })
    }

    #[inline(always)]
    fn shuffle8(self, table: V, idx: V) -> V {
        // TBL yields 0 for indices ≥ 16: keep bit 7 (pshufb's zeroing) and
        // the low nibble.
        unsafe { vqtbl1q_u8(table, vandq_u8(idx, vdupq_n_u8(0x8f))) }
    }
    #[inline(always)]
    fn shuffle32<const IMM: i32>(self, a: V) -> V {
        if IMM == 0x4e {
            // The two 64-bit halves swapped: one EXT.
            return unsafe { vextq_u8::<8>(a, a) };
        }
        let mut idx = [0u8; 16];
        for (i, b) in idx.iter_mut().enumerate() {
            *b = (4 * ((IMM as usize >> (2 * (i / 4))) & 3) + i % 4) as u8;
        }
        unsafe { vqtbl1q_u8(a, vld1q_u8(idx.as_ptr())) }
    }
    #[inline(always)]
    fn unpack_lo<const W: usize>(self, a: V, b: V) -> V {
        unsafe {
            match W {
                1 => vzip1q_u8(a, b),
                2 => vreinterpretq_u8_u16(vzip1q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b))),
                4 => vreinterpretq_u8_u32(vzip1q_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b))),
                _ => vreinterpretq_u8_u64(vzip1q_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b))),
            }
        }
    }
    #[inline(always)]
    fn unpack_hi<const W: usize>(self, a: V, b: V) -> V {
        unsafe {
            match W {
                1 => vzip2q_u8(a, b),
                2 => vreinterpretq_u8_u16(vzip2q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b))),
                4 => vreinterpretq_u8_u32(vzip2q_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b))),
                _ => vreinterpretq_u8_u64(vzip2q_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b))),
            }
        }
    }
    #[inline(always)]
    fn blendv(self, a: V, b: V, mask: V) -> V {
        // Bit 7 spread over the byte (CMLT #0), then a bitwise select.
        unsafe { vbslq_u8(vcltzq_s8(vreinterpretq_s8_u8(mask)), b, a) }
    }
    #[inline(always)]
    fn blend32<const IMM: i32>(self, a: V, b: V) -> V {
        unsafe { vbslq_u8(vld1q_u8(element_mask::<4>(IMM).as_ptr()), b, a) }
    }
    #[inline(always)]
    fn maddubs(self, a: V, b: V) -> V {
        unsafe {
            let (a, b) = (vreinterpretq_s16_u8(a), vreinterpretq_s16_u8(b));
            // Even bytes: a zero-extended, b sign-extended; odd bytes: shifts.
            let a_even = vandq_s16(a, vdupq_n_s16(0xff));
            let a_odd = vreinterpretq_s16_u16(vshrq_n_u16::<8>(vreinterpretq_u16_s16(a)));
            let b_even = vshrq_n_s16::<8>(vshlq_n_s16::<8>(b));
            let b_odd = vshrq_n_s16::<8>(b);
            // |255·(−128)| < 2^15: the products are exact; the sum saturates.
            vreinterpretq_u8_s16(vqaddq_s16(vmulq_s16(a_even, b_even), vmulq_s16(a_odd, b_odd)))
        }
    }
    #[inline(always)]
    fn packus16(self, a: V, b: V) -> V {
        unsafe { vqmovun_high_s16(vqmovun_s16(vreinterpretq_s16_u8(a)), vreinterpretq_s16_u8(b)) }
    }
    #[inline(always)]
    fn low64(self, a: V) -> u64 {
        unsafe { vgetq_lane_u64::<0>(vreinterpretq_u64_u8(a)) }
    }
    #[inline(always)]
    fn blend16<const IMM: i32>(self, a: V, b: V) -> V {
        unsafe { vbslq_u8(vld1q_u8(element_mask::<2>(IMM).as_ptr()), b, a) }
    }

    // Kalyna's operations: NEON needs no opaque forms (the x86 ones keep
    // LLVM from rewriting VEX code; see `Simd::add8_opaque`).
    #[inline(always)]
    fn add8_opaque(self, a: V, b: V) -> V {
        self.add8(a, b)
    }
    #[inline(always)]
    fn splat8_opaque(self, b: u8) -> V {
        self.splat8(b)
    }
    #[inline(always)]
    fn shuffle8_opaque(self, table: V, idx: V) -> V {
        self.shuffle8(table, idx)
    }
    #[inline(always)]
    fn blendv_opaque(self, a: V, b: V, mask: V) -> V {
        self.blendv(a, b, mask)
    }
    #[inline(always)]
    fn load_lanes(self, src: &[u8], _stride: usize) -> V {
        self.load(src)
    }
    #[inline(always)]
    fn store_lanes(self, v: V, dst: &mut [u8], _stride: usize) {
        self.store(v, dst)
    }
    // uBlock
    #[inline(always)]
    fn load_lane(self, _: V, lane: usize, src: &[u8]) -> V {
        debug_assert_eq!(lane, 0);
        self.load(src)
    }
    #[inline(always)]
    fn store_lane(self, v: V, lane: usize, dst: &mut [u8]) {
        debug_assert_eq!(lane, 0);
        self.store(v, dst)
    }
}

impl Neon {
    /// 32-bit words shifted right by a count known only as a value.
    #[inline(always)]
    fn shr32_by(self, a: V, n: i32) -> V {
        unsafe { vreinterpretq_u8_u32(vshlq_u32(vreinterpretq_u32_u8(a), vdupq_n_s32(-n))) }
    }
}

impl Table256 for Neon {
    #[inline(always)]
    fn lookup256(self, table: &[u8; 256], x: V) -> V {
        // TBL over the first 64 bytes, then TBX over each next 64 with the
        // index lowered by 64: an index out of a table's range (≥ 64, the
        // wrapped ones included) leaves the byte as it is.
        let t = table.as_chunks::<64>().0;
        unsafe {
            let step = vdupq_n_u8(64);
            let mut r = vqtbl4q_u8(quarter(&t[0]), x);
            let x1 = vsubq_u8(x, step);
            r = vqtbx4q_u8(r, quarter(&t[1]), x1);
            let x2 = vsubq_u8(x1, step);
            r = vqtbx4q_u8(r, quarter(&t[2]), x2);
            vqtbx4q_u8(r, quarter(&t[3]), vsubq_u8(x2, step))
        }
    }
}

impl Interleave for Neon {
    #[inline(always)]
    fn tbl(self, table: V, idx: V) -> V {
        unsafe { vqtbl1q_u8(table, idx) }
    }
    #[inline(always)]
    fn trn1<const W: usize>(self, a: V, b: V) -> V {
        unsafe {
            match W {
                1 => vtrn1q_u8(a, b),
                2 => vreinterpretq_u8_u16(vtrn1q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b))),
                4 => vreinterpretq_u8_u32(vtrn1q_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b))),
                _ => vreinterpretq_u8_u64(vtrn1q_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b))),
            }
        }
    }
    #[inline(always)]
    fn trn2<const W: usize>(self, a: V, b: V) -> V {
        unsafe {
            match W {
                1 => vtrn2q_u8(a, b),
                2 => vreinterpretq_u8_u16(vtrn2q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b))),
                4 => vreinterpretq_u8_u32(vtrn2q_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b))),
                _ => vreinterpretq_u8_u64(vtrn2q_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b))),
            }
        }
    }
    #[inline(always)]
    fn shr8<const N: i32>(self, a: V) -> V {
        unsafe { vshrq_n_u8::<N>(a) }
    }
}

/// 64 table bytes in four registers (one `LD1 {4 registers}`).
#[inline(always)]
fn quarter(t: &[u8; 64]) -> uint8x16x4_t {
    unsafe { vld1q_u8_x4(t.as_ptr()) }
}
