//! From an instruction's bytes and the registers before it runs to the
//! effective addresses it reads or writes: iced-x86 decodes the instruction
//! once per address (the code does not change while it is traced) and lists
//! every memory location it uses, explicit operands and implicit ones alike
//! (push, pop, call, ret, string instructions: a REP string instruction
//! traps after every iteration, each recorded with its own addresses).

use iced_x86::{Decoder, DecoderOptions, Instruction, InstructionInfoFactory, Register, UsedMemory};
use std::collections::HashMap;

/// What the tracer keeps of one instruction.
pub struct Decoded {
    pub instruction: Instruction,
    pub memory: Vec<UsedMemory>,
    /// A VSIB operand (gather/scatter): one address per vector element,
    /// computed from a vector register.
    pub vsib: bool,
}

/// Decoded instructions by address.
pub struct Cache {
    by_ip: HashMap<u64, Decoded>,
    info: InstructionInfoFactory,
}

impl Default for Cache {
    fn default() -> Cache {
        Cache { by_ip: HashMap::new(), info: InstructionInfoFactory::new() }
    }
}

impl Cache {
    /// The instruction at `ip`, decoding it from `bytes` (up to 15 bytes
    /// read at `ip`) on first sight.
    pub fn get(&mut self, ip: u64, bytes: impl FnOnce() -> Vec<u8>) -> Result<&Decoded, String> {
        if !self.by_ip.contains_key(&ip) {
            let code = bytes();
            let mut decoder = Decoder::with_ip(64, &code, ip, DecoderOptions::NONE);
            let instruction = decoder.decode();
            if instruction.is_invalid() {
                return Err(format!("cannot decode the instruction at {ip:#x} ({code:02x?})"));
            }
            let info = self.info.info(&instruction);
            let memory: Vec<UsedMemory> = info.used_memory().to_vec();
            let vsib = memory.iter().any(|m| m.vsib_size() != 0 || m.index().is_vector_register());
            self.by_ip.insert(ip, Decoded { instruction, memory, vsib });
        }
        Ok(&self.by_ip[&ip])
    }
}

/// The general registers of one step, in [`GPRS`]' order, and the thread's
/// FS base (the thread pointer: it does not change while a case runs).
pub struct Registers<'a> {
    pub gpr: &'a [u64; 16],
    pub fs_base: u64,
}

/// The general registers a step stores, in [`Registers::gpr`]'s order:
/// each with its index in the signal context's `gregs` (`child`), so that
/// the handler and the decoder cannot disagree on the order.
pub const GPRS: [(Register, libc::c_int); 16] = [
    (Register::RAX, libc::REG_RAX),
    (Register::RBX, libc::REG_RBX),
    (Register::RCX, libc::REG_RCX),
    (Register::RDX, libc::REG_RDX),
    (Register::RSI, libc::REG_RSI),
    (Register::RDI, libc::REG_RDI),
    (Register::RBP, libc::REG_RBP),
    (Register::RSP, libc::REG_RSP),
    (Register::R8, libc::REG_R8),
    (Register::R9, libc::REG_R9),
    (Register::R10, libc::REG_R10),
    (Register::R11, libc::REG_R11),
    (Register::R12, libc::REG_R12),
    (Register::R13, libc::REG_R13),
    (Register::R14, libc::REG_R14),
    (Register::R15, libc::REG_R15),
];

impl Registers<'_> {
    /// The value iced-x86 asks for when it computes an address: a general
    /// register (any width) or a segment base.
    pub fn value(&self, reg: Register) -> Option<u64> {
        let full = match reg {
            // FS has a base (the thread pointer); GS is unused by user code
            // on Linux x86-64, and the others are flat.
            Register::FS => return Some(self.fs_base),
            Register::GS | Register::ES | Register::CS | Register::SS | Register::DS => return Some(0),
            // RIP-relative operands carry the absolute target as displacement.
            Register::RIP | Register::EIP => return Some(0),
            _ => reg.full_register(),
        };
        let v = self.gpr[GPRS.iter().position(|&(r, _)| r == full)?];
        Some(match reg.size() {
            8 => v,
            4 => v & 0xffff_ffff,
            2 => v & 0xffff,
            _ => v & 0xff,
        })
    }

    /// The effective address of `m`, or an error naming what was missing.
    pub fn address(&self, m: &UsedMemory) -> Result<u64, String> {
        m.try_virtual_address(0, |reg, _, _| self.value(reg))
            .ok_or_else(|| format!("cannot compute the address of {m:?}"))
    }
}
