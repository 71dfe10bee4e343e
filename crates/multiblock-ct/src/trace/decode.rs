//! From an instruction's bytes and the registers before it runs to the
//! effective addresses it reads or writes: iced-x86 decodes the instruction
//! once per address (the code does not change while it is traced) and lists
//! every memory location it uses, explicit operands and implicit ones alike
//! (push, pop, call, ret, string instructions).

use iced_x86::{Decoder, DecoderOptions, Instruction, InstructionInfoFactory, Register, UsedMemory};
use std::collections::HashMap;

/// What the tracer keeps of one instruction.
pub struct Decoded {
    pub instruction: Instruction,
    pub memory: Vec<UsedMemory>,
    /// A VSIB operand (gather/scatter): one address per vector element,
    /// computed from a vector register.
    pub vsib: bool,
    /// A REP-prefixed string instruction (rep movs/stos, repe cmps, ...):
    /// its iterations are run to completion in one go (see `process`).
    pub rep_string: bool,
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
            let rep_string = (instruction.has_rep_prefix() || instruction.has_repne_prefix())
                && instruction.is_string_instruction();
            self.by_ip.insert(ip, Decoded { instruction, memory, vsib, rep_string });
        }
        Ok(&self.by_ip[&ip])
    }
}

/// The general registers and segment bases of a stopped thread.
pub struct Registers<'a>(pub &'a libc::user_regs_struct);

impl Registers<'_> {
    /// The value iced-x86 asks for when it computes an address: a general
    /// register (any width) or a segment base.
    pub fn value(&self, reg: Register) -> Option<u64> {
        let r = self.0;
        let full = match reg {
            // FS and GS have bases (thread pointer); the others are flat.
            Register::FS => return Some(r.fs_base),
            Register::GS => return Some(r.gs_base),
            Register::ES | Register::CS | Register::SS | Register::DS => return Some(0),
            // RIP-relative operands carry the absolute target as displacement.
            Register::RIP | Register::EIP => return Some(0),
            _ => reg.full_register(),
        };
        let v = match full {
            Register::RAX => r.rax,
            Register::RBX => r.rbx,
            Register::RCX => r.rcx,
            Register::RDX => r.rdx,
            Register::RSI => r.rsi,
            Register::RDI => r.rdi,
            Register::RBP => r.rbp,
            Register::RSP => r.rsp,
            Register::R8 => r.r8,
            Register::R9 => r.r9,
            Register::R10 => r.r10,
            Register::R11 => r.r11,
            Register::R12 => r.r12,
            Register::R13 => r.r13,
            Register::R14 => r.r14,
            Register::R15 => r.r15,
            _ => return None,
        };
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
