//! Hash functions.

#[allow(dead_code)] // used by the public API built on it
pub(crate) mod kupyna;
