//! End-to-end tests of the built `multiblock` binary.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_multiblock"));
    c.env_remove("MULTIBLOCK_BACKEND");
    c
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn multiblock");
    // The child may exit before reading stdin (bad arguments): ignore EPIPE.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn vectors() -> Vec<Value> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../multiblock/vectors");
    ["kalyna", "kuznyechik", "magma", "gost89", "ublock"]
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(format!("{dir}/{f}.json")).unwrap();
            let doc: Value = serde_json::from_str(&text).unwrap();
            doc["vectors"].as_array().unwrap().clone()
        })
        .collect()
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or("")
}

/// The first ECB vector without Monte-Carlo iterations, per cipher name.
fn ecb_vector(cipher: &str) -> Value {
    vectors()
        .into_iter()
        .find(|v| s(v, "mode") == "ecb" && s(v, "cipher") == cipher && v.get("iterations").is_none())
        .unwrap_or_else(|| panic!("no plain ECB vector for {cipher}"))
}

const CIPHERS: [&str; 11] = [
    "kalyna-128-128", "kalyna-128-256", "kalyna-256-256", "kalyna-256-512", "kalyna-512-512",
    "kuznyechik", "magma", "gost89", "ublock-128-128", "ublock-128-256", "ublock-256-256",
];

fn crypt_args<'a>(dir: &'a str, v: &'a Value) -> Vec<&'a str> {
    let mut a = vec![dir, "--cipher", s(v, "cipher"), "--mode", "ecb", "--key", s(v, "key"), "--hex"];
    if v.get("sbox").is_some() {
        a.extend(["--sbox", s(v, "sbox")]);
    }
    a
}

#[test]
fn every_cipher_encrypts_and_decrypts_hex_from_stdin() {
    for name in CIPHERS {
        let v = ecb_vector(name);
        let o = run(&crypt_args("encrypt", &v), s(&v, "plaintext").as_bytes());
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8(o.stdout).unwrap(), format!("{}\n", s(&v, "ciphertext").to_lowercase()), "{name}");
        let o = run(&crypt_args("decrypt", &v), s(&v, "ciphertext").as_bytes());
        assert!(o.status.success(), "{name}");
        assert_eq!(String::from_utf8(o.stdout).unwrap(), format!("{}\n", s(&v, "plaintext").to_lowercase()), "{name}");
    }
}

#[test]
fn raw_files_round_trip_through_in_and_out() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("plain.bin");
    let sealed = dir.path().join("sealed.bin");
    let back = dir.path().join("back.bin");
    let data: Vec<u8> = (0..4096u32).map(|i| (i * 31 % 251) as u8).collect();
    std::fs::write(&input, &data).unwrap();
    let key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let o = run(&["encrypt", "--cipher", "kuznyechik", "--mode", "ecb", "--key", key, "--in", &p(&input), "--out", &p(&sealed)], b"");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty());
    let sealed_bytes = std::fs::read(&sealed).unwrap();
    assert_eq!(sealed_bytes.len(), data.len());
    assert_ne!(sealed_bytes, data);
    let o = run(&["decrypt", "--cipher", "kuznyechik", "--mode", "ecb", "--key", key, "--in", &p(&sealed), "--out", &p(&back)], b"");
    assert!(o.status.success());
    assert_eq!(std::fs::read(&back).unwrap(), data);
}

/// Each case: arguments, stdin, and a word the one-line error must contain.
#[test]
fn bad_input_exits_2_with_one_line_and_no_output_file() {
    let k16 = "000102030405060708090a0b0c0d0e0f";
    let k32 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (vec!["--cipher", "aes-128", "--key", k16, "--hex"], "00", "invalid value 'aes-128' for '--cipher"),
        (vec!["--cipher", "kalyna-128-128", "--key", k32, "--hex"], "00", "16 bytes"),
        (vec!["--cipher", "kuznyechik", "--key", k16, "--hex"], "00", "32 bytes"),
        (vec!["--cipher", "kuznyechik", "--key", "abc", "--hex"], "00", "odd number"),
        (vec!["--cipher", "kuznyechik", "--key", "zz", "--hex"], "00", "not hex"),
        (vec!["--cipher", "kuznyechik", "--key", k32, "--hex"], "0011223", "odd number"),
        (vec!["--cipher", "kuznyechik", "--key", k32, "--hex"], "00112x", "not hex"),
        (vec!["--cipher", "kuznyechik", "--key", k32, "--hex"], "0011", "whole 16-byte blocks"),
        (vec!["--cipher", "magma", "--key", k32], "123456789", "whole 8-byte blocks"),
        (vec!["--cipher", "gost89", "--key", k32, "--sbox", "nope", "--hex"], "00", "invalid value 'nope' for '--sbox"),
        (vec!["--cipher", "kuznyechik", "--key", k32, "--padding", "zeros", "--hex"], "00", "invalid value 'zeros' for '--padding"),
        (vec!["--cipher", "kuznyechik", "--key", k32, "--sbox", "test", "--hex"], "00", "fixed S-box"),
        (vec!["--cipher", "kuznyechik", "--key", k32, "--backend", "nope", "--hex"], "00", "no backend"),
        (vec!["--cipher", "kuznyechik", "--key", k32, "--mode", "xyz", "--hex"], "00", "unknown mode"),
        (vec!["--cipher", "kuznyechik", "--hex"], "00", "--key-file PATH, --key-env NAME, --key-fd N or --key HEX"),
        (vec!["--cipher", "kuznyechik", "--key", k32, "--in", "/nonexistent/x"], "", "cannot read"),
        (vec!["--cipher", "kuznyechik", "--key", k32, "--bogus"], "", "unexpected argument"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.bin");
    let out_s = out.to_str().unwrap();
    for verb in ["encrypt", "decrypt"] {
        for (args, stdin, word) in &cases {
            let mut a = vec![verb];
            a.extend(args.iter());
            if !args.contains(&"--mode") {
                a.extend(["--mode", "ecb"]);
            }
            a.extend(["--out", out_s]);
            let o = run(&a, stdin.as_bytes());
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{a:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{a:?}: not one line: {err}");
            assert!(err.contains(word), "{a:?}: '{err}' lacks '{word}'");
            assert!(!err.contains("panicked"), "{a:?}: {err}");
            assert!(o.stdout.is_empty(), "{a:?}: wrote to stdout");
            assert!(!out.exists(), "{a:?}: left an output file");
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{a:?}: left a temporary file");
        }
    }
}

#[test]
fn unwritable_output_exits_2() {
    let k32 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    let o = run(&["encrypt", "--cipher", "magma", "--mode", "ecb", "--key", k32, "--hex", "--out", "/nonexistent-dir/x"], b"0011223344556677");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write"));
}

#[test]
fn info_lists_every_cipher_with_a_default_backend() {
    let o = run(&["info"], b"");
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("features:"));
    for name in CIPHERS {
        assert!(
            // The status column.
            text.lines().any(|l| l.starts_with(name) && l.split_whitespace().nth(4) == Some("default")),
            "{name} has no default backend in:\n{text}"
        );
    }
}

#[test]
fn selftest_passes() {
    let o = run(&["selftest", "--thorough"], b"");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains(" 0 failed"), "{text}");
    assert!(!text.contains("selftest: 0 passed"), "{text}");
}

#[test]
fn backend_env_var_forces_and_rejects() {
    let k32 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    let o = bin()
        .args(["encrypt", "--cipher", "magma", "--mode", "ecb", "--key", k32, "--hex"])
        .env("MULTIBLOCK_BACKEND", "no-such-backend")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no backend 'no-such-backend'"));
}

/// The CLI arguments for a vector: verb, mode, key, iv, aad, sbox, params.
fn vector_args(verb: &str, v: &Value) -> Vec<String> {
    let mut a: Vec<String> = [verb, "--cipher", s(v, "cipher"), "--mode", s(v, "mode"), "--key", s(v, "key"), "--hex"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    for k in ["iv", "aad", "sbox"] {
        if v.get(k).is_some() {
            a.push(format!("--{k}"));
            a.push(s(v, k).to_string());
        }
    }
    if let Some(params) = v.get("params").and_then(Value::as_object) {
        for (k, x) in params {
            a.push(format!("--{}", k.replace('_', "-")));
            a.push(x.to_string());
        }
    }
    a
}

fn run_args(args: &[String], stdin: &str) -> Output {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&refs, stdin.as_bytes())
}

#[test]
fn every_mode_vector_through_the_cli() {
    let mut ran = 0;
    for v in vectors().iter().filter(|v| s(v, "mode") != "ecb") {
        let (pt, ct, tag) = (s(v, "plaintext"), s(v, "ciphertext"), s(v, "tag"));
        let what = format!("{} {}", s(v, "cipher"), s(v, "mode"));
        let ok = |o: &Output| {
            assert!(o.status.success(), "{what}: {}", String::from_utf8_lossy(&o.stderr));
            String::from_utf8(o.stdout.clone()).unwrap().trim().to_string()
        };
        let is_mac = ct.is_empty() && !tag.is_empty();
        if is_mac {
            assert_eq!(ok(&run_args(&vector_args("mac", v), pt)), tag.to_lowercase(), "{what}");
        } else {
            let sealed = format!("{ct}{tag}").to_lowercase();
            assert_eq!(ok(&run_args(&vector_args("encrypt", v), pt)), sealed, "{what} encrypt");
            assert_eq!(ok(&run_args(&vector_args("decrypt", v), &sealed)), pt.to_lowercase(), "{what} decrypt");
        }
        ran += 1;
    }
    assert!(ran >= 60, "only {ran} mode vectors ran");
}

#[test]
fn wrong_tag_exits_1_and_writes_nothing() {
    let v = vectors().into_iter().find(|v| s(v, "mode") == "mgm" && s(v, "cipher") == "kuznyechik").unwrap();
    let mut sealed = format!("{}{}", s(&v, "ciphertext"), s(&v, "tag")).to_lowercase();
    let last = sealed.pop().unwrap();
    sealed.push(if last == '0' { '1' } else { '0' });
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plain.bin");
    let mut args = vector_args("decrypt", &v);
    args.extend(["--out".to_string(), out.to_str().unwrap().to_string()]);
    let o = run_args(&args, &sealed);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("authentication failed"), "{err}");
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "left a file");
}

#[test]
fn truncated_aead_input_and_wrong_iv_exit_2() {
    let v = vectors().into_iter().find(|v| s(v, "mode") == "gcm" && s(v, "cipher") == "kalyna-128-128").unwrap();
    // Shorter than the tag.
    let o = run_args(&vector_args("decrypt", &v), "00112233");
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    // An IV of the wrong length.
    let mut args = vector_args("encrypt", &v);
    let i = args.iter().position(|a| a == "--iv").unwrap();
    args[i + 1] = "0011".into();
    let o = run_args(&args, s(&v, "plaintext"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("iv") || err.contains("IV"), "{err}");
}

/// `encrypt` and `decrypt` never pick a mode: without `--mode` the one-line
/// error lists the modes of the cipher (its MACs excluded), exit 2, nothing
/// written.
#[test]
fn encrypt_and_decrypt_require_a_mode_and_list_the_cipher_s_modes() {
    let kalyna = "ecb, ctr, cbc, cfb, ofb, gcm, ccm, xts, kw";
    let gost = "ecb, ctr, ofb, cbc, cfb, ctr-acpkm, mgm";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for name in CIPHERS {
        let modes = match name {
            "kuznyechik" => "ecb, ctr, ofb, cbc, cfb, ctr-acpkm, mgm, xts",
            "magma" => gost,
            "gost89" => "ecb, cnt, cfb",
            n if n.starts_with("ublock") => "ecb, cbc",
            _ => kalyna,
        };
        let v = ecb_vector(name);
        for verb in ["encrypt", "decrypt"] {
            let args = [verb, "--cipher", name, "--key", s(&v, "key"), "--hex", "--out", out.to_str().unwrap()];
            let o = run(&args, s(&v, "plaintext").as_bytes());
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{name} {verb}: {err}");
            assert_eq!(err, format!("multiblock: error: --mode is required: {name} takes {modes}\n"), "{name} {verb}");
            assert!(o.stdout.is_empty() && !out.exists(), "{name} {verb}");
        }
    }
}

/// `mac` without `--mode` is the family's standard MAC: GOST R 34.13-2015
/// `mac` for Kuznyechik and Magma, the GOST 28147-89 `mac`, DSTU 7624 `cmac`
/// for Kalyna; uBlock has no MAC mode, a one-line error.
#[test]
fn mac_without_a_mode_is_the_family_s_standard_mac() {
    let msg = "00112233445566778899aabbccddeeff0011223344556677";
    for name in CIPHERS {
        let v = ecb_vector(name);
        let mut args = vec!["mac", "--cipher", name, "--key", s(&v, "key"), "--hex"];
        if v.get("sbox").is_some() {
            args.extend(["--sbox", s(&v, "sbox")]);
        }
        let o = run(&args, msg.as_bytes());
        if name.starts_with("ublock") {
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{name}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains(&format!("{name} has no MAC mode")), "{err}");
            assert!(o.stdout.is_empty());
            continue;
        }
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let standard = if name.starts_with("kalyna") { "cmac" } else { "mac" };
        let explicit = run(&[&args[..], &["--mode", standard]].concat(), msg.as_bytes());
        assert!(explicit.status.success(), "{name}");
        assert_eq!(o.stdout, explicit.stdout, "{name}: the default is not {standard}");
    }
}

/// Every `--help` names the values its options take: ciphers, the modes of
/// each family, paddings, S-boxes, backends, the key options (the file
/// first), and `mac`'s default mode; no mode is shown as a default of
/// `encrypt`.
#[test]
fn help_lists_the_values_options_take() {
    let help = |args: &[&str]| {
        let o = run(args, b"");
        assert!(o.status.success(), "{args:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    for verb in ["encrypt", "decrypt", "mac"] {
        let text = help(&[verb, "--help"]);
        for want in CIPHERS.iter().chain(&["none", "gost1", "gost2", "gost3", "pkcs7"]).chain(&[
            "tc26-z", "test", "cryptopro-a", "cryptopro-d", "portable", "reference", "--key-file <PATH>",
            "--key-env <NAME>", "--key-fd <N>", "--key <HEX>", "4, 6 or 8",
        ]) {
            assert!(text.contains(want), "{verb} --help lacks {want}:\n{text}");
        }
        assert!(!text.contains("[default: ecb]"), "{verb} --help:\n{text}");
        let file = text.find("--key-file").unwrap();
        assert!(file < text.find("--key <HEX>").unwrap(), "{verb}: --key-file is not listed first");
    }
    let text = help(&["encrypt", "--help"]);
    assert!(text.contains("Mode of operation (required)"), "{text}");
    for want in ["kalyna-*: ecb, ctr, cbc, cfb, ofb, gcm, ccm, xts, kw", "kuznyechik: ecb, ctr, ofb, cbc, cfb, ctr-acpkm, mgm, xts", "magma: ecb, ctr, ofb, cbc, cfb, ctr-acpkm, mgm", "gost89: ecb, cnt, cfb", "ublock-*: ecb, cbc"] {
        assert!(text.contains(want), "encrypt --help lacks {want}:\n{text}");
    }
    let text = help(&["mac", "--help"]);
    for want in ["kalyna-*: cmac, gmac", "kuznyechik, magma: mac, omac-acpkm", "gost89: mac", "uBlock has none", "Default: the family's standard MAC"] {
        assert!(text.contains(want), "mac --help lacks {want}:\n{text}");
    }
    let text = help(&["selftest", "--help"]);
    assert!(text.contains("[possible values:") && text.contains("reference"), "{text}");
}

/// A stdout whose reader is gone (the read end closed before the command
/// starts, so the first write fails): the process ends as coreutils tools
/// do, killed by SIGPIPE (the shell shows 141) with nothing on stderr; with
/// SIGPIPE ignored by the caller, the write error is reported, exit 2.
#[test]
fn a_closed_stdout_ends_quietly_as_coreutils_tools_do() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::write(&input, vec![0x5au8; 1 << 20]).unwrap();
    let inp = input.to_str().unwrap();
    let k32 = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    let ctr = ["encrypt", "--cipher", "kuznyechik", "--mode", "ctr", "--key", k32, "--iv", "0011223344556677", "--in", inp];
    // MGM decryption holds its output back until the tag is checked, then
    // copies it to stdout.
    let sealed = dir.path().join("sealed");
    let iv = "00".repeat(16);
    let mgm = ["--cipher", "kuznyechik", "--mode", "mgm", "--key", k32, "--iv", &iv, "--in"];
    let o = run(&[&["encrypt"][..], &mgm, &[inp, "--out", sealed.to_str().unwrap()]].concat(), b"");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mgm = [&["decrypt"][..], &mgm, &[sealed.to_str().unwrap()]].concat();
    let cases: [&[&str]; 6] = [
        &["info"],
        &["--help"],
        &["encrypt", "--help"],
        &ctr,
        &mgm,
        &["mac", "--cipher", "magma", "--key", k32, inp, inp],
    ];
    for args in cases {
        for ignored in [false, true] {
            let (reader, writer) = std::io::pipe().unwrap();
            drop(reader);
            let script = if ignored { r#"trap '' PIPE; exec "$0" "$@""# } else { r#"exec "$0" "$@""# };
            let o = Command::new("sh")
                .arg("-c")
                .arg(script)
                .arg(env!("CARGO_BIN_EXE_multiblock"))
                .args(args)
                .env_remove("MULTIBLOCK_BACKEND")
                .stdin(Stdio::null())
                .stdout(writer)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            if ignored {
                assert_eq!(o.status.code(), Some(2), "{args:?} with SIGPIPE ignored: {err}");
                assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
                assert!(err.contains("cannot write stdout: Broken pipe"), "{args:?}: {err}");
            } else {
                assert_eq!(o.status.signal(), Some(libc::SIGPIPE), "{args:?}: {:?} {err}", o.status);
                assert!(err.is_empty(), "{args:?}: {err}");
            }
        }
    }
}
