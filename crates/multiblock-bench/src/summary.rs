//! The terminal summary of a run (the default output): what the numbers
//! mean, each cipher's fastest constant-time speed against its table code
//! and the fastest peer, what the modes cost, the published figures beside
//! ours, the hashes when measured, and where the full report was written
//! (the last line). At most about 40 lines (the hashes add 8) of at most
//! [`WIDTH`] columns.

use crate::figure::Source;
use crate::papers;
use crate::plan::Report;
use crate::row::{Entry, Kind};
use crate::sections;
use multiblock::{backends, CipherId};
use std::path::Path;

/// The widest line the summary prints.
pub const WIDTH: usize = 100;

/// Words of `text` in lines of at most [`WIDTH`] columns, each after `indent`.
fn wrap(text: &str, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.chars().count() + 1 + word.chars().count() > WIDTH {
            lines.push(format!("{indent}{line}"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(format!("{indent}{line}"));
    }
    lines
}

/// The backends of the run's ciphers that are not constant-time, by name.
fn not_constant_time(r: &Report) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for id in CipherId::ALL.into_iter().filter(|id| r.entries.iter().any(|e| e.row.cipher == id.name())) {
        for b in backends(id.name()).into_iter().flatten().filter(|b| b.available && !b.info.constant_time) {
            if !v.contains(&b.info.name) {
                v.push(b.info.name);
            }
        }
    }
    v
}

fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// "ctr 1.0-1.1×, cbc enc 3.1-11.9×, …": the modes' cycles/byte over the
/// same backend's ECB, as ranges over the ciphers.
fn modes_line(r: &Report) -> Option<String> {
    let mut groups: Vec<(String, f64, f64)> = Vec::new();
    for e in r.entries.iter().filter(|e| e.kind == Kind::Mode) {
        let x = &e.row;
        let Some(mode) = x.mode.filter(|m| ["ctr", "cnt", "cbc", "mgm", "gcm"].contains(m)) else { continue };
        let backend = if x.backend == crate::measure::AUTO { papers::default_backend(x.cipher).unwrap_or(x.backend) } else { x.backend };
        let dir = if x.direction == "decrypt" { "decrypt" } else { "encrypt" };
        let Some(ecb) = r.entries.iter().find(|o| o.kind == Kind::Ecb && o.row.peer.is_none() && o.row.cipher == x.cipher && o.row.backend == backend && o.row.direction == dir) else {
            continue;
        };
        let ratio = x.cycles_per_byte / ecb.row.cycles_per_byte;
        let name = match (mode, x.direction) {
            ("cbc", "encrypt") => "CBC encryption (serial)".to_string(),
            ("cbc", _) => "CBC decryption".to_string(),
            (m, "encrypt") => m.to_uppercase(),
            _ => continue, // CTR and the AEAD modes cost the same both ways
        };
        match groups.iter_mut().find(|g| g.0 == name) {
            Some(g) => {
                g.1 = g.1.min(ratio);
                g.2 = g.2.max(ratio);
            }
            None => groups.push((name, ratio, ratio)),
        }
    }
    if groups.is_empty() {
        return None;
    }
    let num = |x: f64| if x >= 10.0 { format!("{x:.0}") } else { format!("{x:.1}") };
    let range = |lo: f64, hi: f64| if num(lo) == num(hi) { format!("{}×", num(lo)) } else { format!("{}–{}×", num(lo), num(hi)) };
    let parts: Vec<String> = groups.iter().map(|(n, lo, hi)| format!("{n} {}", range(*lo, *hi))).collect();
    Some(format!("Modes cost, in cycles/byte over the same backend's ECB (range over the ciphers): {}.", parts.join(", ")))
}

/// Our fastest constant-time long-message encryption of `cipher`.
fn ours<'a>(r: &'a Report, cipher: &str) -> Option<&'a Entry> {
    sections::best_constant_time(r).into_iter().find(|(id, _)| id.name() == cipher).map(|(_, e)| e)
}

/// "kalyna-128-128 8.32 c/B (here 3.10)" for each measured cipher with a
/// figure: `paper` gives the figure, `here` ours, in the same unit.
fn compare(r: &Report, ciphers: &[&str], paper: impl Fn(&str) -> Option<f64>, here: impl Fn(&Report, &str) -> Option<f64>, unit: &str) -> Vec<String> {
    ciphers
        .iter()
        .filter_map(|&c| {
            let p = paper(c)?;
            let h = here(r, c)?;
            let digits = if unit == "c/B" { 2 } else { 0 };
            Some(format!("{c} {p:.digits$} {unit} (here {h:.digits$})"))
        })
        .collect()
}

/// The published figures beside ours, one line per paper.
fn papers_lines(r: &Report) -> Vec<String> {
    let cpb_here = |r: &Report, c: &str| ours(r, c).map(|e| e.row.cycles_per_byte);
    let mbs_here = |r: &Report, c: &str| ours(r, c).map(|e| e.row.mb_per_s);
    let point = |source: &'static Source, kind: Kind, mb: bool| {
        move |c: &str| {
            papers::POINTS
                .iter()
                .find(|p| std::ptr::eq(p.source, source) && p.cipher == c && p.kind == kind && p.direction == "encrypt")
                .map(|p| if mb { p.mb_per_s } else { p.cycles_per_byte })
        }
    };
    let sovyn_ct = |c: &str| {
        papers::SWEEPS
            .iter()
            .filter(|s| s.cipher == c && s.direction == "encrypt" && (std::ptr::eq(s.source, &papers::SOVYN_2019_T5) || std::ptr::eq(s.source, &papers::SOVYN_2019_T7)))
            .map(|s| s.best().1)
            .reduce(f64::min)
    };
    // One uBlock variant is enough for the summary (the report has all three).
    let ublock: Vec<&str> = ["ublock-128-128", "ublock-128-256", "ublock-256-256"].into_iter().filter(|c| ours(r, c).is_some()).take(1).collect();
    let gao_here = |r: &Report, c: &str| CipherId::from_name(c).ok().and_then(|id| sections::short_of(r, id)).map(|e| e.row.mb_per_s);
    let rows: [(&str, Vec<String>); 4] = [
        ("Sovyn et al. 2019, Kalyna and GOST 28147-89 with SSE/AVX/AVX-512, best constant-time:", compare(r, &["gost89", "kalyna-128-128"], sovyn_ct, cpb_here, "c/B")),
        ("Gao et al. 2024, uBlock with AVX2, 64 B with key setup:", compare(r, &ublock, point(&papers::GAO_2024_S4, Kind::Short, true), gao_here, "MB/s")),
        ("Wu et al. 2019, the uBlock design document, SSE, 1 MB:", compare(r, &ublock, point(&papers::WU_2019_1MB, Kind::Ecb, false), cpb_here, "c/B")),
        (
            "\"Magma and Kuznyechik with SSE2/AVX/AVX2 and LUTs\":",
            compare(r, &["magma"], point(&papers::MAGMA_KUZNYECHIK_LUT_T1, Kind::Ecb, true), mbs_here, "MB/s")
                .into_iter()
                .chain(compare(r, &["kuznyechik"], point(&papers::MAGMA_KUZNYECHIK_LUT_T2, Kind::Ecb, true), mbs_here, "MB/s"))
                .collect(),
        ),
    ];
    let mut out = Vec::new();
    for (paper, items) in rows {
        if !items.is_empty() {
            out.extend(wrap(&format!("{paper} {}", items.join(", ")), "  "));
        }
    }
    out
}

/// The summary's lines; the last names the report folder (if one was written).
pub fn lines(r: &Report, written: Option<(&Path, &Path, &Path)>) -> Vec<String> {
    let m = &r.machine;
    let mut out = Vec::new();
    let load = m.load.map_or_else(String::new, |(l, n)| format!(", load {l:.2} on {n} CPUs"));
    out.extend(wrap(&format!("multiblock bench on {}, {}, TSC {:.3} GHz{load}", m.cpu, m.date, m.tsc_hz / 1e9), ""));
    out.push("c/B: TSC cycles per byte, lower is faster. MB/s: 10^6 bytes per second, higher is faster.".into());
    let nct: Vec<String> = not_constant_time(r).iter().map(|b| b.to_string()).collect();
    out.extend(wrap(
        &format!(
            "ct: constant-time, no memory access or branch depends on the key or the data. Every backend of ours is, except {}; the table code and the peers are not.",
            if nct.is_empty() { "none".to_string() } else { list(&nct) }
        ),
        "",
    ));
    out.push(String::new());
    if let Some(t) = sections::overview(r) {
        let bytes = r.entries.iter().find(|e| e.kind == Kind::Ecb && e.row.peer.is_none()).map_or(0, |e| e.row.bytes);
        let size = if bytes % (1 << 20) == 0 { format!("{} MiB", bytes >> 20) } else { format!("{} KiB", bytes / 1024) };
        out.push(format!("Encryption of {size} messages and of 64 B with key setup, on this CPU:"));
        out.extend(t.grid().lines().map(|l| format!("  {l}")));
        out.extend(wrap(
            "c/B of: ours (ct), our fastest constant-time backend; 64 B, key setup + one 64-byte message, no backend forced; table, our lookup-table code; the fastest other library. peer ÷ ours: how many times faster ours is.",
            "  ",
        ));
        if let Some(aes) = sections::peers(r).into_iter().find(|p| p.row.cipher == "aes-128") {
            out.push(format!("  For scale: AES-128-CTR on the AES instructions (RustCrypto), {:.2} c/B, {:.0} MB/s.", aes.row.cycles_per_byte, aes.row.mb_per_s));
        }
        if !r.peers_built {
            out.push("  Peers not built: this build left out the default feature `peers` (--no-default-features).".into());
        }
    }
    if let Some(t) = crate::hash_sections::overview(r) {
        if sections::overview(r).is_some() {
            out.push(String::new());
        }
        out.push(format!("{}:", t.title));
        out.extend(t.grid().lines().map(|l| format!("  {l}")));
        if let Some(line) = crate::hash_sections::hmac_line(r) {
            out.extend(wrap(&line, "  "));
        }
    }
    for n in &r.notes {
        out.extend(wrap(n, "  "));
    }
    if let Some(modes) = modes_line(r) {
        out.extend(wrap(&modes, ""));
    }
    let papers = papers_lines(r);
    if !papers.is_empty() {
        out.push(String::new());
        out.push("Published figures, measured by their authors on older CPUs (the report's \"paper\" columns):".into());
        out.extend(papers);
    }
    out.push(String::new());
    match written {
        Some((dir, md, svg)) => {
            out.extend(wrap(&format!("Every table, a legend of every column and the sources in full: {} (plot: {}).", md.display(), svg.display()), ""));
            out.push(format!("Full report written to {}", dir.display()));
        }
        None => out.push("No report folder written (--report-dir DIR writes one).".into()),
    }
    out
}
