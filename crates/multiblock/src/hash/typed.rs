//! The hashes as RustCrypto `digest` types: `Digest`, `DynDigest`, and
//! through them HMAC (`hmac::SimpleHmac`) and every crate written over the
//! traits.

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
                self.0.update(data);
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
