//! The report's sections, as tables built from the measured entries and
//! the papers' figures: the papers' tables side by side with ours, the
//! peers, the summaries. Every number printed here was measured in this run, except
//! the columns headed "paper".

use crate::figure::Figure;
use crate::papers::{self, cell, figure_for};
use crate::plan::Report;
use crate::row::{Entry, Kind};
use crate::measure::AUTO;
use crate::table::Table;
use multiblock::{backends, CipherId};

fn f2(x: f64) -> String {
    format!("{x:.2}")
}

fn f1(x: f64) -> String {
    format!("{x:.1}")
}

fn dash() -> String {
    "–".into()
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}

/// "6.45 cpb [Sovyn 2019 T4]" or "200 MB/s [LUT study T1]".
fn paper_cell(f: Option<&Figure>) -> String {
    match f {
        None => dash(),
        Some(f) => match (f.cycles_per_byte, f.mb_per_s) {
            (Some(c), _) => format!("{c:.2} cpb [{}]", f.source.tag),
            (None, Some(m)) => format!("{m:.0} MB/s [{}]", f.source.tag),
            (None, None) => dash(),
        },
    }
}

/// Entries of one kind, cipher, backend and direction (ours unless `backend` is a peer's).
fn find<'a>(r: &'a Report, kind: Kind, cipher: &str, backend: &str, direction: &str) -> Option<&'a Entry> {
    r.entries.iter().find(|e| {
        let x = &e.row;
        e.kind == kind && x.cipher == cipher && x.backend == backend && x.direction == direction && (x.mode.is_none() || x.peer.is_some() || kind == Kind::Mode)
    })
}

fn cpb(e: Option<&Entry>) -> String {
    e.map_or_else(dash, |e| f2(e.row.cycles_per_byte))
}

fn mbs(e: Option<&Entry>) -> String {
    e.map_or_else(dash, |e| f1(e.row.mb_per_s))
}

fn ciphers_in(r: &Report, kind: Kind) -> Vec<CipherId> {
    CipherId::ALL.into_iter().filter(|id| r.entries.iter().any(|e| e.kind == kind && e.row.cipher == id.name())).collect()
}

fn default_backend(id: CipherId) -> Option<&'static str> {
    backends(id.name()).ok()?.into_iter().find(|b| b.is_default).map(|b| b.info.name)
}

/// All sections in report order.
pub fn all(r: &Report) -> Vec<Table> {
    let mut v = Vec::new();
    v.extend(overview(r));
    v.extend(best_vs_peers(r));
    v.extend(ecb(r));
    v.extend(short_messages(r));
    v.extend(modes(r));
    v.extend(gost_r(r));
    v.extend(kalyna_best(r));
    v.extend(ublock(r));
    v.extend(quoted(r));
    v.extend(sweeps(r));
    v.extend(many_streams(r));
    v.extend(crate::hash_sections::overview(r));
    v.extend(crate::hash_sections::all_rows(r));
    v.extend(size_sweep(r));
    v.push(references(r));
    v
}

/// Sovyn et al. 2019, Tables 4-7: cycles/byte against blocks per call, per backend,
/// with the paper's GCC/MSVC figures beside the backend that does the same job.
fn sweeps(r: &Report) -> Vec<Table> {
    let mut out = Vec::new();
    // The paper's order: GOST 28147-89 (Tables 4-5) before Kalyna (6-7).
    let mut ids = ciphers_in(r, Kind::Sweep);
    ids.sort_by_key(|&id| id != CipherId::Gost89);
    for id in ids {
        for direction in ["encrypt", "decrypt"] {
            let pts: Vec<&Entry> = r.entries.iter().filter(|e| e.kind == Kind::Sweep && e.row.cipher == id.name() && e.row.direction == direction).collect();
            if pts.is_empty() {
                continue;
            }
            let mut bk: Vec<&str> = Vec::new();
            for e in &pts {
                if !bk.contains(&e.row.backend) {
                    bk.push(e.row.backend);
                }
            }
            let mut header = vec!["blocks".to_string()];
            for b in &bk {
                header.push(b.to_string());
                for s in papers::sweeps_for(id.name(), b, direction) {
                    header.push(format!("paper {} [{}]", s.column, s.source.tag));
                }
            }
            let tables = match id {
                CipherId::Gost89 => " (Sovyn et al. 2019, Tables 4–5)",
                CipherId::Kalyna128_128 => " (Sovyn et al. 2019, Tables 6–7)",
                _ => "",
            };
            let mut t = Table { title: format!("{id} {direction}: cycles/byte against blocks per call{tables}"), notes: Vec::new(), header, rows: Vec::new() };
            t.note("One call processes N blocks of a hot buffer; cycles/byte = TSC ticks per call / (N × block bytes), best of the repetitions. A column named after a backend (or auto) is ours, measured here; paper cells are GCC/MSVC.");
            for w in ways_of(&pts) {
                let mut row = vec![w.to_string()];
                for b in &bk {
                    row.push(cpb(pts.iter().copied().find(|e| e.row.backend == *b && e.row.ways == w)));
                    for s in papers::sweeps_for(id.name(), b, direction) {
                        row.push(paper_pair(s, w));
                    }
                }
                t.row(row);
            }
            // The best of each column, with its N.
            let mut best = vec!["best".to_string()];
            for b in &bk {
                let e = pts.iter().filter(|e| e.row.backend == *b).min_by(|x, y| x.row.cycles_per_byte.total_cmp(&y.row.cycles_per_byte));
                best.push(e.map_or_else(dash, |e| format!("{:.2} ({})", e.row.cycles_per_byte, e.row.ways)));
                for s in papers::sweeps_for(id.name(), b, direction) {
                    best.push(paper_best(s));
                }
            }
            t.row(best);
            if id == CipherId::Kalyna128_128 {
                t.note("Beside avx512-gfni: Table 7's AVX-512 column (F+BW only, constant-time, the same job) and Table 6's AVX-512 gather-table column (not constant-time); the paper's CPU had no VBMI or GFNI.");
            }
            out.push(t);
            out.extend(other_paper_columns(id, direction, &bk));
        }
    }
    out
}

/// "GCC/MSVC" of a paper column at `w` blocks, "–" where it has none.
fn paper_pair(s: &papers::Sweep, w: usize) -> String {
    s.at(w).map_or_else(dash, |(g, m)| format!("{}/{}", cell(g), cell(m)))
}

/// A paper column's best cell: "5.47 (12, GCC)".
fn paper_best(s: &papers::Sweep) -> String {
    let (w, c, comp) = s.best();
    format!("{c:.2} ({w}, {comp})")
}

fn ways_of(pts: &[&Entry]) -> Vec<usize> {
    let mut ways: Vec<usize> = pts.iter().map(|e| e.row.ways).collect();
    ways.sort_unstable();
    ways.dedup();
    ways
}

/// The Sovyn et al. 2019 columns of `id`/`direction` that no backend measured here
/// sits beside (the gather-table code, 16-bit GOST tables, Kalyna SSE-128
/// where there is no such backend), so that every cell of Tables 4-7 shows.
fn other_paper_columns(id: CipherId, direction: &str, present: &[&str]) -> Option<Table> {
    let cols = papers::unmatched_sweeps(id.name(), direction, present);
    if cols.is_empty() {
        return None;
    }
    let mut header = vec!["blocks".to_string()];
    header.extend(cols.iter().map(|s| format!("paper {} [{}]", s.column, s.source.tag)));
    let mut t = Table { title: format!("{id} {direction}: the paper's other columns (no backend here does the same job)"), notes: Vec::new(), header, rows: Vec::new() };
    let mut ways: Vec<usize> = cols.iter().flat_map(|s| s.points.iter().map(|p| p.0)).collect();
    ways.sort_unstable();
    ways.dedup();
    for w in ways {
        let mut row = vec![w.to_string()];
        row.extend(cols.iter().map(|s| paper_pair(s, w)));
        t.row(row);
    }
    let mut best = vec!["best".to_string()];
    best.extend(cols.iter().map(|s| paper_best(s)));
    t.row(best);
    t.note("Cells are GCC/MSVC cycles/byte on the paper's Xeon Skylake-SP 2.0 GHz. Gathers are neither constant-time nor faster than the vpshufb/vpermb code, so this project has no gather backend.");
    Some(t)
}

/// All five Kalyna variants at their best (long messages), beside the
/// developers' figures (Sovyn et al. 2019, Table 1) and dstu-core.
fn kalyna_best(r: &Report) -> Vec<Table> {
    let kalyna: Vec<CipherId> = ciphers_in(r, Kind::Ecb).into_iter().filter(|id| id.name().starts_with("kalyna")).collect();
    if kalyna.is_empty() {
        return Vec::new();
    }
    let mut t = Table::new(
        "Kalyna, all five variants at their best (ECB, long messages, cycles/byte)",
        &["cipher", "best constant-time", "enc", "dec", "best of all", "enc", "dec", "dstu-core enc", "paper: developers' code [Sovyn 2019 T1]", "paper: best constant-time [Sovyn 2019 T7]", "paper: best tables [Sovyn 2019 T6]"],
    );
    for id in kalyna {
        let best = |ct_only: bool| {
            r.entries
                .iter()
                .filter(|e| e.kind == Kind::Ecb && e.row.peer.is_none() && e.row.cipher == id.name() && e.row.direction == "encrypt" && (e.row.constant_time || !ct_only))
                .min_by(|a, b| a.row.cycles_per_byte.total_cmp(&b.row.cycles_per_byte))
        };
        let mut row = vec![id.name().to_string()];
        for ct in [true, false] {
            match best(ct) {
                Some(e) => {
                    row.push(e.row.backend.to_string());
                    row.push(f2(e.row.cycles_per_byte));
                    row.push(cpb(find(r, Kind::Ecb, id.name(), e.row.backend, "decrypt")));
                }
                None => row.extend([dash(), dash(), dash()]),
            }
        }
        row.push(cpb(find(r, Kind::Ecb, id.name(), "dstu-core", "encrypt")));
        let p = papers::POINTS.iter().find(|p| p.cipher == id.name() && p.source.tag == papers::SOVYN_2019_T1.tag);
        row.push(p.map_or_else(dash, |p| f2(p.cycles_per_byte)));
        for tag in [papers::SOVYN_2019_T7.tag, papers::SOVYN_2019_T6.tag] {
            let best = papers::SWEEPS
                .iter()
                .filter(|s| s.cipher == id.name() && s.source.tag == tag && s.direction == "encrypt")
                .map(|s| (s.best(), s.column))
                .min_by(|a, b| a.0 .1.total_cmp(&b.0 .1));
            row.push(best.map_or_else(dash, |((w, c, comp), col)| format!("{c:.2} ({col}, {w} blocks, {comp})")));
        }
        t.row(row);
    }
    t.note("The paper's Table 1 quotes the developers' single-block T-table code [14] on a Core i5-4670 (3.4 GHz); its own Tables 6-7 measure only Kalyna-128/128 (see the sweep above).");
    vec![t]
}

/// The figures the papers quote from other work (Sovyn et al. 2019 Tables
/// 1-2 and its \[3\], the LUT study's reference columns, the uBlock design
/// document on 256 B),
/// beside our best constant-time figure for the same cipher and direction.
fn quoted(r: &Report) -> Vec<Table> {
    let mut t = Table::new(
        "Published figures the papers quote (other code, other CPUs) beside our best constant-time ECB",
        &["cipher", "dir", "implementation", "paper cpb", "paper MB/s", "source", "ours: backend", "cpb", "MB/s"],
    );
    for p in papers::QUOTED {
        let ours = r
            .entries
            .iter()
            .filter(|e| e.kind == Kind::Ecb && e.row.peer.is_none() && e.row.constant_time && e.row.cipher == p.cipher && e.row.direction == p.direction)
            .min_by(|a, b| a.row.cycles_per_byte.total_cmp(&b.row.cycles_per_byte));
        let Some(e) = ours else { continue };
        let num = |x: f64| if x.is_nan() { dash() } else { f2(x) };
        let mb = |x: f64| if x.is_nan() { dash() } else { f1(x) };
        t.row(vec![
            p.cipher.into(),
            p.direction.into(),
            p.implementation.into(),
            num(p.cycles_per_byte),
            mb(p.mb_per_s),
            format!("[{}]", p.source.tag),
            e.row.backend.into(),
            f2(e.row.cycles_per_byte),
            f1(e.row.mb_per_s),
        ]);
    }
    if t.rows.is_empty() {
        return Vec::new();
    }
    t.note("Each source's CPU is in the list of sources; cycles/byte across CPUs compare only roughly. Gao et al. 2024's CBC four-key results are relative only (+143/+167/+47 % over the designers' code, +34/+37/+79 % over a plain AVX2 port) and its Table 9 lists instruction latencies, so neither has a row.");
    vec![t]
}

/// The experiment of the Magma and Kuznyechik LUT study: by backend, long and short messages.
fn gost_r(r: &Report) -> Vec<Table> {
    let ids: Vec<CipherId> = ciphers_in(r, Kind::Ecb).into_iter().filter(|id| matches!(id, CipherId::Magma | CipherId::Kuznyechik)).collect();
    if ids.is_empty() {
        return Vec::new();
    }
    let mut t = Table::new(
        "Magma and Kuznyechik by backend (as in the study \"Magma and Kuznyechik with SSE2/AVX/AVX2 and LUTs\"): long messages and 64 B with key setup",
        &["cipher", "backend", "ct", "enc MB/s", "enc cpb", "dec cpb", "64 B enc cpb", "64 B dec cpb", "paper enc"],
    );
    for id in ids {
        for e in r.entries.iter().filter(|e| e.kind == Kind::Ecb && e.row.cipher == id.name() && e.row.direction == "encrypt") {
            let b = e.row.backend;
            let name = match e.row.peer {
                Some(p) => format!("{b} (peer: {p})"),
                None => b.to_string(),
            };
            t.row(vec![
                id.name().into(),
                name,
                yes_no(e.row.constant_time),
                f1(e.row.mb_per_s),
                f2(e.row.cycles_per_byte),
                if e.row.peer.is_some() { dash() } else { cpb(find(r, Kind::Ecb, id.name(), b, "decrypt")) },
                cpb(find(r, Kind::Short, id.name(), b, "encrypt").filter(|_| e.row.peer.is_none())),
                cpb(find(r, Kind::Short, id.name(), b, "decrypt").filter(|_| e.row.peer.is_none())),
                paper_cell(figure_for(e).as_ref()),
            ]);
        }
    }
    t.note("The LUT study reports MB/s of file encryption on a Core i3-9100F (3.6-4.2 GHz); its Magma code is AVX vpshufb (constant-time), its Kuznyechik code LS lookup tables with SSE2 (195 MB/s) and AVX2 (190 MB/s).");
    vec![t]
}

/// Gao et al. 2024's test matrix: variant × one or four keys × short or long × enc/dec.
fn ublock(r: &Report) -> Vec<Table> {
    let ids: Vec<CipherId> = ciphers_in(r, Kind::MultiKey);
    if ids.is_empty() {
        return Vec::new();
    }
    let mut t = Table::new(
        "uBlock: one key and four keys (ublock::multi_key), short and long messages (as in Gao et al. 2024)",
        &["cipher", "backend", "keys", "message", "enc MB/s", "enc cpb", "dec MB/s", "dec cpb", "paper enc"],
    );
    for id in ids {
        let mut bk: Vec<&str> = r.entries.iter().filter(|e| e.kind == Kind::MultiKey && e.row.cipher == id.name()).map(|e| e.row.backend).collect();
        bk.dedup();
        for b in bk {
            let scenarios: [(Kind, &str, &str); 4] = [
                (Kind::Short, "1", "short"),
                (Kind::MultiKey, "4", "short"),
                (Kind::Ecb, "1", "long"),
                (Kind::MultiKey, "4", "long"),
            ];
            for (kind, keys, message) in scenarios {
                let get = |d: &str| {
                    r.entries.iter().find(|e| e.kind == kind && e.row.cipher == id.name() && e.row.backend == b && e.row.direction == d && e.message() == message && e.row.mode.is_none())
                };
                let (enc, dec) = (get("encrypt"), get("decrypt"));
                let Some(first) = enc.or(dec) else { continue };
                let size = if message == "short" { "64 B + key setup".to_string() } else { format!("{} KiB", first.row.bytes / 1024) };
                t.row(vec![
                    id.name().into(),
                    b.into(),
                    keys.into(),
                    size,
                    mbs(enc),
                    cpb(enc),
                    mbs(dec),
                    cpb(dec),
                    paper_cell(enc.and_then(figure_for).as_ref()),
                ]);
            }
        }
    }
    t.note("Short: key setup plus 64 bytes per key (4 keys: 4 × 64 B in one call). Long: one message (1 key) or four equal streams (4 keys) in total as listed.");
    t.note("Gao et al. 2024 (Ryzen 9 5900X, 3.7 GHz) time key setup plus 4 blocks per call and print Mibit/s; shown here as MB/s. The designers' SSE figures (Wu et al. 2019) are cycles/byte on 1 MB (Core i7-3740QM).");
    vec![t]
}

/// 64 bytes including key setup: what a user gets (`auto`) against the
/// table and reference backends.
fn short_messages(r: &Report) -> Vec<Table> {
    let ids = ciphers_in(r, Kind::Short);
    if ids.is_empty() {
        return Vec::new();
    }
    let has = |b: &str| r.entries.iter().any(|e| e.kind == Kind::Short && e.row.backend == b);
    let with_table = has("table") || has("table12");
    let with_reference = has("reference");
    let mut header = vec!["cipher", "auto/default", "enc", "dec"];
    if with_table {
        header.extend(["table enc", "table dec"]);
    }
    if with_reference {
        header.extend(["reference enc", "reference dec"]);
    }
    if with_table || with_reference {
        header.push("default not slower");
    }
    let others = match (with_table, with_reference) {
        (true, true) => "table and reference",
        (true, false) => "table",
        (false, true) => "reference",
        (false, false) => "",
    };
    let title = if others.is_empty() {
        "Short messages: key setup + 64 bytes (cycles/byte), auto (no backend forced)".to_string()
    } else {
        format!("Short messages: key setup + 64 bytes (cycles/byte), auto (no backend forced) against {others}")
    };
    let mut t = Table::new(title, &header);
    for id in ids {
        // What a user gets (no backend forced) where measured, else the default backend's row.
        let def = [Some(AUTO), default_backend(id)].into_iter().flatten().find(|b| find(r, Kind::Short, id.name(), b, "encrypt").is_some());
        let table = ["table12", "table"].into_iter().find(|b| find(r, Kind::Short, id.name(), b, "encrypt").is_some());
        let get = |b: Option<&str>, d: &str| b.and_then(|b| find(r, Kind::Short, id.name(), b, d));
        let mut verdict = None;
        for d in ["encrypt", "decrypt"] {
            if let Some(de) = get(def, d) {
                for other in [get(table, d), get(Some("reference"), d)].into_iter().flatten() {
                    let ok = de.row.cycles_per_byte <= other.row.cycles_per_byte;
                    verdict = Some(verdict.unwrap_or(true) && ok);
                }
            }
        }
        let mut row = vec![id.name().into(), def.unwrap_or("–").into(), cpb(get(def, "encrypt")), cpb(get(def, "decrypt"))];
        if with_table {
            row.extend([cpb(get(table, "encrypt")), cpb(get(table, "decrypt"))]);
        }
        if with_reference {
            row.extend([cpb(get(Some("reference"), "encrypt")), cpb(get(Some("reference"), "decrypt"))]);
        }
        if with_table || with_reference {
            row.push(verdict.map_or_else(dash, yes_no));
        }
        t.row(row);
    }
    if with_table {
        t.note("\"table\" is the fastest table backend (table12 for GOST). Every backend's figure is in --json/--csv (section \"short\").");
    }
    vec![t]
}

/// The fastest table backend's long-message encryption of `id` (not constant-time).
pub fn best_table(r: &Report, id: CipherId) -> Option<&Entry> {
    r.entries
        .iter()
        .filter(|e| e.kind == Kind::Ecb && e.row.peer.is_none() && e.row.backend.starts_with("table") && e.row.cipher == id.name() && e.row.direction == "encrypt")
        .min_by(|a, b| a.row.cycles_per_byte.total_cmp(&b.row.cycles_per_byte))
}

/// The fastest peer's encryption of `id`.
pub fn fastest_peer(r: &Report, id: CipherId) -> Option<&Entry> {
    peers(r).into_iter().filter(|p| p.row.cipher == id.name()).min_by(|a, b| a.row.cycles_per_byte.total_cmp(&b.row.cycles_per_byte))
}

/// What a user gets on 64 bytes with key setup: `auto`'s row, else the default backend's.
pub fn short_of(r: &Report, id: CipherId) -> Option<&Entry> {
    [Some(AUTO), default_backend(id)].into_iter().flatten().find_map(|b| find(r, Kind::Short, id.name(), b, "encrypt"))
}

/// The overview (the summary's table, the report's first): per cipher, our
/// fastest constant-time backend on long messages and 64 B with key setup,
/// our table code, the fastest peer and how many times faster ours is.
pub fn overview(r: &Report) -> Option<Table> {
    let mut t = Table::new(
        "Overview: encryption in cycles/byte (c/B, lower is faster) and MB/s, long messages and 64 B with key setup",
        &["cipher", "ours (ct)", "c/B", "MB/s", "64 B", "table", "fastest peer", "peer ÷ ours"],
    );
    for (id, e) in best_constant_time(r) {
        let peer = fastest_peer(r, id);
        t.row(vec![
            id.name().into(),
            e.row.backend.into(),
            f2(e.row.cycles_per_byte),
            format!("{:.0}", e.row.mb_per_s),
            cpb(short_of(r, id)),
            cpb(best_table(r, id)),
            peer.map_or_else(dash, |p| format!("{} {:.2}", p.row.backend, p.row.cycles_per_byte)),
            peer.map_or_else(dash, |p| format!("{:.1}×", p.row.cycles_per_byte / e.row.cycles_per_byte)),
        ]);
    }
    (!t.rows.is_empty()).then_some(t)
}

/// Each cipher's best constant-time encryption against the peers (the bar chart).
pub fn best_constant_time(r: &Report) -> Vec<(CipherId, &Entry)> {
    CipherId::ALL
        .into_iter()
        .filter_map(|id| {
            r.entries
                .iter()
                .filter(|e| e.kind == Kind::Ecb && e.row.peer.is_none() && e.row.constant_time && e.row.cipher == id.name() && e.row.direction == "encrypt")
                .min_by(|a, b| a.row.cycles_per_byte.total_cmp(&b.row.cycles_per_byte))
                .map(|e| (id, e))
        })
        .collect()
}

/// The peers' entries (long messages, encryption).
pub fn peers(r: &Report) -> Vec<&Entry> {
    r.entries.iter().filter(|e| e.kind == Kind::Ecb && e.row.peer.is_some()).collect()
}

fn best_vs_peers(r: &Report) -> Vec<Table> {
    let best = best_constant_time(r);
    if best.is_empty() {
        return Vec::new();
    }
    let mut t = Table::new(
        "Best constant-time speed against the peers (ECB encryption, long messages)",
        &["cipher", "backend", "MB/s", "cpb", "peer", "peer MB/s", "peer cpb", "speed-up"],
    );
    for (id, e) in &best {
        let ps: Vec<&Entry> = peers(r).into_iter().filter(|p| p.row.cipher == id.name()).collect();
        if ps.is_empty() {
            t.row(vec![id.name().into(), e.row.backend.into(), f1(e.row.mb_per_s), f2(e.row.cycles_per_byte), dash(), dash(), dash(), dash()]);
        }
        for p in ps {
            t.row(vec![
                id.name().into(),
                e.row.backend.into(),
                f1(e.row.mb_per_s),
                f2(e.row.cycles_per_byte),
                p.row.peer.unwrap_or("").into(),
                f1(p.row.mb_per_s),
                f2(p.row.cycles_per_byte),
                format!("{:.1}×", p.row.cycles_per_byte / e.row.cycles_per_byte),
            ]);
        }
    }
    for p in peers(r).into_iter().filter(|p| CipherId::from_name(p.row.cipher).is_err()) {
        t.row(vec![
            format!("{} {}", p.row.cipher, p.row.mode.unwrap_or("")),
            p.row.backend.into(),
            dash(),
            dash(),
            p.row.peer.unwrap_or("").into(),
            f1(p.row.mb_per_s),
            f2(p.row.cycles_per_byte),
            dash(),
        ]);
    }
    t.note("Speed-up = peer cycles/byte ÷ ours. The peers are table-based (not constant-time) except AES-128-CTR, which runs on the AES instructions.");
    for n in &r.notes {
        t.note(n.clone());
    }
    if !r.peers_built {
        t.note("Peers not built: this build left out the default feature `peers` (--no-default-features).");
    }
    vec![t]
}

/// Every backend and peer, ECB, long messages: the foundation's table.
fn ecb(r: &Report) -> Vec<Table> {
    let title = if r.settings.full {
        "Every cipher on every backend (ECB, long messages)"
    } else {
        "Every cipher on the backends measured (ECB, long messages; --full: every backend this CPU runs)"
    };
    let mut t = Table::new(
        title,
        &["cipher", "backend", "ct", "dir", "ways", "bytes", "MB/s", "cycles/B", "median", "peer / paper"],
    );
    for e in r.entries.iter().filter(|e| e.kind == Kind::Ecb) {
        let x = &e.row;
        let cipher = match x.mode {
            Some(m) => format!("{} {m}", x.cipher),
            None => x.cipher.to_string(),
        };
        let extra = match (x.peer, figure_for(e)) {
            (Some(p), _) => format!("peer: {p}"),
            (None, Some(f)) => format!("paper: {}", paper_cell(Some(&f))),
            _ => String::new(),
        };
        t.row(vec![cipher, x.backend.into(), yes_no(x.constant_time), x.direction.into(), x.ways.to_string(), x.bytes.to_string(), f1(x.mb_per_s), f2(x.cycles_per_byte), f2(e.median_cycles_per_byte), extra]);
    }
    if t.rows.is_empty() {
        return Vec::new();
    }
    t.note("`ways` is the backend's width (blocks per kernel call); the `reference` oracles run on a smaller message (the `bytes` column).");
    vec![t]
}

fn modes(r: &Report) -> Vec<Table> {
    let mut t = Table::new("Modes of operation (÷ ECB: against the same backend's ECB on long messages)", &["cipher", "mode", "backend", "dir", "MB/s", "cycles/B", "÷ ECB"]);
    for e in r.entries.iter().filter(|e| e.kind == Kind::Mode) {
        let x = &e.row;
        // auto's ECB: the default backend's long-message row.
        let ecb_backend = if x.backend == AUTO { default_backend_of(x.cipher).unwrap_or(AUTO) } else { x.backend };
        let ecb = find(r, Kind::Ecb, x.cipher, ecb_backend, if x.direction == "decrypt" { "decrypt" } else { "encrypt" });
        t.row(vec![
            x.cipher.into(),
            x.mode.unwrap_or("").into(),
            x.backend.into(),
            x.direction.into(),
            f1(x.mb_per_s),
            f2(x.cycles_per_byte),
            ecb.map_or_else(dash, |b| format!("{:.2}", x.cycles_per_byte / b.row.cycles_per_byte)),
        ]);
    }
    if t.rows.is_empty() {
        return Vec::new();
    }
    t.note("Every mode row is the one-shot call, which copies its input into a new output vector first; its `ecb` row (with --modes) is that call for ECB, the cost every mode row carries over the in-place ECB.");
    vec![t]
}

fn default_backend_of(cipher: &str) -> Option<&'static str> {
    default_backend(CipherId::from_name(cipher).ok()?)
}

/// Many messages of a serial mode under one key in the SIMD lanes, against
/// ECB over one message of the same total in the same run.
fn many_streams(r: &Report) -> Vec<Table> {
    let pts: Vec<&Entry> = r.entries.iter().filter(|e| e.kind == Kind::Many).collect();
    let Some(first) = pts.iter().find(|e| e.streams > 1) else { return Vec::new() };
    let mut t = Table::new(
        format!("Many streams: {} messages of {} KiB under one key, auto (modes::many, `mac FILE...`)", first.streams, first.row.bytes / first.streams / 1024),
        &["cipher", "mode", "dir", "MB/s", "cycles/B", "ECB one message cycles/B", "÷ ECB"],
    );
    for e in pts.iter().filter(|e| e.streams > 1) {
        let x = &e.row;
        let ecb = pts.iter().find(|o| o.row.cipher == x.cipher && o.row.mode == Some("ecb"));
        t.row(vec![
            x.cipher.into(),
            x.mode.unwrap_or("").into(),
            x.direction.into(),
            f1(x.mb_per_s),
            f2(x.cycles_per_byte),
            cpb(ecb.copied()),
            ecb.map_or_else(dash, |b| f2(x.cycles_per_byte / b.row.cycles_per_byte)),
        ]);
    }
    t.note("One wide encrypt_blocks call per step over every stream's next block; the ECB row encrypts all the streams' bytes as one message. encrypt: into new vectors (encrypt_many); encrypt_to: into one buffer kept from call to call (encrypt_many_to); encrypt_in_place: over the messages (encrypt_many_in_place).");
    vec![t]
}

/// `--size-sweep`: cycles/byte against the size of one call, per backend.
fn size_sweep(r: &Report) -> Vec<Table> {
    let mut out = Vec::new();
    for id in ciphers_in(r, Kind::Size) {
        let pts: Vec<&Entry> = r.entries.iter().filter(|e| e.kind == Kind::Size && e.row.cipher == id.name()).collect();
        let mut bk: Vec<&str> = Vec::new();
        let mut sizes: Vec<usize> = Vec::new();
        for e in &pts {
            if !bk.contains(&e.row.backend) {
                bk.push(e.row.backend);
            }
            if !sizes.contains(&e.row.bytes) {
                sizes.push(e.row.bytes);
            }
        }
        let header: Vec<String> = std::iter::once("bytes".to_string()).chain(bk.iter().map(|b| b.to_string())).collect();
        let mut t = Table { title: format!("{id} encryption: cycles/byte against data size (the method of Golchevsky & Ushakov 2023)"), notes: Vec::new(), header, rows: Vec::new() };
        for size in sizes {
            let mut row = vec![size_label(size)];
            for b in &bk {
                row.push(cpb(pts.iter().copied().find(|e| e.row.backend == *b && e.row.bytes == size)));
            }
            t.row(row);
        }
        t.note("A column named after a backend (or auto) is ours, measured here. One ECB call over a buffer of each size, repeated to about 4 MiB per repetition (once past it); best of the repetitions (2 from 64 MiB up). reference stops at 256 KiB.");
        out.push(t);
    }
    out
}

/// 512M, 64K, 16 (bytes, powers of two in binary units).
pub fn size_label(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{}G", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{}M", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{}K", b >> 10),
        b => b.to_string(),
    }
}

fn references(r: &Report) -> Table {
    let mut t = Table::new("Sources of the published figures", &["tag", "paper", "table", "CPU"]);
    for s in papers::SOURCES {
        t.row(vec![s.tag.into(), s.paper.into(), s.table.into(), s.cpu.into()]);
    }
    if r.entries.iter().any(|e| e.kind == Kind::Size) {
        t.row(vec!["size sweep".into(), papers::GOLCHEVSKY_2023.into(), "§3, the method (no figures quoted)".into(), dash()]);
    }
    t.note("A cell \"… [tag]\" in a column headed \"paper\" is that source's published figure, measured by its authors on the CPU named here, not in this run.");
    t
}
