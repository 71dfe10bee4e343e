//! STUB (skeleton only): replaced by the uBlock family.
use crate::cpu::{Backend, BackendChoice};
use crate::engine::Engine;
use crate::error::Result;
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant { U128_128, U128_256, U256_256 }
pub struct Keys;
pub(crate) static BACKENDS: &[Backend<Keys>] = &[];
pub(crate) fn engine(_v: Variant, _key: &[u8], _choice: BackendChoice<'_>) -> Result<Engine> { unimplemented!() }
