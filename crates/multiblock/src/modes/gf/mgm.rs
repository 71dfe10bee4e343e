//! The fields of MGM (R 1323565.1.026-2019, RFC 9058 §4.1): GF(2^128)
//! modulo x^128 + x^7 + x^2 + x + 1 (Kuznyechik) and GF(2^64) modulo
//! x^64 + x^4 + x^3 + x + 1 (Magma). A block is the polynomial whose
//! coefficient of x^i is bit i of the block read as a big-endian integer,
//! so carry-less multiplication needs no bit reflection.
//!
//! MGM's tag is a plain sum Σ H_i ⊗ X_i (no Horner chain), so products are
//! summed unreduced ([`Acc`]) and reduced once per message.

use super::portable::{clmul128, clmul64};

pub(crate) use super::Acc;

/// `acc ^= Σ h_i ⊗ x_i` over the n-byte blocks of `h` and `x` (n = 8 or 16).
pub(crate) fn mul_acc(n: usize, acc: &mut Acc, h: &[u8], x: &[u8]) {
    debug_assert!(h.len() == x.len() && h.len().is_multiple_of(n));
    #[cfg(target_arch = "x86_64")]
    {
        use crate::simd::{Machine, Pclmul, Xmm};
        if let Some(m) = Xmm::<Pclmul>::detect() {
            return super::clmul::mgm_mul_acc(m, n, acc, h, x);
        }
    }
    mul_acc_portable(n, acc, h, x);
}

/// [`mul_acc`] without PCLMULQDQ.
pub(crate) fn mul_acc_portable(n: usize, acc: &mut Acc, h: &[u8], x: &[u8]) {
    for (hb, xb) in h.chunks_exact(n).zip(x.chunks_exact(n)) {
        if n == 16 {
            let (hi, lo) = clmul128(be128(hb), be128(xb));
            acc.hi ^= hi;
            acc.lo ^= lo;
        } else {
            acc.lo ^= clmul64(be64(hb), be64(xb));
        }
    }
}

/// The reduced sum as an n-byte big-endian block.
pub(crate) fn reduce(n: usize, acc: &Acc) -> Vec<u8> {
    if n == 16 {
        reduce128(acc.hi, acc.lo).to_be_bytes().to_vec()
    } else {
        reduce64((acc.lo >> 64) as u64, acc.lo as u64).to_be_bytes().to_vec()
    }
}

/// hi·x^128 + lo mod x^128 + x^7 + x^2 + x + 1 (x^128 ≡ x^7 + x^2 + x + 1).
pub(crate) fn reduce128(hi: u128, lo: u128) -> u128 {
    let over = (hi >> 127) ^ (hi >> 126) ^ (hi >> 121);
    let fold = |v: u128| v ^ (v << 1) ^ (v << 2) ^ (v << 7);
    lo ^ fold(hi) ^ fold(over)
}

/// hi·x^64 + lo mod x^64 + x^4 + x^3 + x + 1 (x^64 ≡ x^4 + x^3 + x + 1).
pub(crate) fn reduce64(hi: u64, lo: u64) -> u64 {
    let over = (hi >> 63) ^ (hi >> 61) ^ (hi >> 60);
    let fold = |v: u64| v ^ (v << 1) ^ (v << 3) ^ (v << 4);
    lo ^ fold(hi) ^ fold(over)
}

fn be128(b: &[u8]) -> u128 {
    u128::from_be_bytes(b.try_into().expect("16-byte block"))
}

fn be64(b: &[u8]) -> u64 {
    u64::from_be_bytes(b.try_into().expect("8-byte block"))
}

#[cfg(test)]
mod tests {
    use super::super::portable::tests::slow;
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn reduction_is_the_field_polynomial() {
        // x^127 · x = x^128 ≡ x^7 + x^2 + x + 1; x^63 · x ≡ x^4 + x^3 + x + 1.
        let (hi, lo) = clmul128(1 << 127, 2);
        assert_eq!(reduce128(hi, lo), 0x87);
        let p = clmul64(1 << 63, 2);
        assert_eq!(reduce64((p >> 64) as u64, p as u64), 0x1b);
        // The largest product folds twice and stays in the field.
        let (hi, lo) = clmul128(u128::MAX, u128::MAX);
        let r = reduce128(hi, lo);
        // Check a·b = r by reducing bit by bit.
        let mut v = (hi, lo);
        for i in (0..128).rev() {
            if (v.0 >> i) & 1 == 1 {
                v.0 ^= 1 << i;
                let (h2, l2) = slow(0x87, 1 << i);
                v.0 ^= h2;
                v.1 ^= l2;
            }
        }
        assert_eq!(r, v.1);
    }

    /// `mul_acc` (PCLMULQDQ where the CPU has it) and the clmul kernel on
    /// the emulator, against the portable sums.
    #[test]
    fn pclmulqdq_matches_portable() {
        let mut rng = Rng(99);
        for n in [8usize, 16] {
            for blocks in 0..40 {
                let h = rng.bytes(n * blocks);
                let x = rng.bytes(n * blocks);
                let start = Acc { hi: u128::from(rng.next()) << 64 | 5, lo: u128::from(rng.next()) };
                let start = if n == 8 { Acc { hi: 0, ..start } } else { start };
                let (mut a, mut b, mut e) = (start, start, start);
                mul_acc(n, &mut a, &h, &x);
                mul_acc_portable(n, &mut b, &h, &x);
                super::super::clmul::mgm_mul_acc(crate::simd::emu::Emu::<16>, n, &mut e, &h, &x);
                assert_eq!(a, b, "n={n} blocks={blocks}");
                assert_eq!(e, b, "emulated, n={n} blocks={blocks}");
            }
        }
    }
}
