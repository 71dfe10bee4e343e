//! The tracing parent: starts the child under `ptrace`, lets it run freely
//! outside its probe regions and single-steps it inside them.

use super::decode::{Cache, Registers};
use super::{Event, INSN};
use std::ffi::OsString;
use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// What one traced child did inside its probe regions.
pub struct Recording {
    /// Instruction addresses (tagged [`INSN`]) each followed by the
    /// addresses of the memory it touched.
    pub events: Vec<Event>,
    /// Instructions single-stepped.
    pub steps: u64,
    /// Probe regions seen.
    pub regions: u64,
    /// Where the executable is mapped (to name functions in reports).
    pub exe_base: u64,
    /// Gathers/scatters met, by instruction address (a failure by itself).
    pub vsib: Vec<(u64, String)>,
    /// The child was stopped at the step limit, before its end.
    pub truncated: bool,
}

fn os_err(what: &str) -> String {
    format!("{what}: {}", io::Error::last_os_error())
}

/// Waits for `pid`; `Ok(Some(sig))` for a stop by `sig`, `Ok(None)` for a
/// clean exit, `Err` for anything else.
fn wait_stop(pid: libc::pid_t) -> Result<Option<i32>, String> {
    let mut status = 0;
    // SAFETY: waitpid writes the status word we own.
    if unsafe { libc::waitpid(pid, &mut status, libc::__WALL) } < 0 {
        return Err(os_err("waitpid"));
    }
    if libc::WIFSTOPPED(status) {
        Ok(Some(libc::WSTOPSIG(status)))
    } else if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
        Ok(None)
    } else if libc::WIFEXITED(status) {
        Err(format!("the traced case failed (exit status {})", libc::WEXITSTATUS(status)))
    } else {
        Err(format!("the traced case was killed by signal {}", libc::WTERMSIG(status)))
    }
}

fn ptrace(req: libc::c_uint, pid: libc::pid_t, data: usize) -> Result<(), String> {
    // SAFETY: requests on our own stopped tracee; `data` is a signal number
    // or an option word, never a pointer here.
    if unsafe { libc::ptrace(req, pid, std::ptr::null_mut::<libc::c_void>(), data) } < 0 {
        return Err(os_err("ptrace"));
    }
    Ok(())
}

fn registers(pid: libc::pid_t) -> Result<libc::user_regs_struct, String> {
    // SAFETY: an all-zero user_regs_struct is valid; GETREGS fills it.
    let mut regs: libc::user_regs_struct = unsafe { std::mem::zeroed() };
    // SAFETY: GETREGS writes one user_regs_struct to the pointer.
    let rc = unsafe { libc::ptrace(libc::PTRACE_GETREGS, pid, std::ptr::null_mut::<libc::c_void>(), &mut regs) };
    if rc < 0 {
        return Err(os_err("PTRACE_GETREGS"));
    }
    Ok(regs)
}

/// Up to 15 bytes of the child's memory at `ip` (fewer at the end of a
/// mapping).
fn code_at(pid: libc::pid_t, ip: u64) -> Vec<u8> {
    let mut buf = vec![0u8; 15];
    let local = libc::iovec { iov_base: buf.as_mut_ptr().cast(), iov_len: buf.len() };
    let remote = libc::iovec { iov_base: ip as *mut libc::c_void, iov_len: buf.len() };
    // SAFETY: reads into our buffer of the stated length.
    let n = unsafe { libc::process_vm_readv(pid, &local, 1, &remote, 1, 0) };
    buf.truncate(n.max(0) as usize);
    buf
}

/// The lowest address the child's executable is mapped at.
fn exe_base(pid: libc::pid_t) -> u64 {
    let exe = std::fs::read_link(format!("/proc/{pid}/exe")).unwrap_or_default();
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
    maps.lines()
        .filter(|l| l.ends_with(&*exe.to_string_lossy()))
        .filter_map(|l| u64::from_str_radix(l.split('-').next()?, 16).ok())
        .min()
        .unwrap_or(0)
}

fn set_registers(pid: libc::pid_t, regs: &libc::user_regs_struct) -> Result<(), String> {
    // SAFETY: SETREGS reads one user_regs_struct from the pointer.
    let rc = unsafe { libc::ptrace(libc::PTRACE_SETREGS, pid, std::ptr::null_mut::<libc::c_void>(), regs) };
    if rc < 0 {
        return Err(os_err("PTRACE_SETREGS"));
    }
    Ok(())
}

fn peek(pid: libc::pid_t, addr: u64) -> Result<u64, String> {
    // SAFETY: PEEKTEXT returns the word; errors come back through errno.
    unsafe {
        *libc::__errno_location() = 0;
        let word = libc::ptrace(libc::PTRACE_PEEKTEXT, pid, addr as *mut libc::c_void, std::ptr::null_mut::<libc::c_void>());
        if word == -1 && *libc::__errno_location() != 0 {
            return Err(os_err("PTRACE_PEEKTEXT"));
        }
        Ok(word as u64)
    }
}

fn poke(pid: libc::pid_t, addr: u64, word: u64) -> Result<(), String> {
    // SAFETY: POKETEXT writes one word of the stopped child's memory.
    if unsafe { libc::ptrace(libc::PTRACE_POKETEXT, pid, addr as *mut libc::c_void, word as *mut libc::c_void) } < 0 {
        return Err(os_err("PTRACE_POKETEXT"));
    }
    Ok(())
}

/// Runs the REP string instruction at `regs.rip` (`len` bytes) to its end
/// with a breakpoint on the next instruction: single-stepping traps after
/// every iteration (a 20 KiB memset would be 20 000 steps). Its addresses
/// follow from rsi, rdi and rcx before it, which the caller recorded, and
/// the end state (recorded here) shows where a repe/repne stopped early.
fn run_rep_string(pid: libc::pid_t, regs: &libc::user_regs_struct, len: u64, rec: &mut Recording) -> Result<(), String> {
    let next = regs.rip + len;
    let saved = peek(pid, next)?;
    poke(pid, next, (saved & !0xff) | 0xcc)?;
    ptrace(libc::PTRACE_CONT, pid, 0)?;
    let stop = wait_stop(pid)?;
    poke(pid, next, saved)?;
    if stop != Some(libc::SIGTRAP) {
        return Err(format!("a REP string instruction at {:#x} stopped with {stop:?}", regs.rip));
    }
    let mut after = registers(pid)?;
    if after.rip != next + 1 {
        return Err(format!("a REP string instruction at {:#x} ended at {:#x}", regs.rip, after.rip));
    }
    after.rip = next;
    set_registers(pid, &after)?;
    rec.events.extend([after.rcx, after.rsi, after.rdi]);
    Ok(())
}

/// How a probe region ended.
enum Region {
    /// At the child's SIGUSR2.
    Closed,
    /// At the first event that differs from the trace it is compared with.
    Differs,
    /// At the step limit.
    Limit,
}

/// Single-steps the child from a SIGUSR1 stop to its SIGUSR2 stop, or,
/// with `against`, to the first event that differs from it, or to
/// `max_steps` steps in all.
fn record_region(
    pid: libc::pid_t,
    cache: &mut Cache,
    rec: &mut Recording,
    against: Option<&[Event]>,
    max_steps: u64,
) -> Result<Region, String> {
    loop {
        let from = rec.events.len();
        let regs = registers(pid)?;
        let ip = regs.rip;
        let insn = cache.get(ip, || code_at(pid, ip))?;
        rec.events.push(ip | INSN);
        if insn.vsib {
            rec.vsib.push((ip, format!("{}", insn.instruction)));
        } else {
            let r = Registers(&regs);
            for m in &insn.memory {
                rec.events.push(r.address(m)?);
            }
        }
        rec.steps += 1;
        if insn.rep_string {
            rec.events.extend([regs.rcx, regs.rsi, regs.rdi]);
            let len = insn.instruction.len() as u64;
            run_rep_string(pid, &regs, len, rec)?;
        }
        if let Some(a) = against {
            if a.get(from..rec.events.len()) != Some(&rec.events[from..]) {
                return Ok(Region::Differs);
            }
        }
        if rec.steps >= max_steps {
            return Ok(Region::Limit);
        }
        if insn.rep_string {
            continue;
        }
        ptrace(libc::PTRACE_SINGLESTEP, pid, 0)?;
        match wait_stop(pid)? {
            Some(libc::SIGTRAP) => continue,
            Some(libc::SIGUSR2) => return Ok(Region::Closed),
            Some(sig) => return Err(format!("unexpected signal {sig} inside a probe region at {ip:#x}")),
            None => return Err("the case exited inside a probe region".into()),
        }
    }
}

/// Runs `exe args` under ptrace with address-space randomisation off and
/// records every probe region. With `against` (an earlier recording's
/// events) it stops, and kills the child, at the first event that differs:
/// the rest would not be looked at. It also stops after `max_steps`
/// single steps (`u64::MAX`: never), marking the recording truncated.
pub fn record(
    exe: &std::path::Path,
    args: &[OsString],
    against: Option<&[Event]>,
    max_steps: u64,
) -> Result<Recording, String> {
    let mut cmd = Command::new(exe);
    cmd.args(args).env_clear().env("MULTIBLOCK_CT_TRACED", "1");
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            if libc::personality(libc::ADDR_NO_RANDOMIZE as libc::c_ulong) < 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::ptrace(libc::PTRACE_TRACEME, 0, std::ptr::null_mut::<libc::c_void>(), 0) < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd.spawn().map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let pid = child.id() as libc::pid_t;
    // The exec stop.
    if wait_stop(pid)? != Some(libc::SIGTRAP) {
        return Err("the child did not stop at exec".into());
    }
    ptrace(libc::PTRACE_SETOPTIONS, pid, libc::PTRACE_O_EXITKILL as usize)?;
    let mut rec = Recording { events: Vec::new(), steps: 0, regions: 0, exe_base: exe_base(pid), vsib: Vec::new(), truncated: false };
    let mut cache = Cache::default();
    let mut pass = 0;
    loop {
        ptrace(libc::PTRACE_CONT, pid, pass as usize)?;
        pass = 0;
        match wait_stop(pid)? {
            None => return Ok(rec),
            Some(libc::SIGUSR1) => {
                rec.regions += 1;
                let region = record_region(pid, &mut cache, &mut rec, against, max_steps)?;
                if let Region::Differs | Region::Limit = region {
                    rec.truncated = matches!(region, Region::Limit);
                    // SAFETY: kills our own traced child; waitpid reaps it.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                        libc::waitpid(pid, std::ptr::null_mut(), libc::__WALL);
                    }
                    return Ok(rec);
                }
            }
            Some(libc::SIGUSR2) => return Err("a probe region closed that never opened".into()),
            // Any other signal is the child's own business: deliver it.
            Some(sig) => pass = sig,
        }
    }
}
