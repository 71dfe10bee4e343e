//! Key wrap (DSTU 7624:2014 §15; Bouncy Castle's DSTU7624WrapEngine).
//!
//! Wrap r ≥ 1 whole n-byte blocks, h = n/2: append one all-zero block
//! (the integrity check), split into 2(r+1) half blocks B ‖ b_1..b_{2r+1},
//! then for i = 1..v, v = 6(2r+1):
//!   X = E_K(B ‖ b_1); B = X[h..] ⊕ i (as 4 little-endian bytes at the
//!   start of the half); b_1..b_{2r+1} ← b_2..b_{2r+1} ‖ X[..h].
//! The output is B ‖ b_1..b_{2r+1}: one block longer than the input.
//! Unwrap runs the steps backwards with D_K and checks, in constant time,
//! that the last block came back all zero ([`Error::Authentication`]
//! otherwise, and nothing is released).
//!
//! The counter i is 4 little-endian bytes as in Bouncy Castle (checked
//! against Bouncy Castle 1.72 up to 40 blocks, v = 486); UAPKI XORs only
//! its low byte, so the two agree only while v ≤ 255, i.e. up to 20 blocks.
//! Data that is not whole blocks must be padded first (the standard's
//! §15.4 "M ‖ length ‖ Б.2" form is what the with-padding vectors hold).
//! Every step needs the previous one, so KW is sequential (and one-shot:
//! every output byte depends on every input byte); the half-block queue is
//! a ring, so each step is one block operation and no shifting.

use super::util::{check_family, decrypt_one, encrypt_one, only, who};
use crate::error::{Error, Result};
use crate::modes::Request;
use crate::Cipher;
use zeroize::Zeroize;

/// DSTU key wrap (Kalyna), one-shot; takes no parameters.
pub struct KalynaKw {
    cipher: Cipher,
    who: String,
}

impl KalynaKw {
    pub fn new(req: &Request<'_>) -> Result<KalynaKw> {
        check_family(req, false)?;
        only(req, &[])?;
        Ok(KalynaKw { cipher: req.keyed()?, who: who(req) })
    }

    /// v = 6(2r+1) steps for r data blocks, if the counter fits 32 bits.
    fn steps(&self, data_blocks: usize) -> Result<u32> {
        data_blocks
            .checked_mul(2)
            .and_then(|x| x.checked_add(1))
            .and_then(|x| x.checked_mul(6))
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| Error::Param(format!("{}: {data_blocks} blocks is too long to wrap", self.who)))
    }

    /// Wraps whole blocks (at least one); the result is one block longer.
    pub fn wrap(&self, data: &[u8]) -> Result<Vec<u8>> {
        let n = self.cipher.block_bytes();
        if data.is_empty() || data.len() % n != 0 {
            return Err(Error::Param(format!(
                "{} wraps whole {n}-byte blocks, at least one (DSTU 7624 §15.1); got {} bytes (§15.4's padded form is not implemented: pad the data first)",
                self.who,
                data.len()
            )));
        }
        let v = self.steps(data.len() / n)?;
        let h = n / 2;
        let mut big_b = data[..h].to_vec();
        // The ring of half blocks b_1..b_{2r+1}; `head` is b_1.
        let mut ring = data[h..].to_vec();
        ring.resize(data.len() - h + n, 0);
        let slots = ring.len() / h;
        let mut head = 0;
        let mut x = vec![0u8; n];
        for i in 1..=v {
            x[..h].copy_from_slice(&big_b);
            x[h..].copy_from_slice(&ring[head * h..(head + 1) * h]);
            encrypt_one(&self.cipher, &mut x);
            big_b.copy_from_slice(&x[h..]);
            for (b, c) in big_b.iter_mut().zip(i.to_le_bytes()) {
                *b ^= c;
            }
            // Pop b_1, push X[..h]: the same slot, then the ring turns.
            ring[head * h..(head + 1) * h].copy_from_slice(&x[..h]);
            head = (head + 1) % slots;
        }
        let mut out = big_b.clone();
        out.extend_from_slice(&ring[head * h..]);
        out.extend_from_slice(&ring[..head * h]);
        x.zeroize();
        big_b.zeroize();
        ring.zeroize();
        Ok(out)
    }

    /// Unwraps; [`Error::Authentication`] if the check block is not zero.
    pub fn unwrap(&self, data: &[u8]) -> Result<Vec<u8>> {
        let n = self.cipher.block_bytes();
        if data.len() < 2 * n || data.len() % n != 0 {
            return Err(Error::Param(format!(
                "{} unwraps whole {n}-byte blocks, at least two; got {} bytes",
                self.who,
                data.len()
            )));
        }
        let v = self.steps(data.len() / n - 1)?;
        let h = n / 2;
        let mut big_b = data[..h].to_vec();
        let mut ring = data[h..].to_vec();
        let slots = ring.len() / h;
        // b_1 is at `head`; the last half block b_{2r+1} just before it.
        let mut head = 0;
        let mut x = vec![0u8; n];
        for i in (1..=v).rev() {
            let last = (head + slots - 1) % slots;
            x[..h].copy_from_slice(&ring[last * h..(last + 1) * h]);
            x[h..].copy_from_slice(&big_b);
            for (b, c) in x[h..].iter_mut().zip(i.to_le_bytes()) {
                *b ^= c;
            }
            decrypt_one(&self.cipher, &mut x);
            big_b.copy_from_slice(&x[..h]);
            // Pop the last half block, push X[h..] in front: the same slot.
            ring[last * h..(last + 1) * h].copy_from_slice(&x[h..]);
            head = last;
        }
        let mut out = big_b.clone();
        out.extend_from_slice(&ring[head * h..]);
        out.extend_from_slice(&ring[..head * h]);
        x.zeroize();
        big_b.zeroize();
        ring.zeroize();
        let body = out.len() - n;
        if let Err(e) = crate::modes::tag::verify(&out[body..], &vec![0u8; n]) {
            out.zeroize();
            return Err(e);
        }
        out.truncate(body);
        Ok(out)
    }
}
