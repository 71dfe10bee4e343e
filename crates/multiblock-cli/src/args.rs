//! The command-line contract (README "Command line"), as clap structures.

use multiblock::kdf::Suite;
use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand};
use multiblock::magma::SboxSet;
use multiblock::modes::{Kind, Mode, Padding};
use multiblock::{CipherId, Family};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "multiblock", version, about = "Fast constant-time Kalyna, Kuznyechik, Magma/GOST 28147-89 and uBlock, and the Streebog and Kupyna hashes")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Encrypt the input (stdin or --in) to the output (stdout or --out).
    Encrypt(CryptArgs),
    /// Decrypt the input to the output.
    Decrypt(CryptArgs),
    /// Compute a MAC (tag) of the input, or of every FILE at once: one `TAG  FILE` line each.
    Mac(MacArgs),
    /// Print the Streebog or Kupyna digest of every FILE (`DIGEST  FILE`, as sha256sum), or check
    /// such lines with --check.
    Hash(HashArgs),
    /// Derive keys: KDF_GOSTR3411_2012_256, KDF_TREE_GOSTR3411_2012_256 (RFC 7836 §4.4-4.5) or
    /// the TLSTREE record keys of the GOST TLS suites (RFC 9189, RFC 9367).
    Kdf(KdfArgs),
    /// Wrap (export) a key, the input: KExp15 of R 1323565.1.017-2018 (kuznyechik-kexp15,
    /// magma-kexp15), Dstu7624Wrap of the Ukrainian CMS profile (dstu7624-wrap) or its GOST
    /// 28147-89 wrap (gost28147-wrap).
    Wrap(WrapArgs),
    /// Unwrap (import) a wrapped key, the input; a wrong MAC is exit status 1 and no output.
    Unwrap(WrapArgs),
    /// Show the CPU features found, the backends of every cipher and hash, and the default.
    Info,
    /// Run the built-in test vectors on every backend this CPU supports.
    Selftest(SelftestArgs),
}

/// Where the key comes from (`encrypt`, `decrypt`, `mac`, `kdf`).
#[derive(Args)]
pub struct KeyArgs {
    /// Key from a file (recommended): its raw bytes if it is exactly the key's length, else hex
    /// text (whitespace ignored).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["key_env", "key_fd"])]
    pub key_file: Option<PathBuf>,
    /// Key from this environment variable, as hex.
    #[arg(long, value_name = "NAME", conflicts_with = "key_fd")]
    pub key_env: Option<String>,
    /// Key read from this open file descriptor, 0 or 3 and up (e.g. `--key-fd 3 3<key`), raw or
    /// hex as --key-file.
    #[arg(long, value_name = "N")]
    pub key_fd: Option<i32>,
    /// Key as hex (visible in `ps` and shell history: prefer --key-file, --key-env or --key-fd).
    /// One of the four key options is required. A cipher's key is 16 bytes for kalyna-128-128
    /// and ublock-128-128, 64 for kalyna-256-512 and kalyna-512-512 and 32 for the others. HMAC
    /// takes a key of any length but 0, Kupyna's MAC one of the digest's length (32, 48 or 64
    /// bytes), `kdf` 32 bytes; the key-encryption key of `wrap` and `unwrap` is 64 bytes for the
    /// kexp15 formats (K_mac then K_enc) and 32 for the others.
    #[arg(long, value_name = "HEX", conflicts_with_all = ["key_file", "key_env", "key_fd"])]
    pub key: Option<String>,
}

#[derive(Args)]
pub struct CryptArgs {
    /// Cipher (required, except by `mac --mode hmac` and `mac --mode kupyna-mac`).
    #[arg(long, required = true, value_parser = PossibleValuesParser::new(CipherId::ALL.map(CipherId::name)))]
    pub cipher: Option<String>,
    #[arg(long, help = crypt_mode_help())]
    pub mode: Option<String>,
    #[command(flatten)]
    pub keys: KeyArgs,
    /// S-box set of gost89 (default tc26-z); magma takes only tc26-z, the other ciphers none.
    #[arg(long, value_parser = PossibleValuesParser::new(SboxSet::ALL.map(SboxSet::name)))]
    pub sbox: Option<String>,
    /// Input is hex text (whitespace ignored); output is lowercase hex and a newline.
    #[arg(long)]
    pub hex: bool,
    /// Read from this file instead of stdin.
    #[arg(long = "in", value_name = "PATH")]
    pub input: Option<PathBuf>,
    /// Write to this file instead of stdout (created only on success).
    #[arg(long = "out", value_name = "PATH")]
    pub output: Option<PathBuf>,
    #[arg(long, value_name = "NAME", help = backend_help())]
    pub backend: Option<String>,
    /// IV / nonce / initial register / XTS tweak, as hex (the modes that take one need it; ecb,
    /// the MACs and kw take none).
    #[arg(long, value_name = "HEX")]
    pub iv: Option<String>,
    /// Associated data of the AEAD modes (mgm, gcm, ccm) and gmac, as hex.
    #[arg(long, value_name = "HEX")]
    pub aad: Option<String>,
    /// Padding of ecb and cbc: none takes whole blocks only; gost1, gost2, gost3 are GOST R
    /// 34.13-2015 procedures 1-3.
    #[arg(long, default_value = "none", value_parser = PossibleValuesParser::new(Padding::ALL.map(Padding::name)))]
    pub padding: String,
    /// Output bits per step of GOST R 34.13 ctr, ofb, cfb and DSTU cfb: a multiple of 8 up to the
    /// block size (default the block size; gost89 cfb and cnt: 64).
    #[arg(long, value_name = "BITS", allow_negative_numbers = true, value_parser = size)]
    pub s: Option<usize>,
    /// Register bits of GOST R 34.13 ofb, cbc and cfb: a multiple of the block size (default
    /// the --iv length).
    #[arg(long, value_name = "BITS", allow_negative_numbers = true, value_parser = size)]
    pub m: Option<usize>,
    /// MAC length in bits of mac and omac-acpkm: a multiple of 8 up to the block size (default
    /// the block size); gost89 mac: 8 to 64 (default 32).
    #[arg(long, value_name = "BITS", allow_negative_numbers = true, value_parser = size)]
    pub mac_bits: Option<usize>,
    /// Tag length in bits, a multiple of 8 up to the block size (default the block size): mgm
    /// from 32, Kalyna cmac from 8, gcm and gmac from 64; ccm 64, 128, 256, 384 or 512.
    #[arg(long, value_name = "BITS", allow_negative_numbers = true, value_parser = size)]
    pub tag_bits: Option<usize>,
    /// ACPKM section size in bytes (ctr-acpkm, omac-acpkm): a multiple of the block size
    /// (default 4096 for kuznyechik, 1024 for magma).
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true, value_parser = size)]
    pub section_bytes: Option<usize>,
    /// OMAC-ACPKM key section size in bytes: a multiple of the block size (default as
    /// --section-bytes).
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true, value_parser = size)]
    pub key_section_bytes: Option<usize>,
    /// Length-field size in bytes of Kalyna ccm: 4, 6 or 8 (default 4).
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true, value_parser = size)]
    pub nb: Option<usize>,
    /// GOST 28147-89 CryptoPro key meshing (RFC 4357) in gost89 cnt and cfb.
    #[arg(long)]
    pub key_meshing: bool,
    /// Kuznyechik xts (IEEE 1619): bytes per data unit, a multiple of 16 (VeraCrypt: 512);
    /// without it the whole input is one unit and --iv its 16-byte tweak.
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true, value_parser = size)]
    pub data_unit: Option<usize>,
    /// Kuznyechik xts: the number of the first data unit of the input (default 0), little-endian
    /// in the tweak; 0 to 2^128-1.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = unit_number)]
    pub unit: Option<u128>,
    /// Threads for the modes that split (ecb, ctr, cbc/cfb decryption, xts): 1 to 1024; default
    /// every core.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The cipher names of each family, shortened: `kalyna-*` for the five
/// Kalyna variants.
fn family_label(family: Family) -> &'static str {
    match family {
        Family::Kalyna => "kalyna-*",
        Family::Kuznyechik => "kuznyechik",
        Family::Magma => "magma",
        Family::Gost89 => "gost89",
        Family::Ublock => "ublock-*",
    }
}

/// One cipher of every family, in the order the help lists them.
const FAMILIES: [CipherId; 5] =
    [CipherId::Kalyna128_128, CipherId::Kuznyechik, CipherId::Magma, CipherId::Gost89, CipherId::Ublock128_128];

/// `family: a, b, c` for each family of `ids` (two families with the same
/// list share a line: `kuznyechik, magma: ...`), joined by "; ".
fn per_family(ids: &[CipherId], list: impl Fn(CipherId) -> Vec<&'static str>) -> String {
    let mut groups: Vec<(Vec<&str>, Vec<&str>)> = Vec::new();
    for &id in ids {
        let values = list(id);
        match groups.iter_mut().find(|(_, v)| *v == values) {
            Some((labels, _)) => labels.push(family_label(id.family())),
            None => groups.push((vec![family_label(id.family())], values)),
        }
    }
    groups.iter().map(|(labels, values)| format!("{}: {}", labels.join(", "), values.join(", "))).collect::<Vec<_>>().join("; ")
}

/// The modes `encrypt` and `decrypt` take for `id` (every mode but the MACs).
pub fn crypt_modes(id: CipherId) -> Vec<&'static str> {
    Mode::for_cipher(id).into_iter().filter(|m| m.kind() != Kind::Mac).map(Mode::name).collect()
}

/// The MAC modes of `id` (none for uBlock).
pub fn mac_modes(id: CipherId) -> Vec<&'static str> {
    Mode::for_cipher(id).into_iter().filter(|m| m.kind() == Kind::Mac).map(Mode::name).collect()
}

/// The mode `mac` takes without `--mode`: the family's standard MAC (GOST R
/// 34.13-2015 §5.6 for Kuznyechik and Magma, the GOST 28147-89 imitovstavka,
/// DSTU 7624:2014 CMAC for Kalyna); uBlock has none.
pub fn default_mac(id: CipherId) -> Option<Mode> {
    match id.family() {
        Family::Kuznyechik | Family::Magma | Family::Gost89 => Some(Mode::Mac),
        Family::Kalyna => Some(Mode::Cmac),
        Family::Ublock => None,
    }
}

fn crypt_mode_help() -> String {
    format!("Mode of operation (required): {}", per_family(&FAMILIES, crypt_modes))
}

fn mac_mode_help() -> String {
    format!(
        "MAC mode: {}; uBlock has none. Default: the family's standard MAC, mac for kuznyechik and \
         magma (GOST R 34.13-2015 §5.6) and for gost89 (the GOST 28147-89 imitovstavka), cmac for \
         kalyna-* (DSTU 7624:2014). Over a hash instead of a cipher (no --cipher; --hash NAME): \
         hmac (RFC 2104, RFC 7836 §4.1), kupyna-mac (DSTU 7564:2014)",
        per_family(&FAMILIES[..4], mac_modes)
    )
}

fn backend_help() -> String {
    let names = |id: CipherId| {
        multiblock::backends(id.name()).map(|list| list.iter().map(|b| b.info.name).collect()).unwrap_or_default()
    };
    format!("Force a backend (default: the fastest constant-time one this CPU runs; `multiblock info` shows which run here): {}", per_family(&FAMILIES, names))
}

#[derive(Args)]
#[command(mut_arg("mode", |a| a.help(mac_mode_help())))]
#[command(mut_arg("cipher", |a| a.required(false)))]
pub struct MacArgs {
    #[command(flatten)]
    pub crypt: CryptArgs,
    /// The hash of --mode hmac (streebog-256, streebog-512, kupyna-256, kupyna-384, kupyna-512)
    /// and of --mode kupyna-mac (kupyna-256, kupyna-384, kupyna-512: the tag length).
    #[arg(long, value_name = "NAME")]
    pub hash: Option<String>,
    /// Verify instead of print (any MAC mode; the one input: stdin, --in or one FILE): the
    /// expected tag as hex; a different tag is exit status 1.
    #[arg(long, value_name = "HEX", conflicts_with = "output")]
    pub tag: Option<String>,
    /// Files to MAC together (`-`: stdin), many messages in the SIMD lanes at once; prints one
    /// `TAG  FILE` line per file in argument order, as sha256sum. A file that cannot be read gets a
    /// one-line error on stderr, the others their lines, and the exit status is 2.
    #[arg(value_name = "FILE", conflicts_with_all = ["input", "hex"])]
    pub files: Vec<PathBuf>,
}

/// The modes of `mac` over a hash instead of a cipher.
pub const HASH_MAC_MODES: [&str; 2] = ["hmac", "kupyna-mac"];

/// Whether `mac` runs over a hash (`--mode hmac` or `--mode kupyna-mac`).
pub fn is_hash_mac(args: &MacArgs) -> bool {
    args.crypt.mode.as_deref().is_some_and(|m| HASH_MAC_MODES.contains(&m.to_ascii_lowercase().as_str()))
}

fn hash_help() -> String {
    format!(
        "Hash: {}, or kupyna-N for N from 8 to 512 in steps of 8 (DSTU 7564:2014)",
        multiblock::hash::HashId::NAMES.join(", ")
    )
}

fn hash_backend_help() -> String {
    use multiblock::hash::{backends, HashId};
    let mut names: Vec<&str> = Vec::new();
    for id in HashId::NAMED {
        for b in backends(id) {
            if !names.contains(&b.info.name) {
                names.push(b.info.name);
            }
        }
    }
    format!(
        "Force a backend (default: the fastest constant-time one this CPU runs; `multiblock info` shows which run here): {}",
        names.join(", ")
    )
}

#[derive(Args)]
pub struct HashArgs {
    #[arg(long, value_name = "NAME", help = hash_help())]
    pub algo: String,
    #[arg(long, value_name = "NAME", help = hash_backend_help())]
    pub backend: Option<String>,
    /// Read `DIGEST  FILE` lines from the FILEs (stdin without one) and check each listed file:
    /// `FILE: OK` or `FILE: FAILED`; exit status 1 if any differs or cannot be read, 2 for a
    /// line that is not such a line or a list that cannot be read (2 when both occur).
    #[arg(short = 'c', long)]
    pub check: bool,
    /// With --check: no `OK` lines (without --check: an error).
    #[arg(long)]
    pub quiet: bool,
    /// With --check: print nothing; the exit status tells (without --check: an error).
    #[arg(long)]
    pub status: bool,
    /// Files to hash (`-` or none: stdin), or with --check the files of digest lines. One
    /// `DIGEST  FILE` line per file in argument order, as sha256sum; a file that cannot be read
    /// gets a one-line error on stderr, the others their lines, and the exit status is 2.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

#[derive(Args)]
pub struct SelftestArgs {
    /// Also compare every backend with `reference` on pseudo-random keys and
    /// data of every length from 0 to 2*ways+3 blocks and a few longer ones.
    #[arg(long)]
    pub thorough: bool,
    /// Only these backends (repeatable); default every backend this CPU runs.
    #[arg(long, num_args = 1.., value_parser = PossibleValuesParser::new(multiblock::all_backend_names()))]
    pub backend: Vec<String>,
}

/// A size or bit count (`--m`, `--tag-bits`, ...): a whole number that
/// cannot be negative (`--m -128` is one negative value, not the flags -1 -2 -8).
pub fn size(text: &str) -> Result<usize, String> {
    if text.trim_start().starts_with('-') {
        return Err("a size cannot be negative (expected a whole number such as 128)".into());
    }
    text.parse().map_err(|_| "expected a whole number such as 128".to_string())
}

/// A data-unit number: a whole number from 0 to 2^128 - 1.
pub fn unit_number(text: &str) -> Result<u128, String> {
    if text.trim_start().starts_with('-') {
        return Err("a unit number cannot be negative (expected a whole number such as 2048)".into());
    }
    text.parse().map_err(|_| "expected a whole number from 0 to 2^128-1 such as 2048".to_string())
}

/// `kdf`: one of the key derivations over Streebog-256.
#[derive(Args)]
pub struct KdfArgs {
    /// kdf-256 (KDF_GOSTR3411_2012_256: 32 bytes), kdf-tree-256 (KDF_TREE_GOSTR3411_2012_256:
    /// --length bytes) or tlstree (one key per record number --seq).
    #[arg(long, value_name = "NAME", value_parser = PossibleValuesParser::new(KDF_ALGOS))]
    pub algo: String,
    #[command(flatten)]
    pub keys: KeyArgs,
    /// The label as hex (kdf-256, kdf-tree-256).
    #[arg(long, value_name = "HEX", conflicts_with = "label_text")]
    pub label: Option<String>,
    /// The label as text, taken byte for byte (e.g. `level1`).
    #[arg(long, value_name = "TEXT")]
    pub label_text: Option<String>,
    /// The seed as hex (kdf-256, kdf-tree-256).
    #[arg(long, value_name = "HEX")]
    pub seed: Option<String>,
    /// kdf-tree-256: bytes of output (L = 8 × this).
    #[arg(long, value_name = "BYTES")]
    pub length: Option<usize>,
    /// kdf-tree-256: bytes of the block counter i, 1 to 4 (RFC 7836 §4.4 R; default 1).
    #[arg(long, value_name = "1..4")]
    pub r: Option<usize>,
    /// tlstree: the cipher suite, which sets the re-keying intervals.
    #[arg(long, value_name = "NAME", value_parser = PossibleValuesParser::new(Suite::ALL.map(Suite::name)))]
    pub suite: Option<String>,
    /// tlstree: the first record's sequence number.
    #[arg(long, value_name = "N")]
    pub seq: Option<u64>,
    /// tlstree: the last record's sequence number (default --seq): one `KEY  SEQ` line each.
    #[arg(long, value_name = "N")]
    pub seq_to: Option<u64>,
    /// Write the key as lowercase hex and a newline (kdf-256, kdf-tree-256; tlstree always prints hex).
    #[arg(long)]
    pub hex: bool,
    /// Write to this file instead of stdout (created only on success).
    #[arg(long = "out", value_name = "PATH")]
    pub output: Option<PathBuf>,
}

/// `wrap` and `unwrap`: a key export or key wrap format.
#[derive(Args)]
pub struct WrapArgs {
    /// kuznyechik-kexp15, magma-kexp15 (KExp15/KImp15, R 1323565.1.017-2018), dstu7624-wrap
    /// (Dstu7624Wrap, Kalyna-256/256) or gost28147-wrap (GOST 28147-89, S-box dstu4145).
    #[arg(long, value_name = "NAME", value_parser = PossibleValuesParser::new(multiblock::wrap::Algorithm::ALL.map(multiblock::wrap::Algorithm::name)))]
    pub algo: String,
    /// The key-encryption key (--key, --key-file, --key-env or --key-fd): for kexp15 64 bytes,
    /// K_mac then K_enc (the layout of KEG and of gost-engine's kexp15 ciphers); for
    /// dstu7624-wrap and gost28147-wrap 32 bytes.
    #[command(flatten)]
    pub keys: KeyArgs,
    /// The IV as hex: kexp15 needs it (4 bytes for magma, 8 for kuznyechik) to wrap and to
    /// unwrap; dstu7624-wrap (32 bytes) and gost28147-wrap (8 bytes) draw a random one from the
    /// operating system unless given (to reproduce a vector), and take none to unwrap.
    #[arg(long, value_name = "HEX")]
    pub iv: Option<String>,
    /// Input is hex text (whitespace ignored); output is lowercase hex and a newline.
    #[arg(long)]
    pub hex: bool,
    /// Read from this file instead of stdin.
    #[arg(long = "in", value_name = "PATH")]
    pub input: Option<PathBuf>,
    /// Write to this file instead of stdout (created only on success).
    #[arg(long = "out", value_name = "PATH")]
    pub output: Option<PathBuf>,
}

/// The names `kdf --algo` takes.
pub const KDF_ALGOS: [&str; 3] = ["kdf-256", "kdf-tree-256", "tlstree"];
