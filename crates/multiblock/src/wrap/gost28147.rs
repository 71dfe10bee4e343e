//! The GOST 28147-89 key wrap of the Ukrainian CMS profile (order No. 108
//! of the Administration of the State Service of Special Communications of
//! Ukraine, 2013), the older sibling of Dstu7624Wrap. For a 32-byte
//! content-encryption key CEK, a 32-byte KEK, an S-box set (by default
//! DSTU 4145-2002's DKE No. 1, [`SboxSet::Dstu4145`]) and a random 8-byte IV:
//!
//! 1. MAC = the GOST 28147-89 MAC (imitovstavka, §5) of CEK under KEK, 32 bits;
//! 2. W = IV ‖ CFB_KEK(IV, CEK ‖ MAC), GOST 28147-89 gamma with feedback
//!    (§4, no key meshing), 44 bytes;
//! 3. W' = W with its 44 bytes in reverse order;
//! 4. the wrapped key = CFB_KEK(IV_fixed, W'), with the fixed IV below.
//!
//! Unwrapping runs the steps backwards and compares the MAC in constant
//! time. The steps, sizes and fixed IV are those of UAPKI's
//! `key_wrap_gost28147`, whose self-test vector the tests check.

use super::{check_len, random_iv};
use crate::error::Result;
use crate::magma::SboxSet;
use crate::modes::{self, Mode, Params, Request};
use crate::{BackendChoice, CipherId};
use zeroize::Zeroizing;

/// The KEK's length: 32 bytes.
///
/// ```
/// use multiblock::wrap::{gost28147_wrap, GOST28147_KEK_BYTES};
/// use multiblock::magma::SboxSet;
/// assert!(gost28147_wrap(SboxSet::Dstu4145, &[0; GOST28147_KEK_BYTES], &[0; 32]).is_ok());
/// assert!(gost28147_wrap(SboxSet::Dstu4145, &[0; 16], &[0; 32]).is_err());
/// ```
pub const GOST28147_KEK_BYTES: usize = 32;
/// The wrapped key's length: 32 bytes.
pub const GOST28147_KEY_BYTES: usize = 32;
/// The random IV's length: one 8-byte block.
pub const GOST28147_IV_BYTES: usize = 8;
/// The wrapped form's length: IV, key and 4-byte MAC, 44 bytes.
///
/// ```
/// use multiblock::wrap::{gost28147_wrap, GOST28147_WRAPPED_BYTES};
/// use multiblock::magma::SboxSet;
/// assert_eq!(gost28147_wrap(SboxSet::Dstu4145, &[1; 32], &[2; 32])?.len(), GOST28147_WRAPPED_BYTES);
/// # Ok::<(), multiblock::Error>(())
/// ```
pub const GOST28147_WRAPPED_BYTES: usize = GOST28147_IV_BYTES + GOST28147_KEY_BYTES + MAC_BYTES;

const MAC_BYTES: usize = 4;
pub(super) const NAME: &str = "gost28147-wrap";

/// The IV of the second encryption (step 4), fixed by the profile.
pub(super) const FIXED_IV: [u8; 8] = [0x4a, 0xdd, 0xa2, 0x2c, 0x79, 0xe8, 0x21, 0x05];

fn request<'a>(sbox: SboxSet, mode: Mode, kek: &'a [u8], params: Params) -> Request<'a> {
    Request { cipher: CipherId::Gost89, mode, key: kek, sbox: Some(sbox.name()), backend: BackendChoice::Auto, params }
}

fn cfb<'a>(sbox: SboxSet, kek: &'a [u8], iv: &[u8]) -> Request<'a> {
    request(sbox, Mode::Cfb, kek, Params { iv: Some(iv.to_vec()), ..Params::default() })
}

fn mac(sbox: SboxSet, kek: &[u8], key: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let params = Params { mac_bits: Some(8 * MAC_BYTES), ..Params::default() };
    Ok(Zeroizing::new(modes::mac(&request(sbox, Mode::Mac, kek, params), key)?))
}

/// Wraps the 32-byte `key` under the 32-byte `kek` with the S-box set
/// `sbox` ([`SboxSet::Dstu4145`] in the profile) and a random IV drawn from
/// the operating system. The result is 44 bytes and differs on every call.
///
/// ```
/// use multiblock::wrap::{gost28147_unwrap, gost28147_wrap};
/// use multiblock::magma::SboxSet;
/// let (kek, key) = ([0x11u8; 32], [0x22u8; 32]);
/// let a = gost28147_wrap(SboxSet::Dstu4145, &kek, &key)?;
/// let b = gost28147_wrap(SboxSet::Dstu4145, &kek, &key)?;
/// assert_ne!(a, b); // a fresh IV each time
/// assert_eq!(gost28147_unwrap(SboxSet::Dstu4145, &kek, &a)?[..], key[..]);
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn gost28147_wrap(sbox: SboxSet, kek: &[u8], key: &[u8]) -> Result<Vec<u8>> {
    let iv = random_iv::<GOST28147_IV_BYTES>(NAME)?;
    gost28147_wrap_with_iv(sbox, kek, key, &iv)
}

/// Wraps the 32-byte `key` under the 32-byte `kek` with the given 8-byte
/// `iv` (which must be random and used once: [`gost28147_wrap`] draws it).
///
/// ```
/// use multiblock::wrap::gost28147_wrap_with_iv;
/// use multiblock::magma::SboxSet;
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // The self-test vector of UAPKI's GOST 28147-89 key wrap.
/// let kek = hex("01000000010000000100000001000000ffffffffffffffffffffffffffffffff");
/// let key = hex("01020304010203040102030401020304f1f2f3f4f5f6f7f8f1f2f3f4f5f6f7f8");
/// assert_eq!(gost28147_wrap_with_iv(SboxSet::Dstu4145, &kek, &key, &hex("f477da7aa6424a88"))?, hex(
///     "52a513f1b4172ca6b5f1b8a03ca9a4e0acb6e00e11e5e9bcdd446222eb97238d\
///      c3e4e24d2ec03e05a568ec51"));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn gost28147_wrap_with_iv(sbox: SboxSet, kek: &[u8], key: &[u8], iv: &[u8]) -> Result<Vec<u8>> {
    check_len(NAME, "a KEK", GOST28147_KEK_BYTES, kek.len())?;
    check_len(NAME, "a key to wrap", GOST28147_KEY_BYTES, key.len())?;
    check_len(NAME, "an IV", GOST28147_IV_BYTES, iv.len())?;
    let mac = mac(sbox, kek, key)?;
    let mut plain = Zeroizing::new(Vec::with_capacity(GOST28147_KEY_BYTES + MAC_BYTES));
    plain.extend_from_slice(key);
    plain.extend_from_slice(&mac);
    let mut inner = Zeroizing::new(Vec::with_capacity(GOST28147_WRAPPED_BYTES));
    inner.extend_from_slice(iv);
    inner.extend_from_slice(&Zeroizing::new(modes::encrypt(&cfb(sbox, kek, iv), &plain)?));
    inner.reverse();
    modes::encrypt(&cfb(sbox, kek, &FIXED_IV), &inner)
}

/// The key wrapped in `wrapped` (44 bytes) under the 32-byte `kek` with the
/// S-box set `sbox`; [`Error::Authentication`](crate::Error::Authentication) if its MAC does not match
/// (no key is released).
///
/// ```
/// use multiblock::wrap::{gost28147_unwrap, gost28147_wrap};
/// use multiblock::magma::SboxSet;
/// let (kek, key) = ([0x11u8; 32], [0x22u8; 32]);
/// let mut wrapped = gost28147_wrap(SboxSet::Dstu4145, &kek, &key)?;
/// wrapped[43] ^= 0x80;
/// assert_eq!(gost28147_unwrap(SboxSet::Dstu4145, &kek, &wrapped), Err(multiblock::Error::Authentication));
/// assert!(gost28147_unwrap(SboxSet::Dstu4145, &kek, &wrapped[..43]).is_err()); // wrong length
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn gost28147_unwrap(sbox: SboxSet, kek: &[u8], wrapped: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    check_len(NAME, "a KEK", GOST28147_KEK_BYTES, kek.len())?;
    check_len(NAME, "a wrapped key", GOST28147_WRAPPED_BYTES, wrapped.len())?;
    let mut inner = Zeroizing::new(modes::decrypt(&cfb(sbox, kek, &FIXED_IV), wrapped)?);
    inner.reverse();
    let (iv, sealed) = inner.split_at(GOST28147_IV_BYTES);
    let plain = Zeroizing::new(modes::decrypt(&cfb(sbox, kek, iv), sealed)?);
    let (key, received) = plain.split_at(GOST28147_KEY_BYTES);
    let expected = mac(sbox, kek, key)?;
    modes::tag::verify(&expected, received)?;
    Ok(Zeroizing::new(key.to_vec()))
}
