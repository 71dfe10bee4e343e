//! The glue between a keyed [`Cipher`](crate::Cipher) and the RustCrypto
//! `cipher` 0.5 traits, shared by every public cipher type.

use crate::backend::BlockKernel;
use cipher::array::{Array, ArraySize};
use cipher::{
    Block, BlockCipherDecBackend, BlockCipherEncBackend, BlockSizeUser, InOut, InOutBuf,
    ParBlocks, ParBlocksSizeUser,
};
use core::marker::PhantomData;

/// A `cipher` backend view of a kernel. `BS` is the block size, `PB` the
/// number of blocks the `cipher` crate hands over at once.
pub(crate) struct KernelBackend<'a, BS, PB> {
    pub(crate) kernel: &'a dyn BlockKernel,
    pub(crate) _sizes: PhantomData<(BS, PB)>,
}

impl<BS: ArraySize, PB: ArraySize> BlockSizeUser for KernelBackend<'_, BS, PB> {
    type BlockSize = BS;
}

impl<BS: ArraySize, PB: ArraySize> ParBlocksSizeUser for KernelBackend<'_, BS, PB> {
    type ParBlocksSize = PB;
}

/// One direction's `cipher` backend trait: every shape of input goes to
/// the kernel as whole blocks, in place.
macro_rules! kernel_backend {
    ($backend:ident, $block:ident, $par:ident, $tail:ident, $kernel_fn:ident) => {
        impl<BS: ArraySize, PB: ArraySize> $backend for KernelBackend<'_, BS, PB>
        where
            Array<u8, BS>: Copy,
            ParBlocks<Self>: Copy,
        {
            fn $block(&self, block: InOut<'_, '_, Block<Self>>) {
                self.kernel.$kernel_fn(block.into_out_with_copied_in().as_mut_slice());
            }
            fn $par(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
                let out = blocks.into_out_with_copied_in();
                self.kernel.$kernel_fn(Array::slice_as_flattened_mut(out.as_mut_slice()));
            }
            fn $tail(&self, blocks: InOutBuf<'_, '_, Block<Self>>) {
                let out = blocks.into_out_with_copied_in();
                self.kernel.$kernel_fn(Array::slice_as_flattened_mut(out));
            }
        }
    };
}

kernel_backend!(BlockCipherEncBackend, encrypt_block, encrypt_par_blocks, encrypt_tail_blocks, encrypt_blocks);
kernel_backend!(BlockCipherDecBackend, decrypt_block, decrypt_par_blocks, decrypt_tail_blocks, decrypt_blocks);

/// Declares a public cipher type: `KeyInit`, `BlockCipherEncrypt`,
/// `BlockCipherDecrypt`, the plain whole-buffer API and backend choice.
///
/// `$make` is an expression of type `fn(&[u8], BackendChoice) -> Result<Cipher>`
/// that receives a key of exactly `$key` bytes; `$backends` is the family's list.
macro_rules! block_cipher_type {
    (
        $(#[$doc:meta])*
        $name:ident, id = $id:expr, block = $block:ty, key = $key:ty, par = $par:ty,
        make = $make:expr, backends = $backends:expr
    ) => {
        $(#[$doc])*
        pub struct $name {
            cipher: $crate::Cipher,
        }

        impl $name {
            /// Keys the cipher on a chosen backend (`BackendChoice::Named`) or
            /// the default one; errors on a wrong key length or an unknown or
            /// unsupported backend.
            pub fn with_backend(key: &[u8], choice: $crate::BackendChoice<'_>) -> $crate::Result<Self> {
                let id: $crate::CipherId = $id;
                if key.len() != id.key_bytes() {
                    return Err($crate::Error::KeyLength { cipher: id.name(), expected: id.key_bytes(), got: key.len() });
                }
                let make: fn(&[u8], $crate::BackendChoice<'_>) -> $crate::Result<$crate::Cipher> = $make;
                Ok(Self { cipher: make(key, choice)? })
            }

            /// The backend this instance runs on.
            pub fn backend(&self) -> $crate::BackendInfo {
                self.cipher.backend()
            }

            /// Encrypts whole blocks in place (ECB); errors if `data` is not a
            /// whole number of blocks.
            pub fn encrypt_buffer(&self, data: &mut [u8]) -> $crate::Result<()> {
                self.cipher.encrypt_blocks(data)
            }

            /// Decrypts whole blocks in place (ECB).
            pub fn decrypt_buffer(&self, data: &mut [u8]) -> $crate::Result<()> {
                self.cipher.decrypt_blocks(data)
            }
        }

        impl ::cipher::KeySizeUser for $name {
            type KeySize = $key;
        }

        impl ::cipher::BlockSizeUser for $name {
            type BlockSize = $block;
        }

        impl ::cipher::KeyInit for $name {
            fn new(key: &::cipher::Key<Self>) -> Self {
                // `with_backend` only fails on a bad MULTIBLOCK_BACKEND here
                // (the key length is fixed by the type): fall back to the default.
                Self::with_backend(key, $crate::BackendChoice::Auto).unwrap_or_else(|_| {
                    let make: fn(&[u8], $crate::BackendChoice<'_>) -> $crate::Result<$crate::Cipher> = $make;
                    let cpu = $crate::CpuFeatures::get();
                    let default = $crate::backend::default_backend($backends, cpu).info.name;
                    Self { cipher: make(key, $crate::BackendChoice::Named(default)).expect("the default backend runs here") }
                })
            }
        }

        impl ::cipher::AlgorithmName for $name {
            fn write_alg_name(f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str($id.name())
            }
        }

        impl ::cipher::BlockCipherEncrypt for $name {
            fn encrypt_with_backend(&self, f: impl ::cipher::BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
                f.call(&$crate::typed::KernelBackend::<$block, $par> {
                    kernel: self.cipher.kernel(),
                    _sizes: ::core::marker::PhantomData,
                });
            }
        }

        impl ::cipher::BlockCipherDecrypt for $name {
            fn decrypt_with_backend(&self, f: impl ::cipher::BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
                f.call(&$crate::typed::KernelBackend::<$block, $par> {
                    kernel: self.cipher.kernel(),
                    _sizes: ::core::marker::PhantomData,
                });
            }
        }
    };
}

pub(crate) use block_cipher_type;
