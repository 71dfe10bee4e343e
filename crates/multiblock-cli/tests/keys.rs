//! The key sources: `--key-file` (raw or hex text), `--key-env`, `--key-fd`
//! all give the GOST R 34.12-2015 A.1 Kuznyechik result, as `--key` does;
//! conflicting or missing sources are one-line errors with exit status 2.

use std::process::{Command, Output};

const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
const PLAIN: &str = "1122334455667700ffeeddccbbaa9988";
const CIPHER: &str = "7f679d90bebc24305a468d42b9d4edcd";

fn unhex(h: &str) -> Vec<u8> {
    (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap()).collect()
}

/// Encrypts PLAIN (hex, as a file) with the extra arguments, through `sh`
/// so that `--key-fd` can be given a descriptor redirection.
fn encrypt(key_args: &str, env: Option<(&str, &str)>) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.hex");
    std::fs::write(&input, PLAIN).unwrap();
    let script = format!(
        "cd '{}' && exec '{}' encrypt --cipher kuznyechik --mode ecb --hex --in in.hex {key_args}",
        dir.path().display(),
        env!("CARGO_BIN_EXE_multiblock")
    );
    let mut c = Command::new("sh");
    c.arg("-c").arg(script).env_remove("MULTIBLOCK_BACKEND").env_remove("MB_TEST_KEY");
    std::fs::write(dir.path().join("raw.key"), unhex(KEY)).unwrap();
    std::fs::write(dir.path().join("hex.key"), format!("{}\n {}\n", &KEY[..32], &KEY[32..])).unwrap();
    if let Some((k, v)) = env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap().trim().to_string()
}

fn fails(o: &Output, needle: &str) {
    assert_eq!(o.status.code(), Some(2), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(needle) && err.trim_end().lines().count() == 1, "{err}");
}

#[test]
fn every_source_gives_the_standard_result() {
    assert_eq!(ok(&encrypt(&format!("--key {KEY}"), None)), CIPHER);
    assert_eq!(ok(&encrypt("--key-file raw.key", None)), CIPHER);
    assert_eq!(ok(&encrypt("--key-file hex.key", None)), CIPHER);
    assert_eq!(ok(&encrypt("--key-env MB_TEST_KEY", Some(("MB_TEST_KEY", KEY)))), CIPHER);
    assert_eq!(ok(&encrypt("--key-fd 3 3<raw.key", None)), CIPHER);
    assert_eq!(ok(&encrypt("--key-fd 3 3<hex.key", None)), CIPHER);
}

#[test]
fn bad_sources_are_one_line_errors() {
    fails(&encrypt("", None), "no key: give it with --key-file PATH, --key-env NAME, --key-fd N or --key HEX");
    fails(&encrypt("--key-file raw.key --key-env X", None), "cannot be used with");
    fails(&encrypt(&format!("--key {KEY} --key-file raw.key"), None), "cannot be used with");
    fails(&encrypt("--key-file nonexistent", None), "cannot read --key-file");
    fails(&encrypt("--key-env MB_TEST_KEY", None), "no such environment variable");
    fails(&encrypt("--key-env MB_TEST_KEY", Some(("MB_TEST_KEY", "xyz"))), "not hex");
    fails(&encrypt("--key-fd 7", None), "not an open file descriptor");
    fails(&encrypt("--key-fd 1", None), "output stream");
    // A raw key of the wrong length is read as hex and refused as such.
    fails(&encrypt("--key-fd 3 3</dev/zero", None), "longer than");
}
