//! The parts of the `multiblock` command that other programs reuse: argument
//! parsing (clap), hex text, and turning `encrypt`/`decrypt`/`mac` arguments
//! into a library request, for the fuzz targets (../../fuzz) to call
//! without spawning the binary; and what `multiblock-bench` shares with the
//! command: the failure kinds and exit statuses, stdout that fails cleanly, the standard
//! descriptors, fallible buffers and the CPU's name.

pub mod args;
pub mod buffers;
pub mod cpu;
pub mod exit;
pub mod failure;
pub mod hex;
pub mod key;
pub mod os_error;
pub mod out;
pub mod request;
pub mod std_fds;
