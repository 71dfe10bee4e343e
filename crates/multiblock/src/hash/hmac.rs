//! HMAC (RFC 2104) over a hash chosen at run time, on a backend chosen at
//! run time: two [`Hasher`]s keyed once (K ⊕ ipad, K ⊕ opad), so every
//! block runs on the hash's constant-time kernels, key setup included.

use super::hasher::Hasher;
use super::id::HashId;
use crate::backend::{BackendChoice, BackendInfo};
use crate::error::{Error, Result};
use crate::modes::tag::verify;
use zeroize::Zeroize;

/// RFC 2104 §2: the bytes XORed into the key block for the inner and the
/// outer hash.
const IPAD: u8 = 0x36;
const OPAD: u8 = 0x5c;

/// HMAC (RFC 2104) over one of [`HashId::NAMED`]; over Streebog it is
/// HMAC_GOSTR3411_2012_256 / _512 of RFC 7836 §4.1. Keys of any length
/// (longer than a block are hashed first, as RFC 2104 says). The state is
/// wiped when dropped. Keying compresses both pad blocks, so for many
/// messages under one key, key once and clone the keyed state per message:
/// each then costs its own blocks and the finishing compressions.
///
/// ```
/// use multiblock::hash::{HashId, Hmac};
/// use multiblock::BackendChoice;
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // RFC 7836 §A.1.1: HMAC_GOSTR3411_2012_256.
/// let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
/// let tag = hex("a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9");
/// let mut mac = Hmac::new(HashId::Streebog256, &key)?;
/// mac.update(&hex("0126bdb87800af214341456563780100"));
/// assert_eq!(mac.finalize(), tag);
///
/// // The same on the portable backend, checked in constant time.
/// let mut mac = Hmac::with_backend(HashId::Streebog256, &key, BackendChoice::Named("portable"))?;
/// assert_eq!(mac.backend().name, "portable");
/// mac.update(&hex("0126bdb87800af214341456563780100"));
/// mac.verify(&tag)?;
/// # Ok::<(), multiblock::Error>(())
/// ```
#[derive(Clone)]
pub struct Hmac {
    id: HashId,
    /// The hash after K ⊕ ipad, then the message so far.
    inner: Hasher,
    /// The hash after K ⊕ opad.
    outer: Hasher,
}

impl Hmac {
    /// HMAC over `id` under `key`, on the hash's default backend; `id` must
    /// be one of [`HashId::NAMED`].
    pub fn new(id: HashId, key: &[u8]) -> Result<Hmac> {
        Hmac::with_backend(id, key, BackendChoice::Auto)
    }

    /// [`Hmac::new`] on a chosen backend (see [`crate::hash::backends`]).
    pub fn with_backend(id: HashId, key: &[u8], choice: BackendChoice<'_>) -> Result<Hmac> {
        if !HashId::NAMED.contains(&id) {
            return Err(Error::Param(format!("HMAC runs over {}, not {id}", HashId::NAMES.join(", "))));
        }
        let mut inner = Hasher::with_backend(id, choice)?;
        let block = inner.block_bytes();
        // K0 of RFC 2104 §2: the key, or its hash if longer than a block,
        // padded with zeros to a block.
        let mut k0 = [0u8; 128];
        if key.len() > block {
            let mut long = inner.clone();
            long.update(key);
            let mut digest = long.finalize();
            k0[..digest.len()].copy_from_slice(&digest);
            digest.zeroize();
        } else {
            k0[..key.len()].copy_from_slice(key);
        }
        let mut outer = inner.clone();
        let mut pad = [0u8; 128];
        for (p, k) in pad[..block].iter_mut().zip(&k0) {
            *p = k ^ IPAD;
        }
        inner.update(&pad[..block]);
        for (p, k) in pad[..block].iter_mut().zip(&k0) {
            *p = k ^ OPAD;
        }
        outer.update(&pad[..block]);
        // Both pad blocks compressed now, once per key and side by side:
        // each message from a clone of this state then costs its own blocks
        // and the finishing compressions only.
        Hasher::compress_held_pair(&mut inner, &mut outer);
        pad[..].zeroize();
        k0[..].zeroize();
        Ok(Hmac { id, inner, outer })
    }

    /// The hash it runs over.
    pub fn id(&self) -> HashId {
        self.id
    }

    /// The backend its hashes run on.
    pub fn backend(&self) -> BackendInfo {
        self.inner.backend()
    }

    /// The tag length in bytes (the hash's digest).
    pub fn tag_bytes(&self) -> usize {
        self.id.digest_bytes()
    }

    /// MACs the next piece of the message.
    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }

    /// The tag: H(K ⊕ opad ‖ H(K ⊕ ipad ‖ message)).
    pub fn finalize(self) -> Vec<u8> {
        let mut tag = vec![0; self.tag_bytes()];
        self.finalize_into(&mut tag);
        tag
    }

    /// Writes the tag into `out` (of [`Hmac::tag_bytes`] bytes), with no
    /// allocation.
    ///
    /// # Panics
    /// If `out` is not [`Hmac::tag_bytes`] long (a caller's bug).
    pub fn finalize_into(self, out: &mut [u8]) {
        let Hmac { inner, mut outer, .. } = self;
        let mut inner_digest = [0u8; 64];
        let inner_digest = &mut inner_digest[..inner.digest_bytes()];
        inner.finalize_into(inner_digest);
        outer.update(inner_digest);
        inner_digest.zeroize();
        outer.finalize_into(out);
    }

    /// Checks `tag` in constant time: `Err(Error::Authentication)` if it differs.
    pub fn verify(self, tag: &[u8]) -> Result<()> {
        let mut ours = self.finalize();
        let verdict = verify(&ours, tag);
        ours.zeroize();
        verdict
    }
}

impl std::fmt::Debug for Hmac {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hmac").field("id", &self.id).field("backend", &self.backend().name).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::backends;
    use crate::test_rng::Rng;
    use ::hmac::{Mac, SimpleHmac};

    /// RustCrypto's `hmac` over RustCrypto's hash crates: an implementation
    /// that shares no code with this one.
    fn independent(id: HashId, key: &[u8], msg: &[u8]) -> Vec<u8> {
        fn tag<D: digest::Digest + digest::common::BlockSizeUser + Clone>(key: &[u8], msg: &[u8]) -> Vec<u8> {
            let mut m = <SimpleHmac<D> as digest::KeyInit>::new_from_slice(key).expect("any key length");
            m.update(msg);
            m.finalize().into_bytes().to_vec()
        }
        match id {
            HashId::Streebog256 => tag::<streebog::Streebog256>(key, msg),
            HashId::Streebog512 => tag::<streebog::Streebog512>(key, msg),
            HashId::Kupyna { digest_bits: 256 } => tag::<kupyna::Kupyna256>(key, msg),
            HashId::Kupyna { digest_bits: 384 } => tag::<kupyna::Kupyna384>(key, msg),
            HashId::Kupyna { digest_bits: 512 } => tag::<kupyna::Kupyna512>(key, msg),
            other => unreachable!("{other} is not a named hash"),
        }
    }

    #[test]
    fn every_backend_matches_rustcrypto_hmac_on_random_keys_and_messages() {
        let mut rng = Rng(0x4d41_4321);
        // Keys around the block (64 or 128 bytes): shorter, equal, longer (hashed first).
        let key_lengths = [0, 1, 31, 63, 64, 65, 127, 128, 129, 300];
        let msg_lengths = [0, 1, 63, 64, 65, 200];
        for id in HashId::NAMED {
            for st in backends(id).into_iter().filter(|s| s.available) {
                for (&kl, &ml) in key_lengths.iter().zip(msg_lengths.iter().cycle()) {
                    let key = rng.bytes(kl);
                    let msg = rng.bytes(ml);
                    let want = independent(id, &key, &msg);
                    let mut mac = Hmac::with_backend(id, &key, BackendChoice::Named(st.info.name)).unwrap();
                    assert_eq!(mac.backend().name, st.info.name);
                    let (a, b) = msg.split_at(ml / 3);
                    mac.update(a);
                    mac.update(b);
                    let (twin, into) = (mac.clone(), mac.clone());
                    assert_eq!(mac.finalize(), want, "{id} on {}, key {kl} bytes, message {ml}", st.info.name);
                    assert_eq!(twin.verify(&want), Ok(()));
                    let mut tag = [0u8; 64];
                    into.finalize_into(&mut tag[..want.len()]);
                    assert_eq!(tag[..want.len()], want, "finalize_into: {id} on {}", st.info.name);
                }
            }
        }
    }

    /// A keyed state holds no message bytes (both pad blocks compressed
    /// when keyed, side by side), and clones of it MAC message after
    /// message correctly.
    #[test]
    fn one_keyed_state_cloned_for_many_messages_on_every_backend() {
        let mut rng = Rng(0x4b45_5944);
        for id in HashId::NAMED {
            for st in backends(id).into_iter().filter(|s| s.available) {
                let key = rng.bytes(32);
                let keyed = Hmac::with_backend(id, &key, BackendChoice::Named(st.info.name)).unwrap();
                assert_eq!((keyed.inner.held(), keyed.outer.held()), (0, 0), "{id} on {}: a pad block held", st.info.name);
                for len in [0, 1, 64, 129] {
                    let msg = rng.bytes(len);
                    let mut mac = keyed.clone();
                    mac.update(&msg);
                    assert_eq!(mac.finalize(), independent(id, &key, &msg), "{id} on {}, message {len}", st.info.name);
                }
            }
        }
    }

    #[test]
    fn verify_rejects_a_changed_or_cut_tag() {
        let mac = Hmac::new(HashId::Kupyna { digest_bits: 256 }, b"key").unwrap();
        let tag = mac.clone().finalize();
        let mut changed = tag.clone();
        changed[31] ^= 1;
        assert_eq!(mac.clone().verify(&changed), Err(Error::Authentication));
        assert_eq!(mac.clone().verify(&tag[..31]), Err(Error::Authentication));
        assert_eq!(mac.verify(&tag), Ok(()));
    }

    #[test]
    fn only_named_hashes_and_known_backends() {
        let err = Hmac::new(HashId::Kupyna { digest_bits: 160 }, b"k").unwrap_err().to_string();
        assert!(err.contains("HMAC runs over"), "{err}");
        assert!(Hmac::with_backend(HashId::Streebog256, b"k", BackendChoice::Named("no-such")).is_err());
    }
}
