//! Ciphers by name: the dynamic API that the CLI and the bindings use.

use crate::backend::{self, statuses, BackendChoice, BackendInfo, BackendStatus};
use crate::keyed::Cipher;
use crate::error::{Error, Result};
use crate::magma::SboxSet;
use crate::{kalyna, kuznyechik, magma, ublock, CipherId, Family};

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
        Family::Kalyna => backend::env_choice(name, kalyna::BACKENDS),
        Family::Kuznyechik => backend::env_choice(name, kuznyechik::BACKENDS),
        Family::Magma | Family::Gost89 => backend::env_choice(name, magma::BACKENDS),
        Family::Ublock => backend::env_choice(name, ublock::BACKENDS),
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

/// Keying by name or by [`CipherId`]: the one place that knows every family.
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
        let sbox = check_key(id, key, sbox)?;
        // The family's Result is returned as it is: unwrapping it with `?`
        // and wrapping it again copied the Cipher through the stack in
        // overlapping pieces, which stalled store forwarding.
        match id {
            CipherId::Kalyna128_128 => kalyna::keyed(kalyna::Variant::K128_128, key, choice),
            CipherId::Kalyna128_256 => kalyna::keyed(kalyna::Variant::K128_256, key, choice),
            CipherId::Kalyna256_256 => kalyna::keyed(kalyna::Variant::K256_256, key, choice),
            CipherId::Kalyna256_512 => kalyna::keyed(kalyna::Variant::K256_512, key, choice),
            CipherId::Kalyna512_512 => kalyna::keyed(kalyna::Variant::K512_512, key, choice),
            CipherId::Kuznyechik => kuznyechik::keyed(key, choice),
            CipherId::Magma => magma::keyed_magma(key, choice),
            CipherId::Gost89 => magma::keyed_gost89(key, sbox.unwrap_or(SboxSet::Tc26Z), choice),
            CipherId::Ublock128_128 => ublock::keyed(ublock::Variant::U128_128, key, choice),
            CipherId::Ublock128_256 => ublock::keyed(ublock::Variant::U128_256, key, choice),
            CipherId::Ublock256_256 => ublock::keyed(ublock::Variant::U256_256, key, choice),
        }
    }
}

/// The checks of [`Cipher::with_id`] that need no key schedule: the key's
/// length and the S-box set (`Some` for gost89 with a named set). The modes
/// validate a request with it before they key anything.
pub(crate) fn check_key(id: CipherId, key: &[u8], sbox: Option<&str>) -> Result<Option<SboxSet>> {
    if key.len() != id.key_bytes() {
        return Err(Error::KeyLength { cipher: id.name(), expected: id.key_bytes(), got: key.len() });
    }
    match (sbox, id) {
        (None, _) => Ok(None),
        (Some(name), CipherId::Gost89) => Ok(Some(SboxSet::from_name(name)?)),
        (Some(name), CipherId::Magma) => match SboxSet::from_name(name)? {
            SboxSet::Tc26Z => Ok(None),
            _ => Err(Error::SboxNotApplicable { cipher: id.name() }),
        },
        (Some(_), _) => Err(Error::SboxNotApplicable { cipher: id.name() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::KNOWN_NAMES;

    #[test]
    fn every_backend_name_is_known_to_the_selection() {
        let names = all_backend_names();
        for n in &names {
            assert!(KNOWN_NAMES.contains(n), "{n} missing from backend::KNOWN_NAMES");
        }
        // Names of the other architectures' backends only.
        let elsewhere: Vec<_> = KNOWN_NAMES.iter().filter(|n| !names.contains(n)).collect();
        #[cfg(target_arch = "x86_64")]
        assert_eq!(elsewhere, [&"neon"]);
        #[cfg(target_arch = "aarch64")]
        assert!(elsewhere.iter().all(|n| !n.starts_with("neon")), "{elsewhere:?}");
    }
}
