//! Differential machine-code traces (`ct-trace`): a case runs in a child
//! process once per secret fill; the parent single-steps every instruction
//! the child executes between its probe marks (`ptrace`), and records each
//! instruction's address and the effective address of every memory operand
//! it touches (decoded with iced-x86, which knows AVX-512, VBMI and GFNI).
//! A constant-time backend must give the same trace for every fill: any
//! branch or memory address that depends on a key or data shows up as the
//! first difference. A gather or scatter (a vector of secret-dependent
//! addresses) is reported by itself.
//!
//! The children run with address-space randomisation off and identical
//! arguments and environment, so two runs that do the same thing put every
//! stack, heap and code address at the same place.

pub mod child;
mod decode;
mod process;
pub mod report;

pub use process::{record, Recording};

/// One recorded event: an instruction address (with [`INSN`] set) or a
/// memory operand's effective address (user-space addresses are below 2^47,
/// so the tag bit cannot collide).
pub type Event = u64;

/// Tag of an instruction-address event.
pub const INSN: u64 = 1 << 63;
