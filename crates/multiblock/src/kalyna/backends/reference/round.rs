//! The state transformations of DSTU 7624:2014 §5, on a state held as bytes.
//!
//! The state is an 8 × nb byte matrix stored column after column: byte
//! `8*j + i` is row i of column j, and column j read little-endian is the
//! reference implementation's 64-bit word j. Every function takes the state
//! as a slice of 8*nb bytes (nb = 2, 4 or 8).

use super::super::super::constants::{MDS, MDS_INV, POLY, SBOX, SBOX_INV};

/// Multiplication in GF(2^8) modulo [`POLY`], shift-and-add. It branches on
/// its operands: fine for the reference backend, not constant-time.
fn gf_mul(mut a: u8, mut b: u8) -> u8 {
    let mut r = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        let carry = a & 0x80 != 0;
        a <<= 1;
        if carry {
            a ^= (POLY & 0xff) as u8;
        }
        b >>= 1;
    }
    r
}

/// Rows per column (the state is always 8 bytes high).
const ROWS: usize = 8;

/// SubBytes (§5.2): row i goes through π_{i mod 4}.
pub(super) fn sub_bytes(s: &mut [u8]) {
    for (idx, b) in s.iter_mut().enumerate() {
        *b = SBOX[idx % 4][*b as usize];
    }
}

/// InvSubBytes (§5.4): row i goes through π_{i mod 4}⁻¹.
pub(super) fn inv_sub_bytes(s: &mut [u8]) {
    for (idx, b) in s.iter_mut().enumerate() {
        *b = SBOX_INV[idx % 4][*b as usize];
    }
}

/// The ShiftRows shift of row i: δ_i = ⌊i·l/512⌋ = ⌊i·nb/8⌋ columns (§5.2).
fn shift_of(row: usize, nb: usize) -> usize {
    row * nb / ROWS
}

/// ShiftRows (§5.2): row i rotates right by δ_i columns, so the byte of
/// column j moves to column (j + δ_i) mod nb.
pub(super) fn shift_rows(s: &mut [u8]) {
    rotate_rows(s, false);
}

/// InvShiftRows (§5.4): row i rotates left by δ_i columns.
pub(super) fn inv_shift_rows(s: &mut [u8]) {
    rotate_rows(s, true);
}

/// Rotates row i right by δ_i columns, or (`left`) left by δ_i, that is
/// right by nb − δ_i.
fn rotate_rows(s: &mut [u8], left: bool) {
    let nb = s.len() / ROWS;
    let mut old = [0u8; 64];
    old[..s.len()].copy_from_slice(s);
    for row in 0..ROWS {
        let d = shift_of(row, nb);
        let right = if left { nb - d } else { d };
        for col in 0..nb {
            s[ROWS * ((col + right) % nb) + row] = old[ROWS * col + row];
        }
    }
    old.fill(0);
}

/// Multiplies every column by the circulant matrix whose row i is `v`
/// rotated right by i: w_i = ⊕_k v[(k − i) mod 8] · s_k in GF(2^8)/0x11d.
fn mix_with(s: &mut [u8], v: &[u8; 8]) {
    for col in s.chunks_exact_mut(ROWS) {
        let mut w = [0u8; ROWS];
        for (i, wi) in w.iter_mut().enumerate() {
            for (k, &sk) in col.iter().enumerate() {
                *wi ^= gf_mul(v[(k + ROWS - i) % ROWS], sk);
            }
        }
        col.copy_from_slice(&w);
    }
}

/// MixColumns (§5.3) with v = (01, 01, 05, 01, 08, 06, 07, 04).
pub(super) fn mix_columns(s: &mut [u8]) {
    mix_with(s, &MDS);
}

/// InvMixColumns (§5.5) with v⁻¹ = (AD, 95, 76, A8, 2F, 49, D7, CA).
pub(super) fn inv_mix_columns(s: &mut [u8]) {
    mix_with(s, &MDS_INV);
}

/// Applies `f` to each (state column, key column) pair read as little-endian u64.
fn per_word(s: &mut [u8], k: &[u8], f: impl Fn(u64, u64) -> u64) {
    debug_assert_eq!(s.len(), k.len());
    for (sc, kc) in s.chunks_exact_mut(8).zip(k.chunks_exact(8)) {
        let a = u64::from_le_bytes(sc.try_into().expect("8-byte column"));
        let b = u64::from_le_bytes(kc.try_into().expect("8-byte column"));
        sc.copy_from_slice(&f(a, b).to_le_bytes());
    }
}

/// ⊞: column-wise addition mod 2^64 (§5.1, first and last round keys).
pub(super) fn add_key(s: &mut [u8], k: &[u8]) {
    per_word(s, k, u64::wrapping_add);
}

/// ⊟: column-wise subtraction mod 2^64 (decryption's first and last steps).
pub(super) fn sub_key(s: &mut [u8], k: &[u8]) {
    per_word(s, k, u64::wrapping_sub);
}

/// ⊕: XOR with a round key (§5.1, the middle rounds).
pub(super) fn xor_key(s: &mut [u8], k: &[u8]) {
    for (a, b) in s.iter_mut().zip(k) {
        *a ^= b;
    }
}

/// The unkeyed round ψ = MixColumns ∘ ShiftRows ∘ SubBytes, shared by
/// encryption and the key schedule.
pub(super) fn psi(s: &mut [u8]) {
    sub_bytes(s);
    shift_rows(s);
    mix_columns(s);
}

/// The inverse of [`psi`].
pub(super) fn inv_psi(s: &mut [u8]) {
    inv_mix_columns(s);
    inv_shift_rows(s);
    inv_sub_bytes(s);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i as u8).wrapping_mul(37).wrapping_add(11)).collect()
    }

    type Step = fn(&mut [u8]);

    #[test]
    fn every_step_has_its_inverse() {
        for nb in [2, 4, 8] {
            let orig = sample(8 * nb);
            let key = sample(8 * nb + 3)[3..].to_vec();
            let steps: [(Step, Step); 4] = [
                (sub_bytes, inv_sub_bytes),
                (shift_rows, inv_shift_rows),
                (mix_columns, inv_mix_columns),
                (psi, inv_psi),
            ];
            for (f, g) in steps {
                let mut s = orig.clone();
                f(&mut s);
                assert_ne!(s, orig);
                g(&mut s);
                assert_eq!(s, orig);
            }
            let mut s = orig.clone();
            add_key(&mut s, &key);
            sub_key(&mut s, &key);
            assert_eq!(s, orig);
        }
    }

    /// 128-bit state: rows 0..3 stay, rows 4..7 move by one column (§5.2).
    #[test]
    fn shift_rows_128() {
        let mut s: Vec<u8> = (0..16).collect();
        shift_rows(&mut s);
        assert_eq!(s, [0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7]);
    }

    /// 512-bit state: row i moves by i columns.
    #[test]
    fn shift_rows_512() {
        let mut s: Vec<u8> = (0..64).collect();
        shift_rows(&mut s);
        for col in 0..8 {
            for row in 0..8 {
                assert_eq!(s[8 * ((col + row) % 8) + row] as usize, 8 * col + row);
            }
        }
    }

    /// The first column of the MDS matrix applied to a unit vector.
    #[test]
    fn mix_columns_unit_vector() {
        let mut s = [1u8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        mix_columns(&mut s);
        // column 0 of M: M[i][0] = v[(0 - i) mod 8] = 01 04 07 06 08 01 05 01
        assert_eq!(s[..8], [0x01, 0x04, 0x07, 0x06, 0x08, 0x01, 0x05, 0x01]);
        assert_eq!(s[8..], [0u8; 8]);
    }

    #[test]
    fn add_key_carries_within_a_column_only() {
        let mut s = [0xffu8; 16];
        let mut k = [0u8; 16];
        k[0] = 1;
        add_key(&mut s, &k);
        assert_eq!(s[..8], [0u8; 8]);
        assert_eq!(s[8..], [0xffu8; 8]);
    }
}
