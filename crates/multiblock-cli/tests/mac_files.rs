//! `mac FILE...` against the one-file form `mac --in`:
//! every MAC mode of a few ciphers over files of 0 bytes to several read
//! pieces, the lines in argument order; a missing file named on stderr
//! while the others still get their lines (exit 2); `--out` only on success;
//! `-` named twice (stdin, then the empty message, as sha256sum); many files
//! under a low open-files limit.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

/// `mac - -` as `sha256sum - -`: the first `-` reads all of stdin (here
/// several 64 KiB read pieces), the second is the empty message; a file
/// between them keeps its own tag.
#[test]
fn stdin_named_twice_is_all_of_it_then_the_empty_message() {
    let dir = tempfile::tempdir().unwrap();
    let paths = files(dir.path(), &[200_000, 0, 70_000]);
    let (data, empty, other) = (&paths[0], &paths[1], &paths[2]);
    let common = ["--cipher", "kuznyechik", "--mode", "mac", "--key", &"5a".repeat(32)];
    for operands in [&["-", "-"][..], &["-", other.to_str().unwrap(), "-"]] {
        let mut child = Command::new(BIN)
            .arg("mac")
            .args(common)
            .args(operands)
            .env_remove("MULTIBLOCK_BACKEND")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let bytes = std::fs::read(data).unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || stdin.write_all(&bytes).unwrap());
        let o = child.wait_with_output().unwrap();
        feeder.join().unwrap();
        assert!(o.status.success(), "{operands:?}: {}", String::from_utf8_lossy(&o.stderr));
        let want: String = operands
            .iter()
            .enumerate()
            .map(|(i, &name)| {
                let file = match (name, i) {
                    ("-", 0) => data,
                    ("-", _) => empty,
                    _ => other,
                };
                format!("{}  {name}\n", one(&common, file))
            })
            .collect();
        assert_eq!(String::from_utf8(o.stdout).unwrap(), want, "{operands:?}");
    }
}

/// 100 files under `ulimit -n 64`: the files opened at once fit the limit
/// (no "Too many open files"), and every tag equals the one-file form's.
#[test]
fn many_files_under_a_low_open_files_limit() {
    let dir = tempfile::tempdir().unwrap();
    let lengths: Vec<usize> = (0..100).map(|i| 1 + i * 997 % 70_000).collect();
    let paths = files(dir.path(), &lengths);
    let common = ["--cipher", "magma", "--mode", "mac", "--key", &"c3".repeat(32)];
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 64 && exec \"$0\" \"$@\"")
        .arg(BIN)
        .arg("mac")
        .args(common)
        .args(&paths)
        .env_remove("MULTIBLOCK_BACKEND")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want: String = paths.iter().map(|p| format!("{}  {}\n", one(&common, p), p.display())).collect();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), want);
}
