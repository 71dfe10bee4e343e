//! Constant-time checks of multiblock: the workloads that `ct-check` runs
//! under Valgrind memcheck with the key and the data marked secret, and the
//! marking itself. See the README's Security section.

pub mod cases;
pub mod secret;
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
pub mod trace;
