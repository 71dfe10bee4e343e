//! `kdf`: the key derivations over Streebog-256 of RFC 7836 and the
//! TLSTREE record keys of the GOST TLS suites. Every argument is checked
//! before anything is derived; the key goes to stdout or `--out` (raw, or
//! hex with `--hex`); tlstree prints one `KEY  SEQ` line per record.

use crate::args::KdfArgs;
use crate::key::{load_from, Raw};
use crate::sink::write_output;
use crate::{hex, Failure};
use multiblock_cli::failure::byte_count;
use multiblock::kdf::{self, Suite, TlsTree};
use zeroize::Zeroizing;

/// The most records one tlstree call prints (a guard against a typo in --seq-to).
const MAX_RECORDS: u64 = 1 << 20;

/// The most bytes one kdf-tree-256 call derives (32 768 keys of 256 bits;
/// a guard against a typo in --length, as the output is held in memory).
const MAX_LENGTH: usize = 1 << 20;

/// The key of every derivation: 32 bytes (RFC 7836 §4.4-4.5, RFC 9189 §8.1).
fn root_key(a: &KdfArgs) -> Result<Zeroizing<[u8; 32]>, Failure> {
    let key = load_from(&a.keys, Raw::Exactly(32), false)?;
    let mut root = Zeroizing::new([0u8; 32]);
    if key.len() != 32 {
        return Err(Failure::Input(format!("kdf --algo {} needs a key of 32 bytes (64 hex digits), got {}", a.algo, byte_count(key.len()))));
    }
    root.copy_from_slice(&key);
    Ok(root)
}

/// `--name` given to an algorithm that does not take it.
fn refuse(a: &KdfArgs, given: bool, name: &str) -> Result<(), Failure> {
    if given {
        return Err(Failure::Input(format!("kdf --algo {} takes no {name}", a.algo)));
    }
    Ok(())
}

/// The label (`--label HEX` or `--label-text`) and the seed of kdf-256 and kdf-tree-256.
fn label_and_seed(a: &KdfArgs) -> Result<(Vec<u8>, Vec<u8>), Failure> {
    let label = match (&a.label, &a.label_text) {
        (Some(h), _) => hex::decode(h, "--label")?,
        (None, Some(t)) => t.as_bytes().to_vec(),
        (None, None) => return Err(Failure::Input(format!("kdf --algo {} needs --label HEX or --label-text TEXT", a.algo))),
    };
    let seed = match &a.seed {
        Some(h) => hex::decode(h, "--seed")?,
        None => return Err(Failure::Input(format!("kdf --algo {} needs --seed HEX", a.algo))),
    };
    Ok((label, seed))
}

pub fn run(a: &KdfArgs) -> Result<(), Failure> {
    match a.algo.as_str() {
        "tlstree" => tlstree(a),
        algo => {
            refuse(a, a.suite.is_some(), "--suite")?;
            refuse(a, a.seq.is_some(), "--seq")?;
            refuse(a, a.seq_to.is_some(), "--seq-to")?;
            let tree = algo == "kdf-tree-256";
            if !tree {
                refuse(a, a.length.is_some(), "--length")?;
                refuse(a, a.r.is_some(), "--r")?;
            }
            let (label, seed) = label_and_seed(a)?;
            let root = root_key(a)?;
            let derived = if tree {
                let length = a.length.ok_or_else(|| Failure::Input("kdf --algo kdf-tree-256 needs --length BYTES".into()))?;
                if length > MAX_LENGTH {
                    return Err(Failure::Input(format!("kdf --algo kdf-tree-256 derives at most {MAX_LENGTH} bytes at once, not {length}")));
                }
                let mut out = Zeroizing::new(vec![0u8; length]);
                kdf::kdf_tree_gostr3411_2012_256(&root[..], &label, &seed, a.r.unwrap_or(1), &mut out)
                    .map_err(|e| Failure::Input(format!("kdf --algo kdf-tree-256: {e}")))?;
                out
            } else {
                Zeroizing::new(kdf::kdf_gostr3411_2012_256(&root[..], &label, &seed).to_vec())
            };
            let bytes = if a.hex { Zeroizing::new(format!("{}\n", hex::encode(&derived)).into_bytes()) } else { derived };
            write_output(a.output.as_deref(), &bytes).map_err(Failure::Input)
        }
    }
}

fn tlstree(a: &KdfArgs) -> Result<(), Failure> {
    for (given, name) in [
        (a.label.is_some() || a.label_text.is_some(), "--label"),
        (a.seed.is_some(), "--seed"),
        (a.length.is_some(), "--length"),
        (a.r.is_some(), "--r"),
        (a.hex, "--hex (its KEY  SEQ lines are hex already)"),
    ] {
        refuse(a, given, name)?;
    }
    let suite_name = a.suite.as_deref().ok_or_else(|| Failure::Input("kdf --algo tlstree needs --suite NAME".into()))?;
    let suite = Suite::ALL.into_iter().find(|s| s.name() == suite_name).expect("clap checked the suite name");
    let first = a.seq.ok_or_else(|| Failure::Input("kdf --algo tlstree needs --seq N".into()))?;
    let last = a.seq_to.unwrap_or(first);
    if last < first {
        return Err(Failure::Input(format!("kdf --algo tlstree: --seq-to {last} is before --seq {first}")));
    }
    if last - first >= MAX_RECORDS {
        return Err(Failure::Input(format!("kdf --algo tlstree prints at most {MAX_RECORDS} records at once")));
    }
    let root = root_key(a)?;
    let mut tree = TlsTree::new(&root, suite);
    let mut text = Zeroizing::new(String::new());
    for seq in first..=last {
        text.push_str(&hex::encode(tree.key(seq)));
        text.push_str(&format!("  {seq}\n"));
    }
    write_output(a.output.as_deref(), text.as_bytes()).map_err(Failure::Input)
}
