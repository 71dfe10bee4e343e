//! The CLI's failure paths end to end: unreadable input, unwritable
//! output, a full disk (/dev/full, `ulimit -f`), input cut short, wrong
//! tags, truncated ciphertext and every wrong length. Each must exit with
//! the documented status (1: authentication, 2: anything else), print one
//! line, and leave neither the output file nor a temporary file behind,
//! also when the failure comes after megabytes of streamed output.

use std::path::Path;
use std::process::{Command, Output, Stdio};

const K32: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const K16: &str = "000102030405060708090a0b0c0d0e0f";
const BIN: &str = env!("CARGO_BIN_EXE_multiblock");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).env_remove("MULTIBLOCK_BACKEND").stdin(Stdio::null()).output().unwrap()
}

/// Exit status `code`, one line on stderr containing `word`, no panic.
fn fails(o: &Output, code: i32, word: &str, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{what}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: not one line: {err}");
    assert!(err.contains(word), "{what}: '{err}' lacks '{word}'");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// The directory holds exactly `names` (no output, no temporary file).
fn only(dir: &Path, names: &[&str], what: &str) {
    let mut got: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    got.sort();
    let mut want: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(got, want, "{what}");
}

fn write(dir: &Path, name: &str, data: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn unreadable_input_exits_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    for input in ["/nonexistent/x", sub.to_str().unwrap()] {
        for mode in ["ctr", "mgm"] {
            // MGM's nonce is a whole block (parameters are checked before reading).
            let iv = if mode == "mgm" { "00112233445566770011223344556677" } else { "0011223344556677" };
            let a = ["encrypt", "--cipher", "kuznyechik", "--mode", mode, "--key", K32, "--iv", iv];
            let o = run(&[&a[..], &["--in", input, "--out", out]].concat());
            fails(&o, 2, "cannot read --in", &format!("{mode} {input}"));
            only(dir.path(), &["sub"], input);
        }
    }
}

#[test]
fn unwritable_output_exits_2_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in", &[7u8; 4096]);
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let not_dir = format!("{input}/x");
    // A missing directory, a path under a file, and a directory as --out.
    for out in ["/nonexistent-dir/x", not_dir.as_str(), sub.to_str().unwrap()] {
        let o = run(&["encrypt", "--cipher", "magma", "--mode", "ecb", "--key", K32, "--in", &input, "--out", out]);
        fails(&o, 2, "cannot write --out", out);
        only(dir.path(), &["in", "sub"], out);
        assert_eq!(std::fs::read_dir(&sub).unwrap().count(), 0, "{out}");
    }
}

#[test]
fn full_disk_on_stdout_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in", &vec![1u8; 5 << 20]);
    let full = std::fs::File::create("/dev/full").unwrap();
    let o = Command::new(BIN)
        .args(["encrypt", "--cipher", "kuznyechik", "--mode", "ctr", "--iv", "0011223344556677", "--key", K32])
        .args(["--in", &input])
        .stdout(full)
        .output()
        .unwrap();
    fails(&o, 2, "No space left", "/dev/full");
}

/// A file-size limit (`ulimit -f`, SIGXFSZ ignored as a shell `trap` does)
/// stands in for a full disk: the write fails with EFBIG after the first
/// megabytes, and the temporary file must go.
#[test]
fn file_size_limit_mid_stream_exits_2_and_removes_the_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in", &vec![2u8; 9 << 20]);
    let out = dir.path().join("out");
    let script = format!(
        "trap '' XFSZ; ulimit -f 2048; exec {BIN} encrypt --cipher kalyna-128-128 --mode ctr --iv {K16} --key {K16} --in {input} --out {}",
        out.display()
    );
    let o = Command::new("sh").args(["-c", &script]).output().unwrap();
    fails(&o, 2, "cannot write --out", "ulimit -f");
    only(dir.path(), &["in"], "ulimit -f");
}

#[test]
fn input_cut_short_fails_at_the_end_without_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let iv = "00112233445566778899aabbccddeeff";
    // Megabytes of whole blocks, then a cut mid-block: the failure comes
    // after several buffers of output were written to the temporary file.
    let cut = write(dir.path(), "cut", &vec![3u8; (9 << 20) + 5]);
    for (mode, extra, word) in [
        ("ecb", vec![], "whole 16-byte blocks"),
        ("cbc", vec!["--iv", iv], "whole 16-byte blocks"),
        ("cbc", vec!["--iv", iv, "--padding", "pkcs7"], "whole 16-byte blocks"),
    ] {
        for threads in ["1", "2"] {
            let mut a = vec!["decrypt", "--cipher", "kuznyechik", "--mode", mode, "--key", K32, "--threads", threads];
            a.extend(&extra);
            a.extend(["--in", &cut, "--out", out]);
            fails(&run(&a), 2, word, &format!("{mode} {extra:?}"));
            only(dir.path(), &["cut"], mode);
        }
    }
    // A bad padding found only in the last block of a long stream.
    let long = write(dir.path(), "long", &vec![4u8; 9 << 20]);
    let a = ["decrypt", "--cipher", "kalyna-128-128", "--mode", "cbc", "--key", K16, "--iv", iv, "--padding", "pkcs7"];
    fails(&run(&[&a[..], &["--in", &long, "--out", out]].concat()), 2, "padding", "bad padding");
    only(dir.path(), &["cut", "long"], "bad padding");
    // XTS needs one whole block.
    let short = write(dir.path(), "short", &[5u8; 15]);
    let a = ["encrypt", "--cipher", "kalyna-128-128", "--mode", "xts", "--key", K16, "--iv", iv, "--in", &short];
    fails(&run(&[&a[..], &["--out", out]].concat()), 2, "whole 16-byte block", "xts short");
    only(dir.path(), &["cut", "long", "short"], "xts short");
}

#[test]
fn wrong_tag_and_truncated_ciphertext_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let plain = write(dir.path(), "plain", &vec![6u8; 100_000]);
    let sealed = dir.path().join("sealed");
    let sealed_s = sealed.to_str().unwrap().to_string();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    for (cipher, mode, key, iv) in [
        ("kuznyechik", "mgm", K32, "00112233445566778899aabbccddeeff"),
        ("kalyna-128-128", "gcm", K16, "00112233445566778899aabbccddeeff"),
        ("kalyna-128-128", "ccm", K16, "00112233445566778899aabbccddeeff"),
    ] {
        let a = ["--cipher", cipher, "--mode", mode, "--key", key, "--iv", iv];
        let o = run(&[&["encrypt"][..], &a, &["--in", &plain, "--out", &sealed_s]].concat());
        assert!(o.status.success(), "{mode}: {}", String::from_utf8_lossy(&o.stderr));
        let good = std::fs::read(&sealed).unwrap();
        let mut bad = good.clone();
        *bad.last_mut().unwrap() ^= 1;
        let bad_p = write(dir.path(), "bad", &bad);
        fails(&run(&[&["decrypt"][..], &a, &["--in", &bad_p, "--out", out]].concat()), 1, "authentication", mode);
        // Cut anywhere, the tag no longer matches (or the input is shorter
        // than a tag): never any plaintext.
        for cut in [good.len() - 1, good.len() / 2, 3] {
            let p = write(dir.path(), "bad", &good[..cut]);
            let o = run(&[&["decrypt"][..], &a, &["--in", &p, "--out", out]].concat());
            let code = o.status.code().unwrap();
            assert!(code == 1 || code == 2, "{mode} cut {cut}: {code}");
            fails(&o, code, "", &format!("{mode} cut {cut}"));
            only(dir.path(), &["plain", "sealed", "bad"], mode);
        }
    }
}

#[test]
fn input_shorter_than_ciphertext_and_tag_names_both() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    // CCM's ciphertext has at least one byte; GCM's and MGM's may be empty.
    for (cipher, mode, key, cuts) in [
        ("kalyna-128-128", "ccm", K16, &[1usize, 15, 16][..]),
        ("kalyna-128-128", "gcm", K16, &[1, 15][..]),
        ("kuznyechik", "mgm", K32, &[1, 15][..]),
    ] {
        for &cut in cuts {
            let short = write(dir.path(), "short", &vec![7u8; cut]);
            let a = ["decrypt", "--cipher", cipher, "--mode", mode, "--key", key, "--iv", "00112233445566778899aabbccddeeff"];
            let o = run(&[&a[..], &["--in", &short, "--out", out]].concat());
            fails(&o, 2, "ciphertext‖tag", &format!("{mode} {cut} bytes"));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains(&format!("got {}", multiblock_cli::failure::byte_count(cut))), "{mode} {cut}: {err}");
            only(dir.path(), &["short"], mode);
        }
    }
}

#[test]
fn every_wrong_length_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in", &[9u8; 64]);
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let iv8 = "0011223344556677";
    let iv16 = "00112233445566778899aabbccddeeff";
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        ("key", vec!["--cipher", "kuznyechik", "--mode", "ecb", "--key", K16], "32 bytes"),
        ("key", vec!["--cipher", "kalyna-128-128", "--mode", "ecb", "--key", K32], "16 bytes"),
        ("key", vec!["--cipher", "ublock-256-256", "--mode", "ecb", "--key", K16], "32 bytes"),
        ("iv ctr", vec!["--cipher", "kuznyechik", "--mode", "ctr", "--key", K32, "--iv", iv16], "iv"),
        ("iv ctr missing", vec!["--cipher", "kuznyechik", "--mode", "ctr", "--key", K32], "--iv"),
        ("iv cbc", vec!["--cipher", "magma", "--mode", "cbc", "--key", K32, "--iv", "0011"], "iv"),
        ("iv ofb", vec!["--cipher", "kuznyechik", "--mode", "ofb", "--key", K32, "--iv", iv8], "iv"),
        ("iv cfb", vec!["--cipher", "kalyna-128-128", "--mode", "cfb", "--key", K16, "--iv", iv8], "iv"),
        ("iv xts", vec!["--cipher", "kalyna-128-128", "--mode", "xts", "--key", K16, "--iv", iv8], "iv"),
        ("iv cnt", vec!["--cipher", "gost89", "--mode", "cnt", "--key", K32, "--iv", iv16], "iv"),
        ("iv mgm", vec!["--cipher", "kuznyechik", "--mode", "mgm", "--key", K32, "--iv", iv8], "iv"),
        ("iv gcm", vec!["--cipher", "kalyna-128-128", "--mode", "gcm", "--key", K16, "--iv", iv8], "iv"),
        ("iv on ecb", vec!["--cipher", "magma", "--mode", "ecb", "--key", K32, "--iv", iv8], "--iv"),
        ("s", vec!["--cipher", "kuznyechik", "--mode", "ctr", "--key", K32, "--iv", iv8, "--s", "7"], "--s"),
        ("tag", vec!["--cipher", "kuznyechik", "--mode", "mgm", "--key", K32, "--iv", iv16, "--tag-bits", "12"], "tag"),
        ("section", vec!["--cipher", "kuznyechik", "--mode", "ctr-acpkm", "--key", K32, "--iv", iv8, "--section-bytes", "17"], "section"),
        ("data ecb", vec!["--cipher", "magma", "--mode", "ecb", "--key", K32, "--in", "/dev/null", "--padding", "none"], ""),
    ];
    for verb in ["encrypt", "decrypt"] {
        for (what, args, word) in &cases {
            let mut a = vec![verb];
            a.extend(args.iter());
            if !args.contains(&"--in") {
                a.extend(["--in", &input]);
            }
            a.extend(["--out", out]);
            let o = run(&a);
            if *what == "data ecb" {
                // Empty input is a whole number of blocks: it succeeds, empty.
                assert!(o.status.success());
                assert_eq!(std::fs::read(out).unwrap().len(), 0);
                std::fs::remove_file(out).unwrap();
                continue;
            }
            fails(&o, 2, word, &format!("{verb} {what}"));
            only(dir.path(), &["in"], what);
        }
    }
    // Data lengths: every remainder of an 8- and a 16-byte block.
    for (cipher, key, n) in [("magma", K32, 8), ("kuznyechik", K32, 16)] {
        for len in 1..n {
            let p = write(dir.path(), "odd", &vec![1u8; 3 * n + len]);
            for verb in ["encrypt", "decrypt"] {
                let o = run(&[verb, "--cipher", cipher, "--mode", "ecb", "--key", key, "--in", &p, "--out", out]);
                fails(&o, 2, &format!("whole {n}-byte blocks"), &format!("{cipher} {verb} {len}"));
                only(dir.path(), &["in", "odd"], cipher);
            }
        }
    }
}
