//! The modes without a wide form whose messages share everything but the
//! text, keyed once for all of them: ECB, the keystream modes (CTR,
//! CTR-ACPKM, CNT: every message is XORed with the same keystream, made
//! once for the longest) and XTS (each message from the same first tweak).
//! The other modes encrypt one message after the other.

use crate::error::Result;
use crate::modes::oneshot::{ecb_encrypt, ecb_params};
use crate::modes::{self, dstu, gost, Mode, Request};
use crate::Family;
use zeroize::Zeroizing;

/// Every message encrypted as [`modes::encrypt`] would.
pub(super) fn encrypt_each(req: &Request<'_>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    match req.mode {
        Mode::Ecb => ecb(req, messages),
        Mode::Ctr | Mode::CtrAcpkm | Mode::Cnt => keystream(req, messages),
        Mode::Xts if req.cipher.family() == Family::Kuznyechik => gost::xts::encrypt_each(req, messages),
        Mode::Xts => dstu::xts_encrypt_each(req, messages),
        _ => messages.iter().map(|m| modes::encrypt(req, m)).collect(),
    }
}

fn ecb(req: &Request<'_>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    ecb_params(req)?;
    let cipher = req.keyed()?;
    messages.iter().map(|m| ecb_encrypt(req, &cipher, m)).collect()
}

/// The keystream is the encryption of zeros, as long as the longest message.
fn keystream(req: &Request<'_>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    let longest = messages.iter().map(|m| m.len()).max().unwrap_or(0);
    let gamma = Zeroizing::new(modes::encrypt(req, &vec![0; longest])?);
    Ok(messages.iter().map(|m| m.iter().zip(gamma.iter()).map(|(p, g)| p ^ g).collect()).collect())
}
