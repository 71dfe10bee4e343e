//! Checking a [`Request`]'s parameters against what a GOST mode takes, with
//! one-line errors that name the parameter (as its CLI flag) and the
//! expected value.

use crate::error::{Bytes, Error, Result};
use crate::modes::{Mode, Padding, Request};
use crate::Family;

/// The parameters a mode may take (all others must be left unset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum P {
    Iv,
    Aad,
    Padding,
    S,
    M,
    MacBits,
    TagBits,
    Section,
    KeySection,
    KeyMeshing,
    DataUnit,
    Unit,
}

/// Fails if `req` sets a parameter that is not in `allowed`.
pub(crate) fn only(req: &Request<'_>, allowed: &[P]) -> Result<()> {
    let p = &req.params;
    let set = [
        (P::Iv, "--iv", p.iv.is_some()),
        (P::Aad, "--aad", !p.aad.is_empty()),
        (P::Padding, "--padding", p.padding != Padding::None),
        (P::S, "--s", p.s.is_some()),
        (P::M, "--m", p.m.is_some()),
        (P::MacBits, "--mac-bits", p.mac_bits.is_some()),
        (P::TagBits, "--tag-bits", p.tag_bits.is_some()),
        (P::Section, "--section-bytes", p.section_bytes.is_some()),
        (P::KeySection, "--key-section-bytes", p.key_section_bytes.is_some()),
        (P::KeyMeshing, "--key-meshing", p.key_meshing),
        (P::DataUnit, "--data-unit", p.data_unit.is_some()),
        (P::Unit, "--unit", p.unit.is_some()),
    ];
    for (what, flag, is_set) in set {
        if is_set && !allowed.contains(&what) {
            return Err(Error::Param(format!("{} {} takes no {flag}", req.cipher, req.mode)));
        }
    }
    if p.nb.is_some() {
        return Err(Error::Param(format!("{} {} takes no --nb", req.cipher, req.mode)));
    }
    Ok(())
}

/// A bit length parameter (`--flag`), `default` when unset, that must be a
/// multiple of 8 in `min..=max`; returned in bytes.
pub(crate) fn bits(
    req: &Request<'_>,
    flag: &str,
    value: Option<usize>,
    default: usize,
    min: usize,
    max: usize,
) -> Result<usize> {
    let v = value.unwrap_or(default);
    if !v.is_multiple_of(8) || v < min || v > max {
        return Err(Error::Param(format!(
            "{} {}: {flag} must be a multiple of 8 from {min} to {max} bits, got {v}",
            req.cipher, req.mode
        )));
    }
    Ok(v / 8)
}

/// The IV, which must be exactly `len` bytes (`what` says what it is).
pub(crate) fn iv_exact<'r>(req: &'r Request<'_>, len: usize, what: &str) -> Result<&'r [u8]> {
    let iv = req.iv(&format!("{len} bytes, {what}"))?;
    if iv.len() != len {
        return Err(Error::Param(format!(
            "{} {} needs an --iv of {len} bytes ({} hex digits, {what}), got {}",
            req.cipher,
            req.mode,
            2 * len,
            Bytes(iv.len() as u64)
        )));
    }
    Ok(iv)
}

/// The GOST R 34.13 register R_1 = IV of m bits: m comes from the IV's
/// length and must agree with `--m` if given. `whole_blocks`: m = z·n
/// (OFB, CBC); otherwise m ≥ n (CFB).
pub(crate) fn register<'r>(req: &'r Request<'_>, n: usize, whole_blocks: bool) -> Result<&'r [u8]> {
    let rule = if whole_blocks {
        format!("m = z*n bits: a multiple of {n} bytes")
    } else {
        format!("m >= n bits: at least {n} bytes")
    };
    let iv = req.iv(&rule)?;
    let ok = iv.len() >= n && (!whole_blocks || iv.len() % n == 0);
    if !ok {
        return Err(Error::Param(format!(
            "{} {} needs an --iv of {rule} (the m-bit register), got {}",
            req.cipher,
            req.mode,
            Bytes(iv.len() as u64)
        )));
    }
    if let Some(m) = req.params.m {
        if m != 8 * iv.len() {
            return Err(Error::Param(format!(
                "{} {}: --m {m} disagrees with the --iv of {} bytes (m = {} bits)",
                req.cipher,
                req.mode,
                iv.len(),
                8 * iv.len()
            )));
        }
    }
    Ok(iv)
}

/// A section size in bytes (`--flag`), `default` when unset: a positive
/// multiple of the block size `n`.
pub(crate) fn section(req: &Request<'_>, flag: &str, value: Option<usize>, default: usize, n: usize) -> Result<usize> {
    let v = value.unwrap_or(default);
    if v == 0 || !v.is_multiple_of(n) {
        return Err(Error::Param(format!(
            "{} {}: {flag} must be a positive multiple of the {n}-byte block, got {v}",
            req.cipher, req.mode
        )));
    }
    Ok(v)
}

/// Fails unless `req` is for one of `modes` on a cipher of one of `families`
/// (the streaming types check what they are given).
pub(crate) fn expect(req: &Request<'_>, ty: &str, modes: &[Mode], families: &[Family]) -> Result<()> {
    if modes.contains(&req.mode) && families.contains(&req.cipher.family()) {
        return Ok(());
    }
    Err(Error::Param(format!(
        "{ty} runs {} for {}, not {} {}",
        modes.iter().map(|m| m.name()).collect::<Vec<_>>().join("/"),
        families.iter().map(|f| format!("{f:?}").to_lowercase()).collect::<Vec<_>>().join("/"),
        req.cipher,
        req.mode
    )))
}
