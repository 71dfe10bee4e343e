//! The Russian modes of operation, all on top of the multi-block ECB of
//! [`Cipher`](crate::Cipher):
//!
//! - GOST R 34.13-2015 for Kuznyechik (n = 128) and Magma (n = 64):
//!   CTR, OFB, CBC, CFB and MAC ([`gost3413`], [`cmac`]), with the standard's
//!   m = z·n register (z interleaved chains) and s-bit segments;
//! - RFC 8645 (R 1323565.1.017-2018): CTR-ACPKM and OMAC-ACPKM ([`acpkm`]);
//! - RFC 9058 (R 1323565.1.026-2019): MGM ([`mgm`], GF multiplication in
//!   `modes/gf`);
//! - IEEE Std 1619-2007 XTS for Kuznyechik, with VeraCrypt's data units
//!   ([`xts`]);
//! - GOST 28147-89 / RFC 5830 for `gost89`: CNT ("gamma" with C1/C2), CFB and
//!   the MAC "imitovstavka", with RFC 4357 §2.3 CryptoPro key meshing
//!   ([`gost28147`]).
//!
//! Every mode pushes as many blocks per
//! [`Cipher::encrypt_blocks`](crate::Cipher::encrypt_blocks) call as the
//! standard allows (8 KiB, `CHUNK_BYTES`, where the blocks are independent), so
//! CTR, CTR-ACPKM, MGM, CNT, CBC/CFB decryption run near ECB speed.
//!
//! Streaming: [`Ctr`] (CTR and CTR-ACPKM), [`Ofb`], [`Cfb`] (also gost89 CFB),
//! [`Cnt`] work in place on any split of the data; [`Cbc`] buffers partial
//! blocks; [`Cmac`], [`OmacAcpkm`] and [`Imit`] take the message in pieces.
//! MGM is one-shot here ([`mgm::seal`], [`mgm::open`]) and streams through
//! [`AeadStream`](crate::modes::aead_stream::AeadStream), whose decryption
//! releases plaintext before the tag is checked (the caller holds it back).

pub mod acpkm;
pub mod cmac;
pub mod gost28147;
pub mod gost3413;
pub mod mgm;
pub(crate) mod params;
pub(crate) mod rekey;
pub(crate) mod stream;
pub mod xts;
mod xts_tweaks;
#[cfg(test)]
mod tests;

pub use acpkm::OmacAcpkm;
pub use cmac::Cmac;
pub use gost28147::{Cnt, Imit};
pub use gost3413::{Cbc, Cfb, Ctr, Ofb};
pub use xts::KuznyechikXts;

use super::{Mode, Request};
use crate::error::{Error, Result};
use crate::Family;

use crate::Direction;

/// One-shot encryption or decryption of `data` in `req.mode`.
pub(crate) fn crypt(req: &Request<'_>, data: &[u8], dir: Direction) -> Result<Vec<u8>> {
    let gost89 = req.cipher.family() == Family::Gost89;
    match req.mode {
        Mode::Ctr | Mode::CtrAcpkm => Ctr::new(req)?.oneshot(data),
        Mode::Ofb => Ofb::new(req)?.oneshot(data),
        Mode::Cfb => {
            let mut cfb = Cfb::new(req, dir)?;
            let mut out = data.to_vec();
            cfb.update(&mut out)?;
            cfb.finalize();
            Ok(out)
        }
        Mode::Cnt if gost89 => Cnt::new(req)?.oneshot(data),
        Mode::Cbc => {
            let mut cbc = Cbc::new(req, dir)?;
            let mut out = cbc.update(data)?;
            out.extend_from_slice(&cbc.finalize()?);
            Ok(out)
        }
        Mode::Xts => xts::crypt(req, data, dir == Direction::Encrypt),
        Mode::Mgm => match dir {
            Direction::Encrypt => mgm::seal(req, data),
            Direction::Decrypt => mgm::open(req, data),
        },
        _ => Err(unsupported(req)),
    }
}

pub(crate) fn mac(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    match (req.mode, req.cipher.family()) {
        (Mode::Mac, Family::Gost89) => {
            let mut m = Imit::new(req)?;
            m.update(data)?;
            m.finalize()
        }
        (Mode::Mac, _) => {
            let mut m = Cmac::new(req)?;
            m.update(data)?;
            m.finalize()
        }
        (Mode::OmacAcpkm, _) => {
            let mut m = OmacAcpkm::new(req)?;
            m.update(data)?;
            m.finalize()
        }
        _ => Err(unsupported(req)),
    }
}

fn unsupported(req: &Request<'_>) -> Error {
    Error::Param(format!("{} {} is not a GOST mode this library implements", req.cipher, req.mode))
}
