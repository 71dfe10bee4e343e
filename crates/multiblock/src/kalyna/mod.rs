//! STUB (skeleton only): replaced by the Kalyna family.
use crate::cpu::{Backend, BackendChoice};
use crate::engine::Engine;
use crate::error::Result;
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant { K128_128, K128_256, K256_256, K256_512, K512_512 }
pub struct Keys;
pub(crate) static BACKENDS: &[Backend<Keys>] = &[];
pub(crate) fn engine(_v: Variant, _key: &[u8], _choice: BackendChoice<'_>) -> Result<Engine> { unimplemented!() }
