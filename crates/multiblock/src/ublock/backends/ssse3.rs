//! The `ssse3` backend: the uBlock designers' SSE structure (their reference
//! code; Gao et al. 2024, §2) on the shared rounds (rounds.rs) in plain form.
//!
//! One block per register set, one nibble per byte (high nibble 0), so
//! - the S-box layer is one `pshufb` with the S-box as the table;
//! - `<<<₃₂ 4/8/20` and PL/PR are one `pshufb` each (masks.rs);
//! - a 64-bit half (n = 128) is one xmm, a 128-bit half (n = 256) two
//!   (nibbles 0..15 and 16..31), and PL₂₅₆/PR₂₅₆ gather from both with two
//!   `pshufb` and an `or` per output register ([`Plain`]).
//!
//! Conversion in and out as groups.rs (the Table 8 improvement of Gao et al. 2024).
//! Four blocks run interleaved for instruction-level parallelism, a shorter
//! rest as one interleaved call of its blocks (`plain.rs`, shared with
//! `neon`). Key setup: the register key schedule (key_schedule_simd.rs) in plain form.
//!
//! Constant time: only `pshufb` on secret indices (a register, not memory),
//! no secret branch or address.

use super::super::plain::{Spread, WAYS};
use super::super::rounds::Ecb;
use super::super::variant::Keys;
use crate::backend::Backend;
use crate::kernel;
use crate::simd::{Ssse3, Xmm};

pub(crate) const BACKEND: Backend<Keys> = kernel::backend::<Xmm<Ssse3>, Ecb<Spread>>("ssse3", true, WAYS);
