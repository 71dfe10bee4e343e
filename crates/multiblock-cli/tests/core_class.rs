//! `MULTIBLOCK_CORE` end to end: `info` names the class of core whose
//! kernel forms run, the variable sets another, an unknown name is a
//! warning, and every class's forms give the reference digests on this CPU
//! (Kupyna's T+ carries by lookahead on AMD and rippling on Intel,
//! Streebog's spreads by `vpermb` or `vpshufd`).

mod common;

use common::BIN;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const CLASSES: [&str; 3] = ["intel", "amd-half-zmm", "amd-full-zmm"];

fn run(args: &[&str], core: Option<&str>) -> Output {
    let mut c = Command::new(BIN);
    c.args(args).env_remove("MULTIBLOCK_BACKEND").env_remove("MULTIBLOCK_DISABLE").stdin(Stdio::null());
    match core {
        Some(name) => c.env("MULTIBLOCK_CORE", name),
        None => c.env_remove("MULTIBLOCK_CORE"),
    };
    c.output().unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn info_names_the_class_and_the_variable_sets_it() {
    let detected = stdout(&run(&["info"], None));
    let line = detected.lines().find(|l| l.starts_with("kernel forms for: ")).expect("a class line");
    assert!(CLASSES.iter().any(|c| line == format!("kernel forms for: {c}")), "{line}");
    for class in CLASSES {
        let text = stdout(&run(&["info"], Some(class)));
        assert!(text.lines().any(|l| l == format!("kernel forms for: {class} (set by MULTIBLOCK_CORE)")), "{class}:\n{text}");
    }
    let o = run(&["info"], Some("zen9"));
    let text = stdout(&o);
    assert!(text.contains(line), "an unknown name leaves the detected class:\n{text}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("MULTIBLOCK_CORE") && err.contains("\"zen9\"") && err.contains("amd-full-zmm"), "{err}");
}

/// Files of several lengths, among them lengths of many blocks, where
/// Kupyna's one-message AVX-512 kernel takes T+ from the row layout.
fn files(dir: &Path) -> Vec<String> {
    [0usize, 1, 64, 1023, 1024, 2048, 100_003]
        .iter()
        .map(|&n| common::s(&common::write(dir, &format!("f{n}"), &common::bytes(n, n as u64))).to_string())
        .collect()
}

#[test]
fn every_class_gives_the_reference_digests() {
    let dir = tempfile::tempdir().unwrap();
    let files = files(dir.path());
    let info = stdout(&run(&["info"], None));
    for algo in ["kupyna-256", "kupyna-512", "streebog-256", "streebog-512"] {
        let mut args = vec!["hash", "--algo", algo, "--backend", "reference"];
        args.extend(files.iter().map(String::as_str));
        let want = stdout(&run(&args, None));
        // The backends this CPU runs that are constant-time (the AVX-512
        // one is where the forms differ).
        for backend in ["avx512-gfni", "avx2-gfni", "avx2"] {
            if !info.lines().any(|l| l.starts_with(algo) && l.split_whitespace().nth(1) == Some(backend) && !l.contains("needs")) {
                continue;
            }
            for class in CLASSES {
                let mut args = vec!["hash", "--algo", algo, "--backend", backend];
                args.extend(files.iter().map(String::as_str));
                assert_eq!(stdout(&run(&args, Some(class))), want, "{algo} on {backend} in the forms for {class}");
            }
        }
    }
}
