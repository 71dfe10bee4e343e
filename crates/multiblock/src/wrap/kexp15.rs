//! KExp15 and KImp15, R 1323565.1.017-2018 §5 (TC26, "the key export and
//! import algorithms"), for Kuznyechik (n = 128) and Magma (n = 64):
//!
//! KExp15(K, K_enc, K_mac, IV) = CTR_{K_enc}(IV, K ‖ OMAC_{K_mac}(IV ‖ K)),
//!
//! with the CTR mode and the MAC (OMAC) of GOST R 34.13-2015 §4.2 and §5.6,
//! an IV of n/2 bits, and the whole n-bit MAC. KImp15 decrypts, recomputes
//! the MAC and compares it in constant time before it releases the key.

use super::check_len;
use crate::error::{Bytes, Error, Result};
use crate::modes::{self, Mode, Params, Request};
use crate::{BackendChoice, CipherId};
use zeroize::Zeroizing;

/// The length of each of the two KExp15 keys (K_enc and K_mac): 32 bytes.
///
/// ```
/// use multiblock::wrap::{kexp15, Kexp15Cipher, KEXP15_KEK_BYTES};
/// let kek = [9u8; KEXP15_KEK_BYTES];
/// assert_eq!(kexp15(Kexp15Cipher::Magma, &[1; 32], &kek, &kek, &[0; 4])?.len(), 40);
/// # Ok::<(), multiblock::Error>(())
/// ```
pub const KEXP15_KEK_BYTES: usize = 32;

/// The cipher under KExp15/KImp15.
///
/// ```
/// use multiblock::wrap::Kexp15Cipher;
/// assert_eq!(Kexp15Cipher::Kuznyechik.iv_bytes(), 8);
/// assert_eq!(Kexp15Cipher::Magma.mac_bytes(), 8);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kexp15Cipher {
    /// Kuznyechik (GOST R 34.12-2015, 128-bit block): an 8-byte IV, a 16-byte MAC.
    Kuznyechik,
    /// Magma (GOST R 34.12-2015, 64-bit block): a 4-byte IV, an 8-byte MAC.
    Magma,
}

impl Kexp15Cipher {
    /// The block cipher.
    ///
    /// ```
    /// use multiblock::{wrap::Kexp15Cipher, CipherId};
    /// assert_eq!(Kexp15Cipher::Magma.cipher_id(), CipherId::Magma);
    /// ```
    pub const fn cipher_id(self) -> CipherId {
        match self {
            Kexp15Cipher::Kuznyechik => CipherId::Kuznyechik,
            Kexp15Cipher::Magma => CipherId::Magma,
        }
    }

    /// The IV's length: half a block (8 bytes for Kuznyechik, 4 for Magma).
    ///
    /// ```
    /// use multiblock::wrap::Kexp15Cipher;
    /// assert_eq!(Kexp15Cipher::Magma.iv_bytes(), 4);
    /// ```
    pub const fn iv_bytes(self) -> usize {
        self.mac_bytes() / 2
    }

    /// The MAC's length, which the export adds to the key: one block.
    ///
    /// ```
    /// use multiblock::wrap::Kexp15Cipher;
    /// assert_eq!(Kexp15Cipher::Kuznyechik.mac_bytes(), 16);
    /// ```
    pub const fn mac_bytes(self) -> usize {
        self.cipher_id().block_bytes()
    }

    /// The format's name on the command line and in error messages.
    ///
    /// ```
    /// use multiblock::wrap::Kexp15Cipher;
    /// assert_eq!(Kexp15Cipher::Magma.name(), "magma-kexp15");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Kexp15Cipher::Kuznyechik => "kuznyechik-kexp15",
            Kexp15Cipher::Magma => "magma-kexp15",
        }
    }

    /// A request for `mode` under `key` with `params`.
    fn request(self, mode: Mode, key: &[u8], params: Params) -> Request<'_> {
        Request { cipher: self.cipher_id(), mode, key, sbox: None, backend: BackendChoice::Auto, params }
    }

    /// OMAC_{K_mac}(IV ‖ K), the whole block.
    fn omac(self, kek_mac: &[u8], iv: &[u8], key: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        let mut msg = Zeroizing::new(Vec::with_capacity(iv.len() + key.len()));
        msg.extend_from_slice(iv);
        msg.extend_from_slice(key);
        let params = Params { mac_bits: Some(8 * self.mac_bytes()), ..Params::default() };
        Ok(Zeroizing::new(modes::mac(&self.request(Mode::Mac, kek_mac, params), &msg)?))
    }

    /// The CTR request under K_enc with the IV.
    fn ctr<'a>(self, kek_enc: &'a [u8], iv: &[u8]) -> Request<'a> {
        self.request(Mode::Ctr, kek_enc, Params { iv: Some(iv.to_vec()), ..Params::default() })
    }

    /// Checks both KEKs and the IV.
    fn check(self, kek_enc: &[u8], kek_mac: &[u8], iv: &[u8]) -> Result<()> {
        check_len(self.name(), "an encryption KEK (K_enc)", KEXP15_KEK_BYTES, kek_enc.len())?;
        check_len(self.name(), "a MAC KEK (K_mac)", KEXP15_KEK_BYTES, kek_mac.len())?;
        check_len(self.name(), "an IV", self.iv_bytes(), iv.len())
    }
}

/// KExp15: exports `key` (any non-empty length) under the encryption KEK
/// `kek_enc` and the MAC KEK `kek_mac` (32 bytes each) with `iv` (half a
/// block). The export is the key's length plus one block.
///
/// ```
/// use multiblock::wrap::{kexp15, Kexp15Cipher};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // R 1323565.1.017-2018 Appendix B.2: the Kuznyechik example.
/// let key = hex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
/// let kek_mac = hex("08090a0b0c0d0e0f0001020304050607101112131415161718191a1b1c1d1e1f");
/// let kek_enc = hex("202122232425262728292a2b2c2d2e2f38393a3b3c3d3e3f3031323334353637");
/// let blob = kexp15(Kexp15Cipher::Kuznyechik, &key, &kek_enc, &kek_mac, &hex("0909472dd9f26be8"))?;
/// assert_eq!(blob, hex("e36184e84e8d736ff36cc2e5ae065dc656b23c20f549b02fdff88e1f3f30d8c2\
///                       9a53f3ca554dbad80de152b9a4625b32"));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn kexp15(cipher: Kexp15Cipher, key: &[u8], kek_enc: &[u8], kek_mac: &[u8], iv: &[u8]) -> Result<Vec<u8>> {
    cipher.check(kek_enc, kek_mac, iv)?;
    if key.is_empty() {
        return Err(Error::Param(format!("{} needs a key to export of at least 1 byte, got 0 bytes", cipher.name())));
    }
    let mac = cipher.omac(kek_mac, iv, key)?;
    let mut plain = Zeroizing::new(Vec::with_capacity(key.len() + mac.len()));
    plain.extend_from_slice(key);
    plain.extend_from_slice(&mac);
    modes::encrypt(&cipher.ctr(kek_enc, iv), &plain)
}

/// KImp15: the key in `blob`, an export by [`kexp15`] under the same KEKs
/// and IV; [`Error::Authentication`] if its MAC does not match (no key is
/// released), a parameter error if it is not longer than one block.
///
/// ```
/// use multiblock::wrap::{kexp15, kimp15, Kexp15Cipher};
/// let (enc, mac, iv) = ([1u8; 32], [2u8; 32], [3u8; 8]);
/// let mut blob = kexp15(Kexp15Cipher::Kuznyechik, b"a key of any length", &enc, &mac, &iv)?;
/// assert_eq!(&kimp15(Kexp15Cipher::Kuznyechik, &blob, &enc, &mac, &iv)?[..], b"a key of any length");
/// blob[0] ^= 1;
/// assert_eq!(kimp15(Kexp15Cipher::Kuznyechik, &blob, &enc, &mac, &iv), Err(multiblock::Error::Authentication));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn kimp15(
    cipher: Kexp15Cipher,
    blob: &[u8],
    kek_enc: &[u8],
    kek_mac: &[u8],
    iv: &[u8],
) -> Result<Zeroizing<Vec<u8>>> {
    cipher.check(kek_enc, kek_mac, iv)?;
    let n = cipher.mac_bytes();
    if blob.len() <= n {
        return Err(Error::Param(format!(
            "{} import needs the key and its {n}-byte MAC: more than {n} bytes, got {}",
            cipher.name(),
            Bytes(blob.len() as u64)
        )));
    }
    let plain = Zeroizing::new(modes::decrypt(&cipher.ctr(kek_enc, iv), blob)?);
    let (key, received) = plain.split_at(blob.len() - n);
    let expected = cipher.omac(kek_mac, iv, key)?;
    modes::tag::verify(&expected, received)?;
    Ok(Zeroizing::new(key.to_vec()))
}
