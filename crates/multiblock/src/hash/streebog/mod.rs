//! TEMPORARY STAND-IN (replaced by the real module before merge to main).
use crate::backend::{always, Backend, BackendChoice, BackendInfo};
use crate::error::{Error, Result};
use digest::Digest;

#[derive(Clone)]
pub(crate) enum Core { S256(streebog::Streebog256), S512(streebog::Streebog512) }
const INFO: BackendInfo = BackendInfo { name: "reference", constant_time: false, ways: 1, needs: "" };
pub(crate) static BACKENDS: &[Backend<(), ()>] = &[Backend { info: INFO, available: always, new: |_| () }];
impl Core {
    pub(crate) fn new(digest_bytes: usize, choice: BackendChoice<'_>) -> Result<Core> {
        crate::backend::select("streebog", BACKENDS, choice)?;
        match digest_bytes { 32 => Ok(Core::S256(Default::default())), 64 => Ok(Core::S512(Default::default())), n => Err(Error::Param(format!("Streebog has digests of 32 or 64 bytes, not {n}"))) }
    }
    pub(crate) fn update(&mut self, data: &[u8]) { match self { Core::S256(h) => h.update(data), Core::S512(h) => h.update(data) } }
    pub(crate) fn finalize_into_reset(&mut self, out: &mut [u8]) { match self { Core::S256(h) => out.copy_from_slice(&h.finalize_reset()), Core::S512(h) => out.copy_from_slice(&h.finalize_reset()) } }
    pub(crate) fn backend(&self) -> BackendInfo { INFO }
}
pub(crate) fn digest_many(digest_bytes: usize, messages: &[&[u8]], choice: BackendChoice<'_>) -> Result<Vec<Vec<u8>>> {
    let mut c = Core::new(digest_bytes, choice)?;
    Ok(messages.iter().map(|m| { c.update(m); let mut o = vec![0; digest_bytes]; c.finalize_into_reset(&mut o); o }).collect())
}
