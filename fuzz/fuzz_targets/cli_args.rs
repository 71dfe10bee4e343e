//! The command line: arbitrary arguments (the input split at NUL bytes) go
//! through clap, the crypt-argument decoding and the library exactly as the
//! binary runs them, minus the file and stdin I/O. Never a panic, and every
//! error the user would see is one line.
#![no_main]

use clap::Parser;
use libfuzzer_sys::fuzz_target;
use multiblock::modes;
use multiblock_cli::args::{Cli, Command, CryptArgs};
use multiblock_cli::request::{self, Verb};

/// What the command reads in place of stdin: raw bytes, or hex text for --hex.
const RAW_INPUT: &[u8] = b"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const HEX_INPUT: &[u8] = b"00112233 44556677\n8899aabbccddeeff 0011223344556677";

fn assert_one_line(msg: &str) {
    assert!(!msg.trim_end().contains('\n'), "a multi-line error: {msg:?}");
}

fn crypt(args: &CryptArgs, verb: Verb) {
    let parsed = match request::parse(args, verb) {
        Ok(p) => p,
        Err(msg) => return assert_one_line(&msg),
    };
    let req = parsed.request(args);
    if let Err(e) = req.keyed() {
        return assert_one_line(&e.to_string());
    }
    let raw = if args.hex { HEX_INPUT } else { RAW_INPUT };
    let data = match request::input_bytes(raw.to_vec(), args.hex) {
        Ok(d) => d,
        Err(msg) => panic!("the fixed input was refused: {msg}"),
    };
    let out = match verb {
        Verb::Encrypt => modes::encrypt(&req, &data),
        Verb::Decrypt => modes::decrypt(&req, &data),
        Verb::Mac => modes::mac(&req, &data),
    };
    if let Err(e) = out {
        assert_one_line(&e.to_string());
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let argv = std::iter::once("multiblock").chain(text.split('\0'));
    match Cli::try_parse_from(argv) {
        // main.rs prints the first paragraph of this rendering.
        Err(e) => drop(e.render().to_string()),
        Ok(cli) => match &cli.command {
            Command::Encrypt(a) => crypt(a, Verb::Encrypt),
            Command::Decrypt(a) => crypt(a, Verb::Decrypt),
            Command::Mac(a) => crypt(&a.crypt, Verb::Mac),
            // info and selftest take no user data worth fuzzing (and are slow).
            _ => {}
        },
    }
});
