//! `encrypt`, `decrypt` and `mac` for every cipher and mode: `--hex` input
//! in memory here, raw input streamed by [`super::crypt_stream`] (AEAD
//! included) or, for key wrap, worked on in the output file by
//! [`super::crypt_kw`].

use crate::args::CryptArgs;
use crate::{buffers, hex, input, request, sink, Failure};
use multiblock::modes::aead_stream::AeadStream;
use multiblock::modes::stream::CipherStream;
use multiblock::modes::{self, Kind, Mode, Request};

pub use crate::request::Verb;

pub fn run(args: &CryptArgs, verb: Verb) -> Result<(), Failure> {
    let parsed = request::parse(args, verb)?;
    let req = parsed.request(args);
    // Key and S-box errors before reading any input, without a key setup
    // (the mode keys its cipher once, below).
    req.check().map_err(Failure::library)?;
    // Raw input of a mode that streams: bounded memory, any size.
    if !args.hex && super::crypt_stream::streams(req.mode, verb) {
        return super::crypt_stream::run(&req, args, verb);
    }
    if !args.hex && req.mode == modes::Mode::Kw {
        return super::crypt_kw::run(&req, args, verb);
    }

    let data = request::input_bytes(input::read_input(args.input.as_deref())?, args.hex)?;

    let threads = args.threads.map_or(0, usize::from);
    let mut out = match verb {
        Verb::Mac => modes::mac(&req, &data),
        _ => in_memory(&req, &data, verb == Verb::Encrypt, threads),
    }
    .map_err(Failure::library)?;

    if args.hex {
        let mut text = Vec::new();
        buffers::reserve(&mut text, out.len().saturating_mul(2).saturating_add(1), "the hex output")?;
        hex::encode_into(&out, &mut text);
        text.push(b'\n');
        out = text;
    }
    sink::write_output(args.output.as_deref(), &out).map_err(Failure::Input)
}

/// Encrypts or decrypts `data` at once on up to `threads` threads: the
/// streams where the mode has one (CCM needs its length first), else the
/// one-shot call. An AEAD decryption's output is released only after
/// `finalize` has checked the tag.
fn in_memory(req: &Request<'_>, data: &[u8], encrypt: bool, threads: usize) -> multiblock::Result<Vec<u8>> {
    let mut out = Vec::new();
    match req.mode.kind() {
        Kind::Cipher => {
            let s = if encrypt { CipherStream::encryptor(req)? } else { CipherStream::decryptor(req)? };
            let mut s = s.threads(threads)?;
            s.update(data, &mut out)?;
            s.finalize(&mut out)?;
        }
        Kind::Aead if req.mode != Mode::Ccm => {
            let s = if encrypt { AeadStream::encryptor(req)? } else { AeadStream::decryptor(req)? };
            let mut s = s.threads(threads)?;
            s.update(data, &mut out)?;
            let tag = s.finalize(&mut out)?;
            out.extend_from_slice(&tag);
        }
        _ => return if encrypt { modes::encrypt(req, data) } else { modes::decrypt(req, data) },
    }
    Ok(out)
}
