//! One incremental hasher for every hash, chosen at run time.

use super::id::HashId;
use super::{kupyna, streebog};
use crate::backend::{BackendChoice, BackendInfo};
use crate::error::Result;

/// The family's incremental state.
#[derive(Clone)]
enum State {
    Streebog(streebog::Core),
    Kupyna(kupyna::Core),
}

/// An incremental hash of any [`HashId`]: `update` with pieces, then
/// `finalize`. Cloning copies the state (to hash several messages that
/// share a prefix). The state is wiped when dropped.
///
/// ```
/// use multiblock::hash::{HashId, Hasher};
/// let mut h = Hasher::new(HashId::Streebog256)?;
/// h.update(b"0123456789012345678901234567890123456789");
/// let mut shared_prefix = h.clone();
/// h.update(b"0123456789012345678901234567890123456789012");
/// shared_prefix.update(b"0123456789012345678901234567890123456789012");
/// assert_eq!(h.finalize(), shared_prefix.finalize());
/// # Ok::<(), multiblock::Error>(())
/// ```
#[derive(Clone)]
pub struct Hasher {
    id: HashId,
    state: State,
}

impl Hasher {
    /// A hasher on the default backend (the fastest constant-time one this
    /// CPU runs, or what `MULTIBLOCK_BACKEND` names).
    pub fn new(id: HashId) -> Result<Hasher> {
        Hasher::with_backend(id, BackendChoice::Auto)
    }

    /// A hasher on a chosen backend (see [`crate::hash::backends`]).
    pub fn with_backend(id: HashId, choice: BackendChoice<'_>) -> Result<Hasher> {
        // The backend first, then the state built where it is returned.
        let id = id.check()?;
        let digest_bytes = id.digest_bytes();
        Ok(match id {
            HashId::Streebog256 | HashId::Streebog512 => {
                let backend = streebog::Core::choose(digest_bytes, choice)?;
                Hasher { id, state: State::Streebog(streebog::Core::on(backend, digest_bytes)) }
            }
            HashId::Kupyna { .. } => {
                let backend = kupyna::Core::choose(digest_bytes, choice)?;
                Hasher { id, state: State::Kupyna(kupyna::Core::on(backend, digest_bytes)) }
            }
        })
    }

    /// Which hash this is.
    pub fn id(&self) -> HashId {
        self.id
    }

    /// The digest length in bytes.
    pub fn digest_bytes(&self) -> usize {
        self.id.digest_bytes()
    }

    /// The compression block in bytes (what HMAC pads its key to).
    pub fn block_bytes(&self) -> usize {
        self.id.block_bytes()
    }

    /// The backend the hasher runs on.
    pub fn backend(&self) -> BackendInfo {
        match &self.state {
            State::Streebog(core) => core.backend(),
            State::Kupyna(core) => core.backend(),
        }
    }

    /// Hashes the next piece of the message.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.state {
            State::Streebog(core) => core.update(data),
            State::Kupyna(core) => core.update(data),
        }
    }

    /// Hashes the next piece of the message as [`Hasher::update`] does,
    /// except that the message's first piece, if it is whole blocks, is
    /// compressed at once ([`Hasher::compress_held`]). For states that
    /// other code keys with a first update and copies per message, as HMAC
    /// does with K ⊕ ipad: the copies then do not compress that block
    /// again. A message of whole blocks given in one piece takes one kernel
    /// call more to finish than with `update`.
    ///
    /// ```
    /// use multiblock::hash::{HashId, Hasher};
    /// let mut keyed = Hasher::new(HashId::Kupyna { digest_bits: 256 })?;
    /// keyed.update_for_copies(&[0x36; 64]); // one block, compressed now
    /// let mut copy = keyed.clone();
    /// copy.update_for_copies(b"message");
    /// let mut whole = Hasher::new(HashId::Kupyna { digest_bits: 256 })?;
    /// whole.update(&[0x36; 64]);
    /// whole.update(b"message");
    /// assert_eq!(copy.finalize(), whole.finalize());
    /// # Ok::<(), multiblock::Error>(())
    /// ```
    pub fn update_for_copies(&mut self, data: &[u8]) {
        let first = self.is_empty();
        self.update(data);
        if first {
            self.compress_held();
        }
    }

    /// No message bytes have come yet.
    fn is_empty(&self) -> bool {
        match &self.state {
            State::Streebog(core) => core.is_empty(),
            State::Kupyna(core) => core.is_empty(),
        }
    }

    /// Writes the digest into `out` (of [`Hasher::digest_bytes`] bytes) and
    /// starts over with an empty message.
    ///
    /// # Panics
    /// If `out` is not [`Hasher::digest_bytes`] long (a caller's bug).
    pub fn finalize_into_reset(&mut self, out: &mut [u8]) {
        self.write_digest(out);
        self.reset();
    }

    /// The digest into `out`; the state is spent (a reset or the drop
    /// follows, and both wipe it).
    fn write_digest(&mut self, out: &mut [u8]) {
        assert_eq!(out.len(), self.digest_bytes(), "the digest of {} is {} bytes", self.id, self.digest_bytes());
        match &mut self.state {
            State::Streebog(core) => core.finalize_into(out),
            State::Kupyna(core) => core.finalize_into(out),
        }
    }

    /// Compresses the last block of the message so far now, if the message
    /// ends on a block boundary; otherwise does nothing. The digest is the
    /// same either way.
    ///
    /// A hasher holds the message's last block back (1 to
    /// [`Hasher::block_bytes`] bytes), so that finalizing runs it with the
    /// padding in one kernel call. Before cloning a state for many
    /// messages that share a prefix of whole blocks, such as HMAC's
    /// K ⊕ ipad, this puts the whole prefix into the chaining value, and
    /// no clone compresses its last block again.
    ///
    /// ```
    /// use multiblock::hash::{HashId, Hasher};
    /// let mut keyed = Hasher::new(HashId::Streebog256)?;
    /// keyed.update(&[0x36; 64]); // one block: a key XORed with HMAC's ipad
    /// let unsettled = keyed.clone();
    /// keyed.compress_held();
    /// for message in [&b"first"[..], b"second"] {
    ///     let (mut a, mut b) = (keyed.clone(), unsettled.clone());
    ///     a.update(message);
    ///     b.update(message);
    ///     assert_eq!(a.finalize(), b.finalize());
    /// }
    /// # Ok::<(), multiblock::Error>(())
    /// ```
    pub fn compress_held(&mut self) {
        match &mut self.state {
            State::Streebog(core) => core.compress_held(),
            State::Kupyna(core) => core.compress_held(),
        }
    }

    /// How many message bytes wait in the buffer for more or for the end.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        match &self.state {
            State::Streebog(core) => core.held(),
            State::Kupyna(core) => core.held(),
        }
    }

    /// [`Hasher::compress_held`] of two hashers, side by side in the
    /// backend's lanes where it runs several messages at once and both are
    /// of one hash on one backend (HMAC's inner and outer states).
    pub(crate) fn compress_held_pair(a: &mut Hasher, b: &mut Hasher) {
        match (&mut a.state, &mut b.state) {
            (State::Streebog(x), State::Streebog(y)) => streebog::Core::compress_held_pair(x, y),
            (State::Kupyna(x), State::Kupyna(y)) => kupyna::Core::compress_held_pair(x, y),
            _ => {
                a.compress_held();
                b.compress_held();
            }
        }
    }

    /// Starts over with an empty message, on the same backend.
    pub fn reset(&mut self) {
        match &mut self.state {
            State::Streebog(core) => core.reset(),
            State::Kupyna(core) => core.reset(),
        }
    }

    /// The digest; the hasher starts over with an empty message.
    pub fn finalize_reset(&mut self) -> Vec<u8> {
        let mut out = vec![0; self.digest_bytes()];
        self.finalize_into_reset(&mut out);
        out
    }

    /// Writes the digest into `out` (of [`Hasher::digest_bytes`] bytes).
    ///
    /// # Panics
    /// If `out` is not [`Hasher::digest_bytes`] long (a caller's bug).
    pub fn finalize_into(mut self, out: &mut [u8]) {
        // No reset: the state is wiped when `self` drops here.
        self.write_digest(out);
    }

    /// The digest.
    pub fn finalize(mut self) -> Vec<u8> {
        let mut out = vec![0; self.digest_bytes()];
        // As `finalize_into`, without moving the state once more.
        self.write_digest(&mut out);
        out
    }
}

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The state is secret when the hasher runs under a key (HMAC, KDFs).
        f.debug_struct("Hasher").field("id", &self.id).field("backend", &self.backend().name).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::backends;

    #[test]
    fn reset_starts_over_on_the_same_backend() {
        for id in HashId::NAMED {
            for st in backends(id).into_iter().filter(|s| s.available) {
                let mut h = Hasher::with_backend(id, BackendChoice::Named(st.info.name)).unwrap();
                let empty = h.clone().finalize();
                h.update(&[0x5a; 200]);
                h.reset();
                assert_eq!(h.backend().name, st.info.name);
                let mut again = h.clone();
                assert_eq!(h.finalize(), empty, "{id} on {}", st.info.name);
                again.update(b"abc");
                let mut fresh = Hasher::with_backend(id, BackendChoice::Named(st.info.name)).unwrap();
                fresh.update(b"abc");
                assert_eq!(again.finalize(), fresh.finalize(), "{id} on {}", st.info.name);
            }
        }
    }

    /// Compressing the held block after a prefix of any length (whole
    /// blocks or not, empty or not) leaves the digest of every backend that
    /// of the reference, and holds nothing back exactly when the prefix
    /// is a nonzero number of whole blocks.
    #[test]
    fn compress_held_keeps_the_digest() {
        for id in HashId::NAMED {
            let block = Hasher::new(id).unwrap().block_bytes();
            for st in backends(id).into_iter().filter(|s| s.available) {
                for prefix in [0, 1, block - 1, block, block + 1, 2 * block, 2 * block + 3] {
                    for rest in [0, 1, block, 70] {
                        let msg: Vec<u8> = (0..prefix + rest).map(|i| (i * 29 + 7) as u8).collect();
                        let mut reference = Hasher::with_backend(id, BackendChoice::Named("reference")).unwrap();
                        reference.update(&msg);
                        let mut h = Hasher::with_backend(id, BackendChoice::Named(st.info.name)).unwrap();
                        h.update(&msg[..prefix]);
                        h.compress_held();
                        let whole = prefix > 0 && prefix % block == 0;
                        assert_eq!(h.held() == 0, prefix == 0 || whole, "{id} on {}: {prefix} bytes", st.info.name);
                        h.update(&msg[prefix..]);
                        assert_eq!(h.finalize(), reference.finalize(), "{id} on {}: {prefix} + {rest} bytes", st.info.name);
                    }
                }
            }
        }
    }

    /// `update_for_copies` compresses the first piece only, and only when
    /// it is whole blocks; a later piece of whole blocks stays held, and an
    /// empty first piece leaves the next one first. Digests as the
    /// reference's.
    #[test]
    fn update_for_copies_settles_the_first_piece_only() {
        for id in HashId::NAMED {
            let block = Hasher::new(id).unwrap().block_bytes();
            for st in backends(id).into_iter().filter(|s| s.available) {
                let msg: Vec<u8> = (0..3 * block + 5).map(|i| (i * 31 + 3) as u8).collect();
                for (first, second) in [(0, block), (block, block), (2 * block, block), (block - 1, 1), (block + 1, block - 1)] {
                    let mut h = Hasher::with_backend(id, BackendChoice::Named(st.info.name)).unwrap();
                    h.update_for_copies(&[]);
                    h.update_for_copies(&msg[..first]);
                    let first_settled = first > 0 && first % block == 0;
                    assert_eq!(h.held() == 0, first == 0 || first_settled, "{id} on {}: first {first}", st.info.name);
                    h.update_for_copies(&msg[first..first + second]);
                    let whole = (first + second) % block == 0;
                    let want_held = if first == 0 && whole { 0 } else if whole { block } else { (first + second) % block };
                    assert_eq!(h.held(), want_held, "{id} on {}: {first} + {second}", st.info.name);
                    h.update_for_copies(&msg[first + second..]);
                    let mut reference = Hasher::with_backend(id, BackendChoice::Named("reference")).unwrap();
                    reference.update(&msg);
                    assert_eq!(h.finalize(), reference.finalize(), "{id} on {}: {first} + {second} + rest", st.info.name);
                }
            }
        }
    }
}
