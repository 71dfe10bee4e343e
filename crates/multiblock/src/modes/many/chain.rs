//! CBC, CFB and OFB encryption of many messages at once, where the
//! register is one block (GOST R 34.13-2015 with m = n and s = n, GOST
//! 28147-89 CFB without key meshing, DSTU 7624:2014 CBC and OFB, its CFB
//! with s = n, uBlock CBC). Step i of every live stream computes
//! E_K of its register in one wide call:
//!
//! - CBC: R ← E_K(R ⊕ P_i), C_i = R;
//! - CFB: G = E_K(R), C_i = P_i ⊕ G, R ← C_i; a short last piece takes the
//!   leading bytes of G (GOST) or its trailing bytes (DSTU 7624);
//! - OFB: R ← E_K(R), C_i = P_i ⊕ R (a short last piece: leading bytes).

use super::lanes::{xor_block, Lanes};
use crate::error::{Error, Result};
use crate::modes::gost::stream::xor_in;
use crate::modes::{self, Mode, Request};
use crate::modes::gost::{Cfb as GostCfb, Ofb as GostOfb};
use crate::{Cipher, Direction, Family};

/// The wide form of a request's mode.
#[derive(Clone, Copy)]
enum Feedback {
    Cbc,
    /// `trailing`: a short last piece uses the trailing bytes of G (DSTU).
    Cfb {
        trailing: bool,
    },
    Ofb,
}

/// The wide form of `req`, or `None` where the register is more than one
/// block or the segments are shorter (z chains, s < n, key meshing): those
/// run one stream at a time.
fn feedback(req: &Request<'_>) -> Option<Feedback> {
    let n = req.cipher.block_bytes();
    let p = &req.params;
    let one_block = p.iv.as_ref().is_some_and(|iv| iv.len() == n) && p.m.is_none_or(|m| m == 8 * n);
    let whole_segments = p.s.is_none_or(|s| s == 8 * n);
    let dstu = matches!(req.cipher.family(), Family::Kalyna | Family::Ublock);
    match req.mode {
        Mode::Cbc if one_block => Some(Feedback::Cbc),
        Mode::Cfb if one_block && whole_segments && !p.key_meshing => Some(Feedback::Cfb { trailing: dstu }),
        Mode::Ofb if one_block && whole_segments => Some(Feedback::Ofb),
        _ => None,
    }
}

/// Encrypts every message of `messages` as [`modes::encrypt`] would.
pub(crate) fn encrypt(req: &Request<'_>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    let Some(fb) = feedback(req) else {
        return super::each::encrypt_each(req, messages);
    };
    let cipher = keyed(req, fb)?;
    let lens = ciphertext_lens(req, fb, messages)?;
    let mut out: Vec<Vec<u8>> = messages
        .iter()
        .zip(&lens)
        .map(|(m, &len)| {
            let mut c = vec![0; len];
            prepare(req, fb, m, &mut c);
            c
        })
        .collect();
    let mut slots: Vec<&mut [u8]> = out.iter_mut().map(Vec::as_mut_slice).collect();
    run(&cipher, req, fb, &mut slots)?;
    Ok(out)
}

/// [`encrypt`] into `out`, the ciphertexts back to back: no buffer of
/// its own per message.
pub(crate) fn encrypt_to(req: &Request<'_>, messages: &[&[u8]], out: &mut [u8]) -> Result<Fit> {
    let Some(fb) = feedback(req) else {
        let each = super::each::encrypt_each(req, messages)?;
        let lens: Vec<usize> = each.iter().map(Vec::len).collect();
        let Some(slots) = carve(out, &lens) else { return Ok(Fit::TooSmall { needed: lens.iter().sum() }) };
        for (slot, c) in slots.into_iter().zip(&each) {
            slot.copy_from_slice(c);
        }
        return Ok(Fit::Written(lens));
    };
    let cipher = keyed(req, fb)?;
    let lens = ciphertext_lens(req, fb, messages)?;
    let Some(mut slots) = carve(out, &lens) else { return Ok(Fit::TooSmall { needed: lens.iter().sum() }) };
    for (slot, m) in slots.iter_mut().zip(messages) {
        prepare(req, fb, m, slot);
    }
    if let Err(e) = run(&cipher, req, fb, &mut slots) {
        // Leave no plaintext behind in the caller's buffer.
        slots.iter_mut().for_each(|s| s.fill(0));
        return Err(e);
    }
    Ok(Fit::Written(lens))
}

/// [`encrypt`] where the messages are, each ciphertext over its message:
/// only where every ciphertext is as long as its message.
pub(crate) fn encrypt_in_place(req: &Request<'_>, messages: &mut [&mut [u8]]) -> Result<()> {
    let same_length = |len: usize, got: usize| match len == got {
        true => Ok(()),
        false => Err(Error::Param(format!(
            "{} {} makes a {len}-byte message {got} bytes: in place needs ciphertexts as long as the messages",
            req.cipher, req.mode
        ))),
    };
    let Some(fb) = feedback(req) else {
        let refs: Vec<&[u8]> = messages.iter().map(|m| &m[..]).collect();
        let each = super::each::encrypt_each(req, &refs)?;
        for (m, c) in messages.iter().zip(&each) {
            same_length(m.len(), c.len())?;
        }
        for (m, c) in messages.iter_mut().zip(&each) {
            m.copy_from_slice(c);
        }
        return Ok(());
    };
    let cipher = keyed(req, fb)?;
    let refs: Vec<&[u8]> = messages.iter().map(|m| &m[..]).collect();
    let lens = ciphertext_lens(req, fb, &refs)?;
    for (m, &len) in messages.iter().zip(&lens) {
        same_length(m.len(), len)?;
    }
    run(&cipher, req, fb, messages)
}

/// `out` cut into consecutive slices of `lens` bytes, or `None` if it is
/// shorter than their sum.
fn carve<'a>(out: &'a mut [u8], lens: &[usize]) -> Option<Vec<&'a mut [u8]>> {
    let needed = lens.iter().try_fold(0usize, |sum, &l| sum.checked_add(l))?;
    let mut rest = out.get_mut(..needed)?;
    let mut slots = Vec::with_capacity(lens.len());
    for &len in lens {
        let (slot, tail) = std::mem::take(&mut rest).split_at_mut(len);
        slots.push(slot);
        rest = tail;
    }
    Some(slots)
}

/// Each message's ciphertext length, after the checks one stream makes of
/// the parameters, the key and (CBC) the padded length.
/// The request checked as its one-message encryption checks it, and its
/// cipher keyed (once, for every message).
fn keyed(req: &Request<'_>, fb: Feedback) -> Result<Cipher> {
    let gost = matches!(req.cipher.family(), Family::Kuznyechik | Family::Magma | Family::Gost89);
    Ok(match (fb, gost) {
        (Feedback::Cbc, _) => modes::parallel::Cbc::new(req, true)?.into_cipher(),
        (Feedback::Cfb { .. }, true) => GostCfb::new(req, Direction::Encrypt)?.into_cipher(),
        (Feedback::Cfb { .. }, false) => modes::dstu::cfb::keyed(req)?.0,
        (Feedback::Ofb, true) => GostOfb::new(req)?.into_cipher(),
        (Feedback::Ofb, false) => modes::dstu::util::keyed_with_iv(req, false, &["iv"])?.0,
    })
}

fn ciphertext_lens(req: &Request<'_>, fb: Feedback, messages: &[&[u8]]) -> Result<Vec<usize>> {
    let n = req.cipher.block_bytes();
    messages
        .iter()
        .map(|m| match fb {
            Feedback::Cbc => {
                let len = req.params.padding.padded_len(m.len(), n);
                if !len.is_multiple_of(n) {
                    // Not whole blocks even padded: the one-stream error.
                    return Err(modes::encrypt(req, m).expect_err("CBC refuses a partial block"));
                }
                Ok(len)
            }
            Feedback::Cfb { .. } | Feedback::Ofb => Ok(m.len()),
        })
        .collect()
}

/// The plaintext of `m` as the chain reads it in `slot` (CBC: padded).
fn prepare(req: &Request<'_>, fb: Feedback, m: &[u8], slot: &mut [u8]) {
    match fb {
        Feedback::Cbc => req.params.padding.pad_into(m, req.cipher.block_bytes(), slot),
        Feedback::Cfb { .. } | Feedback::Ofb => slot.copy_from_slice(m),
    }
}

/// Runs the chains of every message in `out` (each prepared), in place.
fn run(cipher: &Cipher, req: &Request<'_>, fb: Feedback, out: &mut [&mut [u8]]) -> Result<()> {
    let n = cipher.block_bytes();
    let iv = req.params.iv.as_deref().expect("feedback() saw the IV");
    // Lane i holds message order[i], longest first: the live lanes are
    // always a prefix, encrypted in place with no gathering.
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(out[i].len()));
    let mut lanes = Lanes::new(n, out.len(), iv);
    let mut live: Vec<usize> = (0..out.len()).collect();
    let mut off = 0;
    loop {
        // Every stream is at the same offset: the ones still longer are live.
        while live.last().is_some_and(|&i| out[order[i]].len() <= off) {
            live.pop();
        }
        if live.is_empty() {
            return Ok(());
        }
        if let Feedback::Cbc = fb {
            for &i in &live {
                lanes.xor(i, &out[order[i]][off..off + n]);
            }
        }
        lanes.encrypt(cipher, &live)?;
        for &i in &live {
            let msg = &mut out[order[i]];
            let take = n.min(msg.len() - off);
            let piece = &mut msg[off..off + take];
            match fb {
                Feedback::Cbc => piece.copy_from_slice(lanes.reg(i)),
                Feedback::Ofb if take == n => xor_block(piece, lanes.reg(i)),
                Feedback::Ofb => xor_in(piece, lanes.reg(i)),
                Feedback::Cfb { trailing } => {
                    let g = lanes.reg(i);
                    if take == n {
                        xor_block(piece, g);
                    } else {
                        xor_in(piece, if trailing { &g[n - take..] } else { &g[..take] });
                    }
                    lanes.reg_mut(i)[..take].copy_from_slice(piece);
                }
            }
        }
        off += n;
    }
}

/// What [`encrypt_many_to`](super::encrypt_many_to) did with the caller's buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fit {
    /// The ciphertexts fill the buffer's start: their lengths, in message order.
    Written(Vec<usize>),
    /// The buffer is shorter than the ciphertexts and nothing was written:
    /// `needed` bytes would do.
    TooSmall {
        /// The ciphertexts' total length.
        needed: usize,
    },
}
