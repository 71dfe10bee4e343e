//! `mac --mode hmac` and `mac --mode kupyna-mac`: RFC 7836 §A.1's HMAC
//! examples; every hash over files of many lengths equal to the library's
//! `Hmac`; the output shapes of the other MACs (raw tag, `--hex`, `TAG  FILE`
//! lines, `--out`); `--tag` accepted and refused (exit status 1), for the
//! cipher MACs too; the
//! parameters that do not belong refused with one line and exit status 2.
//! Kupyna's MAC against the library's `KupynaMac`; HMAC-Streebog against
//! gost-engine's provider where the system OpenSSL has it.

use multiblock::hash::{HashId, Hmac, KupynaMac};
mod common;

use common::{bytes, fails, hex, run as run_bin, s, write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// RFC 7836 §A.1.1 and §A.1.2: the key, the message and the two HMACs.
const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const MSG: &str = "0126bdb87800af214341456563780100";
const HMAC_256: &str = "a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9";
const HMAC_512: &str = "a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a773d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6";

/// `multiblock mac ARGS`.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut all = vec!["mac"];
    all.extend_from_slice(args);
    run_bin(&all, stdin)
}

fn ok(o: &Output) -> Vec<u8> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout.clone()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn rfc_7836_examples_in_every_output_shape() {
    let dir = tempfile::tempdir().unwrap();
    let msg = write(dir.path(), "msg", &unhex(MSG));
    let key_file = write(dir.path(), "key", KEY.as_bytes());
    for (hash, want) in [("streebog-256", HMAC_256), ("streebog-512", HMAC_512)] {
        let common = ["--mode", "hmac", "--hash", hash, "--key", KEY];
        // FILE: a sha256sum line.
        assert_eq!(ok(&run(&[&common[..], &[s(&msg)]].concat(), b"")), format!("{want}  {}\n", s(&msg)).into_bytes());
        // stdin and --in: the raw tag, as every MAC.
        assert_eq!(ok(&run(&common, &unhex(MSG))), unhex(want));
        assert_eq!(ok(&run(&[&common[..], &["--in", s(&msg)]].concat(), b"")), unhex(want));
        // --hex: hex text in, hex out.
        assert_eq!(ok(&run(&[&common[..], &["--hex"]].concat(), MSG.as_bytes())), format!("{want}\n").into_bytes());
        // The key from a file (hex text), --out.
        let out = dir.path().join(format!("tag-{hash}"));
        let args = ["--mode", "hmac", "--hash", hash, "--key-file", s(&key_file), "--in", s(&msg), "--out", s(&out)];
        assert!(ok(&run(&args, b"")).is_empty());
        assert_eq!(std::fs::read(&out).unwrap(), unhex(want));
        // --tag: silence and 0; a changed tag: 1.
        assert!(ok(&run(&[&common[..], &["--tag", want, s(&msg)]].concat(), b"")).is_empty());
        assert!(ok(&run(&[&common[..], &["--tag", want]].concat(), &unhex(MSG))).is_empty());
        let mut wrong = unhex(want);
        wrong[7] ^= 1;
        let o = run(&[&common[..], &["--tag", &hex(&wrong), s(&msg)]].concat(), b"");
        fails(&o, 1, "authentication failed", hash);
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn hmac_runs_on_every_backend_of_its_hash() {
    for (id, want) in [(HashId::Streebog256, HMAC_256), (HashId::Streebog512, HMAC_512)] {
        for st in multiblock::hash::backends(id).into_iter().filter(|s| s.available) {
            let name = id.to_string();
            let args = ["--mode", "hmac", "--hash", &name, "--key", KEY, "--hex", "--backend", st.info.name];
            assert_eq!(ok(&run(&args, MSG.as_bytes())), format!("{want}\n").into_bytes(), "{id} on {}", st.info.name);
        }
    }
}

#[test]
fn every_hash_and_length_equals_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let lengths = [0usize, 1, 63, 64, 65, 127, 128, 129, 1000, 300_001];
    let files: Vec<(PathBuf, Vec<u8>)> = lengths
        .iter()
        .enumerate()
        .map(|(i, &len)| {
            let data = bytes(len, i as u64);
            (write(dir.path(), &format!("f{i}"), &data), data)
        })
        .collect();
    for (k, id) in HashId::NAMED.into_iter().enumerate() {
        // Keys shorter than, as long as, and longer than a block (hashed first).
        for key in [bytes(16, 50 + k as u64), bytes(id.block_bytes(), 60), bytes(id.block_bytes() + 1, 70)] {
            let name = id.to_string();
            let key_hex = hex(&key);
            let mut args = vec!["--mode", "hmac", "--hash", &name, "--key", &key_hex];
            args.extend(files.iter().map(|(p, _)| s(p)));
            let want: String = files
                .iter()
                .map(|(p, data)| {
                    let mut mac = Hmac::new(id, &key).unwrap();
                    mac.update(data);
                    format!("{}  {}\n", hex(&mac.finalize()), s(p))
                })
                .collect();
            assert_eq!(String::from_utf8(ok(&run(&args, b""))).unwrap(), want, "{id} key {}", key.len());
        }
    }
}

#[test]
fn a_missing_file_is_named_and_the_others_get_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "f", b"data");
    let o = run(&["--mode", "hmac", "--hash", "kupyna-256", "--key", KEY, s(&f), "/nonexistent/x"], b"");
    fails(&o, 2, "cannot read /nonexistent/x", "missing");
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
}

#[test]
fn wrong_arguments_are_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "f", b"data");
    let f = s(&f);
    let empty = write(dir.path(), "empty", b"");
    let empty = s(&empty);
    let tag = HMAC_256;
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--mode", "hmac", "--key", KEY, f], "--mode hmac needs --hash NAME"),
        (vec!["--mode", "hmac", "--hash", "sha256", "--key", KEY, f], "unknown hash 'sha256'"),
        (vec!["--mode", "hmac", "--hash", "kupyna-160", "--key", KEY, f], "hmac runs over"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", f], "no key"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", "--key", "abc", f], "odd number"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", "--key", "", f], "the key is empty"),
        (vec!["--mode", "hmac", "--hash", "kupyna-256", "--key-file", empty, f], "the key is empty"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", "--key", KEY, "--cipher", "magma", f], "takes no --cipher"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", "--key", KEY, "--iv", "00", f], "takes no --iv"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", "--key", KEY, "--tag-bits", "128", f], "takes no --tag-bits"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", "--key", KEY, "--backend", "sse9", f], "has no backend 'sse9'"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", "--key", KEY, "--tag", "00", f], "--tag is 1 byte;"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", "--key", KEY, "--tag", "zz", f], "--tag is not hex"),
        (vec!["--mode", "hmac", "--hash", "streebog-256", "--key", KEY, "--tag", tag, f, f], "--tag checks one input"),
        (vec!["--mode", "kupyna-mac", "--hash", "streebog-256", "--key", KEY, f], "kupyna-mac runs over kupyna-256"),
        (vec!["--mode", "kupyna-mac", "--key", KEY, f], "--mode kupyna-mac needs --hash"),
        (vec!["--cipher", "magma", "--key", KEY, "--hash", "streebog-256", f], "--hash goes with --mode hmac"),
        (vec!["--cipher", "magma", "--key", KEY, "--tag", tag, f], "--tag is 32 bytes; the magma mac tag is 8 bytes"),
        (vec!["--cipher", "magma", "--key", KEY, "--tag", "00", f, f], "--tag checks one input"),
        (vec!["--mode", "mac", "--key", KEY, f], "--cipher is required"),
    ];
    for (args, word) in cases {
        fails(&run(&args, b""), 2, word, &args.join(" "));
    }
}

/// Kupyna's MAC through the command equals the library's.
#[test]
fn kupyna_mac_equals_the_library() {
    let dir = tempfile::tempdir().unwrap();
    for (k, bits) in [256usize, 384, 512].into_iter().enumerate() {
        let key = bytes(bits / 8, 80 + k as u64);
        let files: Vec<(PathBuf, Vec<u8>)> = [0usize, 1, 64, 129, 5000]
            .iter()
            .enumerate()
            .map(|(i, &len)| {
                let data = bytes(len, 90 + i as u64);
                (write(dir.path(), &format!("k{bits}-{i}"), &data), data)
            })
            .collect();
        let name = format!("kupyna-{bits}");
        let key_hex = hex(&key);
        let mut args = vec!["--mode", "kupyna-mac", "--hash", &name, "--key", &key_hex];
        args.extend(files.iter().map(|(p, _)| s(p)));
        let mut mac = KupynaMac::new(bits, &key).unwrap();
        let want: String = files
            .iter()
            .map(|(p, data)| {
                mac.update(data);
                format!("{}  {}\n", hex(&mac.finalize_reset()), s(p))
            })
            .collect();
        assert_eq!(String::from_utf8(ok(&run(&args, b""))).unwrap(), want, "{name}");
        // --tag of the first file, right and wrong.
        let first = &want[..bits / 4];
        let common = ["--mode", "kupyna-mac", "--hash", &name, "--key", &key_hex];
        assert!(ok(&run(&[&common[..], &["--tag", first, s(&files[0].0)]].concat(), b"")).is_empty());
        let o = run(&[&common[..], &["--tag", first, s(&files[1].0)]].concat(), b"");
        fails(&o, 1, "authentication failed", &name);
    }
}

/// `openssl mac ... HMAC` over Streebog with gost-engine's provider, if the
/// system OpenSSL loads it.
fn openssl_hmac(bits: u32, key_hex: &str, file: &Path) -> Option<String> {
    let digest = format!("md_gost12_{bits}");
    let key = format!("hexkey:{key_hex}");
    let args = ["mac", "-provider", "gostprov", "-provider", "default", "-digest", &digest, "-macopt", &key, "-in", s(file), "HMAC"];
    let o = Command::new("openssl").args(args).output().ok()?;
    if !o.status.success() {
        return None;
    }
    Some(String::from_utf8(o.stdout).ok()?.trim().to_ascii_lowercase())
}

#[test]
fn hmac_streebog_equals_gost_engines_provider_where_installed() {
    let dir = tempfile::tempdir().unwrap();
    let probe = write(dir.path(), "probe", &unhex(MSG));
    if openssl_hmac(256, KEY, &probe).is_none() {
        eprintln!("skipped: the system openssl does not load gostprov");
        return;
    }
    assert_eq!(openssl_hmac(256, KEY, &probe).unwrap(), HMAC_256);
    for (i, len) in [0usize, 1, 64, 65, 1000, 70_000].into_iter().enumerate() {
        let f = write(dir.path(), &format!("f{i}"), &bytes(len, 200 + i as u64));
        let key = hex(&bytes(16 + 20 * i, 300 + i as u64));
        for bits in [256, 512] {
            let ours = ok(&run(&["--mode", "hmac", "--hash", &format!("streebog-{bits}"), "--key", &key, s(&f)], b""));
            let want = openssl_hmac(bits, &key, &f).unwrap();
            assert_eq!(String::from_utf8(ours).unwrap(), format!("{want}  {}\n", s(&f)), "{bits} {len}");
        }
    }
}

#[test]
fn tag_checks_the_cipher_macs_too() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "f", &bytes(1000, 9));
    for common in [
        &["--cipher", "kuznyechik", "--key", KEY][..],
        &["--cipher", "magma", "--mode", "mac", "--mac-bits", "64", "--key", KEY],
        &["--cipher", "kalyna-256-256", "--mode", "cmac", "--key", KEY],
    ] {
        let tag = ok(&run(&[common, &["--in", s(&f)]].concat(), b""));
        assert!(ok(&run(&[common, &["--tag", &hex(&tag), s(&f)]].concat(), b"")).is_empty());
        assert!(ok(&run(&[common, &["--tag", &hex(&tag)]].concat(), &bytes(1000, 9))).is_empty());
        let mut wrong = tag.clone();
        wrong[0] ^= 1;
        fails(&run(&[common, &["--tag", &hex(&wrong), s(&f)]].concat(), b""), 1, "does not match --tag", &common.join(" "));
    }
}
