//! Blocks in and out of the nibble-spread register form (rounds.rs).
//!
//! A group is 2·LANES blocks (packed form; LANES = BYTES/16) or LANES
//! blocks (plain form). Its *slots*: slot s < LANES is lane s, low nibbles;
//! slot LANES + s is lane s, high nibbles. Part h (16 bytes) of the blocks
//! of slots 0..LANES is one register of raw bytes `a`, of the other slots
//! `b`; [`spread`] makes the two nibble registers of part h from them
//! (bytes → high/low nibbles → `punpck*bw`, the Table 8 form of Gao et al. 2024)
//! and [`pack`] goes back (`pmaddubsw` 16·hi + lo, then `packuswb`).

use super::rounds::Groups;
use crate::simd::Simd;

/// The nibble registers (nibbles 0..15, 16..31 of the 16 bytes of each
/// lane) of raw registers `a` (low-nibble slots) and, packed, `b`.
#[inline(always)]
pub(crate) fn spread<M: Simd, const PACKED: bool>(m: M, a: M::V, b: M::V, low: M::V) -> [M::V; 2] {
    let (ah, al) = (m.and(m.shr16::<4>(a), low), m.and(a, low));
    let (mut x, mut y) = (m.unpack_lo::<1>(ah, al), m.unpack_hi::<1>(ah, al));
    if PACKED {
        let high = m.splat8(0xf0);
        let (bh, bl) = (m.and(b, high), m.and(m.shl16::<4>(b), high));
        x = m.or(x, m.unpack_lo::<1>(bh, bl));
        y = m.or(y, m.unpack_hi::<1>(bh, bl));
    }
    [x, y]
}

/// The raw bytes of the low-nibble blocks of nibble registers x, y (the
/// high nibbles must be shifted down first, and are masked off here when
/// `PACKED`).
#[inline(always)]
pub(crate) fn pack<M: Simd, const PACKED: bool>(m: M, x: M::V, y: M::V, low: M::V) -> M::V {
    let w = m.splat32(0x0110_0110); // bytes (16, 1): 16·hi + lo
    let (x, y) = if PACKED { (m.and(x, low), m.and(y, low)) } else { (x, y) };
    m.packus16(m.maddubs(x, w), m.maddubs(y, w))
}

/// Consecutive blocks of 16·H bytes in one batch, in place. A group whose
/// blocks run past the end reads zeros there and writes nothing (so a
/// batch may end in any whole block).
pub(crate) struct Batch<'a, const H: usize, const PACKED: bool> {
    pub(crate) data: &'a mut [u8],
}

impl<const H: usize, const PACKED: bool> Batch<'_, H, PACKED> {
    /// Slots per group.
    #[inline(always)]
    fn slots<M: Simd>() -> usize {
        if PACKED {
            2 * M::BYTES / 16
        } else {
            M::BYTES / 16
        }
    }

    /// Where part h of the block of slot `s` starts.
    #[inline(always)]
    fn at(s: usize, h: usize) -> usize {
        s * 16 * H + 16 * h
    }

    /// Part h of the LANES blocks from slot `first` on, as one register.
    #[inline(always)]
    fn read<M: Simd>(&self, m: M, first: usize, h: usize) -> M::V {
        let len = self.data.len();
        if H == 1 && Self::at(first, h) + M::BYTES <= len {
            return m.load(&self.data[Self::at(first, h)..]);
        }
        // Every lane inside: one strided load (`vinserti128` pairs) instead
        // of a checked insert per lane (uBlock-256: 4 % of the instructions).
        if Self::at(first + M::BYTES / 16 - 1, h) + 16 <= len {
            return m.load_lanes(&self.data[Self::at(first, h)..], 16 * H);
        }
        let mut v = m.zero();
        for l in 0..M::BYTES / 16 {
            if Self::at(first + l, h) < len {
                v = m.load_lane(v, l, &self.data[Self::at(first + l, h)..]);
            }
        }
        v
    }

    #[inline(always)]
    fn write<M: Simd>(&mut self, m: M, first: usize, h: usize, v: M::V) {
        let len = self.data.len();
        if H == 1 && Self::at(first, h) + M::BYTES <= len {
            return m.store(v, &mut self.data[Self::at(first, h)..]);
        }
        if Self::at(first + M::BYTES / 16 - 1, h) + 16 <= len {
            return m.store_lanes(v, &mut self.data[Self::at(first, h)..], 16 * H);
        }
        for l in 0..M::BYTES / 16 {
            if Self::at(first + l, h) < len {
                m.store_lane(v, l, &mut self.data[Self::at(first + l, h)..]);
            }
        }
    }
}

impl<M: Simd, const H: usize, const PACKED: bool> Groups<M> for Batch<'_, H, PACKED> {
    #[inline(always)]
    fn load(&self, m: M, g: usize, low: M::V) -> [M::V; 4] {
        let first = g * Self::slots::<M>();
        let mut s = [m.zero(); 4];
        for h in 0..H {
            let a = self.read(m, first, h);
            let b = if PACKED { self.read(m, first + M::BYTES / 16, h) } else { m.zero() };
            [s[2 * h], s[2 * h + 1]] = spread::<M, PACKED>(m, a, b, low);
        }
        s
    }

    #[inline(always)]
    fn store(&mut self, m: M, g: usize, s: &[M::V; 4], low: M::V) {
        let first = g * Self::slots::<M>();
        for h in 0..H {
            let (x, y) = (s[2 * h], s[2 * h + 1]);
            self.write(m, first, h, pack::<M, PACKED>(m, x, y, low));
            if PACKED {
                let b = pack::<M, PACKED>(m, m.shr16::<4>(x), m.shr16::<4>(y), low);
                self.write(m, first + M::BYTES / 16, h, b);
            }
        }
    }
}
