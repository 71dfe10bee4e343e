//! `encrypt`, `decrypt` and `mac` for every cipher and mode: `--hex` input
//! and the one-shot modes (AEAD, KW) in memory here, the rest streamed by
//! [`super::crypt_stream`].

use crate::args::CryptArgs;
use crate::{hex, io, Failure};
use multiblock::modes::{self, Mode, Padding, Params, Request};
use multiblock::{BackendChoice, CipherId, Error};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Encrypt,
    Decrypt,
    Mac,
}

pub fn failure(e: Error) -> Failure {
    match e {
        Error::Authentication => Failure::Auth(e.to_string()),
        other => Failure::Input(other.to_string()),
    }
}

fn params(args: &CryptArgs) -> Result<Params, Failure> {
    Ok(Params {
        iv: args.iv.as_deref().map(|h| hex::decode(h, "--iv")).transpose()?,
        aad: args.aad.as_deref().map(|h| hex::decode(h, "--aad")).transpose()?.unwrap_or_default(),
        padding: Padding::from_name(&args.padding).map_err(failure)?,
        s: args.s,
        m: args.m,
        mac_bits: args.mac_bits,
        tag_bits: args.tag_bits,
        section_bytes: args.section_bytes,
        key_section_bytes: args.key_section_bytes,
        nb: args.nb,
        key_meshing: args.key_meshing,
    })
}

pub fn run(args: &CryptArgs, verb: Verb) -> Result<(), Failure> {
    let id = CipherId::from_name(&args.cipher).map_err(failure)?;
    let mode = Mode::parse(id, &args.mode).map_err(failure)?;
    let key = hex::decode(&args.key, "--key")?;
    let req = Request {
        cipher: id,
        mode,
        key: &key,
        sbox: args.sbox.as_deref(),
        backend: args.backend.as_deref().map_or(BackendChoice::Auto, BackendChoice::Named),
        params: params(args)?,
    };
    // Key, S-box and backend errors before reading any input.
    req.keyed().map_err(failure)?;
    // Raw input of a mode that streams: bounded memory, any size.
    if !args.hex && (verb == Verb::Mac || modes::stream::streams(mode)) {
        return super::crypt_stream::run(&req, args, verb);
    }

    let raw = io::read_input(args.input.as_deref())?;
    let data = if args.hex {
        let text = String::from_utf8(raw)
            .map_err(|_| Failure::Input("--hex input is not text (expected hex digits)".into()))?;
        hex::decode(&text, "the input")?
    } else {
        raw
    };

    let threads = args.threads.map_or(0, usize::from);
    let mut out = match verb {
        Verb::Encrypt => modes::stream::encrypt_threads(&req, &data, threads),
        Verb::Decrypt => modes::stream::decrypt_threads(&req, &data, threads),
        Verb::Mac => modes::mac(&req, &data),
    }
    .map_err(failure)?;

    if args.hex {
        let mut text = hex::encode(&out);
        text.push('\n');
        out = text.into_bytes();
    }
    io::write_output(args.output.as_deref(), &out).map_err(Failure::Input)
}
