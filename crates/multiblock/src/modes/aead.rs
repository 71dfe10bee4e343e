//! The RustCrypto `aead` traits (0.6) for the AEAD modes whose interface
//! fits them: MGM (RFC 9058) for Kuznyechik and Magma, and DSTU 7624 GCM
//! for the five Kalyna variants.
//!
//! Each type holds the key; a call keys the cipher on the default backend
//! and runs the same one-shot code as [`crate::modes::encrypt`] (so the
//! bytes are those of the vectors), with the nonce as the `--iv` and the
//! full-block tag. Shorter tags (`--tag-bits`) and CCM (whose nonce and
//! length field vary) are served by the one-shot [`crate::modes`] API.
//!
//! Errors: the opaque [`aead::Error`] for a wrong tag and for inputs the
//! mode refuses (MGM: a nonce whose top bit is set; GCM: no AAD and no
//! message).
//!
//! Kalyna-128/128 GCM through [`aead::Aead`], checked against the GCM
//! example of DSTU 7624:2014 Annex B (ciphertext ‖ tag):
//!
//! ```
//! use multiblock::aead::{Aead, KeyInit, Payload};
//! use multiblock::modes::aead::Kalyna128_128Gcm;
//! # fn hex(s: &str) -> Vec<u8> {
//! #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
//! # }
//! let gcm = Kalyna128_128Gcm::new_from_slice(&hex("000102030405060708090a0b0c0d0e0f")).unwrap();
//! let nonce = hex("101112131415161718191a1b1c1d1e1f");
//! let nonce = nonce.as_slice().try_into().unwrap();
//! let aad = hex("202122232425262728292a2b2c2d2e2f");
//! let msg = hex("303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f");
//! let sealed = gcm.encrypt(nonce, Payload { msg: &msg, aad: &aad }).unwrap();
//! assert_eq!(sealed, hex("b91a7b8790bbcfcfe65d04e5538e98e216ac209da33122fda596e8928070be51\
//!                         c8310571cd60f9584b45c1b4ece179af"));
//! assert_eq!(gcm.decrypt(nonce, Payload { msg: &sealed, aad: &aad }).unwrap(), msg);
//! assert!(gcm.decrypt(nonce, Payload { msg: &sealed, aad: b"other" }).is_err());
//! ```

use crate::backend::BackendChoice;
use crate::modes::{dstu::KalynaGcm, gost::mgm, Mode, Params, Request};
use crate::CipherId;
use aead::array::Array;
use aead::consts::{U16, U32, U64, U8};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Tag, TagPosition};
use zeroize::Zeroizing;

/// Seals or opens `data` (ciphertext||tag for `open`) under one request.
fn run(cipher: CipherId, key: &[u8], nonce: &[u8], aad: &[u8], data: &[u8], seal: bool) -> crate::Result<Vec<u8>> {
    let mode = if cipher.family() == crate::Family::Kalyna { Mode::Gcm } else { Mode::Mgm };
    let req = Request {
        cipher,
        mode,
        key,
        sbox: None,
        backend: BackendChoice::Auto,
        params: Params { iv: Some(nonce.to_vec()), aad: aad.to_vec(), ..Params::default() },
    };
    match (mode, seal) {
        (Mode::Mgm, true) => mgm::seal(&req, data),
        (Mode::Mgm, false) => mgm::open(&req, data),
        (_, true) => KalynaGcm::new(&req)?.seal(data),
        (_, false) => KalynaGcm::new(&req)?.open(data),
    }
}

macro_rules! aead_type {
    ($(#[$doc:meta])* $name:ident, $id:expr, $key:ty, $block:ty) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            key: Zeroizing<Vec<u8>>,
        }

        impl KeySizeUser for $name {
            type KeySize = $key;
        }

        impl KeyInit for $name {
            fn new(key: &Key<Self>) -> Self {
                $name { key: Zeroizing::new(key.to_vec()) }
            }
        }

        impl AeadCore for $name {
            type NonceSize = $block;
            type TagSize = $block;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for $name {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                mut buffer: InOutBuf<'_, '_, u8>,
            ) -> aead::Result<Tag<Self>> {
                let sealed = Zeroizing::new(
                    run($id, &self.key, nonce, associated_data, buffer.get_in(), true)
                        .map_err(|_| aead::Error)?,
                );
                let (ct, tag) = sealed.split_at(buffer.len());
                buffer.get_out().copy_from_slice(ct);
                Array::try_from(tag).map_err(|_| aead::Error)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                mut buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag<Self>,
            ) -> aead::Result<()> {
                let mut sealed = Zeroizing::new(Vec::with_capacity(buffer.len() + tag.len()));
                sealed.extend_from_slice(buffer.get_in());
                sealed.extend_from_slice(tag);
                let plain = Zeroizing::new(
                    run($id, &self.key, nonce, associated_data, &sealed, false).map_err(|_| aead::Error)?,
                );
                buffer.get_out().copy_from_slice(&plain);
                Ok(())
            }
        }
    };
}

/// One [`aead_type!`] per row: the type, its cipher, key size, nonce/tag size.
macro_rules! aead_types {
    ($($(#[$doc:meta])* $name:ident: $id:expr, $key:ty, $block:ty;)*) => {
        $(aead_type!($(#[$doc])* $name, $id, $key, $block);)*
    };
}

aead_types! {
    /// Kuznyechik-MGM (RFC 9058): 16-byte nonce (top bit 0), 16-byte tag.
    KuznyechikMgm: CipherId::Kuznyechik, U32, U16;
    /// Magma-MGM (RFC 9058): 8-byte nonce (top bit 0), 8-byte tag.
    MagmaMgm: CipherId::Magma, U32, U8;
    /// Kalyna-128/128 GCM (DSTU 7624:2014 §12): 16-byte IV, 16-byte tag.
    Kalyna128_128Gcm: CipherId::Kalyna128_128, U16, U16;
    /// Kalyna-128/256 GCM (DSTU 7624:2014 §12): 16-byte IV, 16-byte tag.
    Kalyna128_256Gcm: CipherId::Kalyna128_256, U32, U16;
    /// Kalyna-256/256 GCM (DSTU 7624:2014 §12): 32-byte IV, 32-byte tag.
    Kalyna256_256Gcm: CipherId::Kalyna256_256, U32, U32;
    /// Kalyna-256/512 GCM (DSTU 7624:2014 §12): 32-byte IV, 32-byte tag.
    Kalyna256_512Gcm: CipherId::Kalyna256_512, U64, U32;
    /// Kalyna-512/512 GCM (DSTU 7624:2014 §12): 64-byte IV, 64-byte tag.
    Kalyna512_512Gcm: CipherId::Kalyna512_512, U64, U64;
}
