//! Limits end to end: sizes the user controls never abort
//! the process, misleading successes are failures, MULTIBLOCK_BACKEND is a
//! preference list that warns about non-constant-time choices, and the
//! empty message has no forgeable MAC. Every failure: exit 2, one line.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const K32: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const BIN: &str = env!("CARGO_BIN_EXE_multiblock");

fn run_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args).env_remove("MULTIBLOCK_BACKEND").env_remove("MULTIBLOCK_BUFFER_BYTES").stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn run(args: &[&str]) -> Output {
    run_env(args, &[])
}

/// Exit status 2, one line on stderr containing `word`, no panic.
fn fails(o: &Output, word: &str, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: not one line: {err}");
    assert!(err.contains(word), "{what}: '{err}' lacks '{word}'");
    assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{what}: {err}");
}

// -- buffer sizes --------------------------------------------------------

#[test]
fn buffer_size_from_the_environment_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::write(&input, [0u8; 100]).unwrap();
    let a = ["encrypt", "--cipher", "kuznyechik", "--mode", "ctr", "--key", K32, "--iv", "0011223344556677"];
    let args = [&a[..], &["--in", input.to_str().unwrap()]].concat();
    for v in ["18446744073709551615", "99999999999", "1073741825", "0", "4095", "-1", "lots"] {
        let o = run_env(&args, &[("MULTIBLOCK_BUFFER_BYTES", v)]);
        fails(&o, "MULTIBLOCK_BUFFER_BYTES", v);
        assert!(o.stdout.is_empty(), "{v}");
    }
    for v in ["4096", "1073741824"] {
        assert!(run_env(&args, &[("MULTIBLOCK_BUFFER_BYTES", v)]).status.success(), "{v}");
    }
}

/// Runs `args` under an address-space limit (`ulimit -v`, KiB).
fn limited(limit_kib: u64, args: &[String]) -> Output {
    let mut script = format!("ulimit -v {limit_kib} && exec \"$0\"");
    for i in 1..=args.len() {
        script.push_str(&format!(" \"${{{i}}}\""));
    }
    Command::new("sh").arg("-c").arg(script).arg(BIN).args(args).stdin(Stdio::null()).output().unwrap()
}

/// MGM and CCM stream: under an address-space limit that leaves room for a
/// third of the input, not for the input itself, they encrypt and decrypt a
/// 48 MiB file (never holding it in memory); a flipped ciphertext byte then gives
/// exit status 1 and no output file.
#[test]
fn aead_modes_stream_in_bounded_memory() {
    const MIB: u64 = 1 << 20;
    let size = 48 * MIB;
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small");
    std::fs::write(&small, [1u8; 64]).unwrap();
    let big = dir.path().join("big");
    std::fs::File::create(&big).unwrap().set_len(size).unwrap();
    let (sealed, back) = (dir.path().join("sealed"), dir.path().join("back"));
    let cases: [&[&str]; 2] = [
        &["--cipher", "kuznyechik", "--mode", "mgm", "--key", K32, "--iv", "00112233445566778899aabbccddeeff"],
        &["--cipher", "kalyna-128-128", "--mode", "ccm", "--key", &K32[..32], "--iv", "00112233445566778899aabbccddeeff"],
    ];
    for case in cases {
        let with = |verb: &str, input: &std::path::Path, out: &std::path::Path| -> Vec<String> {
            let tail = ["--threads", "1", "--in", input.to_str().unwrap(), "--out", out.to_str().unwrap()];
            std::iter::once(&verb).chain(case.iter()).chain(tail.iter()).map(|s| s.to_string()).collect()
        };
        // The smallest limit (16 MiB steps) under which a tiny input works.
        let base = (1..=128u64)
            .map(|i| i * 16 * MIB)
            .find(|&l| limited(l / 1024, &with("encrypt", &small, &sealed)).status.success())
            .expect("no limit up to 2 GiB runs the command");
        let limit = (base + size / 3) / 1024;
        let o = limited(limit, &with("encrypt", &big, &sealed));
        assert!(o.status.success(), "{}: {}", case[3], String::from_utf8_lossy(&o.stderr));
        assert_eq!(std::fs::metadata(&sealed).unwrap().len(), size + 16, "{}", case[3]);
        let o = limited(limit, &with("decrypt", &sealed, &back));
        assert!(o.status.success(), "{}: {}", case[3], String::from_utf8_lossy(&o.stderr));
        let plain = std::fs::read(&back).unwrap();
        assert!(plain.len() as u64 == size && plain.iter().all(|&b| b == 0), "{}", case[3]);
        std::fs::remove_file(&back).unwrap();
        // One flipped bit in the middle: exit 1, no output.
        let mut f = std::fs::OpenOptions::new().read(true).write(true).open(&sealed).unwrap();
        use std::io::{Read, Seek, SeekFrom};
        let mut b = [0u8; 1];
        f.seek(SeekFrom::Start(size / 2)).unwrap();
        f.read_exact(&mut b).unwrap();
        f.seek(SeekFrom::Start(size / 2)).unwrap();
        f.write_all(&[b[0] ^ 4]).unwrap();
        drop(f);
        let o = limited(limit, &with("decrypt", &sealed, &back));
        assert_eq!(o.status.code(), Some(1), "{}: {}", case[3], String::from_utf8_lossy(&o.stderr));
        assert!(!back.exists(), "{}: an output was left", case[3]);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 3, "{}: a temporary file was left: {names:?}", case[3]);
    }
}

// -- misleading successes ------------------------------------------------

#[test]
fn selftest_of_a_backend_that_does_not_exist_fails() {
    fails(&run(&["selftest", "--backend", "nope"]), "invalid value 'nope' for '--backend", "nope");
    fails(&run(&["selftest", "--backend", "reference", "--backend", "nope"]), "'nope'", "one of two");
    let o = run(&["selftest", "--backend", "reference"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn ecb_refuses_parameters_it_does_not_take() {
    let base = ["encrypt", "--cipher", "kuznyechik", "--key", K32, "--hex"];
    for (flag, value) in [
        ("--aad", "00"),
        ("--tag-bits", "64"),
        ("--s", "64"),
        ("--nb", "8"),
        ("--section-bytes", "32"),
        ("--mac-bits", "32"),
        ("--m", "128"),
        ("--key-section-bytes", "32"),
    ] {
        let o = run(&[&base[..], &["--mode", "ecb", flag, value]].concat());
        fails(&o, &format!("takes no {flag}"), flag);
    }
    let o = run(&[&base[..], &["--mode", "ecb", "--key-meshing"]].concat());
    fails(&o, "takes no --key-meshing", "--key-meshing");
    let o = run(&["encrypt", "--cipher", "gost89", "--mode", "ecb", "--key", K32, "--hex", "--key-meshing"]);
    fails(&o, "takes no --key-meshing", "gost89 --key-meshing");
}

#[test]
fn help_and_output_to_a_closed_or_full_stdout_fail() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    for args in [&["encrypt", "--help"][..], &["--version"], &["info"]] {
        let o = Command::new(BIN).args(args).stdout(full()).output().unwrap();
        fails(&o, "No space left on device", &format!("{args:?} >/dev/full"));
        // `>&-`: the shell closes descriptor 1 before exec.
        let o = Command::new("sh").arg("-c").arg("exec \"$0\" \"$@\" >&-").arg(BIN).args(args).output().unwrap();
        fails(&o, "cannot write stdout", &format!("{args:?} >&-"));
    }
    let o = Command::new("sh")
        .arg("-c")
        .arg("echo 00 | exec \"$0\" encrypt --cipher magma --mode ctr --iv 00112233 --key \"$1\" --hex >&-")
        .arg(BIN)
        .arg(K32)
        .output()
        .unwrap();
    fails(&o, "cannot write stdout", "encrypt >&-");
}

#[test]
fn negative_sizes_and_directory_outputs_get_a_plain_message() {
    let base = ["encrypt", "--cipher", "kuznyechik", "--mode", "cfb", "--key", K32, "--hex"];
    for flag in ["--m", "--s", "--tag-bits", "--mac-bits", "--nb", "--section-bytes"] {
        fails(&run(&[&base[..], &[flag, "-128"]].concat()), "cannot be negative", flag);
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::write(&input, [0u8; 16]).unwrap();
    for out in ["/", dir.path().to_str().unwrap()] {
        let o = run(&["encrypt", "--cipher", "kuznyechik", "--mode", "ecb", "--key", K32, "--in", input.to_str().unwrap(), "--out", out]);
        fails(&o, "is a directory", out);
    }
}

// -- MULTIBLOCK_BACKEND as a preference list -----------------------------

fn encrypt_with_env(cipher: &str, key: &str, backend: &str) -> Output {
    let mut c = Command::new(BIN)
        .args(["encrypt", "--cipher", cipher, "--mode", "ecb", "--key", key, "--hex"])
        .env("MULTIBLOCK_BACKEND", backend)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A refused backend name ends the process before it reads stdin: the
    // write may then meet a closed pipe, which is not what is tested.
    let _ = c.stdin.take().unwrap().write_all(&b"00".repeat(64));
    c.wait_with_output().unwrap()
}

#[test]
fn backend_environment_is_a_preference_list_that_warns() {
    let k64 = K32.repeat(2);
    // Names a cipher lacks are skipped: the default runs, no warning.
    for (cipher, key, name) in [("kuznyechik", K32, "ssse3"), ("kalyna-128-128", &K32[..32], "ssse3"), ("ublock-128-128", &K32[..32], "table"), ("kalyna-512-512", k64.as_str(), "table12")] {
        let o = encrypt_with_env(cipher, key, name);
        assert!(o.status.success(), "{cipher} {name}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stderr.is_empty(), "{cipher} {name}: {}", String::from_utf8_lossy(&o.stderr));
    }
    // A non-constant-time backend chosen by the environment: one warning.
    let o = encrypt_with_env("kuznyechik", K32, "table");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("warning") && err.contains("'table'") && err.contains("not constant-time"), "{err}");
    // A name no cipher has is still an error.
    fails(&encrypt_with_env("kuznyechik", K32, "nope"), "'nope'", "nope");
}

#[test]
fn info_shows_what_the_environment_selects() {
    let o = run_env(&["info"], &[("MULTIBLOCK_BACKEND", "table")]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    let row = |cipher: &str, backend: &str| {
        text.lines()
            .find(|l| l.split_whitespace().take(2).eq([cipher, backend]))
            .unwrap_or_else(|| panic!("no row {cipher} {backend}: {text}"))
            .to_string()
    };
    assert!(row("kuznyechik", "table").contains("env, NOT constant-time"), "{text}");
    assert!(row("magma", "table").contains("env"), "{text}");
    // uBlock has no `table`: its default stays, and says why.
    assert!(text.lines().any(|l| l.starts_with("ublock-128-128") && l.ends_with(" default (env lists none of its backends)")), "{text}");
    // Unset: no "env" anywhere.
    let plain = run(&["info"]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("env"));
}

// -- the empty message ---------------------------------------------------

#[test]
fn the_empty_message_gets_no_forgeable_mac() {
    let mac = |cipher: &str, key: &str, extra: &[&str]| {
        Command::new(BIN)
            .args([&["mac", "--cipher", cipher, "--mode", "mac", "--key", key][..], extra].concat())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let other = "f".repeat(64);
    for extra in [&[][..], &["--key-meshing"], &["--mac-bits", "64"]] {
        fails(&mac("gost89", K32, extra), "empty message", &format!("gost89 {extra:?}"));
        fails(&mac("gost89", &other, extra), "RFC 5830", &format!("gost89 {extra:?}"));
    }
    // GOST R 34.13 defines it (padded with 1 0…0, masked with K2): the key matters.
    for cipher in ["kuznyechik", "magma"] {
        let (a, b) = (mac(cipher, K32, &[]), mac(cipher, &other, &[]));
        assert!(a.status.success() && b.status.success());
        assert_ne!(a.stdout, b.stdout, "{cipher}");
    }
}
