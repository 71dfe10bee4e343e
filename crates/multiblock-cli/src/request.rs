//! From `encrypt`/`decrypt`/`mac` arguments to a library [`Request`], and the
//! input bytes from what was read: everything between the command line and
//! the library, without I/O. Errors are one-line messages (bad input).

use crate::args::CryptArgs;
use crate::hex;
use multiblock::modes::{Mode, Padding, Params, Request};
use multiblock::{BackendChoice, CipherId};
use zeroize::Zeroizing;

/// The decoded parts of a crypt command line that the library takes.
pub struct Parsed {
    pub cipher: CipherId,
    pub mode: Mode,
    pub key: Zeroizing<Vec<u8>>,
    pub params: Params,
}

/// What a crypt command line asks for, which decides the mode without `--mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Encrypt,
    Decrypt,
    Mac,
}

/// The mode of `args`: `--mode` as given; without it, for `mac` the
/// family's standard MAC, for `encrypt` and `decrypt` an error listing the
/// modes of the cipher (no mode is chosen for them silently).
pub fn mode(args: &CryptArgs, cipher: CipherId, verb: Verb) -> Result<Mode, String> {
    if let Some(name) = &args.mode {
        return Mode::parse(cipher, name).map_err(|e| e.to_string());
    }
    match verb {
        Verb::Mac => crate::args::default_mac(cipher).ok_or_else(|| {
            format!("{cipher} has no MAC mode (uBlock defines none): MAC with kalyna-*, kuznyechik, magma or gost89")
        }),
        Verb::Encrypt | Verb::Decrypt => {
            Err(format!("--mode is required: {cipher} takes {}", crate::args::crypt_modes(cipher).join(", ")))
        }
    }
}

/// Checks the cipher and mode names and decodes the hex of key, IV and AAD.
pub fn parse(args: &CryptArgs, verb: Verb) -> Result<Parsed, String> {
    let name = args.cipher.as_deref().ok_or_else(|| {
        "--cipher is required: the cipher MACs run over a cipher (or MAC over a hash: --mode hmac --hash NAME, \
         --mode kupyna-mac --hash kupyna-N)"
            .to_string()
    })?;
    let cipher = CipherId::from_name(name).map_err(|e| e.to_string())?;
    let mode = mode(args, cipher, verb)?;
    let key = crate::key::load(args, mode.key_bytes(cipher))?;
    let params = Params {
        iv: args.iv.as_deref().map(|h| hex::decode(h, "--iv")).transpose()?,
        aad: args.aad.as_deref().map(|h| hex::decode(h, "--aad")).transpose()?.unwrap_or_default(),
        padding: Padding::from_name(&args.padding).map_err(|e| e.to_string())?,
        s: args.s,
        m: args.m,
        mac_bits: args.mac_bits,
        tag_bits: args.tag_bits,
        section_bytes: args.section_bytes,
        key_section_bytes: args.key_section_bytes,
        nb: args.nb,
        key_meshing: args.key_meshing,
        data_unit: args.data_unit,
        unit: args.unit,
    };
    Ok(Parsed { cipher, mode, key, params })
}

impl Parsed {
    /// The library request; S-box and backend names are checked when it is keyed.
    pub fn request<'a>(&'a self, args: &'a CryptArgs) -> Request<'a> {
        Request {
            cipher: self.cipher,
            mode: self.mode,
            key: &self.key,
            sbox: args.sbox.as_deref(),
            backend: args.backend.as_deref().map_or(BackendChoice::Auto, BackendChoice::Named),
            params: self.params.clone(),
        }
    }
}

/// The bytes to process: `raw` itself, or with `--hex` the hex text it holds.
pub fn input_bytes(raw: Vec<u8>, is_hex: bool) -> Result<Vec<u8>, String> {
    if !is_hex {
        return Ok(raw);
    }
    let text = String::from_utf8(raw).map_err(|_| "--hex input is not text (expected hex digits)".to_string())?;
    hex::decode(&text, "the input")
}
