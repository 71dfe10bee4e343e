//! Constants of GOST R 34.11-2012 (RFC 6986 §5, the parameters the
//! transformations of §6 use): π, τ, the matrix A, the iteration constants
//! C_1..C_12, and the initialization vectors.
//!
//! Byte order: a 512-bit value is held as 64 bytes in memory order, byte i
//! the coefficient of 2^(8i) (the standard's a_i of a = a_63‖…‖a_0, so the
//! standard's printed hex reads the bytes from 63 down to 0); a 64-bit word
//! w of the state is bytes 8w..8w+8, little-endian.

/// π (RFC 6986 §5): the same bijection of V8 as Kuznyechik's
/// (GOST R 34.12-2015 §4.1.1).
pub(crate) use crate::kuznyechik::constants::PI;

/// τ (RFC 6986 §5; P in §6): P(a) = a_τ(63)‖…‖a_τ(0), so byte i of P(a) is byte
/// τ(i) of a; τ(8r + c) = 8c + r, the transpose of the 8×8 byte matrix.
pub(crate) const TAU: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = (8 * (i % 8) + i / 8) as u8;
        i += 1;
    }
    t
};

/// The rows of A (RFC 6986 §5; l in §6), as printed: l(b) for b = b_63…b_0 is the
/// XOR of A[i] over the i with b_(63−i) = 1.
pub(crate) const A: [u64; 64] = [
    0x8e20faa72ba0b470, 0x47107ddd9b505a38, 0xad08b0e0c3282d1c, 0xd8045870ef14980e,
    0x6c022c38f90a4c07, 0x3601161cf205268d, 0x1b8e0b0e798c13c8, 0x83478b07b2468764,
    0xa011d380818e8f40, 0x5086e740ce47c920, 0x2843fd2067adea10, 0x14aff010bdd87508,
    0x0ad97808d06cb404, 0x05e23c0468365a02, 0x8c711e02341b2d01, 0x46b60f011a83988e,
    0x90dab52a387ae76f, 0x486dd4151c3dfdb9, 0x24b86a840e90f0d2, 0x125c354207487869,
    0x092e94218d243cba, 0x8a174a9ec8121e5d, 0x4585254f64090fa0, 0xaccc9ca9328a8950,
    0x9d4df05d5f661451, 0xc0a878a0a1330aa6, 0x60543c50de970553, 0x302a1e286fc58ca7,
    0x18150f14b9ec46dd, 0x0c84890ad27623e0, 0x0642ca05693b9f70, 0x0321658cba93c138,
    0x86275df09ce8aaa8, 0x439da0784e745554, 0xafc0503c273aa42a, 0xd960281e9d1d5215,
    0xe230140fc0802984, 0x71180a8960409a42, 0xb60c05ca30204d21, 0x5b068c651810a89e,
    0x456c34887a3805b9, 0xac361a443d1c8cd2, 0x561b0d22900e4669, 0x2b838811480723ba,
    0x9bcf4486248d9f5d, 0xc3e9224312c8c1a0, 0xeffa11af0964ee50, 0xf97d86d98a327728,
    0xe4fa2054a80b329c, 0x727d102a548b194e, 0x39b008152acb8227, 0x9258048415eb419d,
    0x492c024284fbaec0, 0xaa16012142f35760, 0x550b8e9e21f7a530, 0xa48b474f9ef5dc18,
    0x70a6a56e2440598e, 0x3853dc371220a247, 0x1ca76e95091051ad, 0x0edd37c48a08a6d8,
    0x07e095624504536c, 0x8d70c431ac02a736, 0xc83862965601dd1b, 0x641c314b2b8ee083,
];

/// C_1..C_12 (RFC 6986 §5), as printed (most significant byte first).
const C_PRINTED: [&str; 12] = [
    "b1085bda1ecadae9ebcb2f81c0657c1f2f6a76432e45d016714eb88d7585c4fc4b7ce09192676901a2422a08a460d31505767436cc744d23dd806559f2a64507",
    "6fa3b58aa99d2f1a4fe39d460f70b5d7f3feea720a232b9861d55e0f16b501319ab5176b12d699585cb561c2db0aa7ca55dda21bd7cbcd56e679047021b19bb7",
    "f574dcac2bce2fc70a39fc286a3d843506f15e5f529c1f8bf2ea7514b1297b7bd3e20fe490359eb1c1c93a376062db09c2b6f443867adb31991e96f50aba0ab2",
    "ef1fdfb3e81566d2f948e1a05d71e4dd488e857e335c3c7d9d721cad685e353fa9d72c82ed03d675d8b71333935203be3453eaa193e837f1220cbebc84e3d12e",
    "4bea6bacad4747999a3f410c6ca923637f151c1f1686104a359e35d7800fffbdbfcd1747253af5a3dfff00b723271a167a56a27ea9ea63f5601758fd7c6cfe57",
    "ae4faeae1d3ad3d96fa4c33b7a3039c02d66c4f95142a46c187f9ab49af08ec6cffaa6b71c9ab7b40af21f66c2bec6b6bf71c57236904f35fa68407a46647d6e",
    "f4c70e16eeaac5ec51ac86febf240954399ec6c7e6bf87c9d3473e33197a93c90992abc52d822c3706476983284a05043517454ca23c4af38886564d3a14d493",
    "9b1f5b424d93c9a703e7aa020c6e41414eb7f8719c36de1e89b4443b4ddbc49af4892bcb929b069069d18d2bd1a5c42f36acc2355951a8d9a47f0dd4bf02e71e",
    "378f5a541631229b944c9ad8ec165fde3a7d3a1b258942243cd955b7e00d0984800a440bdbb2ceb17b2b8a9aa6079c540e38dc92cb1f2a607261445183235adb",
    "abbedea680056f52382ae548b2e4f3f38941e71cff8a78db1fffe18a1b3361039fe76702af69334b7a1e6c303b7652f43698fad1153bb6c374b4c7fb98459ced",
    "7bcd9ed0efc889fb3002c6cd635afe94d8fa6bbbebab076120018021148466798a1d71efea48b9caefbacd1d7d476e98dea2594ac06fd85d6bcaa4cd81f32d1b",
    "378ee767f11631bad21380b00449b17acda43c32bcdf1d77f82012d430219f9b5d80ef9d1891cc86e71da4aa88e12852faf417d5d9b21b9948bc924af11bd720",
];

/// C_1..C_12 in memory order (byte i = coefficient of 2^(8i)).
pub(crate) const C: [[u8; 64]; 12] = {
    let mut c = [[0u8; 64]; 12];
    let mut i = 0;
    while i < 12 {
        let hex = C_PRINTED[i].as_bytes();
        assert!(hex.len() == 128);
        let mut b = 0;
        while b < 64 {
            // Printed byte b is memory byte 63 − b.
            c[i][63 - b] = nibble(hex[2 * b]) << 4 | nibble(hex[2 * b + 1]);
            b += 1;
        }
        i += 1;
    }
    c
};

const fn nibble(h: u8) -> u8 {
    match h {
        b'0'..=b'9' => h - b'0',
        b'a'..=b'f' => h - b'a' + 10,
        _ => panic!("not a lowercase hex digit"),
    }
}

/// The initialization vector (RFC 6986 §5; stage 1 of §8): 0⁵¹² for Streebog-512,
/// (00000001)⁶⁴ for Streebog-256.
pub(crate) const fn iv(digest_bytes: usize) -> [u8; 64] {
    if digest_bytes == 32 {
        [1; 64]
    } else {
        [0; 64]
    }
}

/// The 8×8 block of l from input byte `c` (bits 8c..8c+8 of the word) to
/// output byte `j`, as an affine matrix in Intel's layout (output bit i from
/// byte 7 − i of the word, see `crate::simd::Gfni`).
pub(crate) const fn l_block(j: usize, c: usize) -> u64 {
    let mut matrix = 0u64;
    let mut i = 0;
    while i < 8 {
        let mut row = 0u8;
        let mut s = 0;
        while s < 8 {
            // Input bit 8c + s selects row A[63 − 8c − s]; its bit 8j + i.
            row |= ((A[63 - 8 * c - s] >> (8 * j + i) & 1) as u8) << s;
            s += 1;
        }
        matrix |= (row as u64) << (8 * (7 - i));
        i += 1;
    }
    matrix
}
