//! DSTU 7624 modes (Kalyna) and uBlock CBC: filled in by the DSTU modes work (see modes/mod.rs).
use super::{Mode, Request};
use crate::error::{Error, Result};
use crate::registry::CipherId;

pub(crate) fn modes(_id: CipherId) -> &'static [Mode] {
    &[]
}
pub(crate) fn encrypt(req: &Request<'_>, _data: &[u8]) -> Result<Vec<u8>> {
    Err(Error::Param(format!("{} {} is not implemented", req.cipher, req.mode)))
}
pub(crate) fn decrypt(req: &Request<'_>, _data: &[u8]) -> Result<Vec<u8>> {
    Err(Error::Param(format!("{} {} is not implemented", req.cipher, req.mode)))
}
pub(crate) fn mac(req: &Request<'_>, _data: &[u8]) -> Result<Vec<u8>> {
    Err(Error::Param(format!("{} {} is not implemented", req.cipher, req.mode)))
}
