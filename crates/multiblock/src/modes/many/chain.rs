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
use crate::error::Result;
use crate::modes::gost::stream::xor_in;
use crate::modes::{self, Mode, Request};
use crate::Family;

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
        return messages.iter().map(|m| modes::encrypt(req, m)).collect();
    };
    // The parameters and the key, checked as for one stream.
    modes::encrypt(req, &[])?;
    let cipher = req.keyed()?;
    let n = cipher.block_bytes();
    let mut out = Vec::with_capacity(messages.len());
    for m in messages {
        let buf = match fb {
            Feedback::Cbc => req.params.padding.pad(m, n),
            _ => m.to_vec(),
        };
        if buf.len() % n != 0 && matches!(fb, Feedback::Cbc) {
            // Not whole blocks even padded: the one-stream error.
            return Err(modes::encrypt(req, m).expect_err("CBC refuses a partial block"));
        }
        out.push(buf);
    }
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
            return Ok(out);
        }
        if let Feedback::Cbc = fb {
            for &i in &live {
                lanes.xor(i, &out[order[i]][off..off + n]);
            }
        }
        lanes.encrypt(&cipher, &live)?;
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
