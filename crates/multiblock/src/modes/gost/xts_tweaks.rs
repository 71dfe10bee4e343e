//! IEEE 1619 XTS tweaks in vector registers: T, T·α, T·α², … written out
//! and XORed into the data, in the widest register the CPU has.
//!
//! Eight consecutive tweaks sit in the registers (two zmm, four ymm or
//! eight xmm, one tweak per 128-bit lane), and each step multiplies every
//! lane by x^8, which moves all eight on by eight blocks. In IEEE 1619's
//! little-endian order x^8 is a one-byte shift up within the lane
//! (`pshufb`); the byte shifted out, b, folds back as
//! b·(x^7 + x^2 + x + 1) = b ⊕ b≪1 ⊕ b≪2 ⊕ b≪7, at most 15 bits, so one
//! reduction suffices. That is seven operations per register and step,
//! with no dependency between registers, against a 128-bit shift chain per
//! block in general registers. Everything is shifts and XORs of the
//! (secret) tweaks: no branch and no address depends on them.

use crate::simd::{Avx512, Job, Simd};
#[cfg(any(target_arch = "x86_64", test))]
use crate::simd::Machine;

/// x·t in GF(2^128) with IEEE 1619's byte order: `t` is the block read as a
/// little-endian integer. Constant time (the reduction is a mask).
#[inline(always)]
fn double(t: u128) -> u128 {
    (t << 1) ^ (0u128.wrapping_sub(t >> 127) & 0x87)
}

/// Tweaks kept in the registers: block j + IN_FLIGHT's tweak is block j's
/// times x^IN_FLIGHT.
const IN_FLIGHT: usize = 8;

/// `pshufb` indices, per 128-bit lane: byte i takes byte i − 1 (×x^8),
/// byte 0 becomes zero.
const UP_ONE_BYTE: [u8; 16] = [0x80, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
/// `pshufb` indices, per 128-bit lane: byte 15 to byte 0, the rest zero.
const TOP_BYTE: [u8; 16] = [15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80];

/// Where the tweaks of a run of blocks come from: the first `head` blocks
/// continue the chain at `start`; after them a new data unit of
/// `per_unit` blocks begins at every `per_unit`-th block, the k-th with the
/// tweak in block k of `unit_tweaks` (E_K2 of its number). Without data
/// units, [`Chains::one`]: the head never ends.
#[derive(Clone, Copy)]
pub(crate) struct Chains<'a> {
    pub(crate) start: u128,
    pub(crate) head: usize,
    pub(crate) unit_tweaks: &'a [u8],
    pub(crate) per_unit: usize,
}

impl<'a> Chains<'a> {
    /// One chain from `start`, as long as the message.
    pub(crate) fn one(start: u128) -> Chains<'static> {
        Chains { start, head: usize::MAX, unit_tweaks: &[], per_unit: usize::MAX }
    }

    /// Chain `k` (0: the head): its first block, length and first tweak;
    /// `None` past the last block of `blocks`.
    #[inline(always)]
    fn chain(&self, k: usize, blocks: usize) -> Option<(usize, usize, u128)> {
        if k == 0 {
            return Some((0, self.head.min(blocks), self.start));
        }
        let first = self.head.checked_add((k - 1).checked_mul(self.per_unit)?)?;
        let tweak = self.unit_tweaks.get(16 * (k - 1)..16 * k)?;
        (first < blocks).then(|| {
            (first, self.per_unit.min(blocks - first), u128::from_le_bytes(tweak.try_into().expect("one block")))
        })
    }

    /// The chains of the blocks from block `b` on; the new head's first
    /// tweak is `start(chain's first tweak, blocks into it)`.
    fn from_block(&self, b: usize, start: impl FnOnce(u128, usize) -> u128) -> Chains<'a> {
        if b < self.head {
            return Chains { start: start(self.start, b), head: self.head - b, ..*self };
        }
        let past = b - self.head;
        let (u, j) = (past / self.per_unit, past % self.per_unit);
        let rest = |k: usize| &self.unit_tweaks[(16 * k).min(self.unit_tweaks.len())..];
        if j == 0 {
            return Chains { start: 0, head: 0, unit_tweaks: rest(u), per_unit: self.per_unit };
        }
        let first = u128::from_le_bytes(self.unit_tweaks[16 * u..16 * (u + 1)].try_into().expect("one block"));
        Chains { start: start(first, j), head: self.per_unit - j, unit_tweaks: rest(u + 1), per_unit: self.per_unit }
    }

    /// The chains from block `b` on, computed from these (the head's
    /// first tweak by `b` doublings, or a product with x^b for long runs).
    pub(crate) fn at(&self, b: usize) -> Chains<'a> {
        self.from_block(b, times_x_to)
    }

    /// The chains after the first `blocks`, which [`fill`] ran and which
    /// left `next`.
    pub(crate) fn after(&self, blocks: usize, next: u128) -> Chains<'a> {
        self.from_block(blocks, |_, _| next)
    }
}

/// t·x^j: j doublings, or for large j one product with x^j.
fn times_x_to(t: u128, j: usize) -> u128 {
    if j <= 256 {
        return (0..j).fold(t, |t, _| double(t));
    }
    // x^j by squaring and multiplying (j is a public block position).
    let (mut power, mut square) = (1u128, 2u128);
    let mut e = j;
    while e > 0 {
        if e & 1 == 1 {
            power = product(power, square);
        }
        square = product(square, square);
        e >>= 1;
    }
    product(t, power)
}

/// a·b in GF(2^128) with IEEE 1619's polynomial and byte order; constant
/// time (the bits of b select by masks).
fn product(mut a: u128, b: u128) -> u128 {
    let mut r = 0u128;
    for i in 0..128 {
        r ^= a & 0u128.wrapping_sub((b >> i) & 1);
        a = double(a);
    }
    r
}

/// Writes the tweak of every block of `tweaks` as `chains` says (and XORs
/// each into the matching block of `data`, as long as `tweaks`), on the
/// widest registers this CPU has. Returns the tweak that follows the last
/// block in its chain.
pub(crate) fn fill(tweaks: &mut [u8], data: Option<&mut [u8]>, chains: Chains<'_>) -> u128 {
    #[cfg(target_arch = "x86_64")]
    {
        use crate::simd::{Avx2, Avx512Bw, Ssse3, Xmm, Ymm, Zmm};
        if let Some(m) = Zmm::<Avx512Bw>::detect() {
            return fill_on_wide(m, tweaks, data, chains);
        }
        if let Some(m) = Ymm::<Avx2>::detect() {
            return fill_on(m, tweaks, data, chains);
        }
        if let Some(m) = Xmm::<Ssse3>::detect() {
            return fill_on(m, tweaks, data, chains);
        }
    }
    fill_scalar_chains(tweaks, data, chains)
}

/// [`fill`] on machine `m`, whose register holds `M::BYTES / 16` tweaks.
///
/// Two passes: the first eight tweaks of every chain by doubling in
/// general registers, then, per chain, the registers loaded from those
/// (stored well before, so the loads do not wait on store forwarding) and
/// moved on by x^8 a step, the data XORed as they go.
pub(crate) fn fill_on<M: Simd>(m: M, tweaks: &mut [u8], data: Option<&mut [u8]>, chains: Chains<'_>) -> u128 {
    first_eight(tweaks, chains, 0);
    steps(m, tweaks, data, chains)
}

/// [`fill_on`] for 64-byte registers with AVX-512's two-source permute:
/// the first eight tweaks of the data units four units at a time in
/// vector registers too ([`UnitHeads`]).
pub(crate) fn fill_on_wide<M: Avx512>(m: M, tweaks: &mut [u8], data: Option<&mut [u8]>, chains: Chains<'_>) -> u128 {
    debug_assert_eq!(M::BYTES, 64);
    let units = m.vectorize(UnitHeads { m, tweaks: &mut *tweaks, chains });
    first_eight(tweaks, chains, units);
    steps(m, tweaks, data, chains)
}

/// The first eight tweaks (or fewer in a short chain) of the head chain
/// and of the data units from unit `from` on, by doubling.
fn first_eight(tweaks: &mut [u8], chains: Chains<'_>, from: usize) {
    let blocks = tweaks.len() / 16;
    let mut k = 0;
    while let Some((first, len, start)) = chains.chain(k, blocks) {
        let heads = len.min(IN_FLIGHT);
        fill_scalar(start, &mut tweaks[16 * first..16 * (first + heads)], None);
        k = if k == 0 { from + 1 } else { k + 1 };
    }
}

/// The vector pass of [`fill_on`], after [`first_eight`].
fn steps<M: Simd>(m: M, tweaks: &mut [u8], data: Option<&mut [u8]>, chains: Chains<'_>) -> u128 {
    match M::BYTES / 16 {
        4 => m.vectorize(Fill::<M, { IN_FLIGHT / 4 }> { m, tweaks, data, chains }),
        2 => m.vectorize(Fill::<M, { IN_FLIGHT / 2 }> { m, tweaks, data, chains }),
        _ => m.vectorize(Fill::<M, IN_FLIGHT> { m, tweaks, data, chains }),
    }
}

/// A 64-byte register of eight quadwords.
#[inline(always)]
fn quadwords<M: Simd>(m: M, q: [u64; 8]) -> M::V {
    let mut b = [0u8; 64];
    for (chunk, w) in b.chunks_exact_mut(8).zip(q) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    m.load(&b)
}

/// The first eight tweaks of data units, four units at a time: their
/// first tweaks T_0..T_3 are one 64-byte load, seven doublings of all four
/// lanes give T_i·x^j for j < 8, and two 4×4 transposes of 128-bit lanes
/// (`vpermt2q`) turn those into each unit's two registers of tweaks
/// (about 17 vector operations per unit, against eight doublings and
/// sixteen stores in general registers). Returns how many units it did
/// (a multiple of four; it stops at the first group with a chain shorter
/// than eight blocks).
struct UnitHeads<'a, M: Avx512> {
    m: M,
    tweaks: &'a mut [u8],
    chains: Chains<'a>,
}

impl<M: Avx512> Job for UnitHeads<'_, M> {
    type Output = usize;

    #[inline(always)]
    fn run(self) -> usize {
        let UnitHeads { m, tweaks, chains } = self;
        let blocks = tweaks.len() / 16;
        // Per 128-bit lane: the carry out of the low half goes into the
        // high half's bit 0, out of the high half as 0x87 into the low half.
        let mut fold = [0u8; 16];
        fold[0] = 0x87;
        fold[8] = 1;
        let fold = m.splat128(&fold);
        let zero = m.zero();
        // (a ‖ b) quadword indices: lanes 0 and 2 of a and b interleaved,
        // lanes 1 and 3 likewise; then halves of two such results.
        let even = quadwords(m, [0, 1, 8, 9, 4, 5, 12, 13]);
        let odd = quadwords(m, [2, 3, 10, 11, 6, 7, 14, 15]);
        let low = quadwords(m, [0, 1, 2, 3, 8, 9, 10, 11]);
        let high = quadwords(m, [4, 5, 6, 7, 12, 13, 14, 15]);
        let units = chains.unit_tweaks.len() / 16;
        let mut u = 0;
        while u + 4 <= units {
            // Unit u + 3's chain (number u + 4) must hold eight blocks; then so do the others.
            match chains.chain(u + 4, blocks) {
                Some((_, len, _)) if len >= IN_FLIGHT && chains.per_unit >= IN_FLIGHT => {}
                _ => break,
            }
            let mut r = [zero; IN_FLIGHT];
            r[0] = m.load(&chains.unit_tweaks[16 * u..]);
            for j in 1..IN_FLIGHT {
                let carry = m.shr64::<63>(r[j - 1]);
                let mask = m.sub64(zero, m.shuffle32::<0x4E>(carry));
                r[j] = m.xor(m.shl64::<1>(r[j - 1]), m.and(mask, fold));
            }
            for half in 0..2 {
                let q = &r[4 * half..4 * half + 4];
                let (e01, o01) = (m.permi2q(q[0], even, q[1]), m.permi2q(q[0], odd, q[1]));
                let (e23, o23) = (m.permi2q(q[2], even, q[3]), m.permi2q(q[2], odd, q[3]));
                // Unit i's tweaks x^(4·half) .. x^(4·half + 3).
                let per = [m.permi2q(e01, low, e23), m.permi2q(o01, low, o23), m.permi2q(e01, high, e23), m.permi2q(o01, high, o23)];
                for (i, v) in per.into_iter().enumerate() {
                    let first = chains.head + (u + i) * chains.per_unit + 4 * half;
                    m.store(v, &mut tweaks[16 * first..]);
                }
            }
            u += 4;
        }
        u
    }
}

/// [`fill`] in general registers, one doubling per block.
pub(crate) fn fill_scalar_chains(tweaks: &mut [u8], mut data: Option<&mut [u8]>, chains: Chains<'_>) -> u128 {
    let blocks = tweaks.len() / 16;
    let mut next = chains.start;
    let mut k = 0;
    while let Some((first, len, start)) = chains.chain(k, blocks) {
        let span = 16 * first..16 * (first + len);
        next = fill_scalar(start, &mut tweaks[span.clone()], data.as_deref_mut().map(|d| &mut d[span]));
        k += 1;
    }
    next
}

/// One chain from `t`: t, t·α, … into the blocks of `tweaks` (XORed into
/// `data` too); returns the tweak after the last.
#[inline(always)]
fn fill_scalar(mut t: u128, tweaks: &mut [u8], mut data: Option<&mut [u8]>) -> u128 {
    for (k, tw) in tweaks.chunks_exact_mut(16).enumerate() {
        tw.copy_from_slice(&t.to_le_bytes());
        if let Some(d) = data.as_deref_mut() {
            let d = &mut d[16 * k..16 * (k + 1)];
            let x = u128::from_le_bytes((&*d).try_into().expect("one block")) ^ t;
            d.copy_from_slice(&x.to_le_bytes());
        }
        t = double(t);
    }
    t
}

/// The vector pass of [`fill_on`]: `REGS` registers of `M::BYTES / 16`
/// tweaks each, REGS · lanes = [`IN_FLIGHT`].
struct Fill<'a, M: Simd, const REGS: usize> {
    m: M,
    tweaks: &'a mut [u8],
    data: Option<&'a mut [u8]>,
    chains: Chains<'a>,
}

impl<M: Simd, const REGS: usize> Job for Fill<'_, M, REGS> {
    type Output = u128;

    #[inline(always)]
    fn run(self) -> u128 {
        let Fill { m, tweaks, mut data, chains } = self;
        let up = m.splat128(&UP_ONE_BYTE);
        let top = m.splat128(&TOP_BYTE);
        let step = IN_FLIGHT * 16;
        let blocks = tweaks.len() / 16;
        let mut next = chains.start;
        let mut k = 0;
        while let Some((first, len, _)) = chains.chain(k, blocks) {
            k += 1;
            if len == 0 {
                continue;
            }
            let tw = &mut tweaks[16 * first..16 * (first + len)];
            let mut d = data.as_deref_mut().map(|d| &mut d[16 * first..16 * (first + len)]);
            if len < IN_FLIGHT {
                // The first pass wrote them all.
                if let Some(d) = d {
                    xor_blocks(d, tw);
                }
                next = double(u128::from_le_bytes(tw[16 * (len - 1)..].try_into().expect("one block")));
                continue;
            }
            let whole = len / IN_FLIGHT * step;
            let mut regs = [m.zero(); REGS];
            for (r, reg) in regs.iter_mut().enumerate() {
                *reg = m.load(&tw[r * M::BYTES..]);
            }
            for at in (0..whole).step_by(step) {
                for (r, reg) in regs.iter_mut().enumerate() {
                    let place = at + r * M::BYTES..at + (r + 1) * M::BYTES;
                    m.store(*reg, &mut tw[place.clone()]);
                    if let Some(d) = d.as_deref_mut() {
                        let x = m.xor(m.load(&d[place.clone()]), *reg);
                        m.store(x, &mut d[place]);
                    }
                    let b = m.shuffle8(*reg, top);
                    let fold = m.xor3(b, m.shl64::<1>(b), m.shl64::<2>(b));
                    *reg = m.xor3(m.shuffle8(*reg, up), fold, m.shl64::<7>(b));
                }
            }
            // Fewer than eight blocks left: on by doubling from the last tweak written.
            let t = u128::from_le_bytes(tw[whole - 16..whole].try_into().expect("one block"));
            next = fill_scalar(double(t), &mut tw[whole..], d.map(|d| &mut d[whole..]));
        }
        next
    }
}

/// `d ^= t` block by block (a chain shorter than the registers hold).
#[inline(always)]
fn xor_blocks(d: &mut [u8], t: &[u8]) {
    for (d, t) in d.chunks_exact_mut(16).zip(t.chunks_exact(16)) {
        let x = u128::from_le_bytes((&*d).try_into().expect("one block")) ^ u128::from_le_bytes(t.try_into().expect("one block"));
        d.copy_from_slice(&x.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;

    /// Random bytes from a fixed seed.
    fn bytes(seed: u64, n: usize) -> Vec<u8> {
        Rng(seed | 1).bytes(n)
    }

    /// The tweak of block `b` straight from the definition: its chain's
    /// first tweak doubled once per block before it in the chain.
    fn by_definition(c: &Chains<'_>, b: usize) -> u128 {
        let (mut t, j) = if b < c.head {
            (c.start, b)
        } else {
            let u = (b - c.head) / c.per_unit;
            (u128::from_le_bytes(c.unit_tweaks[16 * u..16 * (u + 1)].try_into().unwrap()), (b - c.head) % c.per_unit)
        };
        for _ in 0..j {
            t = double(t);
        }
        t
    }

    /// Every machine's tweaks, whitened data and following tweak equal the
    /// definition's, for chains shorter and longer than the eight in
    /// flight, with and without a head, from tweaks that carry out of the
    /// top bit.
    type Vectorised<M> = fn(M, &mut [u8], Option<&mut [u8]>, Chains<'_>) -> u128;

    fn agrees<M: Simd>(m: M) {
        agrees_with(m, fill_on::<M>);
    }

    fn agrees_with<M: Simd>(m: M, vectorised: Vectorised<M>) {
        for per_unit in [1usize, 2, 7, 8, 9, 16, 32, 1 << 40] {
            for head in [0usize, 1, 5, 8, 13, 40] {
                for blocks in [0usize, 1, 7, 8, 9, 15, 16, 17, 31, 64, 67, 200] {
                    let seed = (per_unit as u64 % 97) * 1000 + head as u64 * 10 + blocks as u64;
                    let units = if blocks > head { (blocks - head).div_ceil(per_unit) } else { 0 };
                    let unit_tweaks = bytes(seed + 7, 16 * units);
                    let start = u128::from_le_bytes(bytes(seed, 16).try_into().unwrap()) | (1 << 127);
                    let c = Chains { start, head, unit_tweaks: &unit_tweaks, per_unit };
                    let data = bytes(seed + 100, 16 * blocks);
                    let want: Vec<u8> = (0..blocks).flat_map(|b| by_definition(&c, b).to_le_bytes()).collect();
                    let whitened: Vec<u8> = data.iter().zip(&want).map(|(d, t)| d ^ t).collect();
                    let what = format!("{}-byte registers, {blocks} blocks, head {head}, units of {per_unit}", M::BYTES);
                    for vector in [false, true] {
                        let (mut t, mut d) = (vec![0u8; 16 * blocks], data.clone());
                        let next = if vector {
                            vectorised(m, &mut t, Some(&mut d), c)
                        } else {
                            fill_scalar_chains(&mut t, Some(&mut d), c)
                        };
                        assert_eq!(t, want, "tweaks, {what}");
                        assert_eq!(d, whitened, "data, {what}");
                        if blocks > 0 {
                            let last = u128::from_le_bytes(want[16 * (blocks - 1)..].try_into().unwrap());
                            assert_eq!(next, double(last), "next, {what}");
                        }
                        let mut t2 = vec![0u8; 16 * blocks];
                        if vector {
                            vectorised(m, &mut t2, None, c);
                        } else {
                            fill_scalar_chains(&mut t2, None, c);
                        }
                        assert_eq!(t2, want, "tweaks alone, {what}");
                    }
                }
            }
        }
    }

    /// Re-based chains (as the threads and the passes of a long run use
    /// them) give the same tweaks as the whole, for offsets inside the head,
    /// at unit boundaries and inside units, and far into one long chain.
    #[test]
    fn chains_from_any_block_are_the_same_chains() {
        for per_unit in [1usize, 3, 8, 32] {
            for head in [0usize, 2, 7] {
                let blocks = 150;
                let units = (blocks - head).div_ceil(per_unit);
                let unit_tweaks = bytes(per_unit as u64 * 31 + head as u64, 16 * units);
                let c = Chains { start: 0x1234 << 100 | 0x87, head, unit_tweaks: &unit_tweaks, per_unit };
                let mut whole = vec![0u8; 16 * blocks];
                fill_scalar_chains(&mut whole, None, c);
                for b in [0usize, 1, head, head + 1, head + per_unit, 77, 149, 150] {
                    let mut part = vec![0u8; 16 * (blocks - b)];
                    let next = fill_scalar_chains(&mut part, None, c.at(b));
                    assert_eq!(part, whole[16 * b..], "at {b}, head {head}, units of {per_unit}");
                    // The same two parts through `after`.
                    let mut first = vec![0u8; 16 * b];
                    let left = fill_scalar_chains(&mut first, None, c);
                    let mut second = vec![0u8; 16 * (blocks - b)];
                    let next2 = fill_scalar_chains(&mut second, None, c.after(b, left));
                    assert_eq!(second, whole[16 * b..], "after {b}, head {head}, units of {per_unit}");
                    assert_eq!(next, next2);
                }
            }
        }
        // One chain, far in: the product with x^j against doubling.
        let one = Chains::one(0xfeed << 64 | 1);
        for j in [0usize, 255, 256, 257, 1000, 4097] {
            let mut want = one.start;
            for _ in 0..j {
                want = double(want);
            }
            assert_eq!(one.at(j).start, want, "x^{j}");
        }
    }

    /// The doubling chain itself: 128 doublings of 1 give x^128, which is
    /// x^7 + x^2 + x + 1 (0x87) modulo the IEEE 1619 polynomial.
    #[test]
    fn doubling_reduces_by_the_ieee_polynomial() {
        let mut tweaks = vec![0u8; 16 * 129];
        let next = fill_scalar(1, &mut tweaks, None);
        assert_eq!(&tweaks[16 * 128..], &0x87u128.to_le_bytes());
        assert_eq!(&tweaks[16 * 127..16 * 128], &(1u128 << 127).to_le_bytes());
        assert_eq!(next, 0x87 << 1);
    }

    #[test]
    fn emulated_machines_make_the_chains() {
        agrees(Emu::<16>);
        agrees(Emu::<32>);
        agrees(Emu::<64>);
        agrees_with(Emu::<64>, fill_on_wide::<Emu<64>>);
        // The vector heads do cover units (whole groups of four with eight blocks each).
        let unit_tweaks = bytes(5, 16 * 9);
        for (blocks, want) in [(200usize, 4usize), (3 + 7 * 32 + 8, 8), (3 + 7 * 32 + 7, 4)] {
            let mut t = vec![0u8; 16 * blocks];
            let c = Chains { start: 1, head: 3, unit_tweaks: &unit_tweaks[..16 * (blocks - 3).div_ceil(32)], per_unit: 32 };
            let m = Emu::<64>;
            assert_eq!(m.vectorize(UnitHeads { m, tweaks: &mut t, chains: c }), want, "{blocks} blocks");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn this_cpu_makes_the_chains() {
        use crate::simd::{Avx2, Avx512Bw, Ssse3, Xmm, Ymm, Zmm};
        if let Some(m) = Zmm::<Avx512Bw>::detect() {
            agrees(m);
            agrees_with(m, fill_on_wide::<Zmm<Avx512Bw>>);
        }
        if let Some(m) = Ymm::<Avx2>::detect() {
            agrees(m);
        }
        if let Some(m) = Xmm::<Ssse3>::detect() {
            agrees(m);
        }
    }
}
