//! The vocabulary of the modes: which [`Mode`]s a cipher has and their
//! [`Kind`], the [`Params`], and the [`Request`] that names cipher, key and
//! mode for every entry point.

use super::padding::Padding;
use crate::error::Bytes;
use crate::{BackendChoice, Cipher, CipherId, Error, Family, Result};

/// Every mode name of the CLI contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Electronic codebook: every block on its own (GOST R 34.13-2015, DSTU 7624:2014), with `--padding`.
    Ecb,
    /// Counter mode: GOST R 34.13-2015 CTR (s-bit segments) or DSTU 7624:2014 CTR (little-endian counter from E_K(IV)).
    Ctr,
    /// Output feedback (GOST R 34.13-2015 with an m-bit register, DSTU 7624:2014).
    Ofb,
    /// Cipher block chaining (GOST R 34.13-2015 with m = z·n, DSTU 7624:2014, and plain CBC for uBlock).
    Cbc,
    /// Cipher feedback: GOST R 34.13-2015, GOST 28147-89 "гаммирование с обратной связью", DSTU 7624:2014 (s-bit pieces).
    Cfb,
    /// GOST MAC: GOST R 34.13-2015 MAC (OMAC1-like) for Kuznyechik/Magma, the 28147-89 imitovstavka for GOST 28147-89.
    Mac,
    /// CTR-ACPKM (RFC 8645): GOST CTR with the key changed every `--section-bytes`.
    CtrAcpkm,
    /// OMAC-ACPKM (RFC 8645): the GOST MAC with ACPKM-Master key sections.
    OmacAcpkm,
    /// Multilinear Galois Mode AEAD (RFC 9058) for Kuznyechik and Magma.
    Mgm,
    /// GOST 28147-89 counter mode ("гаммирование", the C1/C2 constants).
    Cnt,
    /// DSTU 7624:2014 CMAC for Kalyna.
    Cmac,
    /// DSTU 7624:2014 GCM AEAD for Kalyna (GF(2^n) of the block size).
    Gcm,
    /// DSTU 7624:2014 GMAC: GCM's authentication alone.
    Gmac,
    /// DSTU 7624:2014 CCM AEAD for Kalyna (`--nb` length-field bytes).
    Ccm,
    /// XTS with ciphertext stealing: DSTU 7624:2014 §14 for Kalyna (`--iv` is
    /// the tweak); IEEE Std 1619-2007 for Kuznyechik (key K1 ‖ K2, `--data-unit`
    /// and `--unit` as VeraCrypt numbers its 512-byte units, or `--iv`).
    Xts,
    /// DSTU 7624:2014 key wrap for Kalyna.
    Kw,
}

/// What a mode does with its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// encrypt / decrypt, same length (up to padding).
    Cipher,
    /// mac: message in, tag out.
    Mac,
    /// encrypt writes ciphertext||tag; decrypt checks the tag first.
    Aead,
    /// encrypt wraps, decrypt unwraps and checks integrity.
    KeyWrap,
}

impl Mode {
    /// Every mode, in the order the CLI lists them.
    ///
    /// Which modes a cipher has, and what each does:
    ///
    /// ```
    /// use multiblock::modes::{Kind, Mode};
    /// use multiblock::CipherId;
    /// let kuz = Mode::for_cipher(CipherId::Kuznyechik);
    /// assert!(kuz.contains(&Mode::Mgm) && !kuz.contains(&Mode::Gcm));
    /// assert_eq!(Mode::parse(CipherId::Kalyna128_128, "gcm")?.kind(), Kind::Aead);
    /// assert!(Mode::parse(CipherId::Magma, "xts").is_err()); // IEEE 1619 needs a 128-bit block
    /// for id in CipherId::ALL {
    ///     for mode in Mode::for_cipher(id) {
    ///         assert_eq!(Mode::parse(id, mode.name())?, mode);
    ///     }
    /// }
    /// # Ok::<(), multiblock::Error>(())
    /// ```
    pub const ALL: [Mode; 16] = [
        Mode::Ecb,
        Mode::Ctr,
        Mode::Ofb,
        Mode::Cbc,
        Mode::Cfb,
        Mode::Mac,
        Mode::CtrAcpkm,
        Mode::OmacAcpkm,
        Mode::Mgm,
        Mode::Cnt,
        Mode::Cmac,
        Mode::Gcm,
        Mode::Gmac,
        Mode::Ccm,
        Mode::Xts,
        Mode::Kw,
    ];

    /// The mode's name in the CLI contract (`"ctr-acpkm"`).
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Ecb => "ecb",
            Mode::Ctr => "ctr",
            Mode::Ofb => "ofb",
            Mode::Cbc => "cbc",
            Mode::Cfb => "cfb",
            Mode::Mac => "mac",
            Mode::CtrAcpkm => "ctr-acpkm",
            Mode::OmacAcpkm => "omac-acpkm",
            Mode::Mgm => "mgm",
            Mode::Cnt => "cnt",
            Mode::Cmac => "cmac",
            Mode::Gcm => "gcm",
            Mode::Gmac => "gmac",
            Mode::Ccm => "ccm",
            Mode::Xts => "xts",
            Mode::Kw => "kw",
        }
    }

    /// What the mode does with its input (cipher, MAC, AEAD, key wrap).
    pub const fn kind(self) -> Kind {
        match self {
            Mode::Mac | Mode::OmacAcpkm | Mode::Cmac | Mode::Gmac => Kind::Mac,
            Mode::Mgm | Mode::Gcm | Mode::Ccm => Kind::Aead,
            Mode::Kw => Kind::KeyWrap,
            _ => Kind::Cipher,
        }
    }

    /// The modes a cipher defines that this library implements, ECB first.
    pub fn for_cipher(id: CipherId) -> Vec<Mode> {
        std::iter::once(Mode::Ecb).chain(family_modes(id).iter().copied()).collect()
    }

    /// The key length `self` takes on `id`: the cipher's, except IEEE 1619
    /// XTS on Kuznyechik, whose key is two cipher keys (K1 ‖ K2).
    ///
    /// ```
    /// use multiblock::modes::Mode;
    /// use multiblock::CipherId;
    /// assert_eq!(Mode::Xts.key_bytes(CipherId::Kuznyechik), 64);
    /// assert_eq!(Mode::Xts.key_bytes(CipherId::Kalyna128_256), 32);
    /// assert_eq!(Mode::Ctr.key_bytes(CipherId::Kuznyechik), 32);
    /// ```
    pub fn key_bytes(self, id: CipherId) -> usize {
        if self == Mode::Xts && id.family() == Family::Kuznyechik {
            2 * id.key_bytes()
        } else {
            id.key_bytes()
        }
    }

    /// Parses `name` as a mode of `id`.
    pub fn parse(id: CipherId, name: &str) -> Result<Mode> {
        if name == Mode::Xts.name() && matches!(id.family(), Family::Magma | Family::Gost89) {
            return Err(Error::Param(format!(
                "{id} has no xts: IEEE 1619 XTS is defined for 128-bit blocks, and {id}'s block is {} bits",
                8 * id.block_bytes()
            )));
        }
        let modes = Mode::for_cipher(id);
        modes.iter().copied().find(|m| m.name() == name).ok_or_else(|| Error::UnknownMode {
            cipher: id.name(),
            mode: name.to_string(),
            known: modes.iter().map(|m| m.name()).collect(),
        })
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Mode parameters, named as in the vectors' `params` and the CLI flags.
/// `None` means the standard's default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params {
    /// IV, nonce, initial register (GOST: m bits) or XTS tweak.
    pub iv: Option<Vec<u8>>,
    /// Associated data (AEAD modes).
    pub aad: Vec<u8>,
    /// Padding of ECB and CBC (default none: whole blocks).
    pub padding: Padding,
    /// GOST R 34.13 / DSTU CFB: bits of output per step.
    pub s: Option<usize>,
    /// GOST R 34.13: register bits (also given by the IV length).
    pub m: Option<usize>,
    /// MAC length in bits (GOST MAC, OMAC-ACPKM, GOST 28147 MAC).
    pub mac_bits: Option<usize>,
    /// Tag length in bits (MGM, DSTU CMAC/GCM/GMAC/CCM).
    pub tag_bits: Option<usize>,
    /// ACPKM section size N in bytes.
    pub section_bytes: Option<usize>,
    /// OMAC-ACPKM key section size T* in bytes.
    pub key_section_bytes: Option<usize>,
    /// DSTU CCM length-field size N_B in bytes.
    pub nb: Option<usize>,
    /// GOST 28147-89 CryptoPro key meshing (RFC 4357 §2.3) in CNT and CFB.
    pub key_meshing: bool,
    /// IEEE 1619 XTS (Kuznyechik): bytes per data unit, a multiple of 16
    /// (VeraCrypt: 512). Unset: the whole message is one unit, `iv` its tweak.
    pub data_unit: Option<usize>,
    /// IEEE 1619 XTS: the number of the first data unit (default 0); unit
    /// i's tweak is E_K2(i as 16 little-endian bytes).
    pub unit: Option<u128>,
}

/// Everything a one-shot call needs.
pub struct Request<'a> {
    /// The cipher and its key size.
    pub cipher: CipherId,
    /// The mode of operation.
    pub mode: Mode,
    /// The key, `mode.key_bytes(cipher)` long (`cipher.key_bytes()` but for Kuznyechik XTS).
    pub key: &'a [u8],
    /// GOST 28147-89 / Magma S-box set by name (`None`: the cipher's default).
    pub sbox: Option<&'a str>,
    /// Which kernel runs the cipher (`Auto`: the fastest the CPU has).
    pub backend: BackendChoice<'a>,
    /// The mode's parameters.
    pub params: Params,
}

impl Request<'_> {
    /// Checks, without keying, that the cipher has the mode, the key's
    /// length and the S-box (the mode's own parameters are checked where
    /// the mode is made, before its one key setup).
    pub fn check(&self) -> Result<()> {
        Mode::parse(self.cipher, self.mode.name())?;
        let (whole, one) = (self.mode.key_bytes(self.cipher), self.cipher.key_bytes());
        if whole != one {
            if self.key.len() != whole {
                return Err(two_keys_length(self));
            }
            return crate::registry::check_key(self.cipher, &self.key[..one], self.sbox).map(drop);
        }
        crate::registry::check_key(self.cipher, self.key, self.sbox).map(drop)
    }

    /// The cipher keyed with the request's key.
    pub fn keyed(&self) -> Result<Cipher> {
        self.rekeyed(self.key)
    }

    /// The same cipher, S-box and backend under another key (ACPKM, key meshing).
    pub fn rekeyed(&self, key: &[u8]) -> Result<Cipher> {
        Cipher::with_id(self.cipher, key, self.sbox, self.backend)
    }

    /// Fails with a clear message where `mode` takes no IV but one was given.
    pub fn no_iv(&self) -> Result<()> {
        match self.params.iv {
            Some(_) => Err(Error::Param(format!("{} {} takes no --iv", self.cipher, self.mode))),
            None => Ok(()),
        }
    }

    /// The IV, or an error naming the expected length.
    pub fn iv(&self, expected: &str) -> Result<&[u8]> {
        self.params.iv.as_deref().ok_or_else(|| {
            Error::Param(format!("{} {} needs --iv ({expected})", self.cipher, self.mode))
        })
    }
}

/// The error for a key that is not two cipher keys K1 ‖ K2 (IEEE 1619 XTS).
pub(crate) fn two_keys_length(req: &Request<'_>) -> Error {
    let half = req.cipher.key_bytes();
    Error::Param(format!(
        "{} {} needs a key of {} bytes ({} hex digits: K1 then K2, two {half}-byte keys), got {}",
        req.cipher,
        req.mode,
        2 * half,
        4 * half,
        Bytes(req.key.len() as u64)
    ))
}

const GOST_R_34_13: &[Mode] =
    &[Mode::Ctr, Mode::Ofb, Mode::Cbc, Mode::Cfb, Mode::Mac, Mode::CtrAcpkm, Mode::OmacAcpkm, Mode::Mgm];
/// Kuznyechik's: GOST R 34.13-2015's, and IEEE 1619 XTS on its 128-bit block.
const KUZNYECHIK: &[Mode] =
    &[Mode::Ctr, Mode::Ofb, Mode::Cbc, Mode::Cfb, Mode::Mac, Mode::CtrAcpkm, Mode::OmacAcpkm, Mode::Mgm, Mode::Xts];
const GOST_28147: &[Mode] = &[Mode::Cnt, Mode::Cfb, Mode::Mac];
const KALYNA: &[Mode] =
    &[Mode::Ctr, Mode::Cbc, Mode::Cfb, Mode::Ofb, Mode::Cmac, Mode::Gcm, Mode::Gmac, Mode::Ccm, Mode::Xts, Mode::Kw];
const UBLOCK: &[Mode] = &[Mode::Cbc];

/// The modes of a cipher's family besides ECB, as the family's standard lists them.
fn family_modes(id: CipherId) -> &'static [Mode] {
    match id.family() {
        Family::Kuznyechik => KUZNYECHIK,
        Family::Magma => GOST_R_34_13,
        Family::Gost89 => GOST_28147,
        Family::Kalyna => KALYNA,
        Family::Ublock => UBLOCK,
    }
}

/// Fails unless `req.mode` is a mode of the cipher and of one of `kinds`
/// (`verb` names the call in the message).
pub(crate) fn check_kind(req: &Request<'_>, kinds: &[Kind], verb: &str) -> Result<()> {
    // Validates the mode for the cipher first (a clear "unknown mode").
    Mode::parse(req.cipher, req.mode.name())?;
    if kinds.contains(&req.mode.kind()) {
        return Ok(());
    }
    let hint = match req.mode.kind() {
        Kind::Mac => "use `mac`",
        _ => "use `encrypt` or `decrypt`",
    };
    Err(Error::Param(format!("{} is not a mode to {verb} with ({hint})", req.mode)))
}
