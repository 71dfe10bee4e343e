//! The one-shot entry points: [`encrypt`], [`decrypt`] and [`mac`] check
//! the mode's kind and hand the [`Request`] to its family (ECB is here).

use super::request::{check_kind, Kind, Mode, Request};
use super::{dstu, gost};
use crate::{Cipher, Direction, Family, Result};

/// Encrypts (or wraps, or seals: ciphertext||tag) `data`.
pub fn encrypt(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    crypt(req, data, Direction::Encrypt)
}

/// Decrypts (or unwraps, or opens ciphertext||tag: [`Error::Authentication`](crate::Error::Authentication)
/// and no plaintext on a wrong tag) `data`.
///
/// Kuznyechik MGM, checked against RFC 9058 Appendix A; a changed bit
/// anywhere fails the whole message:
///
/// ```
/// use multiblock::modes::{self, Mode, Params, Request};
/// use multiblock::{BackendChoice, CipherId, Error};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// let key = hex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
/// let params = Params {
///     iv: Some(hex("1122334455667700ffeeddccbbaa9988")),
///     aad: hex("0202020202020202010101010101010104040404040404040303030303030303ea0505050505050505"),
///     ..Params::default()
/// };
/// let req = Request {
///     cipher: CipherId::Kuznyechik, mode: Mode::Mgm, key: &key, sbox: None,
///     backend: BackendChoice::Auto, params,
/// };
/// let mut sealed = hex("a9757b8147956e9055b8a33de89f42fc8075d2212bf9fd5bd3f7069aadc16b39\
///                       497ab15915a6ba85936b5d0ea9f6851cc60c14d4d3f883d0ab94420695c76deb\
///                       2c7552cf5d656f40c34f5c46e8bb0e29fcdb4c"); // ciphertext ‖ tag
/// let plaintext = modes::decrypt(&req, &sealed)?;
/// assert_eq!(plaintext, hex("1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a\
///                            112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011aabbcc"));
/// assert_eq!(modes::encrypt(&req, &plaintext)?, sealed);
/// sealed[0] ^= 1;
/// assert_eq!(modes::decrypt(&req, &sealed), Err(Error::Authentication));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn decrypt(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    crypt(req, data, Direction::Decrypt)
}

/// [`encrypt`] or [`decrypt`]: the mode's kind checked, then the family's
/// one-shot code.
fn crypt(req: &Request<'_>, data: &[u8], dir: Direction) -> Result<Vec<u8>> {
    let encrypt = dir == Direction::Encrypt;
    check_kind(req, &[Kind::Cipher, Kind::Aead, Kind::KeyWrap], if encrypt { "encrypt" } else { "decrypt" })?;
    match (req.mode, req.cipher.family()) {
        (Mode::Ecb, _) => ecb(req, data, encrypt),
        (_, Family::Kuznyechik | Family::Magma | Family::Gost89) => gost::crypt(req, data, dir),
        (_, Family::Kalyna | Family::Ublock) => dstu::crypt(req, data, encrypt),
    }
}

/// Computes the MAC (tag) of `data`.
///
/// The GOST R 34.13-2015 MAC of Magma with 32 bits (`mac_bits`), checked
/// against the standard's A.2.6:
///
/// ```
/// use multiblock::modes::{self, Mode, Params, Request};
/// use multiblock::{BackendChoice, CipherId};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// let key = hex("ffeeddccbbaa99887766554433221100f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
/// let req = Request {
///     cipher: CipherId::Magma, mode: Mode::Mac, key: &key, sbox: None,
///     backend: BackendChoice::Auto,
///     params: Params { mac_bits: Some(32), ..Params::default() },
/// };
/// let message = hex("92def06b3c130a59db54c704f8189d204a98fb2e67a8024c8912409b17b57e41");
/// assert_eq!(modes::mac(&req, &message)?, hex("154e7210"));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn mac(req: &Request<'_>, data: &[u8]) -> Result<Vec<u8>> {
    check_kind(req, &[Kind::Mac], "mac")?;
    match req.cipher.family() {
        Family::Kuznyechik | Family::Magma | Family::Gost89 => gost::mac(req, data),
        Family::Kalyna | Family::Ublock => dstu::mac(req, data),
    }
}

/// ECB takes `--padding` only: like every mode, it refuses the parameters it
/// does not take (an ignored `--aad` or `--tag-bits` would look as if it
/// had been used).
pub(crate) fn ecb_params(req: &Request<'_>) -> Result<()> {
    gost::params::only(req, &[gost::params::P::Padding])
}

/// One message padded as `req` asks, ECB-encrypted on the keyed `cipher`.
pub(crate) fn ecb_encrypt(req: &Request<'_>, cipher: &Cipher, data: &[u8]) -> Result<Vec<u8>> {
    let mut buf = req.params.padding.pad(data, cipher.block_bytes());
    cipher.encrypt_blocks(&mut buf)?;
    Ok(buf)
}

/// ECB over whole blocks, with the requested padding.
fn ecb(req: &Request<'_>, data: &[u8], encrypt: bool) -> Result<Vec<u8>> {
    ecb_params(req)?;
    let c = req.keyed()?;
    let n = c.block_bytes();
    if encrypt {
        ecb_encrypt(req, &c, data)
    } else {
        let mut buf = data.to_vec();
        c.decrypt_blocks(&mut buf)?;
        req.params.padding.unpad(buf, n)
    }
}
