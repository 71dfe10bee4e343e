//! The benchmark report's output formats, end to end: the default run's
//! summary and report folder, JSON lines, CSV and Markdown shapes, the SVG
//! plot, `--full`, `--quick`. No timing is asserted (the machine may be
//! loaded); the checks are on shape, keys, the legend and the papers'
//! figures (cited by authors and year) landing beside the matching rows.

use serde_json::Value;
use std::process::{Command, Output, Stdio};

fn bench(args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_multiblock-bench"))
        .args(args)
        .env_remove("MULTIBLOCK_BACKEND")
        .stdin(Stdio::null())
        .output()
        .expect("spawn multiblock-bench");
    o
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

const FOUNDATION_KEYS: [&str; 8] = ["cipher", "backend", "constant_time", "direction", "ways", "bytes", "mb_per_s", "cycles_per_byte"];

#[test]
fn json_lines_keep_the_foundation_keys_and_cover_every_section() {
    let text = ok(&bench(&["--quick", "--full", "--json", "--cipher", "gost89", "ublock-128-128", "--reps", "1"]));
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect();
    for v in &lines {
        for k in FOUNDATION_KEYS.iter().chain(&["section", "message", "keys", "median_cycles_per_byte"]) {
            assert!(v.get(*k).is_some(), "{v} lacks {k}");
        }
        assert!(v["cycles_per_byte"].as_f64().unwrap() > 0.0, "{v}");
        assert!(v["median_cycles_per_byte"].as_f64().unwrap() >= v["cycles_per_byte"].as_f64().unwrap(), "{v}");
    }
    let section = |name: &str| lines.iter().filter(|v| v["section"] == name).collect::<Vec<_>>();
    for name in ["ecb", "sweep", "short", "multi-key"] {
        assert!(!section(name).is_empty(), "no {name} lines in:\n{text}");
    }
    // --quick sweeps 1..64 blocks per call for gost89 (uBlock is swept only because --cipher names it).
    let ways: Vec<u64> = section("sweep").iter().filter(|v| v["cipher"] == "gost89" && v["backend"] == "table").map(|v| v["ways"].as_u64().unwrap()).collect();
    assert_eq!(ways, [1, 2, 4, 8, 16, 32, 64]);
    // Sovyn et al. 2019, Table 4 sits beside the 8-bit table backend: 4-way GCC 12.19 / MSVC 15.94.
    let t4 = section("sweep").into_iter().find(|v| v["cipher"] == "gost89" && v["backend"] == "table" && v["ways"] == 4).unwrap();
    assert_eq!(t4["paper_cycles_per_byte"], 12.19, "{t4}");
    let source = t4["paper_source"].as_str().unwrap();
    for part in ["Sovyn", "2019", "Efficient implementation and performance comparison of the Kalyna and GOST 28147-89 ciphers", "Table 4"] {
        assert!(source.contains(part), "{t4}");
    }
    // Short messages: 64 bytes; multi-key: four streams.
    assert!(section("short").iter().all(|v| v["bytes"] == 64 && v["message"] == "short"));
    for v in section("multi-key") {
        assert_eq!(v["keys"], 4, "{v}");
        assert!(v["bytes"].as_u64().unwrap() % (4 * 16) == 0, "{v}");
    }
    // Peers (AES-128-CTR, OpenSSL) keep `peer`.
    for v in lines.iter().filter(|v| v["backend"] == "openssl-gost" || v["cipher"] == "aes-128") {
        assert!(v["peer"].as_str().is_some_and(|p| !p.is_empty()), "{v}");
    }
}

/// Splits one CSV line (RFC 4180 quoting).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted, mut chars) = (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

#[test]
fn csv_has_a_header_and_rectangular_rows() {
    let text = ok(&bench(&["--quick", "--sweep", "--csv", "--cipher", "gost89", "kalyna-128-128", "--backend", "table", "--reps", "1"]));
    let mut lines = text.lines();
    let header = csv_fields(lines.next().unwrap());
    for k in FOUNDATION_KEYS.iter().chain(&["section", "peer", "mode", "paper_cycles_per_byte", "paper_source"]) {
        assert!(header.iter().any(|h| h == k), "header lacks {k}: {header:?}");
    }
    let col = |k: &str| header.iter().position(|h| h == k).unwrap();
    let mut rows = 0;
    let mut with_paper = 0;
    for line in lines {
        let f = csv_fields(line);
        assert_eq!(f.len(), header.len(), "{line}");
        assert_eq!(f[col("backend")], "table", "{line}");
        f[col("cycles_per_byte")].parse::<f64>().unwrap();
        if !f[col("paper_cycles_per_byte")].is_empty() {
            with_paper += 1;
            assert!(f[col("paper_source")].contains("Sovyn") && f[col("paper_source")].contains("2019"), "{line}");
        }
        rows += 1;
    }
    assert!(rows > 10, "{text}");
    // gost89 Table 4 (1-5 blocks) and Kalyna Table 6 (1, 2, 4 blocks, both directions).
    assert!(with_paper >= 3 + 2 * 3 - 2, "{text}");
}

#[test]
fn markdown_tables_are_well_formed() {
    let text = ok(&bench(&["--quick", "--sweep", "--markdown", "--cipher", "gost89", "kuznyechik", "--reps", "1"]));
    assert!(text.contains("- **TSC**: "), "{text}");
    assert!(text.contains("- **CPU**: "), "{text}");
    let mut tables = 0;
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("|---") || l.starts_with("|--") {
            let cols = lines[i - 1].matches(" | ").count();
            assert!(l.split('|').filter(|c| c.contains("---")).count() == cols + 1, "{}\n{l}", lines[i - 1]);
            for row in lines[i + 1..].iter().take_while(|r| r.starts_with('|')) {
                assert_eq!(row.replace("\\|", "").matches(" | ").count(), cols, "{row}");
            }
            tables += 1;
        }
    }
    assert!(text.contains("### gost89 encrypt: cycles/byte against blocks per call (Sovyn et al. 2019, Tables 4–5)"), "{text}");
    assert!(text.contains("### Magma and Kuznyechik by backend"), "{text}");
    assert!(text.contains("### Short messages"), "{text}");
    assert!(tables >= 5, "{text}");
}

#[test]
fn plot_writes_an_svg_with_labelled_axes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.svg");
    let text = ok(&bench(&["--quick", "--sweep", "--cipher", "gost89", "kuznyechik", "--reps", "1", "--plot", path.to_str().unwrap(), "--report-dir", dir.path().join("report").to_str().unwrap()]));
    assert!(text.contains("TSC"), "{text}");
    let svg = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    let all = texts.join("\n");
    for label in ["blocks processed per call", "cycles per byte", "gost89 encryption", "Best constant-time speed", "(not constant-time)"] {
        assert!(all.contains(label), "no '{label}' in the SVG's text");
    }
    assert!(doc.descendants().filter(|n| n.tag_name().name() == "polyline" || n.tag_name().name() == "path").count() > 2);
    assert!(doc.descendants().filter(|n| n.tag_name().name() == "rect").count() > 2);
}

#[test]
fn bad_arguments_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/folder/x.svg");
    let not_a_folder = dir.path().join("file");
    std::fs::write(&not_a_folder, b"").unwrap();
    for args in [
        vec!["--plot", missing.to_str().unwrap(), "--cipher", "magma"],
        vec!["--ways", "0"],
        vec!["--cipher", "no-such-cipher"],
        vec!["--json", "--markdown"],
        vec!["--report-dir", not_a_folder.to_str().unwrap(), "--cipher", "magma"],
        vec!["--size-sweep", "--full"],
    ] {
        let o = bench(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    assert!(!missing.exists());
}

#[test]
fn quick_full_text_report_covers_every_cipher() {
    // Without the hashing section, which hash_report.rs checks: every hash
    // on every backend (`reference` among them) takes about 50 times as
    // long as the ciphers.
    let text = ok(&bench(&["--quick", "--full", "--text", "--no-hashes", "--reps", "1"]));
    for needle in ["TSC:", "gost89 encrypt: cycles/byte", "kalyna-128-128 decrypt: cycles/byte", "Kalyna, all five variants", "uBlock: one key and four keys", "Short messages", "Sources of the published figures"] {
        assert!(text.contains(needle), "no '{needle}' in:\n{text}");
    }
    for id in ["kalyna-512-512", "kuznyechik", "magma", "gost89", "ublock-256-256"] {
        assert!(text.contains(id), "{id}");
    }
}

/// Sovyn et al. 2019, Tables 6 and 7 in full: the AVX-512 columns (Table 7
/// constant-time 8.32/8.78 enc, 15.14/15.55 dec at 16 blocks; Table 6 gather
/// best 5.47 / 6.84 at 12 blocks) beside avx512-gfni where this CPU has it,
/// in the "other columns" table where it does not; the quoted figures too.
#[test]
fn kalyna_sweep_shows_every_column_of_tables_6_and_7() {
    let text = ok(&bench(&["--quick", "--sweep", "--markdown", "--cipher", "kalyna-128-128", "--reps", "1"]));
    let section = |title: &str| {
        let start = text.find(title).unwrap_or_else(|| panic!("no '{title}' in:\n{text}"));
        let rest = &text[start..];
        rest[..rest[4..].find("\n### ").map_or(rest.len(), |i| i + 4)].to_string()
    };
    let both = |dir: &str| {
        let mut s = section(&format!("### kalyna-128-128 {dir}: cycles/byte against blocks per call"));
        if let Some(i) = text.find(&format!("### kalyna-128-128 {dir}: the paper's other columns")) {
            s.push_str(&text[i..]);
        }
        s
    };
    let (enc, dec) = (both("encrypt"), both("decrypt"));
    for (s, cells) in [(&enc, ["| 16 |", "8.32/8.78", "5.47 (12, GCC)", "10.63 (8, MSVC)", "24.00 (4, MSVC)"]), (&dec, ["| 16 |", "15.14/15.55", "6.84 (12, GCC)", "17.19 (8, MSVC)", "35.88 (4, MSVC)"])] {
        for c in cells {
            assert!(s.contains(c), "no '{c}' in:\n{s}");
        }
    }
    let t = section("### kalyna-128-128 encrypt: cycles/byte against blocks per call");
    let header = t.lines().find(|l| l.starts_with("| blocks")).unwrap();
    if header.contains("| avx512-gfni |") {
        let at = |needle: &str| header.find(needle).unwrap_or_else(|| panic!("no '{needle}' in {header}"));
        assert!(at("| avx512-gfni |") < at("AVX-512 F+BW row-scan S-boxes [Sovyn 2019 T7]"));
        assert!(at("AVX-512 F+BW row-scan S-boxes [Sovyn 2019 T7]") < at("AVX-512 gather T-tables (not constant-time) [Sovyn 2019 T6]"));
    }
    let quoted = section("### Published figures the papers quote");
    for c in ["«Шифр+» v2 | 20.28", "[Sovyn 2019 T1 [10]]"] {
        assert!(quoted.contains(c), "no '{c}' in:\n{quoted}");
    }
}

/// `--full`: an `auto` row (no backend forced) beside the forced ones in the
/// short, sweep and modes sections; the many-streams section (64 messages
/// per serial mode with a wide form, the cipher modes into new vectors, one
/// kept buffer and in place, and ECB in the same run); the size
/// sweep from --max-bytes halving to one block for `auto` and every backend.
#[test]
fn auto_rows_many_streams_and_the_size_sweep() {
    let text = ok(&bench(&["--quick", "--full", "--json", "--modes", "--cipher", "magma", "--reps", "1"]));
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect();
    let rows = |section: &str, backend: &str| lines.iter().filter(|v| v["section"] == section && v["backend"] == backend).count();
    for section in ["short", "sweep", "modes"] {
        assert!(rows(section, "auto") > 0, "no auto row in {section}:\n{text}");
        assert!(rows(section, "table") > 0, "no forced table row in {section}:\n{text}");
    }
    let many: Vec<&Value> = lines.iter().filter(|v| v["section"] == "many-streams").collect();
    let modes: Vec<&str> = many.iter().map(|v| v["mode"].as_str().unwrap_or("")).collect();
    for mode in ["ecb", "mac", "omac-acpkm", "cbc", "cfb", "ofb"] {
        assert!(modes.contains(&mode), "many-streams lacks {mode}: {modes:?}");
    }
    assert!(many.iter().filter(|v| v["mode"] != "ecb").all(|v| v["streams"] == 64), "{many:?}");
    // Each cipher mode three ways: new vectors, one kept buffer, in place.
    for mode in ["cbc", "cfb", "ofb"] {
        let dirs: Vec<&str> = many.iter().filter(|v| v["mode"] == mode).map(|v| v["direction"].as_str().unwrap_or("")).collect();
        assert_eq!(dirs, ["encrypt", "encrypt_to", "encrypt_in_place"], "many-streams {mode}");
    }

    let text = ok(&bench(&["--size-sweep", "--max-bytes", "4096", "--json", "--cipher", "magma", "--reps", "1"]));
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let sizes = |backend: &str| -> Vec<u64> {
        lines.iter().filter(|v| v["section"] == "size-sweep" && v["backend"] == backend).map(|v| v["bytes"].as_u64().unwrap()).collect()
    };
    let halving = [4096, 2048, 1024, 512, 256, 128, 64, 32, 16, 8];
    for backend in ["auto", "table", "reference"] {
        assert_eq!(sizes(backend), halving, "{backend}:\n{text}");
    }
}

/// The default run on a small subset: the summary on stdout (short,
/// narrow, the units and constant-time explained, the papers cited by
/// authors and year, the report folder named on the last line) and the
/// folder with report.md (a legend that covers every column) and bench.svg.
#[test]
fn default_run_prints_a_summary_and_writes_the_report_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("report");
    let text = ok(&bench(&["--quick", "--reps", "1", "--cipher", "magma", "kalyna-128-128", "ublock-128-128", "--report-dir", dir.to_str().unwrap()]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 40, "{} lines:\n{text}", lines.len());
    for l in &lines {
        assert!(l.chars().count() <= 100, "wider than 100 columns: {l}");
    }
    for needle in ["TSC cycles per byte, lower is faster", "MB/s", "constant-time", "magma", "kalyna-128-128", "ublock-128-128", "peer ÷ ours", "Sovyn et al. 2019", "Gao et al. 2024", "Wu et al. 2019", "Magma and Kuznyechik with SSE2/AVX/AVX2 and LUTs"] {
        assert!(text.contains(needle), "no '{needle}' in:\n{text}");
    }
    assert_eq!(lines.last().copied(), Some(format!("Full report written to {}", dir.display()).as_str()), "{text}");

    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.starts_with("# multiblock benchmark report\n"), "{md}");
    for needle in ["- **CPU**: ", "- **date**: ", "## How to read the tables", "### Overview", "### Short messages", "### Modes of operation", "### Sources of the published figures", "Zakhyst Informatsii 21(4), 2019", "(bench.svg)"] {
        assert!(md.contains(needle), "no '{needle}' in:\n{md}");
    }
    // The default run has no sweep (--sweep, --full) and no many-streams section (--full).
    assert!(!md.contains("against blocks per call"), "{md}");
    assert!(!md.contains("### Many streams"), "{md}");
    // Every column of every table is explained: each header names a term of the legend.
    let legend: Vec<String> = md
        .lines()
        .skip_while(|l| !l.starts_with("## How to read the tables"))
        .filter_map(|l| l.strip_prefix("- **").and_then(|l| l.split_once("**:")).map(|(k, _)| k.to_string()))
        .flat_map(|k| k.split(", ").map(str::to_string).collect::<Vec<_>>())
        .collect();
    for term in ["auto", "ways", "ct", "MB/s", "c/B", "peer", "paper", "64 B", "÷ ECB"] {
        assert!(legend.iter().any(|k| k == term), "the legend lacks '{term}': {legend:?}");
    }
    let md_lines: Vec<&str> = md.lines().collect();
    for (i, l) in md_lines.iter().enumerate() {
        if l.starts_with("|---") {
            for h in md_lines[i - 1].trim_matches('|').split(" | ").map(str::trim) {
                assert!(legend.iter().any(|k| h.contains(k.as_str())), "column '{h}' is not in the legend {legend:?}");
            }
        }
    }
    let svg = std::fs::read_to_string(dir.join("bench.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    assert!(doc.descendants().filter_map(|n| n.text()).any(|t| t.contains("Best constant-time speed")));
}

/// The default run measures each cipher's default backend, its table code,
/// 64 B with key setup and a few modes on `auto`, and the peers when built;
/// the sweeps and every mode stay behind options.
#[test]
fn default_run_measures_the_default_backend_the_table_code_and_a_few_modes() {
    let text = ok(&bench(&["--quick", "--json", "--cipher", "magma", "--reps", "1"]));
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect();
    let has = |f: &dyn Fn(&Value) -> bool| lines.iter().any(f);
    assert!(has(&|v| v["section"] == "ecb" && v["constant_time"] == true && v.get("peer").is_none()), "{text}");
    assert!(has(&|v| v["section"] == "ecb" && v["backend"] == "table"), "{text}");
    assert!(has(&|v| v["section"] == "short" && v["backend"] == "auto"), "{text}");
    let mut modes: Vec<&str> = lines.iter().filter(|v| v["section"] == "modes").map(|v| v["mode"].as_str().unwrap()).collect();
    modes.dedup();
    assert_eq!(modes, ["ctr", "cbc", "mgm"], "{text}");
    for section in ["sweep", "many-streams", "size-sweep"] {
        assert!(!has(&|v| v["section"] == section), "{section} in the default run:\n{text}");
    }
    // Only the ECB rows of constant-time backends and table code: no portable or reference.
    assert!(!has(&|v| v["section"] == "ecb" && (v["backend"] == "portable" || v["backend"] == "reference")), "{text}");
}

/// `--help` describes the options in plain words and cites papers by authors and year.
#[test]
fn help_cites_papers_by_authors_and_year() {
    let text = ok(&bench(&["--help"]));
    for needle in ["--report-dir", "--full", "--sweep", "--modes", "Sovyn et al. 2019", "Golchevsky & Ushakov 2023"] {
        assert!(text.contains(needle), "no '{needle}' in:\n{text}");
    }
    assert!(!text.to_lowercase().contains("seed"), "{text}");
}

#[test]
fn json_lines_have_the_stable_keys() {
    let o = bench(&["--json", "--cipher", "magma", "kuznyechik", "--bytes", "4096", "--reps", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let mut lines = 0;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        for k in ["cipher", "backend", "constant_time", "direction", "ways", "bytes", "mb_per_s", "cycles_per_byte"] {
            assert!(v.get(k).is_some(), "{line} lacks {k}");
        }
        assert!(v["cycles_per_byte"].as_f64().unwrap() > 0.0);
        // The long-message ECB rows of our backends use --bytes; the report's
        // other sections (sweeps, 64-byte messages, peers) have their own sizes.
        if v["section"] == "ecb" && v.get("peer").is_none() && v["backend"] != "reference" {
            assert_eq!(v["bytes"], 4096, "{line}");
        }
        lines += 1;
    }
    // Two ciphers, both directions, at least one backend each.
    assert!(lines >= 4, "{text}");
}

#[test]
fn modes_rows_carry_the_mode_key() {
    let o = bench(&["--json", "--modes", "--cipher", "ublock-128-128", "--backend", "reference", "--bytes", "512", "--reps", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let modes: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|v| v.get("mode").and_then(Value::as_str).map(str::to_string))
        .collect();
    // uBlock has ECB (the one-shot call's row) and CBC: an encrypt and a
    // decrypt row each.
    assert_eq!(modes, vec!["ecb", "ecb", "cbc", "cbc"], "{text}");
}
