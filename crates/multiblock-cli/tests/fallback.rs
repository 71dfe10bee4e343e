//! CPU feature fallback end to end: `MULTIBLOCK_DISABLE` hides CPU
//! features from detection, `info` says so, and with every feature hidden
//! each cipher still has a constant-time default (`portable`, a bitsliced
//! backend in plain Rust) under which `selftest` passes.

use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_multiblock");

/// Every cipher: each has a portable constant-time backend named `portable`.
const PORTABLE: [&str; 11] = [
    "kalyna-128-128", "kalyna-128-256", "kalyna-256-256", "kalyna-256-512", "kalyna-512-512",
    "kuznyechik", "magma", "gost89", "ublock-128-128", "ublock-128-256", "ublock-256-256",
];

fn run(args: &[&str], disable: &str) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("MULTIBLOCK_BACKEND")
        .env("MULTIBLOCK_DISABLE", disable)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// `info`'s rows of the cipher table: (cipher, backend, constant-time, status).
fn rows(o: &Output) -> Vec<(String, String, String, String)> {
    let text = String::from_utf8_lossy(&o.stdout);
    // The table ends at the blank line before the hashes' table.
    let table = text.lines().skip_while(|l| !l.starts_with("cipher ")).skip(1).take_while(|l| !l.trim().is_empty());
    table
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1].to_string(), f[2].to_string(), f[4..].join(" "))
        })
        .collect()
}

/// The default backend of every cipher, with its constant-time column.
fn defaults(o: &Output) -> Vec<(String, String, String)> {
    rows(o).into_iter().filter(|r| r.3 == "default" || r.3.starts_with("default (")).map(|(c, b, ct, _)| (c, b, ct)).collect()
}

#[test]
fn with_every_feature_disabled_every_default_is_constant_time() {
    let o = run(&["info"], "all");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("MULTIBLOCK_DISABLE: treated as absent: all"), "{text}");
    assert!(text.lines().any(|l| l.trim_end() == "features:"), "features remain:\n{text}");
    let d = defaults(&o);
    assert_eq!(d.len(), 11, "one default per cipher:\n{text}");
    for (cipher, backend, ct) in &d {
        assert_eq!(ct, "yes", "{cipher}'s default {backend} is not constant-time:\n{text}");
        if PORTABLE.contains(&cipher.as_str()) {
            assert_eq!(backend, "portable", "{cipher}:\n{text}");
        }
    }
    // Nothing that needs a CPU feature is offered.
    assert!(rows(&o).iter().all(|r| r.3 == "default" || r.3 == "available" || r.3.starts_with("needs ")), "{text}");
}

#[test]
fn without_disable_the_simd_backends_stay_the_default_where_the_cpu_has_them() {
    let o = run(&["info"], "");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(!text.contains("MULTIBLOCK_DISABLE"), "{text}");
    if multiblock::CpuFeatures::get().ssse3 {
        for (cipher, backend, _) in defaults(&o) {
            assert_ne!(backend, "portable", "{cipher}:\n{text}");
        }
    }
}

#[test]
fn selftest_passes_on_the_fallbacks() {
    let o = run(&["selftest"], "all");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains(" 0 failed") && !text.contains("selftest: 0 passed"), "{text}");
}

#[test]
fn one_disabled_feature_moves_the_default_down_one_level() {
    let cpu = multiblock::CpuFeatures::get();
    if !(cpu.avx2 && cpu.ssse3) {
        return eprintln!("skipped: this CPU has no AVX2");
    }
    let o = run(&["info"], "avx2");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("MULTIBLOCK_DISABLE: treated as absent: avx2"), "{text}");
    let magma = defaults(&o).into_iter().find(|d| d.0 == "magma").unwrap();
    assert_eq!(magma.1, "ssse3", "{text}");
    assert!(rows(&o).iter().any(|r| r.0 == "magma" && r.1 == "avx2" && r.3 == "needs avx2"), "{text}");
}

#[test]
fn an_unknown_feature_name_is_a_one_line_warning_naming_the_known_ones() {
    let o = run(&["info"], "avx3,gfni");
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("warning") && err.contains("avx3") && err.contains("known: all, sse2"), "{err}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("treated as absent: gfni"));
}
