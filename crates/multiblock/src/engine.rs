//! A keyed cipher on a chosen backend, with the block-size checks every
//! public type shares. Families build one from their expanded key.

use crate::cpu::{self, BackendChoice, BackendInfo, BlockKernel};
use crate::dispatch::{Family, ShortTiers};
use crate::error::{Error, Result};

pub(crate) struct Engine {
    kernel: Box<dyn BlockKernel>,
    info: &'static BackendInfo,
    /// The narrower backends short calls go to, each with the largest call
    /// in bytes it takes (`dispatch`), when the default was taken.
    short: &'static ShortTiers,
    cipher: &'static str,
    block_bytes: usize,
}

impl Engine {
    /// Selects a backend (see [`cpu::select`]) and keys it with `keys`. The
    /// default (no backend named, `MULTIBLOCK_BACKEND` unset) also keys the
    /// narrow backends the family's crossovers give for it, for short calls
    /// (`dispatch`).
    ///
    /// `keys` is borrowed: a Kalyna key schedule is 1.2 KiB, and moving it
    /// by value through here would be a memcpy call on every key setup.
    pub(crate) fn new<K: Clone + Send + Sync + 'static>(
        cipher: &'static str,
        block_bytes: usize,
        family: &'static Family<K>,
        keys: &K,
        choice: BackendChoice<'_>,
    ) -> Result<Engine> {
        #[cfg(test)]
        KEY_SETUPS.with(|n| n.set(n.get() + 1));
        let (backend, kernel, short) = match cpu::is_default_choice(choice) {
            true => family.keyed_default(keys),
            false => {
                let backend = cpu::select(cipher, family.backends, choice)?;
                (backend, (backend.new)(keys), &ShortTiers::NONE)
            }
        };
        Ok(Engine { kernel, info: &backend.info, short, cipher, block_bytes })
    }

    /// The backend of long calls.
    pub fn backend(&self) -> BackendInfo {
        *self.info
    }

    /// The backends of short calls, each with the longest call in bytes it
    /// takes, for encryption or (`decrypt`) decryption (empty: every call
    /// runs on [`Engine::backend`]).
    pub fn short_backends(&self, decrypt: bool) -> &[(&'static BackendInfo, usize)] {
        self.short.get(decrypt)
    }

    pub fn block_bytes(&self) -> usize {
        self.block_bytes
    }

    fn check(&self, data: &[u8]) -> Result<()> {
        if data.len() % self.block_bytes == 0 {
            Ok(())
        } else {
            Err(Error::DataLength { cipher: self.cipher, block_bytes: self.block_bytes, got: data.len() })
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

    /// The GOST 28147-89 MAC steps on this key's backend
    /// ([`BlockKernel::imit_steps`]): for each block M of `data`,
    /// `state = E16(state ⊕ M)`. Every Magma / GOST 28147-89 backend has
    /// them; other families get an error.
    pub(crate) fn imit_steps(&self, state: &mut [u8; 8], data: &[u8]) -> Result<()> {
        self.check(data)?;
        match self.block_bytes == 8 && self.kernel.imit_steps(state, data) {
            true => Ok(()),
            false => Err(Error::Param(format!("{} has no GOST 28147-89 MAC step", self.cipher))),
        }
    }

    /// For callers that already hold whole blocks (the `cipher` trait glue).
    pub(crate) fn kernel(&self) -> &dyn BlockKernel {
        &*self.kernel
    }
}

#[cfg(test)]
thread_local! {
    static KEY_SETUPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many ciphers this thread has keyed so far (every keyed cipher, by
/// name or typed, is made here): the tests that check that a mode keys its
/// cipher exactly once count with it.
#[cfg(test)]
#[allow(dead_code)]
pub(crate) fn key_setups_on_this_thread() -> usize {
    KEY_SETUPS.with(|n| n.get())
}
