//! Blocks to bit planes and back. The planes of one 8-byte chunk of 64
//! blocks are the transpose of the 64×64 bit matrix whose rows are the
//! chunks (bit 8p + b of a chunk is bit b of its byte p): six stages of
//! delta swaps (Hacker's Delight §7-3), one per bit of the row and column
//! index. A transpose is its own inverse, so `store_planes` runs the same
//! steps. The steps run on whole words, every lane at once (two blocks'
//! words per register for [`super::W2`]). The key schedules' `sub_bytes`
//! uses an 8×8 byte transpose and bit transposes inside each word.

use super::Word;

/// Swaps the blocks of `S` bits selected by `mask` between words a and b:
/// one step of every transpose here.
#[inline(always)]
fn swap<W: Word, const S: i32>(w: &mut [W; 8], a: usize, b: usize, mask: u64) {
    let t = (w[a].shr::<S>() ^ w[b]) & W::splat(mask);
    w[b] = w[b] ^ t;
    w[a] = w[a] ^ t.shl::<S>();
}

/// The 8×8 transpose of the blocks of S bits (an 8·S-bit word as 8 of
/// them): word r block c ↔ word c block r, in each lane; `masks` select
/// the low half of each block pair at 4·S, 2·S and S.
#[inline(always)]
fn transpose8<W: Word, const S4: i32, const S2: i32, const S: i32>(w: &mut [W; 8], masks: [u64; 3]) {
    for r in 0..4 {
        swap::<W, S4>(w, r, r + 4, masks[0]);
    }
    for r in [0, 1, 4, 5] {
        swap::<W, S2>(w, r, r + 2, masks[1]);
    }
    for r in [0, 2, 4, 6] {
        swap::<W, S>(w, r, r + 1, masks[2]);
    }
}

/// Word r byte c ↔ word c byte r (in each lane).
#[inline(always)]
fn transpose_bytes<W: Word>(w: &mut [W; 8]) {
    transpose8::<W, 32, 16, 8>(w, [0x0000_0000_ffff_ffff, 0x0000_ffff_0000_ffff, 0x00ff_00ff_00ff_00ff]);
}

/// Byte r bit c ↔ byte c bit r (in each lane).
#[inline(always)]
fn transpose_bits<W: Word>(x: W) -> W {
    let t = (x ^ x.shr::<7>()) & W::splat(0x00aa_00aa_00aa_00aa);
    let x = x ^ t ^ t.shl::<7>();
    let t = (x ^ x.shr::<14>()) & W::splat(0x0000_cccc_0000_cccc);
    let x = x ^ t ^ t.shl::<14>();
    let t = (x ^ x.shr::<28>()) & W::splat(0x0000_0000_f0f0_f0f0);
    x ^ t ^ t.shl::<28>()
}

/// The 64×64 bit matrix of each lane of `m` transposed: bit j of word i
/// ↔ bit i of word j. Stage S swaps the bits of index bit S set in words
/// whose index bit S is clear with those of index bit S clear in the word
/// S further on. The stages commute; the three that pair words 8, 16 and 32
/// apart run on 8 words with the same low 3 index bits, the other three on
/// 8 consecutive words, so each group stays in registers.
#[inline(always)]
fn transpose64<W: Word>(m: &mut [W; 64]) {
    for k in 0..8 {
        let mut w: [W; 8] = core::array::from_fn(|i| m[k + 8 * i]);
        transpose_bytes(&mut w);
        for (i, v) in w.into_iter().enumerate() {
            m[k + 8 * i] = v;
        }
    }
    for w in m.chunks_exact_mut(8) {
        let w: &mut [W; 8] = w.try_into().expect("8 words");
        // Word r bit c ↔ word c bit r inside each byte.
        transpose8::<W, 4, 2, 1>(w, [0x0f0f_0f0f_0f0f_0f0f, 0x3333_3333_3333_3333, 0x5555_5555_5555_5555]);
    }
}

/// The 8-byte chunk `c` of block `i` of `data` (blocks of `bb` bytes) as a
/// little-endian word; zero past the end (a short batch).
#[inline(always)]
fn chunk(data: &[u8], bb: usize, i: usize, c: usize) -> u64 {
    match data.get(i * bb + 8 * c..i * bb + 8 * c + 8) {
        Some(b) => u64::from_le_bytes(b.try_into().expect("8 bytes")),
        None => 0,
    }
}

/// Blocks of `bb` bytes (a multiple of 8, at most 64·LANES blocks) into
/// `planes` (8·bb words). Missing blocks are zeros. Lane k holds blocks
/// 64k..64k + 63.
pub(crate) fn load_planes<W: Word>(data: &[u8], bb: usize, planes: &mut [W]) {
    debug_assert!(data.len() <= 64 * W::LANES * bb && planes.len() == 8 * bb);
    for (c, m) in planes.chunks_exact_mut(64).enumerate() {
        let m: &mut [W; 64] = m.try_into().expect("64 planes per chunk");
        for (i, v) in m.iter_mut().enumerate() {
            *v = W::from_lane_fn(|k| chunk(data, bb, 64 * k + i, c));
        }
        transpose64(m);
    }
}

/// The inverse of [`load_planes`]: writes the blocks that fit in `data`.
pub(crate) fn store_planes<W: Word>(planes: &[W], bb: usize, data: &mut [u8]) {
    let blocks = data.len() / bb;
    for (c, m) in planes.chunks_exact(64).enumerate() {
        let mut m: [W; 64] = m.try_into().expect("64 planes per chunk");
        transpose64(&mut m);
        for (i, v) in m.iter().enumerate() {
            for k in 0..W::LANES {
                let block = 64 * k + i;
                if block < blocks {
                    data[block * bb + 8 * c..block * bb + 8 * c + 8].copy_from_slice(&v.lane(k).to_le_bytes());
                }
            }
        }
        zeroize::Zeroize::zeroize(&mut m[..]);
    }
}

/// An S-box circuit on each of up to 64 bytes: byte i becomes bit i of the
/// 8 planes (the key schedules' S on one block, all bytes at once).
pub(crate) fn sub_bytes(bytes: &mut [u8], sbox: fn(&[u64; 8]) -> [u64; 8]) {
    debug_assert!(bytes.len().is_multiple_of(8) && bytes.len() <= 64);
    let mut w = [0u64; 8];
    for (g, c) in bytes.chunks_exact(8).enumerate() {
        w[g] = transpose_bits(u64::from_le_bytes(c.try_into().expect("8 bytes")));
    }
    transpose_bytes(&mut w);
    let mut y = sbox(&w);
    transpose_bytes(&mut y);
    for (g, c) in bytes.chunks_exact_mut(8).enumerate() {
        c.copy_from_slice(&transpose_bits(y[g]).to_le_bytes());
    }
    zeroize::Zeroize::zeroize(&mut w[..]);
    zeroize::Zeroize::zeroize(&mut y[..]);
}

#[cfg(test)]
mod tests {
    use super::super::{W1, W2};
    use super::*;

    fn check<W: Word>(bb: usize, blocks: usize) {
        let data: Vec<u8> = (0..blocks * bb).map(|i| (i * 37 + i / 5) as u8).collect();
        let mut planes = vec![W::ZERO; 8 * bb];
        load_planes(&data, bb, &mut planes);
        for i in 0..64 * W::LANES {
            for p in 0..bb {
                for b in 0..8 {
                    let want = if i < blocks { data[i * bb + p] >> b & 1 } else { 0 };
                    assert_eq!((planes[8 * p + b].lane(i / 64) >> (i % 64) & 1) as u8, want, "block {i} byte {p} bit {b}");
                }
            }
        }
        let mut back = vec![0u8; data.len()];
        store_planes(&planes, bb, &mut back);
        assert_eq!(back, data);
    }

    /// Plane 8p + b, bit i of lane k is bit b of byte p of block 64k + i,
    /// and the inverse restores the blocks, for full and short batches.
    #[test]
    fn planes_hold_the_bits_where_documented() {
        for bb in [16, 32, 64] {
            check::<W1>(bb, 64);
            check::<W1>(bb, 5);
            check::<W2>(bb, 128);
            check::<W2>(bb, 77);
        }
    }

    #[test]
    fn sub_bytes_applies_the_circuit_per_byte() {
        let mut b: Vec<u8> = (0..64).map(|i| (i * 73 + 11) as u8).collect();
        let orig = b.clone();
        // The identity circuit, and a bit rotation of each byte.
        sub_bytes(&mut b, |x| *x);
        assert_eq!(b, orig);
        sub_bytes(&mut b, |x| core::array::from_fn(|j| x[(j + 7) % 8]));
        assert!(b.iter().zip(&orig).all(|(&y, &x)| y == x.rotate_left(1)));
    }
}
