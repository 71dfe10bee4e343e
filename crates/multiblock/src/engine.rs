//! A keyed cipher on a chosen backend, with the block-size checks every
//! public type shares. Families build one from their expanded key.

use crate::cpu::{self, Backend, BackendChoice, BackendInfo, BlockKernel};
use crate::error::{Error, Result};

pub(crate) struct Engine {
    kernel: Box<dyn BlockKernel>,
    info: BackendInfo,
    cipher: &'static str,
    block_bytes: usize,
}

impl Engine {
    /// Selects a backend (see [`cpu::select`]) and keys it with `keys`.
    pub(crate) fn new<K>(
        cipher: &'static str,
        block_bytes: usize,
        backends: &'static [Backend<K>],
        keys: &K,
        choice: BackendChoice<'_>,
    ) -> Result<Engine> {
        let backend = cpu::select(cipher, backends, choice)?;
        Ok(Engine { kernel: (backend.new)(keys), info: backend.info, cipher, block_bytes })
    }

    pub fn backend(&self) -> BackendInfo {
        self.info
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

    /// For callers that already hold whole blocks (the `cipher` trait glue).
    pub(crate) fn kernel(&self) -> &dyn BlockKernel {
        &*self.kernel
    }
}
