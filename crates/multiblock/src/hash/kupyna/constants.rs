//! What Kupyna (DSTU 7564:2014; Oliynykov, Gorbenko, Kazymyrov, Ruzhentsev,
//! Kuznetsov, Gorbenko, Boiko, Dyrda, Dolgov, Pushkaryov, Mordvinov,
//! Kaidalov, "A New Standard of Ukraine: The Kupyna Hash Function", IACR
//! ePrint 2015/885) adds to Kalyna's constants. The S-boxes π0..π3, the MDS
//! vector (01, 01, 05, 01, 08, 06, 07, 04) and the field GF(2^8) modulo
//! x^8 + x^4 + x^3 + x^2 + 1 are Kalyna's (DSTU 7624:2014 §5.2, §5.3;
//! ePrint 2015/885 §3 uses the same ones): `crate::kalyna::constants`.
//!
//! Bytes: the state is an 8 × c byte matrix (c = 8 or 16 columns) stored
//! column by column, column j = bytes 8j..8j+8, row i = byte i of it; a
//! column read as a little-endian u64 is the word the round constants of T+
//! are added to (ePrint 2015/885 §3, "state matrix" and §4).

/// Columns of the 512-bit state (digests of up to 256 bits; ePrint
/// 2015/885 §4, table of parameters; DSTU 7564:2014 §5).
pub(crate) const COLS_512: usize = 8;
/// Columns of the 1024-bit state (digests of 264 to 512 bits).
pub(crate) const COLS_1024: usize = 16;

/// Rounds of T⊕ and T+: 10 for the 512-bit state, 14 for the 1024-bit one
/// (ePrint 2015/885 §4; DSTU 7564:2014 §5).
pub(crate) const fn rounds(cols: usize) -> usize {
    if cols == COLS_512 {
        10
    } else {
        14
    }
}

/// Columns of the state for a digest of `digest_bytes` bytes: 512 bits up
/// to 256-bit digests, 1024 above (ePrint 2015/885 §4).
pub(crate) const fn cols_for(digest_bytes: usize) -> usize {
    if digest_bytes <= 32 {
        COLS_512
    } else {
        COLS_1024
    }
}

/// ShiftBytes' shift of row i: row i moves right by δ_i columns, δ_i = i,
/// except row 7 of the 1024-bit state, which moves by 11 (ePrint 2015/885
/// §3, "ShiftBytes"; DSTU 7564:2014 §5.2.3).
pub(crate) const fn shift(row: usize, cols: usize) -> usize {
    if row == 7 && cols == COLS_1024 {
        11
    } else {
        row
    }
}

/// The initial value: all zero but byte 0, which is the state length in
/// bytes, 0x40 or 0x80 (IV = 1 ≪ 510 and 1 ≪ 1023 as the standard writes
/// them; ePrint 2015/885 §4; DSTU 7564:2014 §5.1).
pub(crate) const fn iv_byte0(cols: usize) -> u8 {
    (8 * cols) as u8
}

/// T⊕'s round constant of round ν (ν = 0..t−1) for column j: XORed into row
/// 0 (byte 0) of the column, ((j ≪ 4) ⊕ ν) (ePrint 2015/885 §3,
/// "AddRoundConstants", the ω_ν vectors of T⊕; DSTU 7564:2014 §5.2.1).
pub(crate) const fn xor_constant(j: usize, round: usize) -> u8 {
    ((j << 4) ^ round) as u8
}

/// T+'s round constant of round ν for column j of c: added modulo 2^64 to
/// the column as a little-endian word, 0x00F0F0F0F0F0F0F3 ⊕ ((((c − 1 − j)
/// ≪ 4) ⊕ ν) ≪ 56) (ePrint 2015/885 §3, the ζ_ν vectors of T+; DSTU
/// 7564:2014 §5.2.1).
pub(crate) const fn add_constant(j: usize, cols: usize, round: usize) -> u64 {
    0x00f0_f0f0_f0f0_f0f3 ^ (((((cols - 1 - j) << 4) ^ round) as u64) << 56)
}

/// Length of the message-length field that ends the padding: 96 bits,
/// little-endian (ePrint 2015/885 §4, "padding"; DSTU 7564:2014 §6): the
/// message, one 1 bit (byte 0x80 for whole bytes), zeros, then N as 96 bits,
/// to a multiple of the block (the state) length.
pub(crate) const LENGTH_FIELD_BYTES: usize = 12;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_of_the_two_states() {
        assert_eq!((cols_for(32), rounds(cols_for(32))), (8, 10));
        assert_eq!((cols_for(33), rounds(cols_for(64))), (16, 14));
        assert_eq!(iv_byte0(8), 0x40);
        assert_eq!(iv_byte0(16), 0x80);
        // Column 7 of the 512-bit state in round 0: byte 7 is (c − 1 − 7) ≪ 4 = 0.
        assert_eq!(add_constant(7, 8, 0), 0x00f0_f0f0_f0f0_f0f3);
        assert_eq!(add_constant(0, 16, 3), 0xf3f0_f0f0_f0f0_f0f3);
        let shifts: Vec<usize> = (0..8).map(|i| shift(i, 16)).collect();
        assert_eq!(shifts, [0, 1, 2, 3, 4, 5, 6, 11]);
    }
}
