//! `hash`: RFC 6986 §10's first example; every named hash over files of
//! many lengths (mapped) and over stdin (read), one line per file in
//! argument order, equal to the library's digest; `--check` with matching,
//! changed, missing and malformed entries (`--quiet`, `--status`, names
//! that need escaping, a list that cannot be read, bad input outranking a
//! mismatch); bad arguments as one line and exit status 2; and,
//! where the system OpenSSL has gost-engine's provider, Streebog against it.

use multiblock::hash::{self, HashId};
mod common;

use common::{bytes, fails, hex, run, s, write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// RFC 6986 §10.1, M1 (written there as the 63 digits below, most significant byte first).
const M1: &[u8] = b"012345678901234567890123456789012345678901234567890123456789012";
/// RFC 6986 §10.1.1 and §10.1.2: H(M1) for Streebog-512 and Streebog-256.
const M1_512: &str = "1b54d01a4af5b9d5cc3d86d68d285462b19abc2475222f35c085122be4ba1ffa00ad30f8767b3a82384c6574f024c311e2a481332b08ef7f41797891c1646f48";
const M1_256: &str = "9d151eefd8590b89daa6ba6cb74af9275dd051026bb149a452fd84e5e57b5500";

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn rfc_6986_example_1() {
    let dir = tempfile::tempdir().unwrap();
    let m1 = write(dir.path(), "m1", M1);
    assert_eq!(stdout(&run(&["hash", "--algo", "streebog-512", s(&m1)], b"")), format!("{M1_512}  {}\n", s(&m1)));
    assert_eq!(stdout(&run(&["hash", "--algo", "streebog-256", s(&m1)], b"")), format!("{M1_256}  {}\n", s(&m1)));
    assert_eq!(stdout(&run(&["hash", "--algo", "streebog-256"], M1)), format!("{M1_256}  -\n"));
}

/// DSTU 7564:2014's examples (as printed in Oliynykov et al., "A New
/// Standard of Ukraine: The Kupyna Hash Function", IACR ePrint 2015/885):
/// Kupyna-256 of the 64 bytes 00..3f, Kupyna-512 of the 128 bytes 00..7f.
#[test]
fn dstu_7564_examples() {
    let dir = tempfile::tempdir().unwrap();
    let m64 = write(dir.path(), "m64", &(0u8..64).collect::<Vec<u8>>());
    let m128 = write(dir.path(), "m128", &(0u8..128).collect::<Vec<u8>>());
    let k256 = "08f4ee6f1be6903b324c4e27990cb24ef69dd58dbe84813ee0a52f6631239875";
    let k512 = "76ed1ac28b1d0143013ffa87213b4090b356441263c13e03fa060a8cada32b979635657f256b15d5fca4a174de029f0b1b4387c878fcc1c00e8705d783fd7ffe";
    assert_eq!(stdout(&run(&["hash", "--algo", "kupyna-256", s(&m64)], b"")), format!("{k256}  {}\n", s(&m64)));
    assert_eq!(stdout(&run(&["hash", "--algo", "kupyna-512", s(&m128)], b"")), format!("{k512}  {}\n", s(&m128)));
}

/// Every other Kupyna length by name, against the library.
#[test]
fn kupyna_n_equals_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "f", &bytes(1000, 5));
    for bits in [8u16, 16, 160, 224, 248, 264, 320, 448, 504] {
        let id = HashId::Kupyna { digest_bits: bits };
        let want = format!("{}  {}\n", hex(&hash::digest(id, &bytes(1000, 5)).unwrap()), s(&f));
        assert_eq!(stdout(&run(&["hash", "--algo", &format!("kupyna-{bits}"), s(&f)], b"")), want, "{id}");
        assert_eq!(want.split_whitespace().next().unwrap().len(), usize::from(bits) / 4);
    }
}

/// Lengths around the 64- and 128-byte blocks and past the read piece (256 KiB).
const LENGTHS: [usize; 10] = [0, 1, 31, 63, 64, 65, 127, 128, 129, 300_001];

#[test]
fn every_line_equals_the_library_in_argument_order() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<(PathBuf, Vec<u8>)> = LENGTHS
        .iter()
        .enumerate()
        .map(|(i, &len)| {
            let data = bytes(len, i as u64);
            (write(dir.path(), &format!("f{i}.bin"), &data), data)
        })
        .collect();
    // Reverse order too: the lines follow the arguments.
    let mut order: Vec<&(PathBuf, Vec<u8>)> = files.iter().collect();
    order.reverse();
    for id in HashId::NAMED {
        let name = id.to_string();
        let mut args = vec!["hash", "--algo", name.as_str()];
        args.extend(order.iter().map(|(p, _)| s(p)));
        let want: String =
            order.iter().map(|(p, data)| format!("{}  {}\n", hex(&hash::digest(id, data).unwrap()), s(p))).collect();
        assert_eq!(stdout(&run(&args, b"")), want, "{id}");
    }
}

#[test]
fn stdin_is_read_not_mapped_and_a_second_dash_is_empty() {
    for id in HashId::NAMED {
        let name = id.to_string();
        for &len in &LENGTHS {
            let data = bytes(len, 7);
            let want = hex(&hash::digest(id, &data).unwrap());
            assert_eq!(stdout(&run(&["hash", "--algo", &name], &data)), format!("{want}  -\n"), "{id} {len}");
        }
        let data = bytes(1000, 3);
        let got = stdout(&run(&["hash", "--algo", &name, "-", "-"], &data));
        let empty = hex(&hash::digest(id, b"").unwrap());
        assert_eq!(got, format!("{}  -\n{empty}  -\n", hex(&hash::digest(id, &data).unwrap())), "{id}");
    }
}

#[test]
fn names_with_a_newline_or_backslash_are_escaped_and_checked_back() {
    let dir = tempfile::tempdir().unwrap();
    let odd = write(dir.path(), "a\\b\nc", b"odd name");
    let out = stdout(&run(&["hash", "--algo", "kupyna-256", s(&odd)], b""));
    let want = hex(&hash::digest(HashId::Kupyna { digest_bits: 256 }, b"odd name").unwrap());
    let escaped = s(&odd).replace('\\', "\\\\").replace('\n', "\\n");
    assert_eq!(out, format!("\\{want}  {escaped}\n"));
    let sums = write(dir.path(), "sums", out.as_bytes());
    assert_eq!(stdout(&run(&["hash", "--algo", "kupyna-256", "--check", s(&sums)], b"")), format!("\\{escaped}: OK\n"));
}

/// A directory with files a, b, c and their `--algo` lines in `sums`.
fn checked_dir(algo: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let names = ["a", "b", "c"];
    for (i, n) in names.iter().enumerate() {
        write(dir.path(), n, &bytes(100 * i + 5, i as u64));
    }
    let paths: Vec<String> = names.iter().map(|n| s(&dir.path().join(n)).to_string()).collect();
    let mut args = vec!["hash", "--algo", algo];
    args.extend(paths.iter().map(String::as_str));
    let lines = stdout(&run(&args, b""));
    let sums = write(dir.path(), "sums", lines.as_bytes());
    (dir, sums)
}

#[test]
fn check_ok_failed_and_quiet() {
    for algo in ["streebog-256", "streebog-512", "kupyna-384"] {
        let (dir, sums) = checked_dir(algo);
        let p = |n: &str| s(&dir.path().join(n)).to_string();
        let ok = run(&["hash", "--algo", algo, "-c", s(&sums)], b"");
        assert_eq!(stdout(&ok), format!("{}: OK\n{}: OK\n{}: OK\n", p("a"), p("b"), p("c")));
        // From stdin too.
        let text = std::fs::read(&sums).unwrap();
        assert_eq!(stdout(&run(&["hash", "--algo", algo, "--check"], &text)), stdout(&ok));
        assert!(stdout(&run(&["hash", "--algo", algo, "--check", "--quiet", s(&sums)], b"")).is_empty());

        std::fs::write(dir.path().join("b"), b"changed").unwrap();
        let o = run(&["hash", "--algo", algo, "--check", s(&sums)], b"");
        fails(&o, 1, "1 of 3 computed digests did NOT match", algo);
        assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{}: OK\n{}: FAILED\n{}: OK\n", p("a"), p("b"), p("c")));
        let o = run(&["hash", "--algo", algo, "--check", "--quiet", s(&sums)], b"");
        assert_eq!((o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned()), (Some(1), format!("{}: FAILED\n", p("b"))));
        let o = run(&["hash", "--algo", algo, "--check", "--status", s(&sums)], b"");
        assert_eq!((o.status.code(), o.stdout.len(), o.stderr.len()), (Some(1), 0, 0), "{algo} --status");
    }
}

#[test]
fn check_a_missing_file_is_failed_open_or_read_and_status_1() {
    let (dir, sums) = checked_dir("streebog-256");
    std::fs::remove_file(dir.path().join("c")).unwrap();
    let o = run(&["hash", "--algo", "streebog-256", "--check", s(&sums)], b"");
    fails(&o, 1, "No such file", "missing");
    let c = s(&dir.path().join("c")).to_string();
    assert!(String::from_utf8_lossy(&o.stdout).ends_with(&format!("{c}: FAILED open or read\n")));
}

#[test]
fn check_malformed_lines_are_bad_input() {
    let (dir, sums) = checked_dir("kupyna-256");
    let good = std::fs::read_to_string(&sums).unwrap();
    let a = s(&dir.path().join("a")).to_string();
    let d = "ab".repeat(32);
    let cases = [
        (format!("{}  {a}\n", &d[..62]), "kupyna-256"),                // digest too short
        (format!("{d}0  {a}\n"), "expected 64 hex digits"),           // too long
        (format!("{}zz  {a}\n", &d[..62]), ":1: not a digest line"),   // not hex
        (format!("{d} {a}\n"), "two spaces"),                          // one space
        ("just text\n".to_string(), "not a digest line"),
    ];
    for (line, word) in &cases {
        let list = write(dir.path(), "bad", line.as_bytes());
        fails(&run(&["hash", "--algo", "kupyna-256", "--check", s(&list)], b""), 2, word, line);
        // Among good lines: those are still checked, the status is still 2.
        let list = write(dir.path(), "mixed", format!("{good}{line}").as_bytes());
        let o = run(&["hash", "--algo", "kupyna-256", "--check", s(&list)], b"");
        fails(&o, 2, ":4: not a digest line", line);
        assert_eq!(String::from_utf8_lossy(&o.stdout).matches(": OK\n").count(), 3, "{line}");
    }
    // A Streebog-512 list checked as Streebog-256.
    let (_d, sums512) = checked_dir("streebog-512");
    // (three bad lines: one line each, then the count.)
    let o = run(&["hash", "--algo", "streebog-256", "-c", s(&sums512)], b"");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("not a digest line of streebog-256").count(), 3, "{err}");
    assert!(err.trim_end().lines().last().unwrap().contains("3 bad lines or lists"), "{err}");
    // An empty list, a missing one.
    let empty = write(dir.path(), "empty", b"");
    fails(&run(&["hash", "--algo", "kupyna-256", "-c", s(&empty)], b""), 2, "no digest lines of kupyna-256", "empty list");
    fails(&run(&["hash", "--algo", "kupyna-256", "-c", "/nonexistent/sums"], b""), 2, "cannot read /nonexistent/sums", "no list");
}

#[test]
fn check_a_list_that_cannot_be_read_is_one_problem() {
    let (dir, sums) = checked_dir("kupyna-256");
    let d = s(dir.path());
    fails(&run(&["hash", "--algo", "kupyna-256", "-c", d], b""), 2, &format!("cannot read {d}: Is a directory"), "a directory");
    // Beside a good list: its files are still checked, the one problem is the one line.
    let o = run(&["hash", "--algo", "kupyna-256", "-c", s(&sums), d], b"");
    fails(&o, 2, &format!("cannot read {d}: Is a directory"), "a good list and a directory");
    assert_eq!(String::from_utf8_lossy(&o.stdout).matches(": OK\n").count(), 3);
}

/// A list with a good line, a mismatch or a file that cannot be read, and
/// a malformed line: status 2, with the mismatch still printed and counted.
#[test]
fn check_bad_input_outranks_a_mismatch_or_an_unreadable_file() {
    let (dir, sums) = checked_dir("kupyna-256");
    let p = |n: &str| s(&dir.path().join(n)).to_string();
    let mut lines = std::fs::read_to_string(&sums).unwrap();
    lines.push_str("just text\n");
    let list = write(dir.path(), "mixed", lines.as_bytes());
    std::fs::write(dir.path().join("b"), b"changed").unwrap();
    let o = run(&["hash", "--algo", "kupyna-256", "--check", s(&list)], b"");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{}: OK\n{}: FAILED\n{}: OK\n", p("a"), p("b"), p("c")));
    let last = err.trim_end().lines().last().unwrap();
    assert!(last.contains("1 of 3 computed digests did NOT match") && last.contains("1 bad lines or lists"), "{err}");
    let o = run(&["hash", "--algo", "kupyna-256", "--check", "--status", s(&list)], b"");
    assert_eq!((o.status.code(), o.stdout.len()), (Some(2), 0), "--status");

    std::fs::remove_file(dir.path().join("c")).unwrap();
    std::fs::write(dir.path().join("b"), bytes(105, 1)).unwrap();
    let o = run(&["hash", "--algo", "kupyna-256", "--check", s(&list)], b"");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(String::from_utf8_lossy(&o.stdout).ends_with(&format!("{}: FAILED open or read\n", p("c"))));
    assert!(err.trim_end().lines().last().unwrap().contains("1 listed files could not be read"), "{err}");
}

#[test]
fn bad_arguments_are_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "f", b"data");
    let cases: [(&[&str], &str); 9] = [
        (&["hash", "--algo", "sha256", s(&f)], "unknown hash 'sha256'"),
        (&["hash", "--algo", "kupyna-7", s(&f)], "unknown hash 'kupyna-7'"),
        (&["hash", "--algo", "streebog-384", s(&f)], "unknown hash"),
        (&["hash", s(&f)], "--algo"),
        (&["hash", "--algo", "streebog-256", "/nonexistent/file"], "cannot read /nonexistent/file"),
        (&["hash", "--algo", "streebog-256", "--backend", "no-such-backend", s(&f)], "error: streebog-256 has no backend 'no-such-backend'"),
        (&["hash", "--algo", "streebog-256", "--quiet", s(&f)], "error: --quiet applies only with --check"),
        (&["hash", "--algo", "streebog-256", "--status", s(&f)], "error: --status applies only with --check"),
        (&["hash", "--algo", "streebog-256", "--status", "--quiet", s(&f)], "applies only with --check"),
    ];
    for (args, word) in cases {
        fails(&run(args, b""), 2, word, &args.join(" "));
    }
    // A directory: named, and the other files still get their lines.
    let o = run(&["hash", "--algo", "streebog-256", s(&f), s(dir.path()), s(&f)], b"");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 2);
    let o = run(&["hash", "--algo", "streebog-256", "/nonexistent/1", s(&f), "/nonexistent/2"], b"");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(err.contains("/nonexistent/1") && err.contains("/nonexistent/2") && err.contains("2 of 3 files"), "{err}");
}

#[test]
fn each_backend_of_info_gives_the_same_digest() {
    let data = bytes(5000, 11);
    for id in HashId::NAMED {
        let want = hex(&hash::digest(id, &data).unwrap());
        for b in hash::backends(id).iter().filter(|b| b.available) {
            let o = run(&["hash", "--algo", &id.to_string(), "--backend", b.info.name], &data);
            assert_eq!(stdout(&o), format!("{want}  -\n"), "{id} {}", b.info.name);
        }
    }
}

/// `openssl dgst` with gost-engine's provider, if the system OpenSSL loads it.
fn openssl_streebog(bits: u32, file: &Path) -> Option<String> {
    let o = Command::new("openssl")
        .args(["dgst", "-provider", "gostprov", "-provider", "default", &format!("-md_gost12_{bits}"), "-r", s(file)])
        .output()
        .ok()?;
    if !o.status.success() {
        return None;
    }
    String::from_utf8(o.stdout).ok()?.split_whitespace().next().map(str::to_string)
}

#[test]
fn streebog_equals_gost_engines_provider_where_installed() {
    let dir = tempfile::tempdir().unwrap();
    let probe = write(dir.path(), "probe", M1);
    if openssl_streebog(256, &probe).is_none() {
        eprintln!("skipped: the system openssl does not load gostprov");
        return;
    }
    assert_eq!(openssl_streebog(256, &probe).unwrap(), M1_256);
    for (i, &len) in LENGTHS.iter().enumerate() {
        let f = write(dir.path(), &format!("f{i}"), &bytes(len, 100 + i as u64));
        for bits in [256, 512] {
            let ours = stdout(&run(&["hash", "--algo", &format!("streebog-{bits}"), s(&f)], b""));
            assert_eq!(ours, format!("{}  {}\n", openssl_streebog(bits, &f).unwrap(), s(&f)), "{bits} {len}");
        }
    }
}
