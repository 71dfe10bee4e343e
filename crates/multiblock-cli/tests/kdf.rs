//! `kdf`: every published KDF_GOSTR3411_2012_256, KDF_TREE and TLSTREE
//! example of the repository's vectors (RFC 7836 Appendix B, RFC 9189
//! Appendix A, RFC 9367 Appendix A) through the binary; ranges of records
//! against the library's uncached TLSTREE; raw output and `--out`; the
//! arguments that do not belong refused with one line and exit status 2.

use multiblock::kdf::{tlstree, Suite};
use serde_json::Value;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_multiblock");

fn kdf(args: &[&str]) -> Output {
    Command::new(BIN).arg("kdf").args(args).env_remove("MULTIBLOCK_BACKEND").output().unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = kdf(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn vectors() -> Vec<Value> {
    let path = format!("{}/../multiblock/vectors/keyed/kdf.json", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"].as_array().unwrap().clone()
}

fn field<'a>(v: &'a Value, name: &str) -> &'a str {
    v[name].as_str().unwrap_or_else(|| panic!("{name} missing in {v}"))
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn every_published_example() {
    let mut seen = [0usize; 3];
    for v in vectors() {
        match field(&v, "kind") {
            "kdf" => {
                let got = ok(&["--algo", "kdf-256", "--key", field(&v, "key"), "--label", field(&v, "label"), "--seed", field(&v, "seed"), "--hex"]);
                assert_eq!(got.trim_end(), field(&v, "output"), "{}", field(&v, "source"));
                seen[0] += 1;
            }
            "kdf-tree" => {
                let length = (field(&v, "output").len() / 2).to_string();
                let r = v["r"].as_u64().unwrap().to_string();
                let got = ok(&[
                    "--algo", "kdf-tree-256", "--key", field(&v, "key"), "--label", field(&v, "label"), "--seed",
                    field(&v, "seed"), "--length", &length, "--r", &r, "--hex",
                ]);
                assert_eq!(got.trim_end(), field(&v, "output"), "{}", field(&v, "source"));
                seen[1] += 1;
            }
            "tlstree" => {
                let seq = v["seqnum"].as_u64().unwrap().to_string();
                let got = ok(&["--algo", "tlstree", "--suite", field(&v, "suite"), "--key", field(&v, "root"), "--seq", &seq]);
                assert_eq!(got, format!("{}  {seq}\n", field(&v, "key")), "{}", field(&v, "source"));
                seen[2] += 1;
            }
            _ => {}
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "every kind has an example: {seen:?}");
}

#[test]
fn record_ranges_equal_the_library() {
    let root = [0x5au8; 32];
    let key = "5a".repeat(32);
    for suite in Suite::ALL {
        // Across a level-3 boundary of every suite (the smallest interval is 8 records).
        let (first, last) = (4090u64, 4105u64);
        let got = ok(&["--algo", "tlstree", "--suite", suite.name(), "--key", &key, "--seq", &first.to_string(), "--seq-to", &last.to_string()]);
        let want: String = (first..=last)
            .map(|seq| format!("{}  {seq}\n", tlstree(&root, suite, seq).iter().map(|b| format!("{b:02x}")).collect::<String>()))
            .collect();
        assert_eq!(got, want, "{}", suite.name());
    }
}

#[test]
fn raw_output_and_out_file() {
    let v = vectors().into_iter().find(|v| v["kind"] == "kdf").unwrap();
    let args = ["--algo", "kdf-256", "--key", field(&v, "key"), "--label", field(&v, "label"), "--seed", field(&v, "seed")];
    let raw = kdf(&args);
    assert!(raw.status.success());
    assert_eq!(raw.stdout, hex(field(&v, "output")));
    let dir = std::env::temp_dir().join(format!("multiblock-kdf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("derived.key");
    let mut with_out = args.to_vec();
    with_out.extend(["--out", path.to_str().unwrap()]);
    assert!(kdf(&with_out).status.success());
    assert_eq!(std::fs::read(&path).unwrap(), hex(field(&v, "output")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn label_as_text_is_its_bytes() {
    let key = "11".repeat(32);
    let text = ok(&["--algo", "kdf-256", "--key", &key, "--label-text", "level1", "--seed", "0000000000000000", "--hex"]);
    let hexed = ok(&["--algo", "kdf-256", "--key", &key, "--label", "6c6576656c31", "--seed", "0000000000000000", "--hex"]);
    assert_eq!(text, hexed);
}

#[test]
fn bad_arguments_are_one_line_and_status_2() {
    let key = "00".repeat(32);
    let cases: &[(&[&str], &str)] = &[
        (&["--algo", "tlstree", "--key", &key, "--seq", "1"], "needs --suite"),
        (&["--algo", "tlstree", "--suite", "magma-mgm-l", "--key", &key], "needs --seq"),
        (&["--algo", "tlstree", "--suite", "magma-mgm-l", "--key", &key, "--seq", "9", "--seq-to", "3"], "before --seq"),
        (&["--algo", "tlstree", "--suite", "magma-mgm-l", "--key", &key, "--seq", "1", "--seed", "00"], "takes no --seed"),
        (&["--algo", "kdf-256", "--key", &key, "--label", "00", "--seed", "00", "--suite", "magma-mgm-l"], "takes no --suite"),
        (&["--algo", "kdf-256", "--key", &key, "--label", "00", "--seed", "00", "--length", "8"], "takes no --length"),
        (&["--algo", "kdf-256", "--key", &key, "--seed", "00"], "needs --label"),
        (&["--algo", "kdf-256", "--key", &key, "--label", "00"], "needs --seed"),
        (&["--algo", "kdf-256", "--key", "0011", "--label", "00", "--seed", "00"], "needs a key of 32 bytes"),
        (&["--algo", "kdf-256", "--key", &key, "--label", "0g", "--seed", "00"], "--label"),
        (&["--algo", "kdf-tree-256", "--key", &key, "--label", "00", "--seed", "00"], "needs --length"),
        (&["--algo", "kdf-tree-256", "--key", &key, "--label", "00", "--seed", "00", "--length", "64", "--r", "5"], "R = 1 to 4"),
        (&["--algo", "kdf-tree-256", "--key", &key, "--label", "00", "--seed", "00", "--length", "0"], ""),
        (&["--algo", "kdf-tree-256", "--key", &key, "--label", "00", "--seed", "00", "--length", "8161", "--r", "1"], ""),
        (&["--algo", "kdf-256", "--label", "00", "--seed", "00"], "no key"),
        (&["--algo", "kdf-tree-256", "--key", &key, "--label", "00", "--seed", "00", "--length", "1048577", "--r", "4"], "at most 1048576 bytes"),
        (&["--algo", "kdf-tree-256", "--key", &key, "--label", "00", "--seed", "00", "--length", "32", "--seq-to", "3"], "takes no --seq-to"),
        (&["--algo", "kdf-256", "--key", &key, "--label", "00", "--seed", "00", "--seq", "3"], "takes no --seq"),
        (&["--algo", "tlstree", "--suite", "magma-mgm-l", "--key", &key, "--seq-to", "3"], "needs --seq"),
        (&["--algo", "tlstree", "--suite", "magma-mgm-l", "--key", &key, "--seq", "1", "--hex"], "takes no --hex"),
    ];
    for (args, says) in cases {
        let out = kdf(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
