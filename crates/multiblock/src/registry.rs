//! Ciphers by name: the dynamic API that the CLI and the bindings use.

use crate::cpu::{self, Backend, BackendChoice, BackendInfo, CpuFeatures};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::magma::SboxSet;
use crate::{kalyna, kuznyechik, magma, ublock, CipherId, Family};

/// A backend of a cipher as `multiblock info` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackendStatus {
    /// Name, constant-time or not, blocks per call, instruction sets.
    pub info: BackendInfo,
    /// This CPU can run it.
    pub available: bool,
    /// It is what [`BackendChoice::Auto`] picks without `MULTIBLOCK_BACKEND`.
    pub is_default: bool,
}

fn statuses<K>(backends: &'static [Backend<K>]) -> Vec<BackendStatus> {
    let cpu = CpuFeatures::get();
    let default = cpu::default_backend(backends, cpu).info.name;
    backends
        .iter()
        .map(|b| BackendStatus {
            info: b.info,
            available: (b.available)(cpu),
            is_default: b.info.name == default,
        })
        .collect()
}

/// Every backend name of every cipher, once each.
pub fn all_backend_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    let lists = [
        kalyna::BACKENDS.iter().map(|b| b.info.name).collect::<Vec<_>>(),
        kuznyechik::BACKENDS.iter().map(|b| b.info.name).collect(),
        magma::BACKENDS.iter().map(|b| b.info.name).collect(),
        ublock::BACKENDS.iter().map(|b| b.info.name).collect(),
    ];
    for n in lists.into_iter().flatten() {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
}

/// What `MULTIBLOCK_BACKEND` selects for `cipher` (`Ok(None)`: it is unset,
/// the default applies; `Err`: it names a backend no cipher has).
pub fn env_backend(cipher: &str) -> Result<Option<BackendInfo>> {
    let id = CipherId::from_name(cipher)?;
    let name = id.name();
    match id.family() {
        Family::Kalyna => cpu::env_choice(name, kalyna::BACKENDS),
        Family::Kuznyechik => cpu::env_choice(name, kuznyechik::BACKENDS),
        Family::Magma | Family::Gost89 => cpu::env_choice(name, magma::BACKENDS),
        Family::Ublock => cpu::env_choice(name, ublock::BACKENDS),
    }
    .transpose()
}

/// The backends of `cipher`, fastest first.
///
/// Every backend this CPU runs gives the same bytes; here each one of
/// Kuznyechik, keyed by name, against GOST R 34.12-2015 A.1:
///
/// ```
/// use multiblock::{backends, BackendChoice, Cipher, CipherId};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// let key = hex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
/// let list = backends("kuznyechik")?;
/// let default = list.iter().find(|b| b.is_default).expect("one default");
/// assert!(default.available && default.info.constant_time);
/// for b in list.iter().filter(|b| b.available) {
///     let c = Cipher::with_id(CipherId::Kuznyechik, &key, None, BackendChoice::Named(b.info.name))?;
///     assert_eq!(c.backend().name, b.info.name);
///     let mut block = hex("1122334455667700ffeeddccbbaa9988");
///     c.encrypt_blocks(&mut block)?;
///     assert_eq!(block, hex("7f679d90bebc24305a468d42b9d4edcd"), "backend {}", b.info.name);
/// }
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn backends(cipher: &str) -> Result<Vec<BackendStatus>> {
    Ok(match CipherId::from_name(cipher)? {
        CipherId::Kalyna128_128
        | CipherId::Kalyna128_256
        | CipherId::Kalyna256_256
        | CipherId::Kalyna256_512
        | CipherId::Kalyna512_512 => statuses(kalyna::BACKENDS),
        CipherId::Kuznyechik => statuses(kuznyechik::BACKENDS),
        CipherId::Magma | CipherId::Gost89 => statuses(magma::BACKENDS),
        CipherId::Ublock128_128 | CipherId::Ublock128_256 | CipherId::Ublock256_256 => {
            statuses(ublock::BACKENDS)
        }
    })
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
    engine: Engine,
}

impl Cipher {
    /// Keys `cipher` (a name from [`CipherId::name`]). `sbox` names a GOST
    /// 28147-89 S-box set (gost89: default `tc26-z`; magma: only `tc26-z`);
    /// `backend` forces a backend by name.
    pub fn new(cipher: &str, key: &[u8], sbox: Option<&str>, backend: Option<&str>) -> Result<Cipher> {
        let id = CipherId::from_name(cipher)?;
        let choice = backend.map_or(BackendChoice::Auto, BackendChoice::Named);
        Self::with_id(id, key, sbox, choice)
    }

    /// As [`Cipher::new`], with the cipher as a [`CipherId`] and the backend
    /// as a [`BackendChoice`].
    pub fn with_id(id: CipherId, key: &[u8], sbox: Option<&str>, choice: BackendChoice<'_>) -> Result<Cipher> {
        if key.len() != id.key_bytes() {
            return Err(Error::KeyLength { cipher: id.name(), expected: id.key_bytes(), got: key.len() });
        }
        let sbox = match (sbox, id) {
            (None, _) => None,
            (Some(name), CipherId::Gost89) => Some(SboxSet::from_name(name)?),
            (Some(name), CipherId::Magma) => match SboxSet::from_name(name)? {
                SboxSet::Tc26Z => None,
                _ => return Err(Error::SboxNotApplicable { cipher: id.name() }),
            },
            (Some(_), _) => return Err(Error::SboxNotApplicable { cipher: id.name() }),
        };
        let engine = match id {
            CipherId::Kalyna128_128 => kalyna::engine(kalyna::Variant::K128_128, key, choice)?,
            CipherId::Kalyna128_256 => kalyna::engine(kalyna::Variant::K128_256, key, choice)?,
            CipherId::Kalyna256_256 => kalyna::engine(kalyna::Variant::K256_256, key, choice)?,
            CipherId::Kalyna256_512 => kalyna::engine(kalyna::Variant::K256_512, key, choice)?,
            CipherId::Kalyna512_512 => kalyna::engine(kalyna::Variant::K512_512, key, choice)?,
            CipherId::Kuznyechik => kuznyechik::engine(key, choice)?,
            CipherId::Magma => magma::engine_magma(key, choice)?,
            CipherId::Gost89 => magma::engine_gost89(key, sbox.unwrap_or(SboxSet::Tc26Z), choice)?,
            CipherId::Ublock128_128 => ublock::engine(ublock::Variant::U128_128, key, choice)?,
            CipherId::Ublock128_256 => ublock::engine(ublock::Variant::U128_256, key, choice)?,
            CipherId::Ublock256_256 => ublock::engine(ublock::Variant::U256_256, key, choice)?,
        };
        Ok(Cipher { id, engine })
    }

    /// The cipher variant.
    pub fn id(&self) -> CipherId {
        self.id
    }

    /// Block size in bytes.
    pub fn block_bytes(&self) -> usize {
        self.engine.block_bytes()
    }

    /// The backend this key runs on (long calls; see [`Cipher::short_backends`]).
    pub fn backend(&self) -> BackendInfo {
        self.engine.backend()
    }

    /// Under the default choice, the narrower constant-time backends that
    /// short encryptions (and MAC steps) run on (faster there: less
    /// padding, less key material), each with the longest call in bytes it
    /// takes, shortest first; empty when every call runs on
    /// [`Cipher::backend`].
    pub fn short_backends(&self) -> &[(&'static BackendInfo, usize)] {
        self.engine.short_backends(false)
    }

    /// As [`Cipher::short_backends`], for decryption: the same backends,
    /// whose bounds can be larger where a wide kernel's decryption costs
    /// more than its encryption (Kalyna).
    pub fn short_backends_decrypt(&self) -> &[(&'static BackendInfo, usize)] {
        self.engine.short_backends(true)
    }

    /// ECB-encrypts whole blocks in place.
    pub fn encrypt_blocks(&self, data: &mut [u8]) -> Result<()> {
        self.engine.encrypt_blocks(data)
    }

    /// ECB-decrypts whole blocks in place.
    pub fn decrypt_blocks(&self, data: &mut [u8]) -> Result<()> {
        self.engine.decrypt_blocks(data)
    }

    /// The GOST 28147-89 MAC steps (RFC 5830 §8) on this key's backend, for
    /// magma and gost89: for each 8-byte block M of `data` (whole blocks),
    /// `state = E16(state ⊕ M)`, words in the cipher's byte order.
    pub(crate) fn imit_steps(&self, state: &mut [u8; 8], data: &[u8]) -> Result<()> {
        self.engine.imit_steps(state, data)
    }
}
