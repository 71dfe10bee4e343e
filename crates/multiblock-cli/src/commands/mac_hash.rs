//! `mac --mode hmac --hash NAME` (RFC 2104; over Streebog, RFC 7836 §4.1)
//! and `mac --mode kupyna-mac --hash kupyna-N` (DSTU 7564:2014): MACs over
//! a hash, with no cipher. The output has the shapes of the cipher MACs:
//! the raw tag of the input (stdin or `--in`) on stdout or `--out`, hex
//! with `--hex`; with FILEs, one `TAG  FILE` line each. `--tag HEX`
//! checks the tag of the one input instead (constant time): a different
//! tag is exit status 1; [`cipher_tag`] does the same for the cipher MACs.

use super::problems::Problems;
use super::mac_files::line;
use crate::args::{MacArgs, HASH_MAC_MODES};
use crate::feed::Feeder;
use crate::{hex, request, Failure};
use multiblock_cli::failure::byte_count;
use multiblock::hash::{HashId, Hmac, KupynaMac};
use multiblock::modes::stream::MacStream;
use multiblock::BackendChoice;
use zeroize::Zeroizing;

/// One keyed MAC over a hash.
enum HashMac {
    Hmac(Box<Hmac>),
    Kupyna(KupynaMac),
}

impl HashMac {
    fn update(&mut self, data: &[u8]) {
        match self {
            HashMac::Hmac(m) => m.update(data),
            HashMac::Kupyna(m) => m.update(data),
        }
    }

    fn finalize(self) -> Vec<u8> {
        match self {
            HashMac::Hmac(m) => m.finalize(),
            HashMac::Kupyna(mut m) => m.finalize_reset(),
        }
    }

    fn verify(self, tag: &[u8]) -> multiblock::Result<()> {
        match self {
            HashMac::Hmac(m) => m.verify(tag),
            HashMac::Kupyna(mut m) => m.verify_reset(tag),
        }
    }
}

/// The mode, hash, key and backend of a hash MAC, checked.
struct Spec<'a> {
    mode: &'static str,
    id: HashId,
    key: Zeroizing<Vec<u8>>,
    backend: Option<&'a str>,
}

impl Spec<'_> {
    fn keyed(&self) -> Result<HashMac, Failure> {
        let what = |e: multiblock::Error| Failure::Input(format!("--mode {} --hash {}: {e}", self.mode, self.id));
        let choice = self.backend.map_or(BackendChoice::Auto, BackendChoice::Named);
        Ok(match self.mode {
            "hmac" => HashMac::Hmac(Box::new(Hmac::with_backend(self.id, &self.key, choice).map_err(what)?)),
            _ => HashMac::Kupyna(KupynaMac::with_backend(self.id.digest_bytes() * 8, &self.key, choice).map_err(what)?),
        })
    }
}

pub fn run(a: &MacArgs) -> Result<(), Failure> {
    let spec = spec(a)?;
    // Key, hash and backend errors before any input is read.
    spec.keyed()?;
    let tag = a.tag.as_deref().map(|t| hex::decode(t, "--tag")).transpose()?;
    if let Some(t) = &tag {
        if t.len() != spec.id.digest_bytes() {
            return Err(Failure::Input(format!(
                "--tag is {}; the {} tag over {} is {} bytes",
                byte_count(t.len()),
                spec.mode,
                spec.id,
                spec.id.digest_bytes()
            )));
        }
        if a.files.len() > 1 {
            return Err(Failure::Input("--tag checks one input: give one FILE, --in PATH or stdin".into()));
        }
    }
    if a.files.is_empty() || tag.is_some() {
        return one(a, &spec, tag.as_deref());
    }
    files(a, &spec)
}

/// The one input (`--in`, stdin, or the one FILE): its tag out, or checked.
fn one(a: &MacArgs, spec: &Spec<'_>, tag: Option<&[u8]>) -> Result<(), Failure> {
    let mut mac = spec.keyed()?;
    let input = a.crypt.input.as_deref().or(a.files.first().map(|p| p.as_path()));
    let what = input.map_or("stdin".to_string(), |p| p.display().to_string());
    if a.crypt.hex {
        let data = request::input_bytes(crate::input::read_input(input)?, true)?;
        mac.update(&data);
    } else if let Some(file) = a.files.first() {
        Feeder::new().feed(file, &mut |piece| mac.update(piece))?;
    } else {
        Feeder::new().feed_input(input, &mut |piece| mac.update(piece))?;
    }
    if let Some(tag) = tag {
        return mac.verify(tag).map_err(|_| {
            Failure::Auth(format!("authentication failed: the {} tag of {what} does not match --tag", spec.mode))
        });
    }
    let mut out = mac.finalize();
    if a.crypt.hex {
        out = format!("{}\n", hex::encode(&out)).into_bytes();
    }
    crate::sink::write_output(a.crypt.output.as_deref(), &out).map_err(Failure::Input)
}

/// `TAG  FILE` for every FILE, in order (to `--out` only if all succeed).
fn files(a: &MacArgs, spec: &Spec<'_>) -> Result<(), Failure> {
    let mut feeder = Feeder::new();
    let mut problems = Problems::default();
    let mut lines = String::new();
    for path in &a.files {
        let mut mac = spec.keyed()?;
        match feeder.feed(path, &mut |piece| mac.update(piece)) {
            Ok(()) => {
                let text = line(&hex::encode(&mac.finalize()), path);
                match a.crypt.output {
                    Some(_) => lines.push_str(&text),
                    None => crate::out::text(&text).map_err(Failure::Input)?,
                }
            }
            Err(msg) => problems.report(msg),
        }
    }
    if let Some(msg) = problems.summary(|n| format!("{n} of {} files could not be MACed", a.files.len())) {
        return Err(Failure::Input(msg));
    }
    if let Some(out) = a.crypt.output.as_deref() {
        crate::sink::write_output(Some(out), lines.as_bytes()).map_err(Failure::Input)?;
    }
    Ok(())
}

/// The checked mode, hash and key; an error for every cipher parameter given.
fn spec(a: &MacArgs) -> Result<Spec<'_>, Failure> {
    let given = a.crypt.mode.as_deref().unwrap_or_default().to_ascii_lowercase();
    let mode = HASH_MAC_MODES.into_iter().find(|m| *m == given).expect("routed here by args::is_hash_mac");
    let c = &a.crypt;
    let unused = [
        ("--cipher", c.cipher.is_some()),
        ("--iv", c.iv.is_some()),
        ("--aad", c.aad.is_some()),
        ("--sbox", c.sbox.is_some()),
        ("--padding", c.padding != "none"),
        ("--s", c.s.is_some()),
        ("--m", c.m.is_some()),
        ("--mac-bits", c.mac_bits.is_some()),
        ("--tag-bits", c.tag_bits.is_some()),
        ("--section-bytes", c.section_bytes.is_some()),
        ("--key-section-bytes", c.key_section_bytes.is_some()),
        ("--nb", c.nb.is_some()),
        ("--key-meshing", c.key_meshing),
        ("--threads", c.threads.is_some()),
    ];
    if let Some((flag, _)) = unused.iter().find(|(_, set)| *set) {
        let why = if *flag == "--cipher" { " (it runs over --hash, not a cipher)" } else { "" };
        return Err(Failure::Input(format!("--mode {mode} takes no {flag}{why}")));
    }
    let allowed: Vec<String> = match mode {
        "hmac" => HashId::NAMES.iter().map(|n| n.to_string()).collect(),
        _ => ["kupyna-256", "kupyna-384", "kupyna-512"].map(String::from).to_vec(),
    };
    let name = a
        .hash
        .as_deref()
        .ok_or_else(|| Failure::Input(format!("--mode {mode} needs --hash NAME: {}", allowed.join(", "))))?;
    let id = HashId::from_name(name).map_err(Failure::input)?;
    if !allowed.contains(&id.to_string()) {
        return Err(Failure::Input(format!("--mode {mode} runs over {}, not {id}", allowed.join(", "))));
    }
    // Any length: a key file is hex only when it is hex text.
    let key = multiblock_cli::key::load_as(c, multiblock_cli::key::Raw::UnlessHex)?;
    // RFC 2104 allows it, but a tag under no key proves nothing, and an
    // empty key is most often an unset variable (`--key "$KEY"`).
    if key.is_empty() {
        return Err(Failure::Input(format!("--mode {mode}: the key is empty (a MAC under an empty key authenticates nothing)")));
    }
    Ok(Spec { mode, id, key, backend: c.backend.as_deref() })
}

/// `mac` with `--hash` but a cipher mode: say what it goes with.
pub fn misplaced(_: &MacArgs) -> Result<(), Failure> {
    Err(Failure::Input(
        "--hash goes with --mode hmac or --mode kupyna-mac (the MACs over a hash); the cipher MACs take --cipher".into(),
    ))
}

/// `mac --cipher ... --tag HEX`: a cipher MAC of the one input (`--in`,
/// stdin or one FILE) checked against `--tag` in constant time.
pub fn cipher_tag(a: &MacArgs) -> Result<(), Failure> {
    let parsed = request::parse(&a.crypt, request::Verb::Mac)?;
    let req = parsed.request(&a.crypt);
    let mut mac = MacStream::new(&req).map_err(Failure::library)?;
    let want = hex::decode(a.tag.as_deref().unwrap_or_default(), "--tag")?;
    if a.files.len() > 1 {
        return Err(Failure::Input("--tag checks one input: give one FILE, --in PATH or stdin".into()));
    }
    let input = a.crypt.input.as_deref().or(a.files.first().map(|p| p.as_path()));
    let what = input.map_or("stdin".to_string(), |p| p.display().to_string());
    let mut failed = None;
    let mut update = |piece: &[u8]| {
        if failed.is_none() {
            failed = mac.update(piece).err();
        }
    };
    if a.crypt.hex {
        update(&request::input_bytes(crate::input::read_input(input)?, true)?);
    } else if let Some(file) = a.files.first() {
        Feeder::new().feed(file, &mut update)?;
    } else {
        Feeder::new().feed_input(input, &mut update)?;
    }
    if let Some(e) = failed {
        return Err(Failure::library(e));
    }
    let got = mac.finalize().map_err(Failure::library)?;
    if want.len() != got.len() {
        return Err(Failure::Input(format!("--tag is {}; the {} {} tag is {} bytes", byte_count(want.len()), req.cipher, req.mode.name(), got.len())));
    }
    // Constant time: every byte is looked at whatever the first difference.
    if got.iter().zip(&want).fold(0u8, |acc, (x, y)| acc | (x ^ y)) != 0 {
        return Err(Failure::Auth(format!("authentication failed: the {} tag of {what} does not match --tag", req.mode.name())));
    }
    Ok(())
}
