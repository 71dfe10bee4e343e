//! The parts of the `multiblock` command that need no process around them:
//! argument parsing (clap), hex text, and turning `encrypt`/`decrypt`/`mac`
//! arguments into a library request. A library so that the fuzz targets
//! (../../fuzz) can call them without spawning the binary.

pub mod args;
pub mod hex;
pub mod key;
pub mod os_error;
pub mod request;
