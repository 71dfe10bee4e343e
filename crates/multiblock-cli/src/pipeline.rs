//! Reading, computing and writing at the same time: a reader thread fills
//! buffers from the input, the calling thread transforms them (on the
//! library's thread pool), a writer thread writes them to the [`Sink`].
//! The channels hold one buffer each, so at most five buffers exist (one
//! being read, one waiting, one computed, one waiting, one being written)
//! and memory stays bounded whatever the input's size; written buffers go
//! back to the reader instead of being freed.
//!
//! [`run_mapped`] is the same without the reader, for an input mapped into
//! memory: the transform reads each piece of the mapping and writes a
//! buffer of its own.

use crate::sink::Sink;
use crate::Failure;
use std::io::{self, Read};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread;

/// Room left after the bytes read, so that a transform whose output is a
/// little longer than its input (a held partial block released) fits in place.
pub const SLACK: usize = 1024;

/// Room left in front of the bytes read, so that a stream which kept back
/// the end of the previous buffer (XTS's last block, a padded last block)
/// puts it in front of this one's output without moving the buffer.
pub const HEADROOM: usize = 256;

/// A buffer on its way through: the bytes are `buf[start..]`.
pub struct Piece {
    pub buf: Vec<u8>,
    pub start: usize,
}

/// Streams `input` through `transform` into `sink`, `chunk` bytes at a
/// time; `transform` gets each piece as read (its bytes those read, after
/// [`HEADROOM`]) and leaves in it the bytes to write. Returns the sink (not yet
/// committed) once everything read is written.
pub fn run(
    input: Box<dyn Read + Send>,
    what: &str,
    sink: Sink,
    chunk: usize,
    mut transform: impl FnMut(&mut Piece) -> Result<(), Failure>,
) -> Result<Sink, Failure> {
    let (filled_tx, filled) = sync_channel::<io::Result<Vec<u8>>>(1);
    let (free_tx, free) = sync_channel::<Vec<u8>>(8);
    let (out_tx, out_rx) = sync_channel::<Piece>(1);
    // Not scoped: a reader blocked on a terminal must not keep an error waiting.
    thread::Builder::new()
        .name("multiblock-read".into())
        .spawn(move || read_loop(input, chunk, free, filled_tx))
        .map_err(|e| format!("cannot start the reader thread: {e}"))?;
    let writer = spawn_writer(sink, out_rx, free_tx)?;
    let computed = compute_loop(&filled, &out_tx, what, &mut transform);
    drop(out_tx);
    finish(writer, computed)
}

fn spawn_writer(sink: Sink, out: Receiver<Piece>, free: SyncSender<Vec<u8>>) -> Result<Writer, Failure> {
    let writer = thread::Builder::new()
        .name("multiblock-write".into())
        .spawn(move || write_loop(sink, out, free))
        .map_err(|e| format!("cannot start the writer thread: {e}"))?;
    Ok(writer)
}

type Writer = thread::JoinHandle<Result<Sink, String>>;

/// Waits for the writer (its channel already closed) and reports: a write
/// error is the cause when both failed (the compute side only saw the
/// writer go away).
fn finish(writer: Writer, computed: Result<(), Failure>) -> Result<Sink, Failure> {
    let written = writer.join().map_err(|_| Failure::Input("the writer thread failed".into()))?;
    let sink = written.map_err(Failure::Input)?;
    computed?;
    Ok(sink)
}

/// As [`run`], over an input already in memory (a mapped file): `transform`
/// gets each `chunk`-byte piece of `input` and an output buffer (of any
/// length, its bytes stale) to leave the bytes to write in.
pub fn run_mapped(
    input: &[u8],
    sink: Sink,
    chunk: usize,
    mut transform: impl FnMut(&[u8], &mut Vec<u8>) -> Result<(), Failure>,
) -> Result<Sink, Failure> {
    let (free_tx, free) = sync_channel::<Vec<u8>>(8);
    let (out_tx, out_rx) = sync_channel::<Piece>(1);
    let writer = spawn_writer(sink, out_rx, free_tx)?;
    let mut computed = Ok(());
    for piece in input.chunks(chunk.max(1)) {
        let mut buf = free.try_recv().unwrap_or_default();
        if let Err(e) = transform(piece, &mut buf) {
            computed = Err(e);
            break;
        }
        if out_tx.send(Piece { buf, start: 0 }).is_err() {
            break; // the writer stopped: its error is reported
        }
    }
    drop(out_tx);
    finish(writer, computed)
}

fn compute_loop(
    filled: &Receiver<io::Result<Vec<u8>>>,
    out: &SyncSender<Piece>,
    what: &str,
    transform: &mut impl FnMut(&mut Piece) -> Result<(), Failure>,
) -> Result<(), Failure> {
    while let Ok(next) = filled.recv() {
        let buf = next.map_err(|e| format!("cannot read {what}: {}", crate::os_error::plain(&e)))?;
        if buf.len() == HEADROOM {
            return Ok(());
        }
        let mut piece = Piece { buf, start: HEADROOM };
        transform(&mut piece)?;
        if out.send(piece).is_err() {
            return Ok(()); // the writer stopped: its error is reported
        }
    }
    Err(Failure::Input(format!("cannot read {what}: the reader thread stopped")))
}

fn read_loop(mut input: Box<dyn Read + Send>, chunk: usize, free: Receiver<Vec<u8>>, filled: SyncSender<io::Result<Vec<u8>>>) {
    loop {
        let mut buf = free.try_recv().unwrap_or_default();
        let room = HEADROOM + chunk + SLACK;
        if buf.capacity() < room && buf.try_reserve_exact(room - buf.len()).is_err() {
            let _ = filled.send(Err(io::Error::other(format!("cannot allocate {chunk} bytes: not enough memory"))));
            return;
        }
        buf.resize(HEADROOM + chunk, 0);
        let got = crate::input::read_full(&mut *input, &mut buf[HEADROOM..]);
        let end = !matches!(got, Ok(n) if n > 0);
        if let Ok(n) = got {
            buf.truncate(HEADROOM + n);
        }
        if filled.send(got.map(|_| buf)).is_err() || end {
            return;
        }
    }
}

fn write_loop(mut sink: Sink, out: Receiver<Piece>, free: SyncSender<Vec<u8>>) -> Result<Sink, String> {
    for piece in out {
        sink.write(&piece.buf[piece.start..])?;
        let _ = free.try_send(piece.buf);
    }
    Ok(sink)
}
