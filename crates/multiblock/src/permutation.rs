//! Permutations of byte values or positions, inverted at compile time
//! (Kuznyechik's π⁻¹ from π, the uBlock and Magma shuffle indices).

/// The inverse of `p`, which must be a permutation of 0..N (N ≤ 256).
pub(crate) const fn inverse<const N: usize>(p: &[u8; N]) -> [u8; N] {
    let mut inv = [0u8; N];
    let mut i = 0;
    while i < N {
        inv[p[i] as usize] = i as u8;
        i += 1;
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::inverse;

    #[test]
    fn inverse_undoes_a_permutation() {
        let p: [u8; 16] = [3, 0, 15, 7, 1, 14, 2, 9, 4, 13, 5, 8, 6, 12, 10, 11];
        let q = inverse(&p);
        for i in 0..16 {
            assert_eq!(usize::from(q[usize::from(p[i])]), i);
            assert_eq!(usize::from(p[usize::from(q[i])]), i);
        }
    }
}
