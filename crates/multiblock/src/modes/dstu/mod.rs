//! DSTU 7624:2014 modes of operation for Kalyna, and CBC for uBlock.
//!
//! | mode | file | parameters | parallel |
//! |---|---|---|---|
//! | ctr ("гамування") | `ctr.rs` | iv | yes |
//! | cbc | `cbc.rs` | iv, padding | decryption |
//! | cfb | `cfb.rs` | iv, s | decryption when s = block |
//! | ofb | `ofb.rs` | iv | no (by construction) |
//! | cmac | `cmac.rs` | tag-bits (any length ≥ 1 byte, §9 padding) | no (CBC-MAC) |
//! | gcm, gmac | `gcm.rs` (+ `modes/gf`) | iv, aad, tag-bits | keystream yes; GHASH chained |
//! | ccm | `ccm.rs` | iv, aad, nb, tag-bits | keystream yes; CBC-MAC no |
//! | xts | `xts.rs` | iv (the tweak) | yes |
//! | kw | `kw.rs` | — | no (by construction) |
//!
//! These are not the NIST modes of the same names: each file spells out its
//! construction and where the references (Bouncy Castle, UAPKI, dstu-core)
//! differ. Every mode runs on [`Cipher`](crate::Cipher)'s multi-block ECB;
//! the parallel ones push up to 8 KiB per call.
//!
//! Streaming types: [`KalynaCtr`], [`KalynaOfb`], [`Cbc`], [`KalynaCfb`],
//! [`KalynaXts`], [`KalynaCmac`], [`KalynaGmac`]. GCM, CCM and KW are
//! one-shot here ([`KalynaGcm`], [`KalynaCcm`], [`KalynaKw`]): an AEAD tag or
//! the key-wrap check covers the whole message. GCM and CCM stream through
//! [`AeadStream`](crate::modes::aead_stream::AeadStream), whose decryption
//! releases plaintext before it is authenticated (the caller holds it
//! back); KW wraps a file in bounded memory with
//! [`KalynaKw::wrap_store`].

mod cbc;
mod ccm;
pub(crate) mod cfb;
mod cmac;
mod ctr;
mod gcm;
mod kw;
mod ofb;
pub(crate) mod util;
mod xts;

#[cfg(test)]
mod tests;

pub use self::{
    cbc::Cbc, ccm::KalynaCcm, cfb::KalynaCfb, cmac::KalynaCmac, ctr::KalynaCtr, gcm::KalynaGcm, gcm::KalynaGmac,
    kw::KalynaKw, ofb::KalynaOfb, xts::KalynaXts,
};
pub(crate) use self::{ccm::CcmStream, ccm::Length as CcmLength, gcm::GcmStream, xts::encrypt_each as xts_encrypt_each};

use super::{Mode, Request};
use crate::error::{Error, Result};

fn unsupported(req: &Request<'_>) -> Error {
    Error::Param(format!("{} {} is not a DSTU 7624 mode of this library", req.cipher, req.mode))
}

/// One-shot encryption (`encrypt`) or decryption of `data` in `req.mode`.
pub(crate) fn crypt(req: &Request<'_>, data: &[u8], encrypt: bool) -> Result<Vec<u8>> {
    match (req.mode, encrypt) {
        (Mode::Ctr, _) => ctr::apply(req, data),
        (Mode::Ofb, _) => ofb::apply(req, data),
        (Mode::Cbc, _) => cbc::crypt(req, data, encrypt),
        (Mode::Cfb, _) => cfb::crypt(req, data, encrypt),
        (Mode::Xts, _) => xts::crypt(req, data, encrypt),
        (Mode::Gcm, true) => KalynaGcm::new(req)?.seal(data),
        (Mode::Gcm, false) => KalynaGcm::new(req)?.open(data),
        (Mode::Ccm, true) => KalynaCcm::new(req)?.seal(data),
        (Mode::Ccm, false) => KalynaCcm::new(req)?.open(data),
        (Mode::Kw, true) => KalynaKw::new(req)?.wrap(data),
        (Mode::Kw, false) => KalynaKw::new(req)?.unwrap(data),
        _ => Err(unsupported(req)),
    }
}

pub(crate) fn mac(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    match req.mode {
        Mode::Cmac => cmac::mac(req, data),
        Mode::Gmac => gcm::gmac(req, data),
        _ => Err(unsupported(req)),
    }
}
