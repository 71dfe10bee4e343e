//! Key wrap (DSTU 7624 §15) of raw input in bounded memory: every output
//! byte depends on every input byte, six passes over the whole message, so
//! the input is copied into the held output file (the temporary `--out`
//! file, or a spool for stdout) and wrapped or unwrapped there in place
//! (`KalynaKw::wrap_store`). An unwrap whose check block is not zero
//! removes that file: exit status 1, nothing released.

use crate::request::Verb;
use super::crypt_stream::{open_input, Input};
use crate::args::CryptArgs;
use crate::os_error::plain;
use crate::sink::Sink;
use crate::Failure;
use multiblock::hazmat::modes::KalynaKw;
use multiblock::modes::Request;

pub fn run(req: &Request<'_>, args: &CryptArgs, verb: Verb) -> Result<(), Failure> {
    let kw = KalynaKw::new(req).map_err(Failure::library)?;
    let Input { reader: mut input, what, .. } = open_input(args)?;
    let mut sink = Sink::create_held(args.output.as_deref())?;
    let file = sink.held_file().expect("a held sink has a file");
    // std::io::copy uses copy_file_range / splice where the kernel can.
    let len = std::io::copy(&mut input, file).map_err(|e| format!("cannot copy {what} to the output: {}", plain(&e)))?;
    if verb == Verb::Encrypt {
        kw.wrap_store(file, len).map_err(Failure::library)?;
    } else {
        let body = kw.unwrap_store(file, len).map_err(Failure::library)?;
        file.set_len(body).map_err(|e| format!("cannot write the output: {}", plain(&e)))?;
    }
    sink.commit().map_err(Failure::Input)
}
