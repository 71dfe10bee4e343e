//! The fields of MGM (RFC 9058 §4.1): GF(2^128) modulo
//! x^128 + x^7 + x^2 + x + 1 (Kuznyechik) and GF(2^64) modulo
//! x^64 + x^4 + x^3 + x + 1 (Magma). A block is the polynomial whose
//! coefficient of x^i is bit i of the block read as a big-endian integer,
//! so carry-less multiplication needs no bit reflection.
//!
//! MGM's tag is a plain sum Σ H_i ⊗ X_i (no Horner chain), so products are
//! summed unreduced ([`Acc`]) and reduced once per message. The products
//! come from PCLMULQDQ (`gf_clmul.rs`) when the CPU has it, else from a
//! constant-time portable multiply (integer multiplications on bits spread
//! four apart, so no carry reaches a bit that is kept).

/// An unreduced sum of products: 2n bits as (hi, lo); for n = 64 only the
/// low 128 bits are used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Acc {
    pub(crate) hi: u128,
    pub(crate) lo: u128,
}

/// `acc ^= Σ h_i ⊗ x_i` over the n-byte blocks of `h` and `x` (n = 8 or 16).
pub(crate) fn mul_acc(n: usize, acc: &mut Acc, h: &[u8], x: &[u8]) {
    debug_assert!(h.len() == x.len() && h.len() % n == 0);
    #[cfg(target_arch = "x86_64")]
    if clmul_available() {
        // SAFETY: PCLMULQDQ and SSE2 were detected at run time.
        unsafe {
            match n {
                16 => super::gf_clmul::mul_acc128(acc, h, x),
                _ => super::gf_clmul::mul_acc64(acc, h, x),
            }
        }
        return;
    }
    mul_acc_portable(n, acc, h, x);
}

#[cfg(target_arch = "x86_64")]
pub(crate) fn clmul_available() -> bool {
    let f = crate::cpu::CpuFeatures::get();
    f.pclmulqdq && f.sse2
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

/// Carry-less 32×32 → 64 bits in constant time: the bits of each operand
/// are split into four classes (positions ≡ 0, 1, 2, 3 mod 4); a class of a
/// product collects at most 8 one-bit terms per position, so the integer
/// sum never carries into the next bit of the same class.
fn clmul32(x: u32, y: u32) -> u64 {
    const M: [u64; 4] = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];
    let (x, y) = (u64::from(x), u64::from(y));
    let xs = [x & M[0], x & M[1], x & M[2], x & M[3]];
    let ys = [y & M[0], y & M[1], y & M[2], y & M[3]];
    let mut z = 0u64;
    for c in 0..4 {
        let mut t = 0u64;
        for i in 0..4 {
            t ^= xs[i].wrapping_mul(ys[(c + 4 - i) % 4]);
        }
        z |= t & (M[c] | M[c] << 32);
    }
    z
}

/// Carry-less 64×64 → 128 bits (Karatsuba over [`clmul32`]).
pub(crate) fn clmul64(x: u64, y: u64) -> u128 {
    let (x0, x1, y0, y1) = (x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32);
    let lo = clmul32(x0, y0);
    let hi = clmul32(x1, y1);
    let mid = clmul32(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    (u128::from(hi) << 64) ^ (u128::from(mid) << 32) ^ u128::from(lo)
}

/// Carry-less 128×128 → 256 bits as (hi, lo) (Karatsuba over [`clmul64`]).
pub(crate) fn clmul128(x: u128, y: u128) -> (u128, u128) {
    let (x0, x1, y0, y1) = (x as u64, (x >> 64) as u64, y as u64, (y >> 64) as u64);
    let lo = clmul64(x0, y0);
    let hi = clmul64(x1, y1);
    let mid = clmul64(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    (hi ^ (mid >> 64), lo ^ (mid << 64))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Schoolbook carry-less multiplication, bit by bit (test oracle only).
    fn slow(x: u128, y: u128) -> (u128, u128) {
        let (mut hi, mut lo) = (0u128, 0u128);
        for i in 0..128 {
            if (y >> i) & 1 == 1 {
                lo ^= x << i;
                if i > 0 {
                    hi ^= x >> (128 - i);
                }
            }
        }
        (hi, lo)
    }

    fn rng(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn portable_multiplication_matches_schoolbook() {
        let mut s = 0x1234_5678_9abc_def1;
        for _ in 0..2000 {
            let x = (u128::from(rng(&mut s)) << 64) | u128::from(rng(&mut s));
            let y = (u128::from(rng(&mut s)) << 64) | u128::from(rng(&mut s));
            assert_eq!(clmul128(x, y), slow(x, y));
            assert_eq!(clmul64(x as u64, y as u64), slow(x as u64 as u128, y as u64 as u128).1);
        }
        assert_eq!(clmul128(u128::MAX, u128::MAX), slow(u128::MAX, u128::MAX));
    }

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

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pclmulqdq_matches_portable() {
        if !clmul_available() {
            return;
        }
        let mut s = 99;
        for n in [8usize, 16] {
            for blocks in 0..40 {
                let h: Vec<u8> = (0..n * blocks).map(|_| rng(&mut s) as u8).collect();
                let x: Vec<u8> = (0..n * blocks).map(|_| rng(&mut s) as u8).collect();
                let (mut a, mut b) = (Acc::default(), Acc::default());
                mul_acc(n, &mut a, &h, &x);
                mul_acc_portable(n, &mut b, &h, &x);
                assert_eq!(a, b, "n={n} blocks={blocks}");
            }
        }
    }
}
