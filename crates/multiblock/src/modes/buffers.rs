//! The byte helpers every mode shares: how much work goes to the cipher in
//! one call, and XOR with a keystream.

/// Bytes of independent blocks (keystream, scratch) per cipher call: a
/// multiple of every block size (8 to 64 bytes) that fits L1/L2.
pub(crate) const CHUNK: usize = 8192;

/// `dst ^= src` over the shorter length.
#[inline]
pub(crate) fn xor_in(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

/// `dst = src ^ ks`, the out-of-place form of [`xor_in`].
#[inline]
pub(crate) fn xor_to(dst: &mut [u8], src: &[u8], ks: &[u8]) {
    for ((d, s), k) in dst.iter_mut().zip(src).zip(ks) {
        *d = *s ^ *k;
    }
}
