//! The hashing section of the benchmark, end to end: which rows `--hash`
//! and `--hashes` measure, their JSON and CSV shape, the summary's table
//! and the report's legend. No timing is asserted.

use serde_json::Value;
use std::process::{Command, Output, Stdio};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_multiblock-bench"))
        .args(args)
        .env_remove("MULTIBLOCK_BACKEND")
        .stdin(Stdio::null())
        .output()
        .expect("spawn multiblock-bench")
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn json(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect()
}

/// `--hash` alone measures those hashes and no cipher: `auto` on one
/// message of every size and on many at once, the peers, HMAC.
#[test]
fn hash_rows_cover_every_size_many_messages_the_peers_and_hmac() {
    let rows = json(&ok(&bench(&["--quick", "--json", "--reps", "1", "--hash", "streebog-256", "kupyna-384"])));
    assert!(rows.iter().all(|v| v["section"] == "hash"), "a row outside the hashing section: {rows:?}");
    for hash in ["streebog-256", "kupyna-384"] {
        let ours = |bytes: u64, streams: u64| {
            rows.iter().any(|v| v["cipher"] == hash && v["backend"] == "auto" && v["bytes"] == bytes && v["streams"] == streams && v["direction"] == "hash" && v.get("peer").is_none())
        };
        // --quick: the long message is 64 KiB.
        for bytes in [64, 1024, 16384, 65536] {
            assert!(ours(bytes, 1), "{hash}: no auto row of {bytes} B: {rows:?}");
        }
        for bytes in [64, 1024] {
            assert!(ours(bytes, 64), "{hash}: no row of 64 messages of {bytes} B: {rows:?}");
        }
        for v in rows.iter().filter(|v| v["cipher"] == hash) {
            assert!(v["cycles_per_byte"].as_f64().unwrap() > 0.0, "{v}");
            assert!(v["mb_per_s"].as_f64().unwrap() > 0.0, "{v}");
        }
    }
    let peer = |hash: &str, name: &str| rows.iter().any(|v| v["cipher"] == hash && v["peer"].as_str().is_some_and(|p| p.contains(name)));
    assert!(peer("streebog-256", "RustCrypto streebog 0.11"), "{rows:?}");
    assert!(peer("kupyna-384", "RustCrypto kupyna 0.1"), "{rows:?}");
    assert!(peer("kupyna-384", "dstu-core 0.7"), "{rows:?}");
    let hmac: Vec<&Value> = rows.iter().filter(|v| v["mode"] == "hmac").collect();
    assert!(hmac.iter().any(|v| v["backend"] == "auto" && v["bytes"] == 64 && v["direction"] == "mac"), "{rows:?}");
    assert!(hmac.iter().any(|v| v["peer"].as_str().is_some_and(|p| p.contains("RustCrypto hmac"))), "{rows:?}");
}

/// Every backend of the hash with `--full`; a forced backend alone with
/// `--backend`, which takes hash backends' names too.
#[test]
fn full_measures_every_backend_and_backend_forces_one() {
    let rows = json(&ok(&bench(&["--quick", "--full", "--json", "--reps", "1", "--hash", "kupyna-256"])));
    let backends: Vec<&str> = rows.iter().filter(|v| v.get("peer").is_none()).map(|v| v["backend"].as_str().unwrap()).collect();
    assert!(backends.contains(&"auto"), "{rows:?}");
    assert!(backends.iter().any(|b| *b != "auto"), "no forced backend with --full: {rows:?}");

    let forced = backends.iter().copied().find(|b| *b != "auto").unwrap();
    let rows = json(&ok(&bench(&["--quick", "--json", "--reps", "1", "--hash", "kupyna-256", "--backend", forced])));
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|v| v["backend"] == forced && v.get("peer").is_none()), "{rows:?}");

    // `peers` beside it adds the other libraries, as a run without
    // `--backend` has them.
    let rows = json(&ok(&bench(&["--quick", "--json", "--reps", "1", "--hash", "kupyna-256", "--backend", forced, "peers"])));
    assert!(rows.iter().any(|v| v["backend"] == forced && v.get("peer").is_none()), "{rows:?}");
    assert!(rows.iter().any(|v| v["peer"].as_str().is_some_and(|p| p.contains("RustCrypto kupyna 0.1"))), "{rows:?}");
    assert!(rows.iter().all(|v| v["backend"] != "auto"), "{rows:?}");
}

#[test]
fn csv_hash_rows_name_no_mode() {
    let text = ok(&bench(&["--quick", "--csv", "--reps", "1", "--hash", "streebog-512"]));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mode = header.iter().position(|h| *h == "mode").unwrap();
    for l in lines {
        let cells: Vec<&str> = l.split(',').collect();
        assert_eq!(cells[0], "hash", "{l}");
        assert_eq!(cells.len(), header.len(), "{l}");
        assert!(cells[mode].is_empty() || cells[mode] == "hmac", "{l}");
    }
}

/// The summary's hashing table fits the summary's width; every column of
/// the report's hashing tables is in the legend.
#[test]
fn summary_and_report_show_the_hashes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("report");
    let text = ok(&bench(&["--quick", "--reps", "1", "--cipher", "magma", "--hashes", "--report-dir", dir.to_str().unwrap()]));
    for l in text.lines() {
        assert!(l.chars().count() <= 100, "wider than 100 columns: {l}");
    }
    for needle in ["Hashing, c/B", "streebog-256", "streebog-512", "kupyna-256", "kupyna-384", "kupyna-512", "HMAC-Streebog-256 of 64 B", "magma"] {
        assert!(text.contains(needle), "no '{needle}' in:\n{text}");
    }
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("### Hashing, c/B") && md.contains("### Hashing: every hash"), "{md}");
    let legend: Vec<String> = md
        .lines()
        .skip_while(|l| !l.starts_with("## How to read the tables"))
        .filter_map(|l| l.strip_prefix("- **").and_then(|l| l.split_once("**:")).map(|(k, _)| k.to_string()))
        .flat_map(|k| k.split(", ").map(str::to_string).collect::<Vec<_>>())
        .collect();
    let md_lines: Vec<&str> = md.lines().collect();
    for (i, l) in md_lines.iter().enumerate() {
        if l.starts_with("|---") {
            for h in md_lines[i - 1].trim_matches('|').split(" | ").map(str::trim) {
                assert!(legend.iter().any(|k| h.contains(k.as_str())), "column '{h}' is not in the legend {legend:?}");
            }
        }
    }
}

/// Naming ciphers leaves the hashes out unless `--hashes` or `--hash`
/// asks for them; `--no-hashes` conflicts with both.
#[test]
fn cipher_runs_have_no_hashes_unless_asked() {
    let rows = json(&ok(&bench(&["--quick", "--json", "--reps", "1", "--cipher", "magma", "--backend", "table"])));
    assert!(!rows.is_empty() && rows.iter().all(|v| v["section"] != "hash"), "{rows:?}");
    let rows = json(&ok(&bench(&["--quick", "--json", "--reps", "1", "--cipher", "magma", "--backend", "table", "auto", "--hash", "kupyna-256"])));
    assert!(rows.iter().any(|v| v["section"] == "hash" && v["backend"] == "auto"), "{rows:?}");
    assert!(rows.iter().any(|v| v["cipher"] == "magma"), "{rows:?}");
    for args in [["--no-hashes", "--hashes"], ["--no-hashes", "--hash"]] {
        let mut args = args.to_vec();
        if args[1] == "--hash" {
            args.push("streebog-256");
        }
        let o = bench(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn unknown_hash_names_fail_cleanly() {
    let o = bench(&["--hash", "sha256"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown hash 'sha256'") && err.lines().count() == 1, "{err}");
}
