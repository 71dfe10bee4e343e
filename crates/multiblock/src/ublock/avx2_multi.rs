//! The `avx2` backend's multi-key path (Gao et al. 2024, §2.0, §2.6): several
//! independent (key, message) streams in one call, each stream in its own
//! slot of the packed groups (packed.rs), so that short messages fill the
//! SIMD lanes and key setup is shared too.
//!
//! - Key schedule in registers, one key per slot (key_schedule_simd.rs).
//! - Streams are sorted by length and taken four at a time (ymm, 2 lanes ×
//!   2 nibbles; the last one or two streams: xmm). The blocks all streams of
//!   a set have (the shortest length) run in lockstep, block j of every
//!   stream in one group, read and written in place ([`Lockstep`]); what a
//!   stream has beyond that runs alone on the single-key kernel.
//!
//! Constant time like packed.rs: stream lengths (public) decide the work,
//! keys and data only flow through registers.

use super::groups::{pack, spread};
use super::key_schedule::MAX_ROUND_KEYS;
use super::key_schedule_simd::{expand, Schedule};
use super::packed::{groups, Packed};
use super::rounds::{Groups, KeyRegs};
use super::variant::{Keys, Variant};
use crate::cpu::CpuFeatures;
use crate::simd::Narrow;
use crate::simd::{Avx2, Job, Machine, Simd, Ymm};
use zeroize::Zeroize;

type Y = Ymm<Avx2>;

/// Runs the streams on the packed kernel if this CPU has AVX2 (the `avx2`
/// backend's `available` check); returns false, touching nothing, if not.
/// Keys and data lengths must be valid (checked by the caller).
pub(crate) fn run(cpu: &CpuFeatures, v: Variant, enc: bool, streams: &mut [(&[u8], &mut [u8])]) -> bool {
    if !Y::available(cpu) {
        return false;
    }
    // SAFETY: the CPU has AVX2 (checked just above).
    let m = unsafe { Y::new_unchecked() };
    // Longest first, so that a set's streams have similar lengths; empty
    // streams need nothing.
    let mut order: Vec<usize> = (0..streams.len()).filter(|&i| !streams[i].1.is_empty()).collect();
    order.sort_by_key(|&i| core::cmp::Reverse(streams[i].1.len()));
    match (enc, v.block_bytes()) {
        (true, 16) => m.vectorize(All::<true, 1> { m, v, streams, order: &order }),
        (false, 16) => m.vectorize(All::<false, 1> { m, v, streams, order: &order }),
        (true, _) => m.vectorize(All::<true, 2> { m, v, streams, order: &order }),
        (false, _) => m.vectorize(All::<false, 2> { m, v, streams, order: &order }),
    }
    true
}

/// Every set of (up to) four streams, in `order`.
struct All<'a, 'b, 'c, const ENC: bool, const H: usize> {
    m: Y,
    v: Variant,
    streams: &'a mut [(&'b [u8], &'c mut [u8])],
    order: &'a [usize],
}

impl<const ENC: bool, const H: usize> Job for All<'_, '_, '_, ENC, H> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let All { m, v, streams, order } = self;
        for set in order.chunks(4) {
            if set.len() > 2 {
                one_set::<_, ENC, H, 32>(m, m, v, streams, set);
            } else {
                one_set::<_, ENC, H, 16>(m.half(), m, v, streams, set);
            }
        }
    }
}

/// Round-key registers of one set on the stack, aligned for loads.
#[repr(C, align(64))]
struct KeyBuf([u8; MAX_ROUND_KEYS * 4 * 32]);

/// Blocks per stream that run in lockstep at most (the rest runs alone).
const LOCKSTEP_MAX_BLOCKS: usize = 64;

/// Up to 2·LANES streams of machine `x` with one key schedule; the rests
/// on ymm.
#[inline(always)]
fn one_set<X: Simd, const ENC: bool, const H: usize, const S: usize>(
    x: X,
    y: Y,
    v: Variant,
    streams: &mut [(&[u8], &mut [u8])],
    set: &[usize],
) {
    let bb = 16 * H;
    // Lockstep over the blocks every stream has (none for a lone stream:
    // the single-key kernel runs it at full width). Capped: gathering the
    // lanes from four streams costs ~10% over one stream's contiguous
    // loads, which pays only while a lone stream would leave lanes empty.
    let mut common = if set.len() > 1 { usize::MAX } else { 0 };
    for &i in set {
        common = common.min(streams[i].1.len() / bb);
    }
    let common = common.min(LOCKSTEP_MAX_BLOCKS);
    if common > 0 {
        let (r, regs) = (v.rounds(), v.block_bytes() / 8);
        let n = (r + 1) * regs * S;
        let mut keys = KeyBuf([0; MAX_ROUND_KEYS * 4 * 32]);
        let mut key_buf = [0u8; 4 * 32];
        let kb = v.key_bytes();
        for (s, &i) in set.iter().enumerate() {
            key_buf[s * kb..(s + 1) * kb].copy_from_slice(streams[i].0);
        }
        let (enc, dec) = if ENC { (Some(&mut keys.0[..n]), None) } else { (None, Some(&mut keys.0[..n])) };
        let mut sink = Schedule::<S> { enc, dec, regs, rounds: r, tracked: H == 1, pack: false };
        expand::<X, true>(x, v, &mut key_buf[..2 * X::BYTES / 16 * kb], &mut sink);
        key_buf.zeroize();
        let mut lock = Lockstep::<H> { slots: [None, None, None, None], first: 0 };
        for (i, (_, data)) in streams.iter_mut().enumerate() {
            let mut slot = None;
            for (s, &j) in set.iter().enumerate() {
                if i == j {
                    slot = Some(s);
                }
            }
            if let Some(s) = slot {
                lock.slots[s] = Some(&mut data[..]);
            }
        }
        lockstep::<X, ENC, H, S>(x, &KeyRegs { bytes: &keys.0[..n], regs, count: r + 1 }, &mut lock, common);
        // One memset of the bytes the schedule wrote (a half to a third of
        // the buffer for uBlock-128), kept by `black_box` (see key_schedule_simd.rs
        // `DirKeys`).
        keys.0[..n].fill(0);
        core::hint::black_box(&mut keys);
    }

    // The rest of each stream alone, on the single-key kernel.
    for &i in set {
        let (key, data) = (&streams[i].0, &mut streams[i].1);
        let rest = &mut data[common * bb..];
        if !rest.is_empty() {
            Packed::new(y.half(), &Keys::new(v, key)).ecb::<Avx2, ENC>(y, rest);
        }
    }
}

/// Blocks 0..common of every slot's stream, as many groups at a time as the
/// single-key kernel interleaves.
#[inline(always)]
fn lockstep<X: Simd, const ENC: bool, const H: usize, const S: usize>(
    x: X,
    rk: &KeyRegs<S>,
    lock: &mut Lockstep<'_, H>,
    common: usize,
) {
    let g_max = if H == 1 { 4 } else { 3 };
    while lock.first < common {
        let g = g_max.min(common - lock.first);
        match g {
            1 => groups::<X, _, ENC, H, S, 1>(x, rk, lock),
            2 => groups::<X, _, ENC, H, S, 2>(x, rk, lock),
            3 => groups::<X, _, ENC, H, S, 3>(x, rk, lock),
            _ => groups::<X, _, ENC, H, S, 4>(x, rk, lock),
        }
        lock.first += g;
    }
}

/// Group g = block `first + g` of each slot's stream (slot order as in
/// groups.rs; empty slots read zeros and write nothing).
struct Lockstep<'a, const H: usize> {
    slots: [Option<&'a mut [u8]>; 4],
    first: usize,
}

impl<const H: usize> Lockstep<'_, H> {
    /// Part h of block `first + g` of slots `from..from + LANES`, one per lane.
    #[inline(always)]
    fn read<X: Simd>(&self, x: X, g: usize, from: usize, h: usize) -> X::V {
        let at = (self.first + g) * 16 * H + 16 * h;
        let mut v = x.zero();
        for l in 0..X::BYTES / 16 {
            if let Some(s) = &self.slots[from + l] {
                v = x.load_lane(v, l, &s[at..]);
            }
        }
        v
    }

    #[inline(always)]
    fn write<X: Simd>(&mut self, x: X, g: usize, from: usize, h: usize, v: X::V) {
        let at = (self.first + g) * 16 * H + 16 * h;
        for l in 0..X::BYTES / 16 {
            if let Some(s) = &mut self.slots[from + l] {
                x.store_lane(v, l, &mut s[at..]);
            }
        }
    }
}

impl<X: Simd, const H: usize> Groups<X> for Lockstep<'_, H> {
    #[inline(always)]
    fn load(&self, x: X, g: usize, low: X::V) -> [X::V; 4] {
        let lanes = X::BYTES / 16;
        let mut s = [x.zero(); 4];
        for h in 0..H {
            let (a, b) = (self.read(x, g, 0, h), self.read(x, g, lanes, h));
            [s[2 * h], s[2 * h + 1]] = spread::<X, true>(x, a, b, low);
        }
        s
    }

    #[inline(always)]
    fn store(&mut self, x: X, g: usize, s: &[X::V; 4], low: X::V) {
        let lanes = X::BYTES / 16;
        for h in 0..H {
            let (p, q) = (s[2 * h], s[2 * h + 1]);
            self.write(x, g, 0, h, pack::<X, true>(x, p, q, low));
            self.write(x, g, lanes, h, pack::<X, true>(x, x.shr16::<4>(p), x.shr16::<4>(q), low));
        }
    }
}
