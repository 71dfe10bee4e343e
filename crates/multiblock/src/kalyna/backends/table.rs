//! The table backend: 8 T-tables of 256 u64 per direction (2 KiB each), the
//! classic fast scalar Kalyna of the developers, Crypto++ and Sovyn et al.
//! 2019 (Kalyna and GOST 28147-89 with SSE, AVX and AVX-512, Zakhyst
//! Informatsii 21(4), §9.1): one round of a
//! column is 8 lookups and 7 XORs.
//! Several blocks are interleaved so their lookups overlap.
//!
//! NOT constant-time: the table index is a secret byte, so the cache lines
//! touched depend on key and data. Chosen only by name, never by default.
//!
//! Encryption: T_i[x] = column i of the MDS matrix M times π_{i mod 4}(x),
//! packed as a little-endian u64 (byte k = M[k][i]·π(x)), and a round is
//! out_j = ⊕_i T_i[byte i of column (j − δ_i) mod nb] ⊕ K_r (ShiftRows is
//! folded into which column a byte is read from).
//!
//! Decryption: IT_i[x] = column i of M⁻¹ times π_{i mod 4}⁻¹(x). Since
//! InvSubBytes and InvShiftRows commute and InvMixColumns is linear,
//! InvMC(InvSB(InvSR(z)) ⊕ K) = [⊕_i IT_i[z(i, j + δ_i)]]_j ⊕ InvMC(K):
//! after ⊟K_t and one plain InvMC (= IT_i[π_{i mod 4}(x)], no extra tables)
//! every middle round is one table round with the key InvMC(K_r), and the
//! last round is InvShiftRows + InvSubBytes by byte tables, then ⊟K_0.

// A plain BlockKernel rather than `kernel::backend` on the Portable machine:
// run through the batch adapter, Kalyna-512 decryption here is 10% slower
// (same code, different inlining), and a table backend needs no driver.
use super::super::constants::{MDS, MDS_INV, SBOX, SBOX_INV};
use super::super::variant::{Keys, Variant};
use crate::backend::{always, Backend, BackendInfo, BlockKernel};
use crate::gf256::{mul as gf_mul_poly, KALYNA};
use zeroize::{Zeroize, ZeroizeOnDrop};

const fn gf_mul(a: u8, b: u8) -> u8 {
    gf_mul_poly(a, b, KALYNA)
}

/// Blocks processed together (their independent lookups overlap), per
/// block size: as many as keep the state in general-purpose registers.
const W2: usize = 2;
const W4: usize = 1;
const W8: usize = 1;

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "table", constant_time: false, ways: W2, needs: "nothing" },
    available: always,
    new: |keys| Box::new(Table::new(keys)),
};

/// T_i[x] = (column i of the circulant matrix with first row `v`) · sbox_{i mod 4}[x].
const fn t_tables(v: &[u8; 8], sbox: &[[u8; 256]; 4]) -> [[u64; 256]; 8] {
    let mut t = [[0u64; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut x = 0;
        while x < 256 {
            let s = sbox[i % 4][x];
            let mut w = 0u64;
            let mut k = 0;
            while k < 8 {
                // M[k][i] = v[(i − k) mod 8] (row k is v rotated right by k).
                w |= (gf_mul(v[(i + 8 - k) % 8], s) as u64) << (8 * k);
                k += 1;
            }
            t[i][x] = w;
            x += 1;
        }
        i += 1;
    }
    t
}

static ENC: [[u64; 256]; 8] = t_tables(&MDS, &SBOX);
static DEC: [[u64; 256]; 8] = t_tables(&MDS_INV, &SBOX_INV);

/// Round keys as little-endian column words; `dk[r]` = InvMC(K_r) for the
/// middle decryption rounds.
#[derive(Zeroize, ZeroizeOnDrop)]
struct Table {
    #[zeroize(skip)]
    variant: Variant,
    ek: [[u64; 8]; 19],
    dk: [[u64; 8]; 19],
}

#[inline(always)]
fn byte(w: u64, i: usize) -> usize {
    ((w >> (8 * i)) & 0xff) as usize
}

/// Wider blocks gather per output column instead (the scatter's 8·NB
/// lookups would not be unrolled and the outputs would live in memory).
const SCATTER_MAX_NB: usize = 4;

/// Output column j of a table round, gathered: ⊕_i t_i[byte i of column
/// j − δ_i] (encryption) or j + δ_i (decryption).
#[inline(always)]
fn column<const NB: usize>(t: &[[u64; 256]; 8], s: &[u64; NB], j: usize, enc: bool) -> u64 {
    let mut acc = 0;
    for (i, ti) in t.iter().enumerate() {
        let d = i * NB / 8;
        let c = if enc { (j + NB - d) % NB } else { (j + d) % NB };
        acc ^= ti[byte(s[c], i)];
    }
    acc
}

/// One table round of a block: byte i of input column c is looked up in t_i
/// and XORed into output column c + δ_i (encryption: ShiftRows moves row i
/// right by δ_i) or c − δ_i (decryption); the outputs start from `init`.
#[inline(always)]
fn round<const NB: usize>(t: &[[u64; 256]; 8], s: &[u64; NB], init: &[u64; 8], enc: bool) -> [u64; NB] {
    if NB > SCATTER_MAX_NB {
        return core::array::from_fn(|j| init[j] ^ column::<NB>(t, s, j, enc));
    }
    let mut out: [u64; NB] = core::array::from_fn(|j| init[j]);
    for (c, &w) in s.iter().enumerate() {
        for (i, ti) in t.iter().enumerate() {
            let d = i * NB / 8;
            let j = if enc { (c + d) % NB } else { (c + NB - d) % NB };
            out[j] ^= ti[byte(w, i)];
        }
    }
    out
}

impl Table {
    fn new(keys: &Keys) -> Table {
        let v = keys.variant;
        let nb = v.nb();
        let mut t = Table { variant: v, ek: [[0; 8]; 19], dk: [[0; 8]; 19] };
        for r in 0..=v.rounds() {
            let k = keys.round_key(r);
            for j in 0..nb {
                t.ek[r][j] = u64::from_le_bytes(k[8 * j..8 * j + 8].try_into().expect("8 bytes"));
                // InvMC(K_r) column j = ⊕_i IT_i[π_{i mod 4}(k_ij)].
                t.dk[r][j] = (0..8).fold(0, |acc, i| acc ^ DEC[i][SBOX[i % 4][k[8 * j + i] as usize] as usize]);
            }
        }
        t
    }

    /// Encrypts (`DECRYPT` false) or decrypts W blocks at a time, the rest
    /// one by one.
    fn crypt<const NB: usize, const W: usize, const DECRYPT: bool>(&self, data: &mut [u8]) {
        let mut chunks = data.chunks_exact_mut(8 * NB * W);
        for chunk in &mut chunks {
            self.crypt_n::<NB, W, DECRYPT>(chunk);
        }
        for block in chunks.into_remainder().chunks_exact_mut(8 * NB) {
            self.crypt_n::<NB, 1, DECRYPT>(block);
        }
    }

    #[inline(always)]
    fn crypt_n<const NB: usize, const W: usize, const DECRYPT: bool>(&self, data: &mut [u8]) {
        if DECRYPT {
            self.decrypt_n::<NB, W>(data)
        } else {
            self.encrypt_n::<NB, W>(data)
        }
    }

    /// Encrypts W blocks of NB columns together.
    #[inline(always)]
    fn encrypt_n<const NB: usize, const W: usize>(&self, data: &mut [u8]) {
        let t = self.variant.rounds();
        let mut s = load::<NB, W>(data);
        for b in s.iter_mut() {
            for (c, k) in b.iter_mut().zip(&self.ek[0]) {
                *c = c.wrapping_add(*k);
            }
        }
        for r in 1..t {
            for b in s.iter_mut() {
                *b = round::<NB>(&ENC, b, &self.ek[r], true);
            }
        }
        for b in s.iter_mut() {
            *b = round::<NB>(&ENC, b, &[0; 8], true);
            for (c, k) in b.iter_mut().zip(&self.ek[t]) {
                *c = c.wrapping_add(*k);
            }
        }
        store::<NB, W>(&s, data);
    }

    /// Decrypts W blocks of NB columns together.
    #[inline(always)]
    fn decrypt_n<const NB: usize, const W: usize>(&self, data: &mut [u8]) {
        let t = self.variant.rounds();
        let mut s = load::<NB, W>(data);
        // ⊟K_t, then a plain InvMixColumns: IT_i[π(x)] = M⁻¹ column i · x.
        for b in s.iter_mut() {
            for (c, k) in b.iter_mut().zip(&self.ek[t]) {
                let x = c.wrapping_sub(*k);
                *c = (0..8).fold(0, |acc, i| acc ^ DEC[i][SBOX[i % 4][byte(x, i)] as usize]);
            }
        }
        // Middle rounds t−1..1: InvSR, InvSB, ⊕K_r, InvMC as one table round.
        for r in (1..t).rev() {
            for b in s.iter_mut() {
                *b = round::<NB>(&DEC, b, &self.dk[r], false);
            }
        }
        // Last: InvShiftRows, InvSubBytes, ⊟K_0.
        for b in s.iter_mut() {
            let mut n = [0u64; NB];
            for (j, nj) in n.iter_mut().enumerate() {
                let mut w = 0u64;
                for i in 0..8 {
                    let c = (j + i * NB / 8) % NB;
                    w |= (SBOX_INV[i % 4][byte(b[c], i)] as u64) << (8 * i);
                }
                *nj = w.wrapping_sub(self.ek[0][j]);
            }
            *b = n;
        }
        store::<NB, W>(&s, data);
    }
}

#[inline(always)]
fn load<const NB: usize, const W: usize>(data: &[u8]) -> [[u64; NB]; W] {
    let mut s = [[0u64; NB]; W];
    for (w, b) in s.iter_mut().enumerate() {
        for (j, c) in b.iter_mut().enumerate() {
            let o = 8 * (w * NB + j);
            *c = u64::from_le_bytes(data[o..o + 8].try_into().expect("8 bytes"));
        }
    }
    s
}

#[inline(always)]
fn store<const NB: usize, const W: usize>(s: &[[u64; NB]; W], data: &mut [u8]) {
    for (w, b) in s.iter().enumerate() {
        for (j, c) in b.iter().enumerate() {
            let o = 8 * (w * NB + j);
            data[o..o + 8].copy_from_slice(&c.to_le_bytes());
        }
    }
}

impl BlockKernel for Table {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        match self.variant.nb() {
            2 => self.crypt::<2, W2, false>(data),
            4 => self.crypt::<4, W4, false>(data),
            _ => self.crypt::<8, W8, false>(data),
        }
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        match self.variant.nb() {
            2 => self.crypt::<2, W2, true>(data),
            4 => self.crypt::<4, W4, true>(data),
            _ => self.crypt::<8, W8, true>(data),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// T_0[x] is π0(x) times column 0 of M: 01 04 07 06 08 01 05 01.
    #[test]
    fn first_table_column() {
        let s = SBOX[0][0x12];
        let want: Vec<u8> = [1u8, 4, 7, 6, 8, 1, 5, 1].iter().map(|&c| gf_mul(c, s)).collect();
        assert_eq!(ENC[0][0x12].to_le_bytes().to_vec(), want);
    }
}
