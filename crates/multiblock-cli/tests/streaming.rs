//! Files larger than the CLI's read buffer (set to 512 KiB here, 4 MiB by
//! default: two tasks of 256 KiB per read) through every streaming mode of
//! every cipher, with 1 and 3 threads: the streamed output must be
//! the library's one-shot result (`multiblock::modes::encrypt` / `mac`,
//! pinned by the vector tests), and decryption must give the file back.

use multiblock::modes::{self, stream::streams, Kind, Mode, Padding, Params, Request};
use multiblock::{BackendChoice, CipherId, Family};
use std::path::Path;
use std::process::Command;

/// The CLI's read buffer in this test (`MULTIBLOCK_BUFFER_BYTES`).
const BUF: usize = 512 << 10;
/// Over two buffers, not a multiple of any block size.
const LEN: usize = 2 * BUF + 4096 + 13;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_multiblock"));
    c.env_remove("MULTIBLOCK_BACKEND");
    c.env("MULTIBLOCK_BUFFER_BYTES", BUF.to_string());
    c
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Pseudo-random bytes (xorshift), so each run sees the same file.
fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect()
}

/// One parameter set per streaming (cipher, mode), with a padding where the
/// mode needs whole blocks; a few more for the sequential fallbacks.
fn configs(id: CipherId, mode: Mode) -> Vec<Params> {
    let n = id.block_bytes();
    let iv = |len: usize| Params { iv: Some(bytes(len as u64 + 99, len)), ..Params::default() };
    let gost_r = matches!(id, CipherId::Kuznyechik | CipherId::Magma);
    let kalyna = id.family() == multiblock::Family::Kalyna;
    match mode {
        Mode::Ecb => vec![Params { padding: Padding::Pkcs7, ..Params::default() }],
        Mode::Cbc if gost_r => vec![
            Params { padding: Padding::Pkcs7, ..iv(n) },
            Params { padding: Padding::Gost2, ..iv(2 * n) },
        ],
        Mode::Cbc => vec![Params { padding: Padding::Pkcs7, ..iv(n) }],
        Mode::Ctr if gost_r => vec![iv(n / 2), Params { s: Some(24), ..iv(n / 2) }],
        Mode::CtrAcpkm => vec![iv(n / 2)],
        Mode::Cfb if gost_r => vec![iv(n), Params { s: Some(8), ..iv(2 * n) }],
        Mode::Cfb if kalyna => vec![iv(n), Params { s: Some(8), ..iv(n) }],
        Mode::Cfb | Mode::Cnt => vec![iv(8), Params { key_meshing: true, ..iv(8) }],
        Mode::Ofb if gost_r => vec![iv(2 * n)],
        // IEEE 1619 (Kuznyechik): one unit with the tweak as IV, and
        // 48-byte data units from near 2^64 (the file's last unit is partial).
        Mode::Xts if id == CipherId::Kuznyechik => vec![
            iv(n),
            Params { data_unit: Some(48), unit: Some(u64::MAX as u128 - 9), ..Params::default() },
        ],
        Mode::Ofb | Mode::Ctr | Mode::Xts | Mode::Gmac => vec![iv(n)],
        Mode::Cmac | Mode::Mac | Mode::OmacAcpkm => vec![Params::default()],
        _ => Vec::new(),
    }
}

/// The CLI flags for `p`.
fn flags(p: &Params) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(iv) = &p.iv {
        v.extend(["--iv".into(), hex(iv)]);
    }
    if p.padding != Padding::None {
        v.extend(["--padding".into(), p.padding.name().into()]);
    }
    if let Some(s) = p.s {
        v.extend(["--s".into(), s.to_string()]);
    }
    if p.key_meshing {
        v.push("--key-meshing".into());
    }
    if let Some(bytes) = p.data_unit {
        v.extend(["--data-unit".into(), bytes.to_string()]);
    }
    if let Some(unit) = p.unit {
        v.extend(["--unit".into(), unit.to_string()]);
    }
    v
}

fn cli(verb: &str, req: &Request<'_>, threads: u32, input: &Path, out: &Path) {
    cli_with(verb, req, threads, input, out, &[]);
}

fn cli_with(verb: &str, req: &Request<'_>, threads: u32, input: &Path, out: &Path, extra: &[String]) {
    let (id, mode, p) = (req.cipher, req.mode, &req.params);
    let o = bin()
        .args([verb, "--cipher", id.name(), "--mode", mode.name(), "--key", &hex(req.key), "--quiet"])
        .args(flags(p))
        .args(extra)
        .args(["--threads", &threads.to_string(), "--in", input.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{verb} {id} {mode} {p:?}: {}", String::from_utf8_lossy(&o.stderr));
}

/// A file of `LEN` pseudo-random bytes in a fresh folder, its bytes, and
/// the paths for the sealed and the opened file beside it.
struct LargeFile {
    dir: tempfile::TempDir,
    plain: std::path::PathBuf,
    data: Vec<u8>,
    ct: std::path::PathBuf,
    back: std::path::PathBuf,
}

fn large_file() -> LargeFile {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.bin");
    let data = bytes(2026, LEN);
    std::fs::write(&plain, &data).unwrap();
    let (ct, back) = (dir.path().join("ct.bin"), dir.path().join("back.bin"));
    LargeFile { dir, plain, data, ct, back }
}

/// Every streaming mode of the ciphers of `families` on a file of `LEN`
/// bytes, with 1 and 3 threads; returns how many (mode, parameters) were
/// checked. One test per family group, so that the harness runs them side
/// by side.
fn stream_every_mode(families: &[Family]) -> usize {
    let LargeFile { dir: _dir, plain, data, ct, back } = large_file();
    let mut checked = 0;
    for id in CipherId::ALL.into_iter().filter(|id| families.contains(&id.family())) {
        for mode in Mode::for_cipher(id).into_iter().filter(|m| streams(*m)) {
            let key = bytes(id as u64 + 5, mode.key_bytes(id));
            let sets = configs(id, mode);
            assert!(!sets.is_empty(), "{id} {mode}: no parameters");
            for p in sets {
                let req = Request {
                    cipher: id,
                    mode,
                    key: &key,
                    sbox: None,
                    backend: BackendChoice::Auto,
                    params: p.clone(),
                };
                if mode.kind() == Kind::Mac {
                    let one = modes::mac(&req, &data).unwrap();
                    cli("mac", &req, 2, &plain, &ct);
                    assert!(std::fs::read(&ct).unwrap() == one, "{id} {mode} {p:?}: mac");
                    checked += 1;
                    continue;
                }
                let one = modes::encrypt(&req, &data).unwrap();
                for threads in [1, 3] {
                    cli("encrypt", &req, threads, &plain, &ct);
                    assert!(std::fs::read(&ct).unwrap() == one, "{id} {mode} {p:?} threads {threads}: encrypt");
                    cli("decrypt", &req, threads, &ct, &back);
                    assert!(std::fs::read(&back).unwrap() == data, "{id} {mode} {p:?} threads {threads}: decrypt");
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn kalyna_files_stream_to_the_one_shot_result_with_1_and_3_threads() {
    let checked = stream_every_mode(&[Family::Kalyna]);
    assert!(checked >= 80, "{checked}");
}

#[test]
fn gost_files_stream_to_the_one_shot_result_with_1_and_3_threads() {
    let checked = stream_every_mode(&[Family::Kuznyechik, Family::Magma, Family::Gost89]);
    assert!(checked >= 55, "{checked}");
}

#[test]
fn ublock_files_stream_to_the_one_shot_result_with_1_and_3_threads() {
    let checked = stream_every_mode(&[Family::Ublock]);
    assert!(checked >= 12, "{checked}");
}

/// The AEAD modes stream too (MGM split across threads); decryption to
/// stdout is held back until the tag checks: a flipped byte gives exit
/// status 1 and not one byte on stdout.
#[test]
fn aead_files_stream_and_a_bad_tag_prints_nothing() {
    let LargeFile { dir, plain, data, ct, back } = large_file();
    for (id, mode) in [
        (CipherId::Kuznyechik, Mode::Mgm),
        (CipherId::Magma, Mode::Mgm),
        (CipherId::Kalyna256_256, Mode::Gcm),
        (CipherId::Kalyna128_128, Mode::Ccm),
    ] {
        let key = bytes(1, id.key_bytes());
        let nonce = bytes(2, id.block_bytes()).into_iter().map(|b| b & 0x7f).collect();
        let params = Params { iv: Some(nonce), aad: bytes(3, 21), ..Params::default() };
        let req = Request { cipher: id, mode, key: &key, sbox: None, backend: BackendChoice::Auto, params };
        let aad = ["--aad".to_string(), hex(&req.params.aad)];
        let one = modes::encrypt(&req, &data).unwrap();
        for threads in [1, 3] {
            cli_with("encrypt", &req, threads, &plain, &ct, &aad);
            assert!(std::fs::read(&ct).unwrap() == one, "{id} {mode} threads {threads}");
            cli_with("decrypt", &req, threads, &ct, &back, &aad);
            assert!(std::fs::read(&back).unwrap() == data, "{id} {mode} threads {threads}");
        }
        let to_stdout = |input: &Path| {
            bin()
                .args(["decrypt", "--cipher", id.name(), "--mode", mode.name(), "--key", &hex(&key)])
                .args(flags(&req.params))
                .args(&aad)
                .args(["--in", input.to_str().unwrap()])
                .output()
                .unwrap()
        };
        let o = to_stdout(&ct);
        assert!(o.status.success() && o.stdout == data, "{id} {mode} to stdout");
        let mut bad = one.clone();
        bad[LEN / 3] ^= 0x10;
        std::fs::write(&ct, &bad).unwrap();
        let o = to_stdout(&ct);
        assert_eq!(o.status.code(), Some(1), "{id} {mode}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stdout.is_empty(), "{id} {mode}: unauthenticated plaintext on stdout");
    }
    // Only the files this test wrote: no temporary file left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
}

/// Key wrap runs in the output file (six passes in place): the same bytes as
/// the library's one-shot wrap, back by unwrap to a file and to stdout, and
/// a flipped byte gives exit status 1 with no output at all.
#[test]
fn key_wrap_works_in_the_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, ct, back) = (dir.path().join("plain"), dir.path().join("ct"), dir.path().join("back"));
    for (id, blocks) in [(CipherId::Kalyna128_128, 70_000), (CipherId::Kalyna512_512, 3)] {
        let data = bytes(blocks as u64, blocks * id.block_bytes());
        std::fs::write(&plain, &data).unwrap();
        let key = bytes(7, id.key_bytes());
        let req = Request {
            cipher: id,
            mode: Mode::Kw,
            key: &key,
            sbox: None,
            backend: BackendChoice::Auto,
            params: Params::default(),
        };
        let one = modes::encrypt(&req, &data).unwrap();
        cli("encrypt", &req, 1, &plain, &ct);
        assert!(std::fs::read(&ct).unwrap() == one, "{id} wrap");
        cli("decrypt", &req, 1, &ct, &back);
        assert!(std::fs::read(&back).unwrap() == data, "{id} unwrap");
        let unwrap_to_stdout = || {
            bin()
                .args(["decrypt", "--cipher", id.name(), "--mode", "kw", "--key", &hex(&key)])
                .args(["--in", ct.to_str().unwrap()])
                .output()
                .unwrap()
        };
        let o = unwrap_to_stdout();
        assert!(o.status.success() && o.stdout == data, "{id} unwrap to stdout");
        let mut bad = one.clone();
        bad[one.len() / 2] ^= 1;
        std::fs::write(&ct, &bad).unwrap();
        let o = unwrap_to_stdout();
        assert!(o.status.code() == Some(1) && o.stdout.is_empty(), "{id}: {}", String::from_utf8_lossy(&o.stderr));
        std::fs::remove_file(&back).unwrap();
        let o = bin()
            .args(["decrypt", "--cipher", id.name(), "--mode", "kw", "--key", &hex(&key)])
            .args(["--in", ct.to_str().unwrap(), "--out", back.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{id}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "{id}: an output or temporary file was left");
    }
}

/// CTR and CTR-ACPKM read a regular `--in` file through a memory mapping
/// (the keystream XOR reads it in place, no copy) and stdin through
/// read(2): both must give the library's one-shot bytes, at lengths around
/// the buffer size, with one and two threads.
#[test]
fn mapped_and_read_inputs_give_the_same_keystream_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.bin");
    let iv = |len: usize| Params { iv: Some(bytes(len as u64 + 7, len)), ..Params::default() };
    for (id, mode, params) in [
        (CipherId::Kuznyechik, Mode::Ctr, iv(8)),
        (CipherId::Magma, Mode::CtrAcpkm, iv(4)),
        (CipherId::Kalyna256_512, Mode::Ctr, iv(32)),
    ] {
        let key = bytes(id as u64 + 11, id.key_bytes());
        let req = Request { cipher: id, mode, key: &key, sbox: None, backend: BackendChoice::Auto, params };
        for len in [1, 15, BUF - 1, BUF + 1, 3 * BUF + 17] {
            let data = bytes(len as u64, len);
            std::fs::write(&plain, &data).unwrap();
            let one = modes::encrypt(&req, &data).unwrap();
            for threads in ["1", "2"] {
                let run = |from_stdin: bool| {
                    let mut c = bin();
                    c.args(["encrypt", "--cipher", id.name(), "--mode", mode.name(), "--key", &hex(&key), "--quiet"])
                        .args(flags(&req.params))
                        .args(["--threads", threads]);
                    if from_stdin {
                        c.stdin(std::fs::File::open(&plain).unwrap());
                    } else {
                        c.args(["--in", plain.to_str().unwrap()]);
                    }
                    let o = c.output().unwrap();
                    assert!(o.status.success(), "{id} {mode}: {}", String::from_utf8_lossy(&o.stderr));
                    o.stdout
                };
                assert!(run(false) == one, "{id} {mode} len {len} threads {threads}: mapped --in");
                assert!(run(true) == one, "{id} {mode} len {len} threads {threads}: stdin");
            }
        }
    }
}

/// A mapped input truncated by another program while it is read raises
/// SIGBUS on the next page: the CLI must turn it into its one-line error and
/// exit status 1, and remove the temporary `--out` file (no partial output).
/// The reference backend on one thread takes seconds over 48 MiB, so the
/// truncation lands mid-run.
#[test]
fn an_input_truncated_while_mapped_is_a_clean_error() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.bin");
    std::fs::write(&plain, bytes(48, 48 << 20)).unwrap();
    let out = dir.path().join("ct.bin");
    let child = bin()
        .args(["encrypt", "--cipher", "kuznyechik", "--mode", "ctr", "--backend", "reference", "--threads", "1"])
        .args(["--key", &hex(&[9; 32]), "--iv", "0011223344556677", "--quiet"])
        .args(["--in", plain.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::OpenOptions::new().write(true).open(&plain).unwrap().set_len(4096).unwrap();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.starts_with("multiblock: error: --in ") && err.contains("shrank while it was read"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!out.exists(), "partial output left");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "a temporary file was left");
}
