//! `wrap` and `unwrap`: the published examples (R 1323565.1.017-2018
//! Appendix B, UAPKI's Dstu7624Wrap self-test) through the binary; random
//! keys there and back, raw and hex, files and key options; a changed byte
//! refused with exit status 1 and no `--out` file; bad arguments refused
//! with one line and exit status 2; and KImp15 of gost-engine's engine
//! (its `kuznyechik-kexp15` / `magma-kexp15` ciphers import only) on our
//! exports, where the system OpenSSL has it.

mod common;

use common::{bytes, fails, hex, run, s, write};
use std::process::Output;

/// R 1323565.1.017-2018 Appendix B: K, K_mac ‖ K_enc (the CLI's KEK layout).
const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
const KEK: &str = "08090a0b0c0d0e0f0001020304050607101112131415161718191a1b1c1d1e1f\
                   202122232425262728292a2b2c2d2e2f38393a3b3c3d3e3f3031323334353637";
const MAGMA_IV: &str = "67bed654";
const MAGMA_EXPORT: &str = "cfd5a12d5b81b6e1e99c916d07900c6ac12703fb3abded55567bf3742c899c755dafe7b42e3a8bd9";
const KUZ_IV: &str = "0909472dd9f26be8";
const KUZ_EXPORT: &str =
    "e36184e84e8d736ff36cc2e5ae065dc656b23c20f549b02fdff88e1f3f30d8c29a53f3ca554dbad80de152b9a4625b32";

/// UAPKI's Dstu7624Wrap self-test: KEK, IV, key, wrapped key.
const D_KEK: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const D_IV: &str = "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f";
const D_KEY: &str = "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100";
const D_WRAPPED: &str = "7b74fcbf080464f81bf8eaf10621b624a4f053446128396cc2f529bd3e2078dad6bc0b4c5aaf47711d1be5cdc0d4849e\
                         c50dc4484f7cf393bc7f5f3e8a8728ca13ddaee30c297d6c82c8751e533a3e7591e7d400b89ae64237f692ec892333cd";

fn out(o: &Output) -> Vec<u8> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout.clone()
}

fn hex_out(o: &Output) -> String {
    String::from_utf8(out(o)).unwrap()
}

#[test]
fn the_published_examples() {
    let kek = KEK.replace(' ', "");
    for (algo, iv, export) in [("magma-kexp15", MAGMA_IV, MAGMA_EXPORT), ("kuznyechik-kexp15", KUZ_IV, KUZ_EXPORT)] {
        let args = ["--algo", algo, "--key", &kek, "--iv", iv, "--hex"];
        assert_eq!(hex_out(&run(&[&["wrap"][..], &args].concat(), KEY.as_bytes())), format!("{export}\n"), "{algo}");
        assert_eq!(hex_out(&run(&[&["unwrap"][..], &args].concat(), export.as_bytes())), format!("{KEY}\n"), "{algo}");
    }
    let wrapped = D_WRAPPED.replace(' ', "");
    let o = run(&["wrap", "--algo", "dstu7624-wrap", "--key", D_KEK, "--iv", D_IV, "--hex"], D_KEY.as_bytes());
    assert_eq!(hex_out(&o), format!("{wrapped}\n"));
    let o = run(&["unwrap", "--algo", "dstu7624-wrap", "--key", D_KEK, "--hex"], wrapped.as_bytes());
    assert_eq!(hex_out(&o), format!("{D_KEY}\n"));
}

#[test]
fn random_keys_there_and_back_raw_through_files() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (algo, kek_len, iv_len, key_lens)) in [
        ("kuznyechik-kexp15", 64, 8, &[1usize, 16, 32, 33, 100][..]),
        ("magma-kexp15", 64, 4, &[1, 8, 32, 57][..]),
        ("dstu7624-wrap", 32, 0, &[32][..]),
    ]
    .into_iter()
    .enumerate()
    {
        for (j, &len) in key_lens.iter().enumerate() {
            let seed = (i * 100 + j) as u64;
            let key = bytes(len, seed);
            let kek_file = write(dir.path(), "kek", &bytes(kek_len, seed + 1));
            let key_file = write(dir.path(), "key", &key);
            let iv = hex(&bytes(iv_len, seed + 2));
            let mut args = vec!["--algo", algo, "--key-file", s(&kek_file)];
            if iv_len > 0 {
                args.extend(["--iv", &iv]);
            }
            let wrapped = dir.path().join("wrapped");
            let o = run(&[&["wrap", "--in", s(&key_file), "--out", s(&wrapped)][..], &args].concat(), b"");
            assert!(o.status.success() && o.stdout.is_empty(), "{algo} {len}: {}", String::from_utf8_lossy(&o.stderr));
            let blob = std::fs::read(&wrapped).unwrap();
            let extra = if iv_len > 0 { 2 * iv_len } else { 64 };
            assert_eq!(blob.len(), len + extra, "{algo} {len}");
            let back = out(&run(&[&["unwrap", "--in", s(&wrapped)][..], &args].concat(), b""));
            assert_eq!(back, key, "{algo} {len}");
        }
    }
}

#[test]
fn dstu7624_wrap_draws_a_fresh_iv_each_time() {
    let args = ["wrap", "--algo", "dstu7624-wrap", "--key", D_KEK, "--hex"];
    let a = hex_out(&run(&args, D_KEY.as_bytes()));
    let b = hex_out(&run(&args, D_KEY.as_bytes()));
    assert_ne!(a, b);
    for w in [a, b] {
        let o = run(&["unwrap", "--algo", "dstu7624-wrap", "--key", D_KEK, "--hex"], w.as_bytes());
        assert_eq!(hex_out(&o), format!("{D_KEY}\n"));
    }
}

#[test]
fn a_changed_byte_is_exit_1_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let kek = KEK.replace(' ', "");
    let cases = [
        (vec!["--algo", "kuznyechik-kexp15", "--key", &kek, "--iv", KUZ_IV], KUZ_EXPORT.to_string()),
        (vec!["--algo", "magma-kexp15", "--key", &kek, "--iv", MAGMA_IV], MAGMA_EXPORT.to_string()),
        (vec!["--algo", "dstu7624-wrap", "--key", D_KEK], D_WRAPPED.replace(' ', "")),
    ];
    for (args, blob) in cases {
        let blob = common_hex_bytes(&blob);
        for at in [0, blob.len() / 2, blob.len() - 1] {
            let mut bad = blob.clone();
            bad[at] ^= 0x01;
            let target = dir.path().join("key.out");
            let o = run(&[&["unwrap", "--out", s(&target)][..], &args[..]].concat(), &bad);
            fails(&o, 1, "authentication failed", &format!("{args:?} byte {at}"));
            assert!(o.stdout.is_empty());
            assert!(!target.exists(), "{args:?}: a --out file was left");
        }
    }
}

fn common_hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn bad_arguments_are_one_line_and_exit_2() {
    let kek = KEK.replace(' ', "");
    let k32 = &kek[..64];
    let cases: Vec<(Vec<&str>, &[u8], &str)> = vec![
        (vec!["wrap", "--algo", "kuznyechik-kexp15", "--key", &kek], KEY.as_bytes(), "needs --iv"),
        (vec!["wrap", "--algo", "kuznyechik-kexp15", "--key", k32, "--iv", KUZ_IV], b"k", "64 bytes"),
        (vec!["wrap", "--algo", "magma-kexp15", "--key", &kek, "--iv", KUZ_IV], b"k", "IV of 4 bytes"),
        (vec!["wrap", "--algo", "magma-kexp15", "--key", &kek, "--iv", MAGMA_IV], b"", "at least 1 byte"),
        (vec!["unwrap", "--algo", "magma-kexp15", "--key", &kek, "--iv", MAGMA_IV], &[0; 8], "more than 8 bytes"),
        (vec!["wrap", "--algo", "dstu7624-wrap", "--key", &kek], &[0; 32], "32 bytes"),
        (vec!["wrap", "--algo", "dstu7624-wrap", "--key", k32], &[0; 31], "key to wrap of 32 bytes"),
        (vec!["wrap", "--algo", "dstu7624-wrap", "--key", k32, "--iv", "00"], &[0; 32], "IV of 32 bytes"),
        (vec!["unwrap", "--algo", "dstu7624-wrap", "--key", k32, "--iv", D_IV], &[0; 96], "takes no --iv"),
        (vec!["unwrap", "--algo", "dstu7624-wrap", "--key", k32], &[0; 95], "wrapped key of 96 bytes"),
        (vec!["unwrap", "--algo", "dstu7624-wrap", "--key", k32, "--hex"], b"zz", "not hex"),
        (vec!["wrap", "--algo", "aes-kw", "--key", k32], b"", "aes-kw"),
        (vec!["wrap", "--algo", "dstu7624-wrap"], &[0; 32], "no key"),
    ];
    for (args, stdin, word) in cases {
        fails(&run(&args, stdin), 2, word, &format!("{args:?}"));
    }
}

/// KImp15 of gost-engine's engine (through libcrypto with python3's
/// ctypes): its kexp15 ciphers take K_mac ‖ K_enc as the 64-byte key and
/// import a 32-byte key. Prints the imported key as hex, or nothing.
const ENGINE_KIMP15: &str = r#"
import ctypes, sys
c = ctypes.CDLL("libcrypto.so.3")
vp = ctypes.c_void_p
c.ENGINE_by_id.restype = vp; c.ENGINE_by_id.argtypes = [ctypes.c_char_p]
c.ENGINE_init.argtypes = [vp]
c.EVP_get_cipherbyname.restype = vp; c.EVP_get_cipherbyname.argtypes = [ctypes.c_char_p]
c.EVP_CIPHER_CTX_new.restype = vp
c.EVP_CIPHER_CTX_set_flags.argtypes = [vp, ctypes.c_int]
c.EVP_DecryptInit_ex.argtypes = [vp, vp, vp, ctypes.c_char_p, ctypes.c_char_p]
c.EVP_DecryptUpdate.argtypes = [vp, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_char_p, ctypes.c_int]
e = c.ENGINE_by_id(b"gost")
if not e or c.ENGINE_init(e) != 1:
    sys.exit(3)
c.ENGINE_set_default(vp(e), 0xFFFF)
cipher = c.EVP_get_cipherbyname(sys.argv[1].encode())
if not cipher:
    sys.exit(3)
for line in sys.stdin:
    kek, iv, blob = (bytes.fromhex(f) for f in line.split())
    ctx = c.EVP_CIPHER_CTX_new()
    c.EVP_CIPHER_CTX_set_flags(ctx, 1)  # EVP_CIPHER_CTX_FLAG_WRAP_ALLOW
    out = ctypes.create_string_buffer(64); n = ctypes.c_int(0)
    ok = c.EVP_DecryptInit_ex(ctx, cipher, e, kek, iv) == 1 and \
         c.EVP_DecryptUpdate(ctx, out, ctypes.byref(n), blob, len(blob)) == 1 and n.value == 32
    print(out.raw[:32].hex() if ok else "rejected")
"#;

#[test]
fn gost_engines_kimp15_imports_our_exports_where_installed() {
    for (algo, iv_len) in [("kuznyechik-kexp15", 8), ("magma-kexp15", 4)] {
        let mut lines = String::new();
        let mut keys = Vec::new();
        for seed in 0..24u64 {
            let (key, kek, iv) = (bytes(32, seed), bytes(64, seed + 1000), bytes(iv_len, seed + 2000));
            let o = run(&["wrap", "--algo", algo, "--key", &hex(&kek), "--iv", &hex(&iv)], &key);
            let mut blob = out(&o);
            if seed % 6 == 5 {
                let at = seed as usize % blob.len();
                blob[at] ^= 0x40; // a changed byte: the engine must refuse it too
            }
            lines.push_str(&format!("{} {} {}\n", hex(&kek), hex(&iv), hex(&blob)));
            keys.push(if seed % 6 == 5 { "rejected".to_string() } else { hex(&key) });
        }
        let py = std::process::Command::new("python3")
            .args(["-c", ENGINE_KIMP15, algo])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn();
        let Ok(mut child) = py else {
            eprintln!("skipped: no python3");
            return;
        };
        use std::io::Write;
        child.stdin.take().unwrap().write_all(lines.as_bytes()).unwrap();
        let result = child.wait_with_output().unwrap();
        if result.status.code() != Some(0) {
            eprintln!("skipped: the system OpenSSL has no gost engine with {algo}");
            return;
        }
        let got: Vec<String> = String::from_utf8(result.stdout).unwrap().lines().map(str::to_string).collect();
        assert_eq!(got, keys, "{algo}");
    }
}

/// UAPKI's GOST 28147-89 key wrap self-test (S-box dstu4145): KEK, IV, key, wrapped key.
const G_KEK: &str = "01000000010000000100000001000000ffffffffffffffffffffffffffffffff";
const G_IV: &str = "f477da7aa6424a88";
const G_KEY: &str = "01020304010203040102030401020304f1f2f3f4f5f6f7f8f1f2f3f4f5f6f7f8";
const G_WRAPPED: &str = "52a513f1b4172ca6b5f1b8a03ca9a4e0acb6e00e11e5e9bcdd446222eb97238dc3e4e24d2ec03e05a568ec51";

#[test]
fn gost28147_wrap_gives_the_published_vector_and_refuses_a_changed_byte() {
    let o = run(&["wrap", "--algo", "gost28147-wrap", "--key", G_KEK, "--iv", G_IV, "--hex"], G_KEY.as_bytes());
    assert_eq!(hex_out(&o), format!("{G_WRAPPED}\n"));
    let o = run(&["unwrap", "--algo", "gost28147-wrap", "--key", G_KEK, "--hex"], G_WRAPPED.as_bytes());
    assert_eq!(hex_out(&o), format!("{G_KEY}\n"));
    // A fresh IV each time, and both unwrap.
    let args = ["wrap", "--algo", "gost28147-wrap", "--key", G_KEK, "--hex"];
    let (a, b) = (hex_out(&run(&args, G_KEY.as_bytes())), hex_out(&run(&args, G_KEY.as_bytes())));
    assert_ne!(a, b);
    assert_eq!(a.trim().len(), 88);
    for w in [a, b] {
        let o = run(&["unwrap", "--algo", "gost28147-wrap", "--key", G_KEK, "--hex"], w.as_bytes());
        assert_eq!(hex_out(&o), format!("{G_KEY}\n"));
    }
    let mut bad = G_WRAPPED.to_string();
    bad.replace_range(86.., "50");
    let o = run(&["unwrap", "--algo", "gost28147-wrap", "--key", G_KEK, "--hex"], bad.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let o = run(&["unwrap", "--algo", "gost28147-wrap", "--key", G_KEK, "--iv", G_IV, "--hex"], G_WRAPPED.as_bytes());
    assert_eq!(o.status.code(), Some(2));
}
