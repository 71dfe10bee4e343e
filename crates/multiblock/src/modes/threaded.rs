//! One-shot calls on threads, in memory: MGM splits its text, the modes
//! that stream run through [`CipherStream`] with threads, the rest one-shot.
//! Outside the stable API ([`crate::hazmat::modes`]): the stable way is
//! [`CipherStream::threads`] or [`AeadStream::threads`](super::aead_stream::AeadStream::threads).

use super::gost::mgm;
use super::stream::{streams, CipherStream};
use super::{Mode, Request};
use crate::Result;

/// One-shot encryption on up to `threads` threads (0: every core): MGM
/// splits its text (`mgm::seal_threads`), the streaming modes run
/// through [`CipherStream`], GCM, CCM and KW as [`encrypt`](crate::modes::encrypt). The
/// bytes are those of [`encrypt`](crate::modes::encrypt) for every count.
pub fn encrypt_threads(req: &Request<'_>, data: &[u8], threads: usize) -> Result<Vec<u8>> {
    one_shot(req, data, true, threads)
}

/// One-shot decryption on up to `threads` threads, as [`encrypt_threads`]
/// (MGM checks the tag over the whole ciphertext before decrypting).
pub fn decrypt_threads(req: &Request<'_>, data: &[u8], threads: usize) -> Result<Vec<u8>> {
    one_shot(req, data, false, threads)
}

fn one_shot(req: &Request<'_>, data: &[u8], encrypt: bool, threads: usize) -> Result<Vec<u8>> {
    if req.mode == Mode::Mgm && Mode::parse(req.cipher, req.mode.name()).is_ok() {
        return if encrypt { mgm::seal_threads(req, data, threads) } else { mgm::open_threads(req, data, threads) };
    }
    if !streams(req.mode) {
        return if encrypt { super::encrypt(req, data) } else { super::decrypt(req, data) };
    }
    let s = if encrypt { CipherStream::encryptor(req)? } else { CipherStream::decryptor(req)? };
    let mut s = s.threads(threads)?;
    let mut out = super::alloc::copy_with_room(&[], data.len().saturating_add(64))?;
    s.update(data, &mut out)?;
    s.finalize(&mut out)?;
    Ok(out)
}

