//! `wrap` and `unwrap`: KExp15/KImp15 (R 1323565.1.017-2018) and
//! Dstu7624Wrap, and the GOST 28147-89 wrap of the Ukrainian CMS profile.
//! The input (stdin or `--in`, raw or `--hex`) is the key to
//! wrap or the wrapped key; the result is computed whole before anything
//! is written, so a wrong MAC (exit status 1) or any bad input (2) leaves
//! no output and no `--out` file. Every copy of a key is wiped on drop.

use crate::args::WrapArgs;
use crate::input::read_input;
use crate::key::{load_from, Raw};
use crate::sink::write_output;
use crate::{hex, Failure};
use multiblock_cli::failure::byte_count;
use multiblock::magma::SboxSet;
use multiblock::wrap::{self, Algorithm, DSTU7624_KEK_BYTES, GOST28147_KEK_BYTES, KEXP15_KEK_BYTES};
use multiblock::Error;
use zeroize::Zeroizing;

/// The library's error as the command's: a failed MAC check is exit status 1.
fn failure(verb: &str, algo: Algorithm, e: Error) -> Failure {
    match e {
        Error::Authentication => {
            Failure::Auth(format!("{verb} --algo {algo}: authentication failed: the MAC does not match (no key was written)"))
        }
        e => Failure::Input(format!("{verb}: {e}")),
    }
}

/// The KEK's length: K_mac ‖ K_enc for KExp15, one key for the others.
fn kek_bytes(algo: Algorithm) -> usize {
    match algo {
        Algorithm::Kexp15(_) => 2 * KEXP15_KEK_BYTES,
        Algorithm::Dstu7624Wrap => DSTU7624_KEK_BYTES,
        Algorithm::Gost28147Wrap => GOST28147_KEK_BYTES,
    }
}

pub fn run(a: &WrapArgs, wrapping: bool) -> Result<(), Failure> {
    let verb = if wrapping { "wrap" } else { "unwrap" };
    let algo = Algorithm::from_name(&a.algo).map_err(Failure::input)?;
    let iv = a.iv.as_deref().map(|h| hex::decode(h, "--iv")).transpose()?;
    if iv.is_none() && matches!(algo, Algorithm::Kexp15(_)) {
        return Err(Failure::Input(format!("{verb} --algo {algo} needs --iv HEX")));
    }
    if iv.is_some() && matches!(algo, Algorithm::Dstu7624Wrap | Algorithm::Gost28147Wrap) && !wrapping {
        return Err(Failure::Input(format!(
            "unwrap --algo {algo} takes no --iv (the IV travels inside the wrapped key)"
        )));
    }
    let kek = load_from(&a.keys, Raw::Exactly(kek_bytes(algo)), a.input.is_none())?;
    if kek.len() != kek_bytes(algo) {
        let what = match algo {
            Algorithm::Kexp15(_) => " (K_mac then K_enc)",
            Algorithm::Dstu7624Wrap | Algorithm::Gost28147Wrap => "",
        };
        return Err(Failure::Input(format!(
            "{verb} --algo {algo} needs a key-encryption key of {} bytes ({} hex digits){what}, got {}",
            kek_bytes(algo),
            2 * kek_bytes(algo),
            byte_count(kek.len())
        )));
    }
    let raw = Zeroizing::new(read_input(a.input.as_deref())?);
    let input = if a.hex {
        let text = std::str::from_utf8(&raw).map_err(|_| "the input is not hex text (not UTF-8)".to_string())?;
        Zeroizing::new(hex::decode(text, "the input")?)
    } else {
        raw
    };
    let result = match algo {
        Algorithm::Kexp15(c) => {
            let iv = iv.as_deref().unwrap_or_default();
            let (k_mac, k_enc) = kek.split_at(KEXP15_KEK_BYTES);
            if wrapping {
                wrap::kexp15(c, &input, k_enc, k_mac, iv).map(Zeroizing::new)
            } else {
                wrap::kimp15(c, &input, k_enc, k_mac, iv)
            }
        }
        Algorithm::Dstu7624Wrap => match (wrapping, &iv) {
            (true, Some(iv)) => wrap::dstu7624_wrap_with_iv(&kek, &input, iv).map(Zeroizing::new),
            (true, None) => wrap::dstu7624_wrap(&kek, &input).map(Zeroizing::new),
            (false, _) => wrap::dstu7624_unwrap(&kek, &input),
        },
        Algorithm::Gost28147Wrap => {
            let set = SboxSet::Dstu4145;
            match (wrapping, &iv) {
                (true, Some(iv)) => wrap::gost28147_wrap_with_iv(set, &kek, &input, iv).map(Zeroizing::new),
                (true, None) => wrap::gost28147_wrap(set, &kek, &input).map(Zeroizing::new),
                (false, _) => wrap::gost28147_unwrap(set, &kek, &input),
            }
        }
    };
    let out = result.map_err(|e| failure(verb, algo, e))?;
    let bytes = if a.hex { Zeroizing::new(format!("{}\n", hex::encode(&out)).into_bytes()) } else { out };
    write_output(a.output.as_deref(), &bytes).map_err(Failure::Input)
}
