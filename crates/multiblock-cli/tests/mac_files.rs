//! `mac FILE...` (issue 18, item 3) against the one-file form `mac --in`:
//! every MAC mode of a few ciphers over files of 0 bytes to several read
//! pieces, the lines in argument order; a missing file named on stderr
//! while the others still get their lines (exit 2); `--out` only on success.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_multiblock");

fn mac(args: &[&str]) -> Output {
    Command::new(BIN).arg("mac").args(args).env_remove("MULTIBLOCK_BACKEND").output().unwrap()
}

/// The tag of one file through the one-file form, as hex.
fn one(common: &[&str], file: &Path) -> String {
    let o = mac(&[common, &["--in", file.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout.iter().map(|b| format!("{b:02x}")).collect()
}

/// Files of lengths around blocks and past the 64 KiB read piece, with
/// pseudo-random contents.
fn files(dir: &Path, lengths: &[usize]) -> Vec<PathBuf> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    lengths
        .iter()
        .enumerate()
        .map(|(i, &len)| {
            let data: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect();
            let p = dir.join(format!("f{i}.bin"));
            std::fs::write(&p, data).unwrap();
            p
        })
        .collect()
}

#[test]
fn every_line_equals_the_one_file_form() {
    let dir = tempfile::tempdir().unwrap();
    let k32 = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
    let k64 = &k32.repeat(2);
    let cases: [&[&str]; 6] = [
        &["--cipher", "kuznyechik", "--mode", "mac", "--key", k32],
        &["--cipher", "magma", "--mode", "mac", "--key", k32, "--mac-bits", "32"],
        &["--cipher", "kuznyechik", "--mode", "omac-acpkm", "--key", k32, "--section-bytes", "4096"],
        &["--cipher", "kalyna-512-512", "--mode", "cmac", "--key", k64],
        &["--cipher", "kalyna-128-128", "--mode", "cmac", "--key", &k32[..32]],
        &["--cipher", "gost89", "--mode", "mac", "--key", k32],
    ];
    let lengths = [1, 15, 16, 17, 64, 1000, 65536, 65537, 200_000, 3];
    let paths = files(dir.path(), &lengths);
    let names: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
    for common in cases {
        let o = mac(&[common, &names[..]].concat());
        assert!(o.status.success(), "{common:?}: {}", String::from_utf8_lossy(&o.stderr));
        let want: String = paths.iter().map(|p| format!("{}  {}\n", one(common, p), p.display())).collect();
        assert_eq!(String::from_utf8(o.stdout).unwrap(), want, "{common:?}");
    }
}

#[test]
fn a_missing_file_is_named_and_the_others_still_get_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    let paths = files(dir.path(), &[100, 0]);
    let missing = dir.path().join("no-such-file");
    let common = ["--cipher", "kuznyechik", "--mode", "mac", "--key", &"0f".repeat(32)];
    let args = [&common[..], &[paths[0].to_str().unwrap(), missing.to_str().unwrap(), paths[1].to_str().unwrap()]].concat();
    let o = mac(&args);
    assert_eq!(o.status.code(), Some(2));
    let want = format!("{}  {}\n{}  {}\n", one(&common, &paths[0]), paths[0].display(), one(&common, &paths[1]), paths[1].display());
    assert_eq!(String::from_utf8(o.stdout).unwrap(), want);
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains(&format!("cannot read {}: No such file or directory", missing.display())), "{err}");
    assert!(err.contains("1 of 3 files could not be MACed"), "{err}");

    // --out: written only when every file succeeded.
    let out = dir.path().join("tags");
    let o = mac(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
    let good = [&common[..], &[paths[0].to_str().unwrap(), "--out", out.to_str().unwrap()]].concat();
    assert!(mac(&good).status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), format!("{}  {}\n", one(&common, &paths[0]), paths[0].display()));
}

#[test]
fn an_empty_file_under_the_dstu_mac_is_its_own_error() {
    let dir = tempfile::tempdir().unwrap();
    let paths = files(dir.path(), &[0, 20]);
    let common = ["--cipher", "kalyna-128-128", "--mode", "cmac", "--key", &"01".repeat(16)];
    let o = mac(&[&common[..], &[paths[0].to_str().unwrap(), paths[1].to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8(o.stdout).unwrap(), format!("{}  {}\n", one(&common, &paths[1]), paths[1].display()));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains(&format!("{}: kalyna-128-128 cmac needs a message of at least 1 byte", paths[0].display())), "{err}");
    // A mode that is not a MAC, before any file is read.
    let o = mac(&["--cipher", "kuznyechik", "--mode", "ctr", "--key", &"01".repeat(32), paths[1].to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}
