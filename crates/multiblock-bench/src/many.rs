//! The many-streams section: 64 messages of 256 KiB under one
//! key through `modes::many` (one wide cipher call per step over every
//! stream), for each serial mode with a wide form, with no backend forced;
//! and ECB over one 16 MiB message in the same run, the bound they are
//! measured against. The cipher modes three times: into new vectors
//! (`encrypt_many`) and into one buffer kept from call to call
//! (`encrypt_many_to`, direction `encrypt_to`) and where the messages are
//! (`encrypt_many_in_place`, direction `encrypt_in_place`). `--quick`: 64 × 16 KiB and 1 MiB.

use crate::measure::{entry, key_for, measure_stats, shown, Label, AUTO};
use crate::row::{Entry, Kind};
use crate::mode_rows::request;
use crate::Failure;
use multiblock::modes::many::{encrypt_many, encrypt_many_in_place, encrypt_many_to, mac_many, Fit};
use multiblock::modes::{Kind as ModeKind, Mode};
use multiblock::{Cipher, CipherId, Error};

/// Messages per run.
pub const STREAMS: usize = 64;

/// The serial modes of `id` that run in the lanes.
fn wide_modes(id: CipherId) -> Vec<Mode> {
    let wide = [Mode::Mac, Mode::OmacAcpkm, Mode::Cmac, Mode::Cbc, Mode::Cfb, Mode::Ofb];
    let imit = id == CipherId::Gost89; // its MAC is the 16-round imitovstavka: one stream at a time
    Mode::for_cipher(id).into_iter().filter(|m| wide.contains(m) && !(imit && *m == Mode::Mac)).collect()
}

pub fn rows(id: CipherId, stream_bytes: usize, reps: usize) -> Result<Vec<Entry>, Failure> {
    let key = key_for(id);
    let info = shown(AUTO, Cipher::with_id(id, &key, None, multiblock::BackendChoice::Auto).map_err(Failure::input)?.backend());
    let label = Label::of(Kind::Many, id.name(), info);
    let n = id.block_bytes();
    let len = stream_bytes / n * n;
    let messages: Vec<Vec<u8>> = (0..STREAMS).map(|s| (0..len).map(|i| (i + s) as u8).collect()).collect();
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let mut out = Vec::new();

    // ECB over one message of the same total.
    let ecb = Cipher::with_id(id, &key, None, multiblock::BackendChoice::Auto).map_err(Failure::input)?;
    let mut one: Vec<u8> = messages.concat();
    let stats = measure_stats(reps, || ecb.encrypt_blocks(&mut one).expect("whole blocks"));
    let mut e = entry(&label, "encrypt", one.len(), &stats, 1);
    e.row.mode = Some("ecb");
    out.push(e);

    for mode in wide_modes(id) {
        let Some(req) = request(id, mode, &key, AUTO, &messages[0][..2 * n]) else { continue };
        let row = |dir: &'static str, run: &mut dyn FnMut() -> Result<(), Error>| -> Result<Entry, Failure> {
            let mut failed: Option<Error> = None;
            let stats = measure_stats(reps, || {
                if let Err(e) = run() {
                    failed = Some(e);
                }
            });
            if let Some(e) = failed {
                return Err(Failure::Input(format!("bench {id} {mode} many streams ({dir}): {e}")));
            }
            let mut e = entry(&label, dir, len * STREAMS, &stats, 1);
            e.row.mode = Some(mode.name());
            e.streams = STREAMS;
            Ok(e)
        };
        if mode.kind() == ModeKind::Mac {
            out.push(row("mac", &mut || mac_many(&req, &refs).map(drop))?);
            continue;
        }
        out.push(row("encrypt", &mut || encrypt_many(&req, &refs).map(drop))?);
        // Into one buffer kept from call to call.
        let mut buf = vec![0u8; STREAMS * (len + 2 * n)];
        out.push(row("encrypt_to", &mut || match encrypt_many_to(&req, &refs, &mut buf)? {
            Fit::Written(_) => Ok(()),
            Fit::TooSmall { needed } => Err(Error::Param(format!("needs {needed} bytes"))),
        })?);
        // Where the messages are (each repetition encrypts the last one's output).
        let mut bufs = messages.clone();
        out.push(row("encrypt_in_place", &mut || {
            let mut refs: Vec<&mut [u8]> = bufs.iter_mut().map(Vec::as_mut_slice).collect();
            encrypt_many_in_place(&req, &mut refs)
        })?);
    }
    Ok(out)
}
