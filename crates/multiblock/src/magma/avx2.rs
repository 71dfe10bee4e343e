//! `avx2`: constant-time Magma / GOST 28147-89 with 256-bit vpshufb.
//!
//! Whole groups of 32 blocks run on the byte-sliced kernel of
//! `avx2_sliced.rs` (59 instructions per round per 32 blocks). The rest of a
//! message (under 32 blocks) runs here, on dword lanes, in as few groups of 8
//! blocks as it needs: its latency per call is half the sliced kernel's, so
//! a 64-byte message costs one 8-block pass. The sliced kernel's 14 KiB of
//! broadcast key bytes are built on the first call that has 32 blocks, so
//! keying for a short message or a serial mode costs only the round keys
//! and four 16-byte tables (measured: 64 B including key setup ≈ 1.3k
//! ticks, was ≈ 23k; one block ≈ 0.6k ticks, was ≈ 1.1k).
//!
//! Dword-lane layout: one ymm holds N1 of 8 blocks (a 32-bit lane each),
//! another their N2; up to 4 such pairs are interleaved. Load: vpshufb puts
//! the two blocks of each 128-bit lane in [N1 N1 N2 N2] order (and applies
//! the byte order, see `layout`), vpermq gathers each lane's halves,
//! vperm2i128 joins two registers; store reverses it.
//!
//! Dword-lane round (see `nibble` for the tables), per 8 blocks, 19
//! instructions: vpaddd (key) · vpsrld 4 · 2 vpand (L, H) · 2 vpblendw
//! (I1, I2) · 4 vpshufb · 2 vpblendvb (odd bytes from the second table) ·
//! vpxor+vpand+vpxor (nibble mux of the two results) · vpslld 11 + vpsrld 21
//! + vpor (rotate) · vpxor into the other half. Seed 000 Table 5: 3.39
//! cycles/byte for AVX-256 at 32 blocks.

use super::batch::for_each_batch;
use super::nibble::{ShufTables, KEEP_I1};
use super::avx2_sliced::{self, Sliced};
use super::schedule::RoundKeys;
use super::{layout, ByteOrder, Keys, Sbox};
use std::sync::OnceLock;
use crate::cpu::{Backend, BackendInfo, BlockKernel, CpuFeatures};
use core::arch::x86_64::*;

const LANES: usize = 8;
const GROUPS: usize = 4;

fn available(f: &CpuFeatures) -> bool {
    f.avx2
}

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "avx2", constant_time: true, ways: avx2_sliced::BLOCKS, needs: "avx2" },
    available,
    new: |keys| Box::new(Avx2::new(keys)),
};

struct Avx2 {
    rk: RoundKeys,
    /// Built on the first call with 32 or more blocks: a short message (or a
    /// serial mode) never pays for its 14 KiB of broadcast key bytes.
    sliced: OnceLock<Sliced>,
    sbox: &'static Sbox,
    order: ByteOrder,
    tables: ShufTables,
    gather: [u8; 16],
    scatter: [u8; 16],
}

impl Avx2 {
    fn new(keys: &Keys) -> Avx2 {
        assert!(available(CpuFeatures::get()), "avx2 backend built on a CPU without AVX2");
        Avx2 {
            rk: RoundKeys::new(keys),
            sliced: OnceLock::new(),
            sbox: keys.sbox,
            order: keys.order,
            tables: ShufTables::new(keys.sbox),
            gather: layout::pair_gather(keys.order),
            scatter: layout::pair_scatter(keys.order),
        }
    }

    fn run(&self, data: &mut [u8], decrypt: bool) {
        let bulk = data.len() / (8 * avx2_sliced::BLOCKS) * (8 * avx2_sliced::BLOCKS);
        let (bulk, rest) = data.split_at_mut(bulk);
        if !bulk.is_empty() {
            let sliced = self.sliced.get_or_init(|| Sliced::new(self.sbox, self.order, &self.rk));
            // SAFETY: `new` checked AVX2; `bulk` is whole groups of 32 blocks.
            unsafe { sliced.crypt(bulk, decrypt) };
        }
        let rk = self.rk.get(decrypt);
        for_each_batch(rest, LANES, GROUPS, |chunk, groups| {
            // SAFETY: `new` checked AVX2; `chunk` holds `groups` groups.
            unsafe {
                match groups {
                    1 => crypt::<1>(self, chunk, rk),
                    2 => crypt::<2>(self, chunk, rk),
                    3 => crypt::<3>(self, chunk, rk),
                    _ => crypt::<GROUPS>(self, chunk, rk),
                }
            }
        });
    }
}

impl BlockKernel for Avx2 {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        self.run(data, false);
    }
    fn decrypt_blocks(&self, data: &mut [u8]) {
        self.run(data, true);
    }
}

/// The constants of a round, loaded once per call.
struct Consts {
    p: __m256i,
    q: __m256i,
    r: __m256i,
    s: __m256i,
    low_nibbles: __m256i,
    odd_bytes: __m256i,
    keep_i1: __m256i,
}

#[inline]
#[target_feature(enable = "avx2")]
fn splat(x: u32) -> __m256i {
    _mm256_set1_epi32(x as i32)
}

/// `rotl11(S(n + k))` for 8 blocks.
#[inline]
#[target_feature(enable = "avx2")]
fn g(c: &Consts, n: __m256i, k: __m256i) -> __m256i {
    let x = _mm256_add_epi32(n, k);
    let l = _mm256_and_si256(x, c.low_nibbles);
    let h = _mm256_and_si256(_mm256_srli_epi32::<4>(x), c.low_nibbles);
    // 16-bit words 0, 2, 4, 6 of each lane (bytes 0,1 of each dword) from the second operand.
    let i1 = _mm256_blend_epi16::<0x55>(l, h);
    let i2 = _mm256_blend_epi16::<0x55>(h, l);
    let s1 = _mm256_blendv_epi8(_mm256_shuffle_epi8(c.p, i1), _mm256_shuffle_epi8(c.q, i1), c.odd_bytes);
    let s2 = _mm256_blendv_epi8(_mm256_shuffle_epi8(c.r, i2), _mm256_shuffle_epi8(c.s, i2), c.odd_bytes);
    let y = _mm256_xor_si256(s2, _mm256_and_si256(_mm256_xor_si256(s1, s2), c.keep_i1));
    _mm256_or_si256(_mm256_slli_epi32::<11>(y), _mm256_srli_epi32::<21>(y))
}

/// 32 rounds on `G` groups of 8 blocks; `data.len() == 64 * G`.
#[target_feature(enable = "avx2")]
unsafe fn crypt<const G: usize>(k: &Avx2, data: &mut [u8], rk: &[u32; 32]) {
    assert_eq!(data.len(), G * LANES * 8);
    let ptr = data.as_mut_ptr().cast::<__m256i>();
    let table = |b: &[u8; 16]| unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(b.as_ptr().cast())) };
    let c = Consts {
        p: table(&k.tables.p),
        q: table(&k.tables.q),
        r: table(&k.tables.r),
        s: table(&k.tables.s),
        low_nibbles: splat(0x0F0F_0F0F),
        odd_bytes: splat(0xFF00_FF00),
        keep_i1: splat(KEEP_I1),
    };
    let (gather, scatter) = (table(&k.gather), table(&k.scatter));
    let mut a = [_mm256_setzero_si256(); G];
    let mut b = [_mm256_setzero_si256(); G];
    for i in 0..G {
        // SAFETY: 2 * G ymm words lie inside `data` (asserted above).
        let (x, y) = unsafe { (_mm256_loadu_si256(ptr.add(2 * i)), _mm256_loadu_si256(ptr.add(2 * i + 1))) };
        // Each register becomes [N1 of 4 blocks | N2 of 4 blocks].
        let x = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_shuffle_epi8(x, gather));
        let y = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_shuffle_epi8(y, gather));
        a[i] = _mm256_permute2x128_si256::<0x20>(x, y);
        b[i] = _mm256_permute2x128_si256::<0x31>(x, y);
    }
    for r in (0..32).step_by(2) {
        let k0 = splat(rk[r]);
        for i in 0..G {
            b[i] = _mm256_xor_si256(b[i], g(&c, a[i], k0));
        }
        let k1 = splat(rk[r + 1]);
        for i in 0..G {
            a[i] = _mm256_xor_si256(a[i], g(&c, b[i], k1));
        }
    }
    // The last round does not swap: N1 is in `b`, N2 in `a`.
    for i in 0..G {
        let x = _mm256_permute2x128_si256::<0x20>(b[i], a[i]);
        let y = _mm256_permute2x128_si256::<0x31>(b[i], a[i]);
        let x = _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0b11_01_10_00>(x), scatter);
        let y = _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0b11_01_10_00>(y), scatter);
        // SAFETY: as for the loads.
        unsafe {
            _mm256_storeu_si256(ptr.add(2 * i), x);
            _mm256_storeu_si256(ptr.add(2 * i + 1), y);
        }
    }
}

