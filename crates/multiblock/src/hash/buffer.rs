//! The message bytes a hasher holds back: a block-wise hash compresses
//! every whole block but the last as the pieces come, and keeps the
//! message's last 1 to `block` bytes for finalizing, which runs them with
//! the padding and the rest in one kernel call.

/// Takes the next piece `data` of a message: fills `buf` (of which the
/// first `*buffered` bytes are held), hands every whole block that more
/// bytes follow to `compress` (the held block first, then whole blocks of
/// `data` in place, as one slice), and holds what is left: 1 to `block`
/// bytes once the message is not empty. Branches on lengths only.
pub(crate) fn absorb(buf: &mut [u8], buffered: &mut usize, block: usize, mut data: &[u8], mut compress: impl FnMut(&[u8])) {
    if data.is_empty() {
        return;
    }
    if *buffered > 0 {
        let take = data.len().min(block - *buffered);
        buf[*buffered..*buffered + take].copy_from_slice(&data[..take]);
        *buffered += take;
        data = &data[take..];
        if data.is_empty() {
            return;
        }
        compress(&buf[..block]);
        *buffered = 0;
    }
    let keep = (data.len() - 1) % block + 1;
    let whole = data.len() - keep;
    if whole > 0 {
        compress(&data[..whole]);
    }
    buf[..keep].copy_from_slice(&data[whole..]);
    *buffered = keep;
}

#[cfg(test)]
mod tests {
    use super::absorb;

    /// Every split of a message into two pieces: the compressed blocks
    /// and the held bytes together are the message, the held part is 1 to
    /// `block` bytes, and only whole blocks are compressed.
    #[test]
    fn holds_the_last_one_to_block_bytes() {
        let block = 8;
        for len in 0..=3 * block + 1 {
            let msg: Vec<u8> = (0..len as u8).collect();
            for cut in 0..=len {
                let (mut buf, mut buffered, mut seen) = ([0u8; 8], 0, Vec::new());
                for piece in [&msg[..cut], &msg[cut..]] {
                    absorb(&mut buf, &mut buffered, block, piece, |b| {
                        assert_eq!(b.len() % block, 0, "{len} bytes cut at {cut}: a partial block compressed");
                        seen.extend_from_slice(b);
                    });
                }
                assert_eq!(buffered, if len == 0 { 0 } else { (len - 1) % block + 1 }, "{len} bytes cut at {cut}");
                seen.extend_from_slice(&buf[..buffered]);
                assert_eq!(seen, msg, "{len} bytes cut at {cut}");
            }
        }
    }
}
