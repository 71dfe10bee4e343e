//! Dstu7624Wrap, the key wrap of the Ukrainian CMS profile (the technical
//! specifications to RFC 5652 approved by order No. 687 of the
//! Administration of the State Service of Special Communications of
//! Ukraine, 27.10.2020), over Kalyna-256/256 (DSTU 7624:2014, 256-bit
//! block and key). For a 32-byte content-encryption key CEK, a 32-byte KEK
//! and a random 32-byte IV:
//!
//! 1. MAC = the DSTU 7624:2014 MAC (§9, "CMAC") of CEK under KEK, 256 bits;
//! 2. W = IV ‖ CFB_KEK(IV, CEK ‖ MAC), DSTU 7624:2014 CFB with s = 256 bits
//!    (96 bytes);
//! 3. W' = W with its 96 bytes in reverse order;
//! 4. the wrapped key = CFB_KEK(IV_fixed, W'), with the fixed IV below.
//!
//! Unwrapping runs the steps backwards and compares the MAC in constant
//! time. The steps, sizes and fixed IV are those of UAPKI's
//! `key_wrap_dstu7624`, whose self-test vector the tests check.

use super::{check_len, random_iv};
use crate::error::Result;
use crate::modes::{self, Mode, Params, Request};
use crate::{BackendChoice, CipherId};
use zeroize::Zeroizing;

/// The KEK's length: 32 bytes (Kalyna-256/256).
///
/// ```
/// use multiblock::wrap::{dstu7624_wrap, DSTU7624_KEK_BYTES};
/// assert!(dstu7624_wrap(&[0; DSTU7624_KEK_BYTES], &[0; 32]).is_ok());
/// assert!(dstu7624_wrap(&[0; 16], &[0; 32]).is_err());
/// ```
pub const DSTU7624_KEK_BYTES: usize = 32;
/// The wrapped key's length: 32 bytes.
///
/// ```
/// use multiblock::wrap::{dstu7624_unwrap, dstu7624_wrap, DSTU7624_KEY_BYTES};
/// let wrapped = dstu7624_wrap(&[1; 32], &[2; DSTU7624_KEY_BYTES])?;
/// assert_eq!(dstu7624_unwrap(&[1; 32], &wrapped)?.len(), DSTU7624_KEY_BYTES);
/// # Ok::<(), multiblock::Error>(())
/// ```
pub const DSTU7624_KEY_BYTES: usize = 32;
/// The random IV's length: one 32-byte block.
///
/// ```
/// use multiblock::wrap::{dstu7624_wrap_with_iv, DSTU7624_IV_BYTES};
/// assert!(dstu7624_wrap_with_iv(&[1; 32], &[2; 32], &[3; DSTU7624_IV_BYTES]).is_ok());
/// ```
pub const DSTU7624_IV_BYTES: usize = 32;
/// The wrapped form's length: IV, key and MAC, 96 bytes.
///
/// ```
/// use multiblock::wrap::{dstu7624_wrap, DSTU7624_WRAPPED_BYTES};
/// assert_eq!(dstu7624_wrap(&[1; 32], &[2; 32])?.len(), DSTU7624_WRAPPED_BYTES);
/// # Ok::<(), multiblock::Error>(())
/// ```
pub const DSTU7624_WRAPPED_BYTES: usize = DSTU7624_IV_BYTES + DSTU7624_KEY_BYTES + MAC_BYTES;

const MAC_BYTES: usize = 32;
pub(super) const NAME: &str = "dstu7624-wrap";

/// The IV of the second encryption (step 4), fixed by the profile.
pub(super) const FIXED_IV: [u8; 32] = [
    0x69, 0x73, 0x27, 0x1d, 0x6e, 0x61, 0x1d, 0x06, 0x61, 0x67, 0x15, 0x04, 0x6c, 0x65, 0x50, 0x4c,
    0x20, 0x20, 0x00, 0x4f, 0x6d, 0x68, 0x01, 0x1f, 0x65, 0x61, 0x0c, 0x0c, 0x73, 0x73, 0x47, 0x14,
];

fn request<'a>(mode: Mode, kek: &'a [u8], params: Params) -> Request<'a> {
    Request { cipher: CipherId::Kalyna256_256, mode, key: kek, sbox: None, backend: BackendChoice::Auto, params }
}

fn cfb<'a>(kek: &'a [u8], iv: &[u8]) -> Request<'a> {
    request(Mode::Cfb, kek, Params { iv: Some(iv.to_vec()), ..Params::default() })
}

fn mac(kek: &[u8], key: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let params = Params { tag_bits: Some(8 * MAC_BYTES), ..Params::default() };
    Ok(Zeroizing::new(modes::mac(&request(Mode::Cmac, kek, params), key)?))
}

/// Wraps the 32-byte `key` under the 32-byte `kek` with a random IV drawn
/// from the operating system. The result is 96 bytes and differs on every
/// call.
///
/// ```
/// use multiblock::wrap::{dstu7624_unwrap, dstu7624_wrap};
/// let (kek, key) = ([0x11u8; 32], [0x22u8; 32]);
/// let a = dstu7624_wrap(&kek, &key)?;
/// let b = dstu7624_wrap(&kek, &key)?;
/// assert_ne!(a, b); // a fresh IV each time
/// assert_eq!(dstu7624_unwrap(&kek, &a)?[..], key[..]);
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn dstu7624_wrap(kek: &[u8], key: &[u8]) -> Result<Vec<u8>> {
    let iv = random_iv::<DSTU7624_IV_BYTES>(NAME)?;
    dstu7624_wrap_with_iv(kek, key, &iv)
}

/// Wraps the 32-byte `key` under the 32-byte `kek` with the given 32-byte
/// `iv` (which must be random and used once: [`dstu7624_wrap`] draws it).
///
/// ```
/// use multiblock::wrap::dstu7624_wrap_with_iv;
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // The self-test vector of UAPKI's Dstu7624Wrap.
/// let kek = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
/// let iv = hex("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f");
/// let key = hex("1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100");
/// assert_eq!(dstu7624_wrap_with_iv(&kek, &key, &iv)?, hex(
///     "7b74fcbf080464f81bf8eaf10621b624a4f053446128396cc2f529bd3e2078da\
///      d6bc0b4c5aaf47711d1be5cdc0d4849ec50dc4484f7cf393bc7f5f3e8a8728ca\
///      13ddaee30c297d6c82c8751e533a3e7591e7d400b89ae64237f692ec892333cd"));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn dstu7624_wrap_with_iv(kek: &[u8], key: &[u8], iv: &[u8]) -> Result<Vec<u8>> {
    check_len(NAME, "a KEK", DSTU7624_KEK_BYTES, kek.len())?;
    check_len(NAME, "a key to wrap", DSTU7624_KEY_BYTES, key.len())?;
    check_len(NAME, "an IV", DSTU7624_IV_BYTES, iv.len())?;
    let mac = mac(kek, key)?;
    let mut plain = Zeroizing::new(Vec::with_capacity(DSTU7624_KEY_BYTES + MAC_BYTES));
    plain.extend_from_slice(key);
    plain.extend_from_slice(&mac);
    let mut inner = Zeroizing::new(Vec::with_capacity(DSTU7624_WRAPPED_BYTES));
    inner.extend_from_slice(iv);
    inner.extend_from_slice(&Zeroizing::new(modes::encrypt(&cfb(kek, iv), &plain)?));
    inner.reverse();
    modes::encrypt(&cfb(kek, &FIXED_IV), &inner)
}

/// The key wrapped in `wrapped` (96 bytes) under the 32-byte `kek`;
/// [`Error::Authentication`](crate::Error::Authentication) if its MAC does not match (no key is released).
///
/// ```
/// use multiblock::wrap::{dstu7624_unwrap, dstu7624_wrap};
/// let (kek, key) = ([0x11u8; 32], [0x22u8; 32]);
/// let mut wrapped = dstu7624_wrap(&kek, &key)?;
/// assert_eq!(dstu7624_unwrap(&kek, &wrapped)?[..], key[..]);
/// wrapped[95] ^= 0x80;
/// assert_eq!(dstu7624_unwrap(&kek, &wrapped), Err(multiblock::Error::Authentication));
/// assert!(dstu7624_unwrap(&kek, &wrapped[..95]).is_err()); // wrong length
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn dstu7624_unwrap(kek: &[u8], wrapped: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    check_len(NAME, "a KEK", DSTU7624_KEK_BYTES, kek.len())?;
    check_len(NAME, "a wrapped key", DSTU7624_WRAPPED_BYTES, wrapped.len())?;
    let mut inner = Zeroizing::new(modes::decrypt(&cfb(kek, &FIXED_IV), wrapped)?);
    inner.reverse();
    let (iv, sealed) = inner.split_at(DSTU7624_IV_BYTES);
    let plain = Zeroizing::new(modes::decrypt(&cfb(kek, iv), sealed)?);
    let (key, received) = plain.split_at(DSTU7624_KEY_BYTES);
    let expected = mac(kek, key)?;
    modes::tag::verify(&expected, received)?;
    Ok(Zeroizing::new(key.to_vec()))
}
