//! `encrypt`, `decrypt` and `mac` of raw input in bounded memory: the input
//! is read [`BUF_BYTES`] at a time through [`CipherStream`] / [`MacStream`]
//! / [`AeadStream`] (threads for the modes that split) into a [`Sink`],
//! whatever its size, with reading and writing on their own threads
//! ([`crate::pipeline`]).
//!
//! AEAD decryption (MGM, GCM, CCM) outputs plaintext before the tag is
//! known, so it goes to a held sink ([`Sink::create_held`]): the temporary
//! file of a regular `--out`, renamed only after the tag checks, or for
//! stdout, a device or a FIFO an unnamed spool file copied out only then.
//! One pass over the input (it may be a pipe), nothing released under the
//! final name or on stdout for a forged message, exit status 1.

use crate::request::Verb;
use crate::args::CryptArgs;
use crate::buffers::BUF_BYTES;
use crate::os_error::plain;
use crate::progress::Progress;
use crate::sink::Sink;
use crate::Failure;
use multiblock::modes::aead_stream::AeadStream;
use multiblock::modes::stream::{CipherStream, MacStream};
use multiblock::modes::{Kind, Mode, Request};
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::AsFd;

enum Work {
    Cipher(CipherStream),
    Mac(Box<MacStream>),
    Aead(Box<AeadStream>, bool),
}

/// Whether `mode` runs here (else in memory in [`super::crypt`]).
pub fn streams(mode: Mode, verb: Verb) -> bool {
    verb == Verb::Mac || matches!(mode.kind(), Kind::Cipher | Kind::Aead)
}

pub fn run(req: &Request<'_>, args: &CryptArgs, verb: Verb) -> Result<(), Failure> {
    let threads = args.threads.map_or(0, usize::from);
    let Input { reader: input, size, what, file } = open_input(args)?;
    let aead = req.mode.kind() == Kind::Aead;
    let mut work = match verb {
        Verb::Encrypt if aead => Work::Aead(Box::new(aead_stream(req, size, true)?.threads(threads).map_err(Failure::library)?), true),
        Verb::Decrypt if aead => Work::Aead(Box::new(aead_stream(req, size, false)?.threads(threads).map_err(Failure::library)?), false),
        Verb::Encrypt => Work::Cipher(CipherStream::encryptor(req).and_then(|s| s.threads(threads)).map_err(Failure::library)?),
        Verb::Decrypt => Work::Cipher(CipherStream::decryptor(req).and_then(|s| s.threads(threads)).map_err(Failure::library)?),
        Verb::Mac => Work::Mac(Box::new(MacStream::new(req).map_err(Failure::library)?)),
    };
    let sink = match work {
        Work::Aead(_, false) => Sink::create_held(args.output.as_deref())?,
        _ => Sink::create(args.output.as_deref())?,
    };
    let progress = Progress::new(size, args.quiet);
    let chunk = buffer_bytes()?;
    let mapping = match (&work, &file) {
        (Work::Cipher(s), Some(f)) if s.zero_copy() => crate::mapped::map(f, size.unwrap_or(0), &what),
        _ => None,
    };
    let sink = match (&mut work, mapping) {
        (Work::Cipher(s), Some(map)) => crate::pipeline::run_mapped(&map, sink, chunk, |piece, out| {
            progress.advance(piece.len());
            if out.len() < piece.len() {
                out.clear();
                crate::buffers::reserve(out, piece.len(), "the output buffer")?;
                out.resize(piece.len(), 0);
            }
            let n = s.update_into(piece, out).map_err(Failure::library)?;
            out.truncate(n);
            Ok(())
        })?,
        _ => {
            let mut scratch = Vec::new();
            crate::pipeline::run(input, &what, sink, chunk, |piece| {
                progress.advance(piece.buf.len() - piece.start);
                match &mut work {
                    Work::Cipher(s) => {
                        let (front, len) = (piece.start, piece.buf.len() - piece.start);
                        piece.buf.resize(front + s.output_len(len).max(len), 0);
                        let (at, n) = s.update_in_place_after(&mut piece.buf, front, len).map_err(Failure::library)?;
                        piece.buf.truncate(at + n);
                        piece.start = at;
                    }
                    Work::Mac(m) => {
                        m.update(&piece.buf[piece.start..]).map_err(Failure::library)?;
                        piece.start = piece.buf.len();
                    }
                    Work::Aead(s, _) => {
                        scratch.clear();
                        s.update(&piece.buf[piece.start..], &mut scratch).map_err(Failure::library)?;
                        std::mem::swap(&mut piece.buf, &mut scratch);
                        piece.start = 0;
                    }
                }
                Ok(())
            })?
        }
    };
    let mut sink = sink;
    let mut out = Vec::new();
    match work {
        Work::Cipher(s) => s.finalize(&mut out).map_err(Failure::library)?,
        Work::Mac(m) => out = m.finalize().map_err(Failure::library)?,
        Work::Aead(s, _) => {
            let tag = s.finalize(&mut out).map_err(Failure::library)?;
            out.extend_from_slice(&tag);
        }
    }
    progress.finish();
    sink.write(&out)?;
    sink.commit().map_err(Failure::Input)
}

/// The input (a file, or a duplicate of descriptor 0), its size if it is a
/// regular file, and its name for messages.
pub struct Input {
    pub reader: Box<dyn Read + Send>,
    pub size: Option<u64>,
    pub what: String,
    /// The same regular `--in` file, to map instead of reading it.
    pub file: Option<File>,
}

pub fn open_input(args: &CryptArgs) -> Result<Input, Failure> {
    let (reader, size, what, file): (Box<dyn Read + Send>, _, _, _) = match &args.input {
        Some(p) => {
            let what = format!("--in {}", p.display());
            let f = File::open(p).map_err(|e| format!("cannot read {what}: {}", plain(&e)))?;
            let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            let file = size.and_then(|_| f.try_clone().ok());
            (Box::new(f), size, what, file)
        }
        None => {
            crate::std_fds::stdin_open()?;
            let fd = io::stdin().as_fd().try_clone_to_owned().map_err(|e| format!("cannot read stdin: {}", plain(&e)))?;
            (Box::new(File::from(fd)), None, "stdin".to_string(), None)
        }
    };
    Ok(Input { reader, size, what, file })
}

/// An AEAD stream for an input of `size` bytes (CCM needs the length first).
fn aead_stream(req: &Request<'_>, size: Option<u64>, encrypt: bool) -> Result<AeadStream, Failure> {
    if req.mode == Mode::Ccm && size.is_none() {
        return Err(Failure::Input(format!(
            "{} ccm needs the message length before the first byte (DSTU 7624 §13): give a regular file with --in, not stdin or a pipe",
            req.cipher
        )));
    }
    let s = match (encrypt, size) {
        (true, Some(len)) => AeadStream::encryptor_sized(req, len),
        (true, None) => AeadStream::encryptor(req),
        (false, None) => AeadStream::decryptor(req),
        (false, Some(len)) => AeadStream::decryptor_sealed(req, len),
    };
    s.map_err(Failure::library)
}

/// The range `MULTIBLOCK_BUFFER_BYTES` may take.
pub const BUFFER_RANGE: std::ops::RangeInclusive<usize> = 4096..=1 << 30;

/// [`BUF_BYTES`], or `MULTIBLOCK_BUFFER_BYTES` (4 KiB to 1 GiB, else an
/// error): the tests use it to stream files several buffers long without
/// megabytes of data.
fn buffer_bytes() -> Result<usize, String> {
    let Some(v) = std::env::var_os("MULTIBLOCK_BUFFER_BYTES") else { return Ok(BUF_BYTES) };
    let v = v.to_string_lossy();
    match v.trim().parse::<usize>() {
        Ok(b) if BUFFER_RANGE.contains(&b) => Ok(b),
        _ => Err(format!(
            "MULTIBLOCK_BUFFER_BYTES={} is not a buffer size (expected {} to {} bytes)",
            v.escape_debug(),
            BUFFER_RANGE.start(),
            BUFFER_RANGE.end()
        )),
    }
}
