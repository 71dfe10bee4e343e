//! A keyed cipher on its backend: the type every mode, typed cipher and
//! front end runs blocks through, and the checks they all share.

use crate::backend::{self, Backend, BackendChoice, BackendInfo, BlockKernel};
use crate::cipher_id::CipherId;
use crate::error::{Error, Result};

/// Which way a cipher, a mode or a batch of streams runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Encryption (plaintext in).
    Encrypt,
    /// Decryption (ciphertext in).
    Decrypt,
}

/// Any cipher, chosen by name at run time: multi-block ECB in place, the
/// base of every mode in [`crate::modes`].
///
/// Kalyna-256/256 by name, checked against DSTU 7624:2014 Annex B:
///
/// ```
/// use multiblock::Cipher;
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
/// let kalyna = Cipher::new("kalyna-256-256", &key, None, None)?;
/// assert_eq!(kalyna.block_bytes(), 32);
/// let mut data = hex("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f");
/// kalyna.encrypt_blocks(&mut data)?;
/// assert_eq!(data, hex("f66e3d570ec92135aedae323dcbd2a8ca03963ec206a0d5a88385c24617fd92c"));
/// kalyna.decrypt_blocks(&mut data)?;
/// assert_eq!(data, hex("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"));
/// // GOST 28147-89 takes an S-box set by name; a partial block is an error.
/// let gost = Cipher::new("gost89", &[0; 32], Some("cryptopro-a"), None)?;
/// assert!(matches!(gost.encrypt_blocks(&mut [0; 12]), Err(multiblock::Error::DataLength { .. })));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub struct Cipher {
    id: CipherId,
    kernel: Box<dyn BlockKernel>,
    info: &'static BackendInfo,
    block_bytes: usize,
}

impl Cipher {
    /// Keys a cipher of a family: `keys` is its expanded key, `backends`
    /// the family's list, from which `choice` takes one (see `backend.rs`).
    /// Every keyed cipher, by name or typed, is made here.
    pub(crate) fn keyed<K>(id: CipherId, backends: &'static [Backend<K>], keys: &K, choice: BackendChoice<'_>) -> Result<Cipher> {
        let backend = backend::select(id.name(), backends, choice)?;
        #[cfg(test)]
        KEY_SETUPS.with(|n| n.set(n.get() + 1));
        Ok(Cipher { id, kernel: (backend.new)(keys), info: &backend.info, block_bytes: id.block_bytes() })
    }

    /// The cipher variant.
    pub fn id(&self) -> CipherId {
        self.id
    }

    /// Block size in bytes.
    pub fn block_bytes(&self) -> usize {
        self.block_bytes
    }

    /// The backend this key runs on.
    pub fn backend(&self) -> BackendInfo {
        *self.info
    }

    fn check(&self, data: &[u8]) -> Result<()> {
        match data.len() % self.block_bytes() {
            0 => Ok(()),
            _ => Err(Error::DataLength { cipher: self.id.name(), block_bytes: self.block_bytes(), got: data.len() }),
        }
    }

    /// ECB-encrypts whole blocks in place.
    pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<()> {
        self.check(data)?;
        self.kernel.encrypt_blocks(data);
        Ok(())
    }

    /// ECB-decrypts whole blocks in place.
    pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<()> {
        self.check(data)?;
        self.kernel.decrypt_blocks(data);
        Ok(())
    }

    /// The GOST 28147-89 MAC steps (RFC 5830 §8) on this key's backend, for
    /// magma and gost89: for each 8-byte block M of `data` (whole blocks),
    /// `state = E16(state ⊕ M)`, words in the cipher's byte order.
    pub(crate) fn imit_steps(&self, state: &mut [u8; 8], data: &[u8]) -> Result<()> {
        self.check(data)?;
        match self.block_bytes() == 8 && self.kernel.imit_steps(state, data) {
            true => Ok(()),
            false => Err(Error::Param(format!("{} has no GOST 28147-89 MAC step", self.id.name()))),
        }
    }

    /// The kernel itself, for the RustCrypto trait glue (`typed.rs`), whose
    /// callers pass whole blocks by construction.
    pub(crate) fn kernel(&self) -> &dyn BlockKernel {
        &*self.kernel
    }
}

#[cfg(test)]
thread_local! {
    static KEY_SETUPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many ciphers this thread has keyed so far (every keyed cipher is made
/// by [`Cipher::keyed`]): the tests that check that a mode keys its cipher
/// exactly once count with it.
#[cfg(test)]
#[allow(dead_code)]
pub(crate) fn key_setups_on_this_thread() -> usize {
    KEY_SETUPS.with(|n| n.get())
}
