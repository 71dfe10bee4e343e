//! The hashes as RustCrypto `digest` types: `Digest`, `DynDigest`, and
//! through them HMAC (`hmac::SimpleHmac`) and every crate written over the
//! traits.
//!
//! `SimpleHmac` feeds K ⊕ ipad as a fresh hasher's first update, one
//! block, and clones that state for each message, so these types update
//! by [`Hasher::update_for_copies`]: no clone compresses the keyed block
//! again.

use super::hasher::Hasher;
use super::id::HashId;
use crate::backend::BackendChoice;
use digest::block_api::BlockSizeUser;
use digest::consts::{U128, U32, U48, U64};
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};

/// A hasher of `id` on the default backend. `MULTIBLOCK_BACKEND` is
/// honoured; if it names no backend at all (a typo), the constant-time
/// `portable` backend is used, since `Default` cannot fail.
fn default_hasher(id: HashId) -> Hasher {
    Hasher::new(id).unwrap_or_else(|_| {
        Hasher::with_backend(id, BackendChoice::Named("portable")).expect("the portable backend runs on every CPU")
    })
}

macro_rules! typed_hash {
    ($(#[$doc:meta])* $name:ident, $id:expr, $out:ty, $block:ty) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name(Hasher);

        impl $name {
            /// The hasher on a chosen backend (see [`crate::hash::backends`]).
            pub fn with_backend(choice: BackendChoice<'_>) -> crate::Result<Self> {
                Hasher::with_backend($id, choice).map($name)
            }

            /// The backend it runs on.
            pub fn backend(&self) -> crate::BackendInfo {
                self.0.backend()
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name(default_hasher($id))
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl HashMarker for $name {}

        impl OutputSizeUser for $name {
            type OutputSize = $out;
        }

        impl BlockSizeUser for $name {
            type BlockSize = $block;
        }

        impl Update for $name {
            fn update(&mut self, data: &[u8]) {
                self.0.update_for_copies(data);
            }
        }

        impl FixedOutput for $name {
            fn finalize_into(self, out: &mut Output<Self>) {
                self.0.finalize_into(out);
            }
        }

        impl Reset for $name {
            fn reset(&mut self) {
                self.0.reset();
            }
        }

        impl FixedOutputReset for $name {
            fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                self.0.finalize_into_reset(out);
            }
        }
    };
}

typed_hash!(
    /// Streebog-256 (GOST R 34.11-2012, RFC 6986) as a RustCrypto `Digest`.
    ///
    /// ```
    /// use multiblock::hash::Streebog256;
    /// use multiblock::digest::Digest;
    /// // RFC 6986 §10.1, example 1: the 63 bytes "012345678901234567890123456789012345678901234567890123456789012".
    /// let digest = Streebog256::digest(b"012345678901234567890123456789012345678901234567890123456789012");
    /// assert_eq!(digest[..4], [0x9d, 0x15, 0x1e, 0xef]);
    /// ```
    Streebog256, HashId::Streebog256, U32, U64
);
typed_hash!(
    /// Streebog-512 (GOST R 34.11-2012, RFC 6986) as a RustCrypto `Digest`.
    Streebog512, HashId::Streebog512, U64, U64
);
typed_hash!(
    /// Kupyna-256 (DSTU 7564:2014) as a RustCrypto `Digest`.
    Kupyna256, HashId::Kupyna { digest_bits: 256 }, U32, U64
);
typed_hash!(
    /// Kupyna-384 (DSTU 7564:2014) as a RustCrypto `Digest`.
    Kupyna384, HashId::Kupyna { digest_bits: 384 }, U48, U128
);
typed_hash!(
    /// Kupyna-512 (DSTU 7564:2014) as a RustCrypto `Digest`.
    Kupyna512, HashId::Kupyna { digest_bits: 512 }, U64, U128
);

#[cfg(test)]
mod tests {
    use super::*;
    use digest::Digest;

    /// Pieces whose first is empty, short, or whole blocks; a clone after
    /// the first piece (as `SimpleHmac` clones its keyed state); and the
    /// same hasher again after a reset and after `finalize_reset`: every
    /// digest that of RustCrypto's `streebog` and `kupyna`.
    fn pieces_and_clones<D: Digest + Clone + FixedOutputReset + Reset + BlockSizeUser, Oracle: Digest>() {
        let block = <D as BlockSizeUser>::block_size();
        for first in [0, 1, block - 1, block, block + 1, 2 * block] {
            for rest in [0, 1, 32, block] {
                let msg: Vec<u8> = (0..first + rest).map(|i| (i * 13 + first) as u8).collect();
                let want = Oracle::digest(&msg).to_vec();
                let what = format!("{} bytes, then {rest}", first);
                let mut d = D::new();
                Digest::update(&mut d, &msg[..first]);
                let mut clone = d.clone();
                Digest::update(&mut d, &msg[first..]);
                assert_eq!(d.finalize_reset().to_vec(), want, "{what}");
                Digest::update(&mut clone, &msg[first..]);
                assert_eq!(clone.finalize().to_vec(), want, "{what}, cloned");
                // Started over by finalize_reset, then by reset.
                for _ in 0..2 {
                    Digest::update(&mut d, &msg[..first]);
                    Digest::update(&mut d, &msg[first..]);
                    assert_eq!(d.finalize_reset().to_vec(), want, "{what}, again");
                }
                Digest::update(&mut d, b"discarded");
                Digest::reset(&mut d);
                Digest::update(&mut d, &msg[..first]);
                Digest::update(&mut d, &msg[first..]);
                assert_eq!(d.finalize().to_vec(), want, "{what}, after a reset");
            }
        }
    }

    #[test]
    fn every_type_in_pieces_cloned_and_reset() {
        pieces_and_clones::<Streebog256, streebog::Streebog256>();
        pieces_and_clones::<Streebog512, streebog::Streebog512>();
        pieces_and_clones::<Kupyna256, kupyna::Kupyna256>();
        pieces_and_clones::<Kupyna384, kupyna::Kupyna384>();
        pieces_and_clones::<Kupyna512, kupyna::Kupyna512>();
    }
}
