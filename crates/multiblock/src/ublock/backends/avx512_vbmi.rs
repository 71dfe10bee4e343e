//! The `avx512-vbmi` backend: the packed groups of packed.rs in 64-byte zmm
//! registers (Gao et al. 2024, §2.6), with `vpermb` (AVX-512 VBMI) for the
//! 32-nibble permutations of n = 256.
//!
//! - n = 128: a group is [X0, X1] zmm = 8 blocks (4 lanes × low/high
//!   nibble), rounds exactly as on ymm ([`Tracked`]: PL free, PR one
//!   `vpshufb`), 25 instructions per round and group, 9 of them shuffles
//!   (port 5 on Intel), 2 shifts.
//! - n = 256: a group is [X0, X1] zmm = 4 blocks: bytes 0..31 hold the 32
//!   nibbles of a half of blocks 0 (low nibbles) and 1 (high), bytes 32..63
//!   those of blocks 2 and 3 ([`Wide`]). `<<<₃₂` stays inside 16-byte lanes
//!   (one `vpshufb`), PL₂₅₆/PR₂₅₆ are one `vpermb` each ([`Permuted`]): 26
//!   instructions per round and group (ymm: 60 for the same 4 blocks).
//!
//! Keys: the packed ones of packed.rs (one 16-byte lane per register,
//! broadcast by the loads), for zmm, ymm and xmm groups alike; n = 256 also
//! keeps them in the [`Wide`] layout. A batch is 4 zmm groups. A call or
//! rest of one or two blocks runs on the plain kernel of `ssse3`
//! (plain.rs, keys made from the packed ones on first use), one of up to
//! 384 bytes on the ymm and xmm groups of packed.rs (the `avx2` kernel),
//! a longer one zero-padded to a whole batch: so a short message pays for
//! neither 32 blocks nor a second key setup, and the default needs no
//! dispatch tiers. Which path runs depends on the length only. Constant
//! time as packed.rs: shuffles on secret data in registers only.

use super::super::groups::{pack, spread, Batch};
use super::super::key_schedule_simd::DirKeys;
use super::super::layouts::{Permuted, Tracked};
use super::super::masks::TRACKED_BACK;
use super::super::packed::Packed;
use super::super::plain::Spread;
use super::super::rounds::{run, Crypt, Ecb, Groups, K64};
use super::super::variant::Keys;
use crate::backend::Backend;
use crate::kernel;
use crate::simd::{Avx512, Avx512Vbmi, Narrow, Simd, Zmm};
use std::sync::OnceLock;

type M = Zmm<Avx512Vbmi>;

/// zmm groups per batch.
const GROUPS: usize = 4;
/// Bytes per zmm group (8 blocks of n = 128, 4 of n = 256) and per batch.
const GROUP_BYTES: usize = 128;
const BATCH: usize = GROUPS * GROUP_BYTES;
/// The longest call on the plain kernel, and on the packed ymm/xmm groups
/// (longer ones, and whole batches, on zmm). From the sweep (`bench
/// --ways`) on AMD Zen 4, ticks/byte of a call: the plain kernel is the
/// fastest for one or two blocks (14.3 against 16.6 for packed xmm at 16
/// bytes), the packed ymm groups up to 24 blocks (2.0 against 4.0 for a
/// padded zmm batch at 192 bytes).
const PLAIN_MAX: usize = 32;
const PACKED_MAX: usize = 384;

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<M, Ecb<Zmm512>>("avx512-vbmi", true, 8 * GROUPS);

pub(crate) struct Zmm512 {
    /// Packed round keys, one lane per register: calls of up to
    /// [`PACKED_MAX`] bytes and the rest of a longer one.
    packed: Packed,
    /// The plain-form kernel of `ssse3` (plain.rs) for calls of up to
    /// [`PLAIN_MAX`] bytes, its keys made from the packed ones on the
    /// first such call.
    plain: OnceLock<Spread>,
    /// The zmm groups' [X0, X1] per round at full width: n = 128 each
    /// register in all four lanes, n = 256 in the [`Wide`] layout; made on
    /// the first call long enough for zmm groups (whose length is public),
    /// so that short messages do not pay for them. (Read with 128-bit
    /// broadcasts, the zmm rounds of n = 128 ran 3.5% slower on Zen 4; the
    /// ymm ones did not.)
    zmm: OnceLock<DirKeys<64>>,
}

impl Crypt<M> for Zmm512 {
    const BATCH_BYTES: usize = BATCH;

    fn new(m: M, keys: &Keys) -> Self {
        Zmm512 { packed: Packed::new(m.half().half(), keys), plain: OnceLock::new(), zmm: OnceLock::new() }
    }
    #[inline(always)]
    fn crypt<const ENC: bool>(&self, m: M, batch: &mut [u8]) {
        match batch.len() {
            BATCH => self.zmm::<ENC>(m, batch),
            n if n <= PLAIN_MAX => {
                let x = m.half().half();
                let plain = kernel::once!(self.plain, plain_keys(x, &self.packed));
                <Spread as Crypt<_>>::crypt::<ENC>(plain, x, batch)
            }
            n if n > PACKED_MAX => {
                let mut buf = [0u8; BATCH];
                buf[..n].copy_from_slice(batch);
                self.zmm::<ENC>(m, &mut buf);
                batch.copy_from_slice(&buf[..n]);
                // One memset, kept by `black_box` (see key_schedule_simd.rs `DirKeys`).
                buf.fill(0);
                core::hint::black_box(&mut buf);
            }
            _ => self.packed.ecb::<_, ENC>(m.half(), batch),
        }
    }
}

impl Zmm512 {
    /// One whole batch on zmm groups.
    #[inline(always)]
    fn zmm<const ENC: bool>(&self, m: M, batch: &mut [u8]) {
        let rk = &kernel::once!(self.zmm, zmm_keys(&self.packed.rk, self.packed.wide)).get(ENC);
        if self.packed.wide {
            run::<M, _, _, ENC, GROUPS, 64>(m, &Permuted::new(m, ENC), &mut Wide { data: batch }, rk)
        } else {
            run::<M, _, _, ENC, GROUPS, 64>(m, &Tracked::new(m, ENC), &mut Batch::<1, true> { data: batch }, rk)
        }
    }
}

/// The plain round keys (plain.rs [`Spread`]) from the packed ones of the
/// same key: each register's low nibbles, for n = 128 first gathered back
/// from the tracked coordinates of its round (masks.rs [`TRACKED_BACK`]).
/// One shuffle and one `and` per register on `x` instead of a second key
/// schedule. Fixed positions only.
#[inline(always)]
fn plain_keys<X: Simd>(x: X, packed: &Packed) -> Spread {
    let low = x.splat8(0x0f);
    let from = [packed.rk.get(true), packed.rk.get(false)];
    let mut rk = DirKeys::<16>::zeroed(from[0].count - 1, from[0].regs);
    for (dir, src) in from.iter().enumerate() {
        for t in 0..src.count {
            for i in 0..src.regs {
                let y = x.load(src.reg(t, i));
                let y = if packed.wide { y } else { x.shuffle8(y, x.load(&TRACKED_BACK[dir][t])) };
                x.store(x.and(y, low), rk.reg_mut(dir == 0, t, i));
            }
        }
    }
    Spread { rk, wide: packed.wide }
}

/// The zmm round keys from packed ones (one lane per register): n = 128
/// ([X0, X1]) each register in every lane; n = 256 (`wide`: [X0a, X0b,
/// X1a, X1b]) the [`Wide`] form, per half a ‖ b ‖ a ‖ b. Fixed positions
/// only.
#[inline(never)]
fn zmm_keys(packed: &DirKeys<16>, wide: bool) -> DirKeys<64> {
    let mut out = DirKeys::zeroed(packed.rounds(), 2);
    for enc in [true, false] {
        let y = packed.get(enc);
        for t in 0..y.count {
            for h in 0..2 {
                let z = out.reg_mut(enc, t, h);
                for (q, lane) in z.chunks_exact_mut(16).enumerate() {
                    let reg = if wide { 2 * h + q % 2 } else { h };
                    lane.copy_from_slice(&y.reg(t, reg)[..16]);
                }
            }
        }
    }
    out
}

/// 64-bit word indexes for `vpermt2q` (`permi2q`): a's words are 0..7,
/// b's 8..15.
const fn qwords(idx: [u64; 8]) -> K64 {
    let mut k = [0u8; 64];
    let mut i = 0;
    while i < 8 {
        k[8 * i] = idx[i] as u8;
        i += 1;
    }
    K64(k)
}

/// Lanes 0, 1 of a then of b; lanes 2, 3 likewise.
static LANES_LO: K64 = qwords([0, 1, 2, 3, 8, 9, 10, 11]);
static LANES_HI: K64 = qwords([4, 5, 6, 7, 12, 13, 14, 15]);
/// Per 32-byte half: the first 16 bytes of a lane pair of a, then of b.
static HALVES_A: K64 = qwords([0, 1, 8, 9, 4, 5, 12, 13]);
static HALVES_B: K64 = qwords([2, 3, 10, 11, 6, 7, 14, 15]);

/// Consecutive 32-byte blocks, 4 per group, in the n = 256 zmm layout.
struct Wide<'a> {
    data: &'a mut [u8],
}

impl<N: Avx512> Groups<N> for Wide<'_> {
    #[inline(always)]
    fn load(&self, m: N, g: usize, low: N::V) -> [N::V; 4] {
        let p = &self.data[GROUP_BYTES * g..];
        let (z01, z23) = (m.load(p), m.load(&p[64..])); // b0.X0 b0.X1 b1.X0 b1.X1, b2.. b3..
        let lo = m.permi2q(z01, m.load(&LANES_LO.0), z23); // b0.X0 b0.X1 b2.X0 b2.X1
        let hi = m.permi2q(z01, m.load(&LANES_HI.0), z23); // b1.. b3..
        // Per lane (a 16-byte half of one block): x = its nibbles 0..15,
        // y = 16..31. Then X0 = [X0a, X0b] of blocks 0|1 and 2|3.
        let [x, y] = spread::<N, true>(m, lo, hi, low);
        let (a, b) = (m.load(&HALVES_A.0), m.load(&HALVES_B.0));
        [m.permi2q(x, a, y), m.permi2q(x, b, y), m.zero(), m.zero()]
    }

    #[inline(always)]
    fn store(&mut self, m: N, g: usize, s: &[N::V; 4], low: N::V) {
        let (a, b) = (m.load(&HALVES_A.0), m.load(&HALVES_B.0));
        let u = m.permi2q(s[0], a, s[1]); // X0a X1a X0a' X1a'
        let w = m.permi2q(s[0], b, s[1]); // X0b X1b X0b' X1b'
        let lo = pack::<N, true>(m, u, w, low); // b.X0 b.X1 b'.X0 b'.X1
        let hi = pack::<N, true>(m, m.shr16::<4>(u), m.shr16::<4>(w), low);
        let p = &mut self.data[GROUP_BYTES * g..];
        m.store(m.permi2q(lo, m.load(&LANES_LO.0), hi), p);
        m.store(m.permi2q(lo, m.load(&LANES_HI.0), hi), &mut p[64..]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference;
use super::super::super::variant::Variant;
use super::super::super::key_schedule_simd;
    use super::*;
    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;

    /// The plain keys gathered back from the packed ones are the plain key
    /// schedule's (`ssse3`'s), every variant, both directions.
    #[test]
    fn plain_keys_from_packed_are_the_plain_schedule() {
        let mut rng = Rng(0x0b1c_0016);
        for v in [Variant::U128_128, Variant::U128_256, Variant::U256_256] {
            for _ in 0..4 {
                let keys = Keys::new(v, &rng.bytes(v.key_bytes()));
                let got = plain_keys(Emu::<16>, &Packed::new(Emu::<16>, &keys));
                let want = key_schedule_simd::schedule::<Emu<16>, false, 16>(Emu, &keys);
                assert_eq!(got.wide, v.block_bytes() == 32);
                for enc in [true, false] {
                    assert_eq!(got.rk.get(enc).bytes, want.get(enc).bytes, "{v:?} enc {enc}");
                }
            }
        }
    }

    /// [`Permuted`] on [`Wide`] groups with [`zmm_keys`], on the emulator:
    /// a whole batch both ways against the reference backend.
    #[test]
    fn permuted_n256_on_the_emulator() {
        let mut rng = Rng(0x0b1c_0256);
        for _ in 0..3 {
            let keys = Keys::new(Variant::U256_256, &rng.bytes(32));
            let wide = zmm_keys(&key_schedule_simd::schedule::<Emu<16>, true, 16>(Emu, &keys), true);
            let plain = rng.bytes(BATCH);
            let mut want = plain.clone();
            (reference::BACKEND.new)(&keys).encrypt_blocks(&mut want);
            let mut got = plain.clone();
            let m = Emu::<64>;
            run::<_, _, _, true, GROUPS, 64>(m, &Permuted::new(m, true), &mut Wide { data: &mut got }, &wide.get(true));
            assert_eq!(got, want);
            run::<_, _, _, false, GROUPS, 64>(m, &Permuted::new(m, false), &mut Wide { data: &mut got }, &wide.get(false));
            assert_eq!(got, plain);
        }
    }
}
