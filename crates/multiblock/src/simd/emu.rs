//! A software machine of N-byte registers, written from the instructions'
//! definitions in Intel's SDM, so every generic kernel runs (and is tested)
//! on any CPU, AVX-512 code included. It implements every trait of the
//! vocabulary; `simd::tests` checks it against the real instructions where
//! the CPU has them.

use super::{Avx512, Clmul, CrossLanes, Gfni, Interleave, Job, Machine, MinU8, Narrow, Simd, Table256, Vbmi};
use crate::cpu::CpuFeatures;

/// The emulated machine; N is 16, 32 or 64.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Emu<const N: usize>;

type R<const N: usize> = [u8; N];

fn map<const N: usize>(f: impl Fn(usize) -> u8) -> R<N> {
    core::array::from_fn(f)
}

/// Applies `f` to each little-endian word of `W` bytes of a and b.
fn words<const N: usize, const W: usize>(a: &R<N>, b: &R<N>, f: impl Fn(u64, u64) -> u64) -> R<N> {
    let mut out = [0u8; N];
    for i in (0..N).step_by(W) {
        let get = |x: &R<N>| x[i..i + W].iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
        let r = f(get(a), get(b));
        for k in 0..W {
            out[i + k] = (r >> (8 * k)) as u8;
        }
    }
    out
}

/// The result of `vgf2p8affineqb` on one byte, as the SDM defines it.
pub(crate) fn affine_byte(matrix: u64, x: u8) -> u8 {
    (0..8).fold(0u8, |r, i| {
        let row = (matrix >> (8 * (7 - i))) as u8;
        r | ((((row & x).count_ones() & 1) as u8) << i)
    })
}

impl<const N: usize> Machine for Emu<N> {
    const NEEDS: &'static str = "nothing (emulated)";
    fn available(_: &CpuFeatures) -> bool {
        true
    }
    unsafe fn new_unchecked() -> Self {
        Emu
    }
    fn vectorize<J: Job>(self, job: J) -> J::Output {
        job.run()
    }
}

impl<const N: usize> Simd for Emu<N> {
    type V = R<N>;
    const BYTES: usize = N;

    fn zero(self) -> R<N> {
        [0; N]
    }
    fn load(self, src: &[u8]) -> R<N> {
        src[..N].try_into().expect("N bytes")
    }
    fn store(self, v: R<N>, dst: &mut [u8]) {
        dst[..N].copy_from_slice(&v);
    }
    fn splat8(self, b: u8) -> R<N> {
        [b; N]
    }
    fn splat32(self, w: u32) -> R<N> {
        map(|i| w.to_le_bytes()[i % 4])
    }
    fn splat64(self, q: u64) -> R<N> {
        map(|i| q.to_le_bytes()[i % 8])
    }
    fn splat128(self, lane: &[u8; 16]) -> R<N> {
        map(|i| lane[i % 16])
    }
    fn xor(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| a[i] ^ b[i])
    }
    fn xor3(self, a: R<N>, b: R<N>, c: R<N>) -> R<N> {
        map(|i| a[i] ^ b[i] ^ c[i])
    }
    fn and(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| a[i] & b[i])
    }
    fn or(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| a[i] | b[i])
    }
    fn andnot(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| !a[i] & b[i])
    }
    fn add8(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| a[i].wrapping_add(b[i]))
    }
    fn sub8(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| a[i].wrapping_sub(b[i]))
    }
    fn add32(self, a: R<N>, b: R<N>) -> R<N> {
        words::<N, 4>(&a, &b, |x, y| (x as u32).wrapping_add(y as u32).into())
    }
    fn add64(self, a: R<N>, b: R<N>) -> R<N> {
        words::<N, 8>(&a, &b, u64::wrapping_add)
    }
    fn sub64(self, a: R<N>, b: R<N>) -> R<N> {
        words::<N, 8>(&a, &b, u64::wrapping_sub)
    }
    fn eq8(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| if a[i] == b[i] { 0xff } else { 0 })
    }
    fn gt8(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| if (a[i] as i8) > (b[i] as i8) { 0xff } else { 0 })
    }
    fn shl16<const S: i32>(self, a: R<N>) -> R<N> {
        words::<N, 2>(&a, &a, |x, _| x.checked_shl(S as u32).unwrap_or(0) & 0xffff)
    }
    fn shr16<const S: i32>(self, a: R<N>) -> R<N> {
        words::<N, 2>(&a, &a, |x, _| x.checked_shr(S as u32).unwrap_or(0))
    }
    fn shl32<const S: i32>(self, a: R<N>) -> R<N> {
        words::<N, 4>(&a, &a, |x, _| x.checked_shl(S as u32).unwrap_or(0) & 0xffff_ffff)
    }
    fn shr32<const S: i32>(self, a: R<N>) -> R<N> {
        words::<N, 4>(&a, &a, |x, _| x.checked_shr(S as u32).unwrap_or(0))
    }
    fn shl64<const S: i32>(self, a: R<N>) -> R<N> {
        words::<N, 8>(&a, &a, |x, _| x.checked_shl(S as u32).unwrap_or(0))
    }
    fn shr64<const S: i32>(self, a: R<N>) -> R<N> {
        words::<N, 8>(&a, &a, |x, _| x.checked_shr(S as u32).unwrap_or(0))
    }
    fn rotl32<const S: i32>(self, a: R<N>) -> R<N> {
        words::<N, 4>(&a, &a, |x, _| (x as u32).rotate_left(S as u32).into())
    }
    fn rotl64<const S: i32>(self, a: R<N>) -> R<N> {
        words::<N, 8>(&a, &a, |x, _| x.rotate_left(S as u32))
    }
    fn shuffle8(self, table: R<N>, idx: R<N>) -> R<N> {
        map(|i| if idx[i] & 0x80 != 0 { 0 } else { table[i / 16 * 16 + usize::from(idx[i] & 15)] })
    }
    fn shuffle32<const IMM: i32>(self, a: R<N>) -> R<N> {
        map(|i| {
            let (lane, word, byte) = (i / 16 * 16, i % 16 / 4, i % 4);
            a[lane + 4 * ((IMM as usize >> (2 * word)) & 3) + byte]
        })
    }
    fn unpack_lo<const W: usize>(self, a: R<N>, b: R<N>) -> R<N> {
        unpack::<N, W>(a, b, 0)
    }
    fn unpack_hi<const W: usize>(self, a: R<N>, b: R<N>) -> R<N> {
        unpack::<N, W>(a, b, 8)
    }
    fn blendv(self, a: R<N>, b: R<N>, mask: R<N>) -> R<N> {
        map(|i| if mask[i] & 0x80 != 0 { b[i] } else { a[i] })
    }
    fn blend32<const IMM: i32>(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| if IMM >> (i % 16 / 4) & 1 == 1 { b[i] } else { a[i] })
    }
    fn maddubs(self, a: R<N>, b: R<N>) -> R<N> {
        let mut out = [0u8; N];
        for i in (0..N).step_by(2) {
            let p = |k: usize| i32::from(a[k]) * i32::from(b[k] as i8);
            let s = (p(i) + p(i + 1)).clamp(i16::MIN.into(), i16::MAX.into()) as i16;
            out[i..i + 2].copy_from_slice(&s.to_le_bytes());
        }
        out
    }
    fn low64(self, a: R<N>) -> u64 {
        u64::from_le_bytes(a[..8].try_into().expect("8 bytes"))
    }
    fn packus16(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| {
            let (lane, k) = (i / 16 * 16, i % 16);
            let src = if k < 8 { &a } else { &b };
            let w = i16::from_le_bytes([src[lane + 2 * (k % 8)], src[lane + 2 * (k % 8) + 1]]);
            w.clamp(0, 255) as u8
        })
    }

    // Magma / GOST 28147-89.
    fn blend16<const IMM: i32>(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| if IMM >> (i % 16 / 2) & 1 == 1 { b[i] } else { a[i] })
    }
    // Kalyna's operations.
    fn add8_opaque(self, a: R<N>, b: R<N>) -> R<N> {
        self.add8(a, b)
    }
    fn splat8_opaque(self, b: u8) -> R<N> {
        self.splat8(b)
    }
    fn shuffle8_opaque(self, table: R<N>, idx: R<N>) -> R<N> {
        self.shuffle8(table, idx)
    }
    fn blendv_opaque(self, a: R<N>, b: R<N>, mask: R<N>) -> R<N> {
        self.blendv(a, b, mask)
    }
    fn load_lanes(self, src: &[u8], stride: usize) -> R<N> {
        map(|i| src[i / 16 * stride + i % 16])
    }
    fn store_lanes(self, v: R<N>, dst: &mut [u8], stride: usize) {
        for (i, b) in v.into_iter().enumerate() {
            dst[i / 16 * stride + i % 16] = b;
        }
    }
    // uBlock
    fn load_lane(self, v: R<N>, lane: usize, src: &[u8]) -> R<N> {
        assert!(lane < N / 16);
        let mut out = v;
        out[16 * lane..16 * lane + 16].copy_from_slice(&src[..16]);
        out
    }
    fn store_lane(self, v: R<N>, lane: usize, dst: &mut [u8]) {
        assert!(lane < N / 16);
        dst[..16].copy_from_slice(&v[16 * lane..16 * lane + 16]);
    }
}

/// punpckl/h with W-byte elements: per 16-byte lane, out element 2e is a's
/// element (half/W + e), out element 2e+1 is b's.
fn unpack<const N: usize, const W: usize>(a: R<N>, b: R<N>, half: usize) -> R<N> {
    map(|i| {
        let (lane, off) = (i / 16 * 16, i % 16);
        let (elem, byte) = (off / W, off % W);
        let src = if elem % 2 == 0 { &a } else { &b };
        src[lane + half + (elem / 2) * W + byte]
    })
}

/// `Narrow` for an emulated width and its half.
macro_rules! emu_narrow {
    ($($n:literal => $h:literal),*) => {
        $(
            impl Narrow for Emu<$n> {
                type Half = Emu<$h>;
                fn half(self) -> Emu<$h> {
                    Emu
                }
                fn low_half(self, v: R<$n>) -> R<$h> {
                    map(|i| v[i])
                }
                fn widen(self, h: R<$h>) -> R<$n> {
                    map(|i| if i < $h { h[i] } else { 0 })
                }
            }
        )*
    };
}

emu_narrow!(64 => 32, 32 => 16);

impl<const N: usize> Gfni for Emu<N> {
    fn affine(self, x: R<N>, matrix: u64) -> R<N> {
        map(|i| affine_byte(matrix, x[i]))
    }
    fn affine_lanes(self, x: R<N>, matrices: R<N>) -> R<N> {
        map(|i| {
            let w = i / 8 * 8;
            let matrix = u64::from_le_bytes(matrices[w..w + 8].try_into().expect("8 bytes"));
            affine_byte(matrix, x[i])
        })
    }
    fn mul(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| aes_mul(a[i], b[i]))
    }
    fn affine_inverse(self, x: R<N>, matrix: u64) -> R<N> {
        map(|i| affine_byte(matrix, aes_inverse(x[i])))
    }
}

/// The SDM's inverse for GF2P8AFFINEINVQB: x^254 in GF(2^8)/0x11B (0 ↦ 0),
/// 254 = 2 + 4 + … + 128, the product of the squares x^(2^k), k = 1..7.
fn aes_inverse(x: u8) -> u8 {
    let (mut power, mut product) = (x, 1);
    for _ in 1..8 {
        power = aes_mul(power, power);
        product = aes_mul(product, power);
    }
    product
}

impl<const N: usize> MinU8 for Emu<N> {
    fn min8u(self, a: R<N>, b: R<N>) -> R<N> {
        map(|i| a[i].min(b[i]))
    }
}

/// The SDM's GF2P8MULB: carry-less product reduced by 0x11B, bit by bit.
fn aes_mul(a: u8, b: u8) -> u8 {
    let product = (0..8).filter(|i| b >> i & 1 == 1).fold(0u16, |p, i| p ^ (u16::from(a) << i));
    (8..15).rev().fold(product, |p, bit| if p >> bit & 1 == 1 { p ^ (0x11B << (bit - 8)) } else { p }) as u8
}

impl<const N: usize> Vbmi for Emu<N> {
    fn permb(self, table: R<N>, idx: R<N>) -> R<N> {
        map(|i| table[usize::from(idx[i]) % N])
    }
    fn permb_masked(self, src: R<N>, mask: u64, table: R<N>, idx: R<N>) -> R<N> {
        map(|i| if mask >> i & 1 == 1 { table[usize::from(idx[i]) % N] } else { src[i] })
    }
    fn permi2b(self, lo: R<N>, idx: R<N>, hi: R<N>) -> R<N> {
        map(|i| {
            let k = usize::from(idx[i]) % (2 * N);
            if k < N {
                lo[k]
            } else {
                hi[k - N]
            }
        })
    }
}

impl CrossLanes for Emu<32> {
    fn lanes_between(self, a: R<32>, b: R<32>) -> R<32> {
        map(|i| if i < 16 { a[16 + i] } else { b[i - 16] })
    }
    fn permute64<const IMM: i32>(self, a: R<32>) -> R<32> {
        map(|i| a[8 * ((IMM as usize >> (2 * (i / 8))) & 3) + i % 8])
    }
    fn permute32(self, a: R<32>, idx: R<32>) -> R<32> {
        map(|i| a[4 * (usize::from(idx[i / 4 * 4]) % 8) + i % 4])
    }
}

impl<const N: usize> Table256 for Emu<N> {
    fn lookup256(self, table: &[u8; 256], x: R<N>) -> R<N> {
        map(|i| table[usize::from(x[i])])
    }
}

/// ARM's definitions, per 16-byte register.
impl<const N: usize> Interleave for Emu<N> {
    fn tbl(self, table: R<N>, idx: R<N>) -> R<N> {
        map(|i| if idx[i] < 16 { table[i / 16 * 16 + usize::from(idx[i])] } else { 0 })
    }
    fn trn1<const W: usize>(self, a: R<N>, b: R<N>) -> R<N> {
        trn::<N, W>(a, b, 0)
    }
    fn trn2<const W: usize>(self, a: R<N>, b: R<N>) -> R<N> {
        trn::<N, W>(a, b, 1)
    }
    fn shr8<const S: i32>(self, a: R<N>) -> R<N> {
        map(|i| a[i] >> S)
    }
}

/// TRN1 (odd = 0) or TRN2 (odd = 1) with W-byte elements: out element
/// 2e + t is (a if t = 0 else b)'s element 2e + odd, in each 16-byte register.
fn trn<const N: usize, const W: usize>(a: R<N>, b: R<N>, odd: usize) -> R<N> {
    map(|i| {
        let (reg, off) = (i / 16 * 16, i % 16);
        let (elem, byte) = (off / W, off % W);
        let src = if elem % 2 == 0 { &a } else { &b };
        src[reg + (elem / 2 * 2 + odd) * W + byte]
    })
}

impl<const N: usize> Avx512 for Emu<N> {
    fn ternlog<const IMM: i32>(self, a: R<N>, b: R<N>, c: R<N>) -> R<N> {
        map(|i| {
            (0..8).fold(0u8, |r, bit| {
                let t = (a[i] >> bit & 1) << 2 | (b[i] >> bit & 1) << 1 | (c[i] >> bit & 1);
                r | (((IMM >> t) & 1) as u8) << bit
            })
        })
    }
    fn select_bit<const BIT: u32>(self, sel: R<N>, a: R<N>, b: R<N>) -> R<N> {
        map(|i| if sel[i] >> BIT & 1 == 1 { b[i] } else { a[i] })
    }
    fn shuffle8_masked(self, src: R<N>, mask: u64, table: R<N>, idx: R<N>) -> R<N> {
        let s = self.shuffle8(table, idx);
        map(|i| if mask >> i & 1 == 1 { s[i] } else { src[i] })
    }
    fn load_prefix(self, src: &[u8]) -> R<N> {
        assert!(src.len() <= N);
        map(|i| src.get(i).copied().unwrap_or(0))
    }
    fn store_prefix(self, v: R<N>, dst: &mut [u8]) {
        assert!(dst.len() <= N);
        dst.copy_from_slice(&v[..dst.len()]);
    }
    fn add8_masked(self, src: R<N>, mask: u64, a: R<N>, b: R<N>) -> R<N> {
        map(|i| if mask >> i & 1 == 1 { a[i].wrapping_add(b[i]) } else { src[i] })
    }
    fn lt8u(self, a: R<N>, b: R<N>) -> u64 {
        (0..N).filter(|&i| a[i] < b[i]).fold(0, |m, i| m | 1 << i)
    }
    fn test8(self, a: R<N>, b: R<N>) -> u64 {
        (0..N).filter(|&i| a[i] & b[i] != 0).fold(0, |m, i| m | 1 << i)
    }
    fn permi2q(self, a: R<N>, idx: R<N>, b: R<N>) -> R<N> {
        let q = N / 8;
        map(|i| {
            let k = usize::from(idx[i / 8 * 8]) % (2 * q);
            let src = if k < q { &a } else { &b };
            src[(k % q) * 8 + i % 8]
        })
    }
}

impl<const N: usize> Clmul for Emu<N> {
    /// The SDM's PCLMULQDQ per 128-bit lane: bit i of the product is the
    /// XOR of a_j·b_(i−j).
    fn clmul<const IMM: i32>(self, a: R<N>, b: R<N>) -> R<N> {
        let mut out = [0u8; N];
        for lane in (0..N).step_by(16) {
            let word = |x: &R<N>, sel: i32| {
                let at = lane + 8 * (sel & 1) as usize;
                u64::from_le_bytes(x[at..at + 8].try_into().expect("8 bytes"))
            };
            let (x, y) = (word(&a, IMM), word(&b, IMM >> 4));
            let p = (0..64).filter(|j| y >> j & 1 == 1).fold(0u128, |p, j| p ^ (u128::from(x) << j));
            out[lane..lane + 16].copy_from_slice(&p.to_le_bytes());
        }
        out
    }
}
