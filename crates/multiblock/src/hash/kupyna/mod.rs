//! TEMPORARY STAND-IN (replaced by the real module before merge to main).
use crate::backend::{always, Backend, BackendChoice, BackendInfo};
use crate::error::{Error, Result};
use digest::Digest;

#[derive(Clone)]
pub(crate) enum Core { K256(kupyna::Kupyna256), K384(kupyna::Kupyna384), K512(kupyna::Kupyna512) }
const INFO: BackendInfo = BackendInfo { name: "reference", constant_time: false, ways: 1, needs: "" };
pub(crate) static BACKENDS: &[Backend<(), ()>] = &[Backend { info: INFO, available: always, new: |_| () }];
impl Core {
    pub(crate) fn new(digest_bytes: usize, choice: BackendChoice<'_>) -> Result<Core> {
        crate::backend::select("kupyna", BACKENDS, choice)?;
        match digest_bytes { 32 => Ok(Core::K256(Default::default())), 48 => Ok(Core::K384(Default::default())), 64 => Ok(Core::K512(Default::default())), n => Err(Error::Param(format!("stand-in: {n}"))) }
    }
    pub(crate) fn update(&mut self, data: &[u8]) { match self { Core::K256(h) => h.update(data), Core::K384(h) => h.update(data), Core::K512(h) => h.update(data) } }
    pub(crate) fn finalize_into_reset(&mut self, out: &mut [u8]) { match self { Core::K256(h) => out.copy_from_slice(&h.finalize_reset()), Core::K384(h) => out.copy_from_slice(&h.finalize_reset()), Core::K512(h) => out.copy_from_slice(&h.finalize_reset()) } }
    pub(crate) fn backend(&self) -> BackendInfo { INFO }
}
pub(crate) fn digest_many(digest_bytes: usize, messages: &[&[u8]], choice: BackendChoice<'_>) -> Result<Vec<Vec<u8>>> {
    let mut c = Core::new(digest_bytes, choice)?;
    Ok(messages.iter().map(|m| { c.update(m); let mut o = vec![0; digest_bytes]; c.finalize_into_reset(&mut o); o }).collect())
}
/// Stand-in MAC: errors.
#[derive(Clone)]
pub(crate) struct Mac;
impl Mac {
    pub(crate) fn new(_digest_bytes: usize, _key: &[u8], _choice: BackendChoice<'_>) -> Result<Mac> { Err(Error::Param("stand-in".into())) }
    pub(crate) fn update(&mut self, _data: &[u8]) {}
    pub(crate) fn finalize_into_reset(&mut self, _out: &mut [u8]) {}
}
