//! Small helpers the DSTU modes share: parameter checks with one-line
//! messages, XOR, constant-time comparison and counter increments.

use crate::error::{Bytes, Error, Result};
use crate::modes::{Padding, Request};
use crate::{Cipher, Family};

pub(crate) use crate::modes::buffers::{xor_in as xor_into, CHUNK};

/// `"kalyna-128-128 ctr"`, the start of every message.
pub(crate) fn who(req: &Request<'_>) -> String {
    format!("{} {}", req.cipher, req.mode)
}

/// Fails unless the request's cipher is a Kalyna variant (or, with
/// `ublock_too`, a uBlock one): the streaming types can be built directly.
pub(crate) fn check_family(req: &Request<'_>, ublock_too: bool) -> Result<()> {
    match req.cipher.family() {
        Family::Kalyna => Ok(()),
        Family::Ublock if ublock_too => Ok(()),
        _ => Err(Error::Param(format!(
            "{} is a DSTU 7624 mode: it runs on Kalyna{}, not on {}",
            req.mode,
            if ublock_too { " and uBlock" } else { "" },
            req.cipher
        ))),
    }
}

/// Fails if a parameter the mode does not take was given. `takes` names the
/// ones it does take, as in the CLI (`"iv"`, `"aad"`, `"s"`, `"tag-bits"`,
/// `"nb"`, `"padding"`).
pub(crate) fn only(req: &Request<'_>, takes: &[&str]) -> Result<()> {
    let p = &req.params;
    let given = [
        ("iv", p.iv.is_some()),
        ("aad", !p.aad.is_empty()),
        ("padding", p.padding != Padding::None),
        ("s", p.s.is_some()),
        ("m", p.m.is_some()),
        ("mac-bits", p.mac_bits.is_some()),
        ("tag-bits", p.tag_bits.is_some()),
        ("section-bytes", p.section_bytes.is_some()),
        ("key-section-bytes", p.key_section_bytes.is_some()),
        ("nb", p.nb.is_some()),
        ("key-meshing", p.key_meshing),
        ("data-unit", p.data_unit.is_some()),
        ("unit", p.unit.is_some()),
    ];
    for (name, present) in given {
        if present && !takes.contains(&name) {
            let hint = if takes.is_empty() {
                "no parameters".to_string()
            } else {
                takes.iter().map(|t| format!("--{t}")).collect::<Vec<_>>().join(", ")
            };
            return Err(Error::Param(format!("{} takes no --{name} (it takes {hint})", who(req))));
        }
    }
    Ok(())
}

/// The IV, which must be exactly one block.
pub(crate) fn iv_block<'r>(req: &'r Request<'_>, n: usize) -> Result<&'r [u8]> {
    let expected = format!("one block: {n} bytes, {} hex digits", 2 * n);
    let iv = req.iv(&expected)?;
    if iv.len() != n {
        return Err(Error::Param(format!("{} needs --iv of {expected}, got {}", who(req), Bytes(iv.len() as u64))));
    }
    Ok(iv)
}

/// The preamble of the modes keyed by one IV block: the family check, the
/// parameters the mode `takes`, the keyed cipher and `--iv` (one block).
pub(crate) fn keyed_with_iv<'r>(
    req: &'r Request<'_>,
    ublock_too: bool,
    takes: &[&str],
) -> Result<(Cipher, &'r [u8])> {
    check_family(req, ublock_too)?;
    only(req, takes)?;
    let cipher = req.keyed()?;
    let iv = iv_block(req, cipher.block_bytes())?;
    Ok((cipher, iv))
}

/// `encryptor` and `decryptor` of a one-direction streaming type built by
/// its private `new(req, encrypt)`; `$takes` ends both doc lines. With
/// `finish`, also the one-shot `crypt(req, data, encrypt)` over `finish`.
macro_rules! directions {
    ($ty:ident, $mode:literal, $takes:literal, finish) => {
        directions!($ty, $mode, $takes);

        /// One shot: the whole message through `finish`.
        pub(crate) fn crypt(req: &Request<'_>, data: &[u8], encrypt: bool) -> Result<Vec<u8>> {
            let mut out = data.to_vec();
            $ty::new(req, encrypt)?.finish(&mut out)?;
            Ok(out)
        }
    };
    ($ty:ident, $mode:literal, $takes:literal) => {
        impl $ty {
            #[doc = concat!($mode, " encryption with ", $takes, ".")]
            pub fn encryptor(req: &Request<'_>) -> Result<$ty> {
                $ty::new(req, true)
            }

            #[doc = concat!($mode, " decryption with ", $takes, ".")]
            pub fn decryptor(req: &Request<'_>) -> Result<$ty> {
                $ty::new(req, false)
            }
        }
    };
}
pub(crate) use directions;

/// `--tag-bits` (default: the whole block), checked against `allowed`
/// (bit counts, already limited to the block) with a message that lists them.
pub(crate) fn tag_bytes(req: &Request<'_>, n: usize, allowed: &[usize], what: &str) -> Result<usize> {
    let bits = req.params.tag_bits.unwrap_or(8 * n);
    if allowed.contains(&bits) {
        return Ok(bits / 8);
    }
    Err(Error::Param(format!("{} needs --tag-bits {what}, got {bits}", who(req))))
}

/// Every multiple of 8 from `lo` to `hi` bits.
pub(crate) fn bits_range(lo: usize, hi: usize) -> Vec<usize> {
    (lo..=hi).step_by(8).collect()
}


/// Encrypts one block in place (for the sequential modes).
#[inline]
pub(crate) fn encrypt_one(c: &Cipher, block: &mut [u8]) {
    c.encrypt_blocks(block).expect("one whole block");
}

/// Decrypts one block in place.
#[inline]
pub(crate) fn decrypt_one(c: &Cipher, block: &mut [u8]) {
    c.decrypt_blocks(block).expect("one whole block");
}
