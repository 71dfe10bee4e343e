//! `encrypt` and `decrypt`.

use crate::args::CryptArgs;
use crate::{hex, io, Failure};
use multiblock::{Cipher, CipherId};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Encrypt,
    Decrypt,
}

/// The modes each cipher offers through the CLI today.
fn modes(_id: CipherId) -> &'static [&'static str] {
    &["ecb"]
}

pub fn run(args: &CryptArgs, direction: Direction) -> Result<(), Failure> {
    let id = CipherId::from_name(&args.cipher).map_err(Failure::input)?;
    if !modes(id).contains(&args.mode.as_str()) {
        return Err(Failure::Input(format!(
            "unknown mode '{}' for {} (expected one of: {})",
            args.mode,
            id,
            modes(id).join(", ")
        )));
    }
    let key = hex::decode(&args.key, "--key").map_err(Failure::Input)?;
    let cipher = Cipher::new(id.name(), &key, args.sbox.as_deref(), args.backend.as_deref())
        .map_err(Failure::input)?;

    let raw = io::read_input(args.input.as_deref()).map_err(Failure::Input)?;
    let mut data = if args.hex {
        let text = String::from_utf8(raw)
            .map_err(|_| Failure::Input("--hex input is not text (expected hex digits)".into()))?;
        hex::decode(&text, "the input")?
    } else {
        raw
    };

    match direction {
        Direction::Encrypt => cipher.encrypt_blocks(&mut data),
        Direction::Decrypt => cipher.decrypt_blocks(&mut data),
    }
    .map_err(Failure::input)?;

    if args.hex {
        let mut text = hex::encode(&data);
        text.push('\n');
        data = text.into_bytes();
    }
    io::write_output(args.output.as_deref(), &data).map_err(Failure::Input)
}
