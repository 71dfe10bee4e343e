//! Comparing two recordings and saying where they part.

use super::{Recording, INSN};
use std::path::Path;
use std::process::Command;

/// The first place where `b` differs from `a`, described for a person
/// (`exe` names the functions, through binutils' addr2line when present).
pub fn first_difference(a: &Recording, b: &Recording, exe: &Path) -> Option<String> {
    let n = a.events.len().min(b.events.len());
    let at = (0..n).find(|&i| a.events[i] != b.events[i]);
    let at = match at {
        Some(i) => i,
        None if a.events.len() == b.events.len() => return None,
        None => n,
    };
    // The instruction the differing event belongs to, in the first
    // recording: for an address, the instruction before it; for a different
    // next instruction, the one before that (the branch).
    let end = at.min(a.events.len().saturating_sub(1));
    let upto = if a.events.get(end).is_some_and(|e| e & INSN != 0) { end } else { end + 1 };
    let insn_index = a.events[..upto].iter().rposition(|e| e & INSN != 0).unwrap_or(0);
    let step = a.events[..insn_index].iter().filter(|e| *e & INSN != 0).count();
    let ip = a.events[insn_index] & !INSN;
    let what = match (a.events.get(at), b.events.get(at)) {
        (Some(x), Some(y)) if x & INSN != 0 && y & INSN != 0 => {
            format!("next instruction {:#x} vs {:#x} (a branch)", x & !INSN, y & !INSN)
        }
        (Some(x), Some(y)) => format!("memory address {x:#x} vs {y:#x}"),
        _ => format!("one trace ends first ({} vs {} events)", a.events.len(), b.events.len()),
    };
    Some(format!("step {step}, after the instruction at {ip:#x} {}: {what}", symbol(exe, ip, a.exe_base)))
}

/// `function (file:line)` of `ip`, or an empty string without addr2line.
pub fn symbol(exe: &Path, ip: u64, base: u64) -> String {
    let out = Command::new("addr2line")
        .args(["-f", "-C", "-e"])
        .arg(exe)
        .arg(format!("{:#x}", ip.wrapping_sub(base)))
        .output();
    match out {
        Ok(o) if o.status.success() => {
            let text = String::from_utf8_lossy(&o.stdout);
            let mut lines = text.lines();
            let func = lines.next().unwrap_or("?");
            let place = lines.next().unwrap_or("?");
            let place = place.rsplit("/src/").next().unwrap_or(place);
            format!("in {func} ({place})")
        }
        _ => String::new(),
    }
}

/// The functions that took the most steps in `rec` (for trimming slow
/// cases): `count  function` lines, most first.
pub fn profile(rec: &Recording, exe: &Path, top: usize) -> String {
    let mut by_ip = std::collections::HashMap::<u64, u64>::new();
    for e in rec.events.iter().filter(|e| *e & INSN != 0) {
        *by_ip.entry(e & !INSN).or_default() += 1;
    }
    let ips: Vec<u64> = by_ip.keys().copied().collect();
    let names = Command::new("addr2line")
        .args(["-f", "-C", "-e"])
        .arg(exe)
        .args(ips.iter().map(|ip| format!("{:#x}", ip.wrapping_sub(rec.exe_base))))
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).lines().step_by(2).map(String::from).collect::<Vec<_>>())
        .unwrap_or_default();
    let mut by_fn = std::collections::HashMap::<String, u64>::new();
    for (i, ip) in ips.iter().enumerate() {
        let name = names.get(i).cloned().unwrap_or_else(|| format!("{ip:#x}"));
        *by_fn.entry(name).or_default() += by_ip[ip];
    }
    let mut rows: Vec<(u64, String)> = by_fn.into_iter().map(|(k, v)| (v, k)).collect();
    rows.sort_unstable_by(|a, b| b.cmp(a));
    rows.iter().take(top).map(|(n, f)| format!("{n:>9}  {f}\n")).collect()
}
