//! Serial modes over many independent messages at once: the chains of a
//! CBC/CFB/OFB encryption or a CBC-MAC cannot be split, but different
//! messages can share the SIMD lanes. Every step gathers the next block of
//! every live stream, runs ONE [`Cipher::encrypt_blocks`](crate::Cipher::encrypt_blocks)
//! call over all of them and scatters the results back; streams drop out
//! as their messages end (the kernels take any block count).
//!
//! Wide forms: GOST R 34.13 MAC and RFC 8645 OMAC-ACPKM (Kuznyechik,
//! Magma), the DSTU 7624 §9 MAC (Kalyna); CBC, CFB and OFB encryption with a
//! one-block register (GOST m = n, s = n; DSTU CFB s = n; GOST 28147-89
//! CFB without key meshing; uBlock CBC). Everything else (GOST 28147-89
//! imitovstavka, whose 16 rounds are not the cipher's, GMAC, m > n, s < n,
//! key meshing, the parallel modes) runs one message at a time, with the
//! same results. The AEAD modes (MGM, GCM, CCM) and KW are not taken: each
//! message needs its own nonce or integrity check, so they are encrypted
//! one message at a time with [`crate::modes::encrypt`].
//!
//! Cost model, per step with L live streams of an n-byte block: one wide
//! call of L blocks (the kernel's cost at L blocks per call, the `bench`
//! sweep's column L) plus L block copies in and out (none while the live
//! streams are the first lanes, encrypted where they are: always for
//! CBC/CFB/OFB, whose lanes are ordered longest message first) plus one
//! n-byte XOR per block; the MACs take as many steps as every live stream
//! has whole blocks for before looking again. With L at or above the
//! kernel's width the per-block copies and XORs weigh about as much as the
//! wide call (Zen 5, 64 × 256 KiB: the MACs 1.4-3.3× ECB, the cipher modes
//! 1.35-4.4×); a lone long message at the end runs at the one-block
//! cost, so give messages of similar length together. Several keys
//! ([`mac_many_keys`], [`encrypt_many_keys`]) are grouped by key: one wide
//! call per key per step. (uBlock's multi-key kernel,
//! `ublock::multi_key`, runs four keys in one AVX2 group; it is not used
//! here: it serves only `avx2` and only uBlock, whose one serial mode is
//! CBC, and grouping by key fills the lanes whenever a key has several
//! messages. Messages under all-different keys run one block per call.)

mod chain;
mod each;
mod lanes;
mod mac;
#[cfg(test)]
mod tests;

use super::stream::MacStream;
use super::{check_kind, Kind, Request};
use crate::error::{Error, Result};
pub use chain::Fit;
use mac::WideMac;

/// The MACs of many messages under one key, each taken in pieces.
pub struct MacMany {
    inner: Inner,
    streams: usize,
}

enum Inner {
    Wide(Box<WideMac>),
    /// Modes without a wide form: one stream after the other.
    Each(Vec<MacStream>),
}

impl MacMany {
    /// `streams` MACs of `req` (GOST MAC, OMAC-ACPKM, DSTU CMAC or GMAC),
    /// keyed and checked as [`MacStream::new`].
    pub fn new(req: &Request<'_>, streams: usize) -> Result<MacMany> {
        check_kind(req, &[Kind::Mac], "mac")?;
        let inner = match WideMac::new(req, streams)? {
            Some(w) => Inner::Wide(Box::new(w)),
            None => {
                if streams == 0 {
                    MacStream::new(req)?; // the checks, even for no stream
                }
                Inner::Each((0..streams).map(|_| MacStream::new(req)).collect::<Result<_>>()?)
            }
        };
        Ok(MacMany { inner, streams })
    }

    /// How many messages.
    pub fn streams(&self) -> usize {
        self.streams
    }

    /// Absorbs the next piece of every message: `pieces[i]` continues
    /// message i (empty where it has nothing new); one piece per stream.
    pub fn update(&mut self, pieces: &[&[u8]]) -> Result<()> {
        if pieces.len() != self.streams {
            return Err(Error::Param(format!("{} pieces for {} MAC streams", pieces.len(), self.streams)));
        }
        match &mut self.inner {
            Inner::Wide(w) => w.update(pieces),
            Inner::Each(each) => each.iter_mut().zip(pieces).try_for_each(|(m, p)| m.update(p)),
        }
    }

    /// Every message's tag, in order; a message the mode defines no MAC of
    /// (an empty one for the DSTU MAC) gets its error.
    pub fn finalize(self) -> Result<Vec<Result<Vec<u8>>>> {
        match self.inner {
            Inner::Wide(w) => w.finalize(),
            Inner::Each(each) => Ok(each.into_iter().map(MacStream::finalize).collect()),
        }
    }
}

/// The tags of `messages` under one key, as [`crate::modes::mac`] gives
/// them one by one (the first failing message's error).
///
/// ```
/// use multiblock::modes::{self, many, Mode, Params, Request};
/// use multiblock::{BackendChoice, CipherId};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// let key = hex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
/// let req = Request {
///     cipher: CipherId::Kuznyechik, mode: Mode::Mac, key: &key, sbox: None,
///     backend: BackendChoice::Auto,
///     params: Params { mac_bits: Some(64), ..Params::default() },
/// };
/// // GOST R 34.13-2015 A.1.6, and 40 other messages of different lengths.
/// let a16 = hex("1122334455667700ffeeddccbbaa998800112233445566778899aabbcceeff0a\
///                112233445566778899aabbcceeff0a002233445566778899aabbcceeff0a0011");
/// let others: Vec<Vec<u8>> = (1..=40).map(|i| vec![i as u8; 100 * i]).collect();
/// let messages: Vec<&[u8]> = std::iter::once(&a16[..]).chain(others.iter().map(|m| &m[..])).collect();
/// let tags = many::mac_many(&req, &messages)?;
/// assert_eq!(tags[0], hex("336f4d296059fbe3"));
/// for (tag, message) in tags.iter().zip(&messages) {
///     assert_eq!(*tag, modes::mac(&req, message)?);
/// }
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn mac_many(req: &Request<'_>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    let mut m = MacMany::new(req, messages.len())?;
    m.update(messages)?;
    m.finalize()?.into_iter().collect()
}

/// Fails unless `req` names a cipher mode (what the `encrypt_many` family
/// takes). AEAD and KW get their own reason: under one IV every message
/// would reuse the nonce (AEAD), and a wrapped key is checked as a whole.
fn cipher_mode(req: &Request<'_>) -> Result<()> {
    // An unknown mode first, as check_kind reports it.
    super::Mode::parse(req.cipher, req.mode.name())?;
    if matches!(req.mode.kind(), Kind::Aead | Kind::KeyWrap) {
        return Err(Error::Param(format!(
            "{} is not available for many messages at once: each message needs its own nonce (AEAD) or integrity check (KW); encrypt them one at a time",
            req.mode
        )));
    }
    check_kind(req, &[Kind::Cipher], "encrypt")
}

/// The encryptions of `messages` under one key and IV, as
/// [`crate::modes::encrypt`] gives them one by one, for the cipher modes
/// (ECB, CBC, CFB, OFB, CTR, ...). The AEAD modes (MGM, GCM, CCM) and KW
/// are refused with an [`Error::Param`] that says why ("... encrypt them
/// one at a time"): each message needs its own nonce or integrity check,
/// so encrypt those with [`crate::modes::encrypt`] one message at a time.
/// A MAC mode is refused too (use [`mac_many`]).
pub fn encrypt_many(req: &Request<'_>, messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    cipher_mode(req)?;
    chain::encrypt(req, messages)
}

/// [`encrypt_many`] into the caller's buffer `out`: the ciphertexts back to
/// back, in message order, with no buffer per message (for callers that
/// own their output memory, such as the C API). Not faster by itself: on
/// a Zen 5 the bench's 64 × 256 KiB ran within noise of [`encrypt_many`]
/// (messages exactly 256 KiB apart share cache sets); each step's work per
/// stream, not the allocation, bounds these modes. The same modes, checks
/// and errors as [`encrypt_many`] (the AEAD modes and KW are refused: each
/// message needs its own nonce or integrity check, so encrypt them one at
/// a time); a buffer too small is not an error but [`Fit::TooSmall`], with
/// nothing written.
pub fn encrypt_many_to(req: &Request<'_>, messages: &[&[u8]], out: &mut [u8]) -> Result<Fit> {
    cipher_mode(req)?;
    chain::encrypt_to(req, messages, out)
}

/// [`encrypt_many`] in place: each message's bytes become its ciphertext,
/// with no copy at all. Only where every ciphertext is as long as its
/// message (CFB, OFB; CBC over whole blocks with no padding added): else
/// an error, with nothing changed.
pub fn encrypt_many_in_place(req: &Request<'_>, messages: &mut [&mut [u8]]) -> Result<()> {
    cipher_mode(req)?;
    chain::encrypt_in_place(req, messages)
}

/// The shape of [`mac_many`] and [`encrypt_many`]: a request and its
/// messages in, one result per message out.
pub type Many = fn(&Request<'_>, &[&[u8]]) -> Result<Vec<Vec<u8>>>;

/// [`mac_many`] with message i under `keys[i]` (the request's key is not used).
pub fn mac_many_keys(req: &Request<'_>, keys: &[&[u8]], messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    by_key(req, keys, messages, mac_many)
}

/// [`encrypt_many`] with message i under `keys[i]` (the request's key is
/// not used): the same modes.
pub fn encrypt_many_keys(req: &Request<'_>, keys: &[&[u8]], messages: &[&[u8]]) -> Result<Vec<Vec<u8>>> {
    cipher_mode(req)?;
    by_key(req, keys, messages, encrypt_many)
}

/// Runs `run` once per distinct key over that key's messages and puts the
/// results back in message order. (Which messages share a key is the
/// caller's own knowledge, so comparing the keys leaks nothing new.)
fn by_key(
    req: &Request<'_>,
    keys: &[&[u8]],
    messages: &[&[u8]],
    run: Many,
) -> Result<Vec<Vec<u8>>> {
    if keys.len() != messages.len() {
        return Err(Error::Param(format!("{} keys for {} messages", keys.len(), messages.len())));
    }
    let mut groups: Vec<(&[u8], Vec<usize>)> = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        match groups.iter_mut().find(|(k, _)| k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let mut out = vec![Vec::new(); messages.len()];
    for (key, members) in groups {
        let keyed = Request { key, params: req.params.clone(), ..*req };
        let subset: Vec<&[u8]> = members.iter().map(|&i| messages[i]).collect();
        for (i, result) in members.into_iter().zip(run(&keyed, &subset)?) {
            out[i] = result;
        }
    }
    Ok(out)
}
