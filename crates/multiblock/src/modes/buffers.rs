//! The byte helpers every mode shares: how much work goes to the cipher in
//! one call, and XOR with a keystream.

/// Bytes of independent blocks (keystream, scratch) per cipher call: a
/// multiple of every block size (8 to 64 bytes) that fits L1/L2.
pub(crate) const CHUNK: usize = 8192;

/// From this many bytes on, the XORs run in the widest vector registers
/// (below it, the detection costs more than it saves).
const WIDE: usize = 256;

/// `dst ^= src` over the shorter length.
#[inline]
pub(crate) fn xor_in(dst: &mut [u8], src: &[u8]) {
    let n = dst.len().min(src.len());
    #[cfg(target_arch = "x86_64")]
    if n >= WIDE {
        return wide::xor_to(&mut dst[..n], None, &src[..n]);
    }
    for (d, s) in dst[..n].iter_mut().zip(&src[..n]) {
        *d ^= *s;
    }
}

/// `dst = src ^ ks`, the out-of-place form of [`xor_in`].
#[inline]
pub(crate) fn xor_to(dst: &mut [u8], src: &[u8], ks: &[u8]) {
    let n = dst.len().min(src.len()).min(ks.len());
    #[cfg(target_arch = "x86_64")]
    if n >= WIDE {
        return wide::xor_to(&mut dst[..n], Some(&src[..n]), &ks[..n]);
    }
    for ((d, s), k) in dst[..n].iter_mut().zip(&src[..n]).zip(&ks[..n]) {
        *d = *s ^ *k;
    }
}

/// The XORs in zmm or ymm registers where the CPU has them (the crate is
/// compiled for baseline x86-64, where a byte loop becomes 16-byte SSE2).
#[cfg(target_arch = "x86_64")]
mod wide {
    use crate::simd::{Avx2, Avx512Bw, Job, Machine, Simd, Ymm, Zmm};

    /// `dst = src ^ ks`, or `dst ^= ks` without `src`; equal lengths.
    pub(super) fn xor_to(dst: &mut [u8], src: Option<&[u8]>, ks: &[u8]) {
        if let Some(m) = Zmm::<Avx512Bw>::detect() {
            return m.vectorize(Xor { m, dst, src, ks });
        }
        if let Some(m) = Ymm::<Avx2>::detect() {
            return m.vectorize(Xor { m, dst, src, ks });
        }
        match src {
            Some(src) => dst.iter_mut().zip(src).zip(ks).for_each(|((d, s), k)| *d = *s ^ *k),
            None => dst.iter_mut().zip(ks).for_each(|(d, k)| *d ^= *k),
        }
    }

    struct Xor<'a, M: Simd> {
        m: M,
        dst: &'a mut [u8],
        src: Option<&'a [u8]>,
        ks: &'a [u8],
    }

    impl<M: Simd> Job for Xor<'_, M> {
        type Output = ();

        #[inline(always)]
        fn run(self) {
            let Xor { m, dst, src, ks } = self;
            let whole = dst.len() / M::BYTES * M::BYTES;
            // Two loops rather than a branch per register.
            match src {
                Some(src) => {
                    for at in (0..whole).step_by(M::BYTES) {
                        m.store(m.xor(m.load(&src[at..]), m.load(&ks[at..])), &mut dst[at..]);
                    }
                    for ((d, s), k) in dst[whole..].iter_mut().zip(&src[whole..]).zip(&ks[whole..]) {
                        *d = *s ^ *k;
                    }
                }
                None => {
                    for at in (0..whole).step_by(M::BYTES) {
                        m.store(m.xor(m.load(&dst[at..]), m.load(&ks[at..])), &mut dst[at..]);
                    }
                    for (d, k) in dst[whole..].iter_mut().zip(&ks[whole..]) {
                        *d ^= *k;
                    }
                }
            }
        }
    }

    #[cfg(test)]
    mod tests {
        /// The vector XORs equal the byte loop at lengths around the
        /// threshold and the register width, in place and out of place.
        #[test]
        fn wide_xor_is_the_byte_xor() {
            for n in [0usize, 1, 255, 256, 257, 300, 319, 320, 1000, 4099] {
                let a: Vec<u8> = (0..n).map(|i| (i * 7 + 3) as u8).collect();
                let b: Vec<u8> = (0..n).map(|i| (i * 13 + 11 ^ i >> 8) as u8).collect();
                let want: Vec<u8> = a.iter().zip(&b).map(|(x, y)| x ^ y).collect();
                let mut d = a.clone();
                super::super::xor_in(&mut d, &b);
                assert_eq!(d, want, "xor_in {n}");
                let mut d = vec![0u8; n];
                super::super::xor_to(&mut d, &a, &b);
                assert_eq!(d, want, "xor_to {n}");
            }
        }
    }
}
