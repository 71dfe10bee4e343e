//! What the tests of the hash commands (`hash`, `mac` over a hash) share:
//! running the binary with stdin fed from a thread, the one-line failure
//! check, hex, pseudo-random data and scratch files.

#![allow(dead_code)] // each test crate uses its own part

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_multiblock");

/// `multiblock ARGS` with `stdin` written by a thread (so a large input
/// cannot block against a full stdout pipe).
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("MULTIBLOCK_BACKEND")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Exit status `code`, one line on stderr containing `word`, no panic.
pub fn fails(o: &Output, code: i32, word: &str, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{what}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: not one line: {err}");
    assert!(err.contains(word), "{what}: '{err}' lacks '{word}'");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Pseudo-random bytes (xorshift), different per `seed`.
pub fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ seed.wrapping_mul(0x2545_f491_4f6c_dd1d);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

pub fn write(dir: &Path, name: &str, data: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}
