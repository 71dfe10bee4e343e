//! STUB (skeleton only): replaced by the Kuznyechik family.
use crate::cpu::{Backend, BackendChoice};
use crate::engine::Engine;
use crate::error::Result;
pub struct Keys;
pub(crate) static BACKENDS: &[Backend<Keys>] = &[];
pub(crate) fn engine(_key: &[u8], _choice: BackendChoice<'_>) -> Result<Engine> { unimplemented!() }
