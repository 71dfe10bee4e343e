//! MULTIBLOCK_BACKEND handling. The library reads the variable once per
//! process, so each setting runs in a child process: this test binary,
//! re-run with the variable set and only `child_checks` selected.

use cipher::{BlockCipherEncrypt, KeyInit};
use multiblock::{backends, Cipher, CipherId, Error};
use std::process::Command;

/// Set in the child processes: which case `child_checks` runs.
const CASE: &str = "MULTIBLOCK_TEST_ENV_CASE";

fn run_child(case: &str, value: Option<&str>) -> String {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args(["--exact", "child_checks", "--nocapture", "--test-threads=1"]).env(CASE, case);
    match value {
        Some(v) => c.env("MULTIBLOCK_BACKEND", v),
        None => c.env_remove("MULTIBLOCK_BACKEND"),
    };
    let out = c.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "case {case}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    // The child really ran the checks (and did not filter everything out).
    assert!(stdout.contains("1 passed"), "case {case}: {stdout}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn backend_environment_variable() {
    run_child("list", Some("no-such,reference"));
    run_child("unusable", Some("no-such"));
    assert!(run_child("unset", None).is_empty());
    // Names a cipher lacks are skipped, not errors: `ssse3` is only
    // Magma's and uBlock's, `table` is not uBlock's.
    run_child("skip", Some("ssse3"));
    let stderr = run_child("table", Some("table"));
    // A non-constant-time backend chosen by the environment is announced,
    // once per cipher (the child keys each cipher twice).
    for id in ["kuznyechik", "magma", "kalyna-128-128"] {
        let line = format!("warning: MULTIBLOCK_BACKEND selects backend 'table' for {id}, which is not constant-time");
        assert_eq!(stderr.matches(&line).count(), 1, "{stderr}");
    }
    assert!(!stderr.contains("for ublock"), "{stderr}");
    assert!(run_child("skip", Some("reference")).contains("'reference' for gost89, which is not constant-time"));
}

#[test]
fn child_checks() {
    let Ok(case) = std::env::var(CASE) else { return };
    let key = [7u8; 64];
    for id in CipherId::ALL {
        let key = &key[..id.key_bytes()];
        let auto = Cipher::with_id(id, key, None, Default::default());
        match case.as_str() {
            // A preference list: the first name this cipher has and the CPU runs wins.
            "list" => assert_eq!(auto.unwrap().backend().name, "reference"),
            // Nothing usable in the list: an error naming the first entry.
            "unusable" => match auto {
                Err(Error::UnknownBackend { name, .. }) => assert_eq!(name, "no-such"),
                other => panic!("{id}: {:?}", other.map(|c| c.backend())),
            },
            // Only names this cipher lacks (or the CPU cannot run): the default.
            "skip" | "table" => {
                let has = |name: &str| {
                    backends(id.name()).unwrap().iter().any(|b| b.info.name == name && b.available)
                };
                let wanted = std::env::var("MULTIBLOCK_BACKEND").unwrap();
                let default = backends(id.name()).unwrap().into_iter().find(|b| b.is_default).unwrap();
                let expect = if has(&wanted) { wanted.as_str() } else { default.info.name };
                assert_eq!(auto.unwrap().backend().name, expect, "{id}");
                // Keyed again: no second warning.
                Cipher::with_id(id, key, None, Default::default()).unwrap();
            }
            // Unset: the default of `backends()`.
            _ => {
                let default = backends(id.name()).unwrap().into_iter().find(|b| b.is_default).unwrap();
                assert_eq!(auto.unwrap().backend().name, default.info.name);
            }
        }
        // An explicit name beats the environment.
        let c = Cipher::new(id.name(), key, None, Some("reference")).unwrap();
        assert_eq!(c.backend().name, "reference");
    }
    if case == "unusable" {
        // KeyInit cannot fail: a bad variable falls back to the default backend.
        let k = multiblock::kuznyechik::Kuznyechik::new(&[1u8; 32].into());
        let mut block = [0u8; 16].into();
        k.encrypt_block(&mut block);
        let mut expect = [0u8; 16];
        Cipher::new("kuznyechik", &[1u8; 32], None, Some("reference")).unwrap().encrypt_blocks(&mut expect).unwrap();
        assert_eq!(block.as_slice(), &expect);
    }
}
