//! Backends and how one is chosen.
//!
//! Every family lists its backends in a static slice, fastest first
//! (`<family>/mod.rs`, `BACKENDS`). A backend is a [`Backend`] value in its own
//! file: adding one is adding that file and one line to the slice.
//!
//! Selection (see [`select`]): an explicit name (API or CLI `--backend`) wins;
//! otherwise the environment variable `MULTIBLOCK_BACKEND` (a comma-separated
//! preference list, the first name this cipher has and this CPU runs is
//! taken; other names are skipped, and with none left the default is used);
//! otherwise the first constant-time backend the CPU supports. Backends
//! that are not constant-time (`table`) are never chosen by default, and
//! when the environment chooses one a warning goes to stderr.

use crate::cpu::CpuFeatures;
use crate::error::{Error, Result};
use std::sync::OnceLock;

/// What a user can know about a backend without using it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackendInfo {
    /// Stable name, used by `--backend`, `MULTIBLOCK_BACKEND` and `bench`.
    pub name: &'static str,
    /// No memory address and no branch depends on the key or the data.
    pub constant_time: bool,
    /// How many blocks one kernel call processes together.
    pub ways: usize,
    /// The instruction sets it needs, for messages (e.g. "avx512f+avx512bw").
    pub needs: &'static str,
}

/// One keyed instance of a backend: encrypts or decrypts whole blocks in place.
///
/// `data.len()` is always a multiple of the block size (the caller checks);
/// an empty slice is allowed. Implementations zeroize their key material on drop.
pub(crate) trait BlockKernel: Send + Sync {
    fn encrypt_blocks(&self, data: &mut [u8]);
    fn decrypt_blocks(&self, data: &mut [u8]);
    /// The GOST 28147-89 MAC steps (RFC 5830 §8), for the 64-bit Feistel
    /// family only: for each 8-byte block M of `data` (whole blocks),
    /// `state = E16(state ⊕ M)`, 16 rounds with K0..K7 twice and no final
    /// swap, words read and written in the key's byte order. `false` (and
    /// `state` untouched): this kernel has no such step (other families).
    fn imit_steps(&self, _state: &mut [u8; 8], _data: &[u8]) -> bool {
        false
    }
}

/// A backend of one cipher family whose expanded key type is `K`, making a
/// keyed block kernel; or of a hash, making its compression kernel (`T`).
pub(crate) struct Backend<K: 'static, T: 'static = Box<dyn BlockKernel>> {
    pub info: BackendInfo,
    /// Whether this CPU can run it. A kernel is built only after this says yes.
    pub available: fn(&CpuFeatures) -> bool,
    /// Builds the kernel: a keyed block kernel from the family's expanded key.
    pub new: fn(&K) -> T,
}

/// For backends that run everywhere.
pub(crate) fn always(_: &CpuFeatures) -> bool {
    true
}

/// How the caller wants the backend chosen.
///
/// A name this cipher lacks, or one this CPU cannot run, is an error, not
/// a silent fallback:
///
/// ```
/// use multiblock::{BackendChoice, Cipher, CipherId, Error};
/// let key = [0u8; 32];
/// // `reference` (the plain oracle, not constant-time) exists for every cipher.
/// let c = Cipher::with_id(CipherId::Magma, &key, None, BackendChoice::Named("reference"))?;
/// assert!(!c.backend().constant_time);
/// // `Auto` is never a backend whose timing depends on the data.
/// let c = Cipher::with_id(CipherId::Magma, &key, None, BackendChoice::Auto)?;
/// assert!(c.backend().constant_time || std::env::var(multiblock::BACKEND_ENV).is_ok());
/// let err = Cipher::with_id(CipherId::Magma, &key, None, BackendChoice::Named("no-such")).err();
/// assert!(matches!(err, Some(Error::UnknownBackend { .. })));
/// # Ok::<(), multiblock::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BackendChoice<'a> {
    /// `MULTIBLOCK_BACKEND` if set, else the fastest constant-time backend.
    #[default]
    Auto,
    /// Exactly this backend, or an error.
    Named(&'a str),
}

/// Every backend name of every family on every architecture: a name of a
/// `MULTIBLOCK_BACKEND` list outside it is a typo, reported as an error; a
/// name in it that this cipher lacks is skipped. A test in `registry.rs`
/// checks it against the families' lists.
pub(crate) const KNOWN_NAMES: &[&str] = &[
    "avx512-gfni",
    "avx512-gfni-narrow",
    "avx512-vbmi",
    "avx512-vbmi-narrow",
    "avx512",
    "avx2-gfni",
    "avx2",
    "avx2-narrow",
    "ssse3",
    "neon",
    "portable",
    "reference",
    "table",
    "table12",
];

/// The environment variable that overrides the default choice.
pub const BACKEND_ENV: &str = "MULTIBLOCK_BACKEND";

/// `MULTIBLOCK_BACKEND`, read once per process: keying happens per message
/// (and per section in ACPKM, per key meshing in gost89), and an environment
/// lookup takes a lock and allocates.
fn env_preference() -> Option<&'static str> {
    static PREFERENCE: OnceLock<Option<String>> = OnceLock::new();
    PREFERENCE
        .get_or_init(|| std::env::var(BACKEND_ENV).ok().filter(|l| !l.trim().is_empty()))
        .as_deref()
}

/// Chooses a backend from `backends` (ordered fastest first) as described in
/// the module documentation.
pub(crate) fn select<K, T>(
    cipher: &'static str,
    backends: &'static [Backend<K, T>],
    choice: BackendChoice<'_>,
) -> Result<&'static Backend<K, T>> {
    let cpu = CpuFeatures::get();
    match choice {
        BackendChoice::Named(name) => named(cipher, backends, name, cpu),
        BackendChoice::Auto => match env_preference() {
            Some(list) => {
                let chosen = from_preference(cipher, backends, list, cpu)?;
                if !chosen.info.constant_time {
                    warn_not_constant_time(cipher, chosen.info.name);
                }
                Ok(chosen)
            }
            _ => Ok(default_backend(backends, cpu)),
        },
    }
}

/// The first name of the comma-separated `list` that this cipher has and
/// this CPU runs. Other names are skipped: another cipher's backend
/// (`ssse3` for Kuznyechik, `table` for uBlock) or one this CPU cannot run.
/// With none left the default is used, unless the list holds a name that
/// no cipher has (a typo), which is then an error rather than ignored.
pub(crate) fn from_preference<K, T>(
    cipher: &'static str,
    backends: &'static [Backend<K, T>],
    list: &str,
    cpu: &CpuFeatures,
) -> Result<&'static Backend<K, T>> {
    let names: Vec<&str> = list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    if let Some(b) = names.iter().find_map(|n| backends.iter().find(|b| b.info.name == *n && (b.available)(cpu))) {
        return Ok(b);
    }
    match names.iter().find(|n| !KNOWN_NAMES.contains(n)) {
        Some(typo) => Err(Error::UnknownBackend { cipher, name: typo.to_string(), known: KNOWN_NAMES.to_vec() }),
        None => Ok(default_backend(backends, cpu)),
    }
}

/// One line on stderr, once per cipher and backend in a process: the
/// environment chose a backend whose timing depends on the key and data.
fn warn_not_constant_time(cipher: &'static str, backend: &'static str) {
    static WARNED: std::sync::Mutex<Vec<(&str, &str)>> = std::sync::Mutex::new(Vec::new());
    let mut warned = WARNED.lock().unwrap_or_else(|e| e.into_inner());
    if !warned.contains(&(cipher, backend)) {
        warned.push((cipher, backend));
        eprintln!(
            "multiblock: warning: {BACKEND_ENV} selects backend '{backend}' for {cipher}, which is not \
             constant-time (its timing can leak the key and the data)"
        );
    }
}

/// What [`BackendChoice::Auto`] takes for `backends` under the current
/// `MULTIBLOCK_BACKEND` (`None`: the variable is unset or empty).
pub(crate) fn env_choice<K, T>(cipher: &'static str, backends: &'static [Backend<K, T>]) -> Option<Result<BackendInfo>> {
    env_preference().map(|list| from_preference(cipher, backends, list, CpuFeatures::get()).map(|b| b.info))
}

fn named<K, T>(
    cipher: &'static str,
    backends: &'static [Backend<K, T>],
    name: &str,
    cpu: &CpuFeatures,
) -> Result<&'static Backend<K, T>> {
    let b = backends.iter().find(|b| b.info.name == name).ok_or_else(|| {
        Error::UnknownBackend {
            cipher,
            name: name.to_string(),
            known: backends.iter().map(|b| b.info.name).collect(),
        }
    })?;
    if (b.available)(cpu) {
        Ok(b)
    } else {
        Err(Error::BackendUnavailable { cipher, name: b.info.name, needs: b.info.needs })
    }
}

/// The fastest constant-time backend this CPU runs. Every family has a
/// portable constant-time or reference backend last, so one always exists.
pub(crate) fn default_backend<K, T>(backends: &'static [Backend<K, T>], cpu: &CpuFeatures) -> &'static Backend<K, T> {
    backends
        .iter()
        .find(|b| b.info.constant_time && (b.available)(cpu))
        .or_else(|| backends.iter().find(|b| (b.available)(cpu)))
        .expect("every family has a portable backend")
}

/// A backend of a cipher or hash as `multiblock info` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackendStatus {
    /// Name, constant-time or not, blocks per call, instruction sets.
    pub info: BackendInfo,
    /// This CPU can run it.
    pub available: bool,
    /// It is what [`BackendChoice::Auto`] picks without `MULTIBLOCK_BACKEND`.
    pub is_default: bool,
}

pub(crate) fn statuses<K, T>(backends: &'static [Backend<K, T>]) -> Vec<BackendStatus> {
    let cpu = CpuFeatures::get();
    let default = default_backend(backends, cpu).info.name;
    backends
        .iter()
        .map(|b| BackendStatus {
            info: b.info,
            available: (b.available)(cpu),
            is_default: b.info.name == default,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nop;
    impl BlockKernel for Nop {
        fn encrypt_blocks(&self, _: &mut [u8]) {}
        fn decrypt_blocks(&self, _: &mut [u8]) {}
    }

    fn never(_: &CpuFeatures) -> bool {
        false
    }

    const fn fake(name: &'static str, constant_time: bool, available: fn(&CpuFeatures) -> bool) -> Backend<()> {
        Backend {
            info: BackendInfo { name, constant_time, ways: 1, needs: "magic" },
            available,
            new: |_| Box::new(Nop),
        }
    }

    static LIST: &[Backend<()>] = &[
        fake("future", true, never),
        fake("table", false, always),
        fake("portable-ct", true, always),
        fake("reference", false, always),
    ];

    #[test]
    fn default_is_the_first_available_constant_time_backend() {
        let cpu = CpuFeatures::default();
        assert_eq!(default_backend(LIST, &cpu).info.name, "portable-ct");
        static NO_CT: &[Backend<()>] = &[fake("table", false, always), fake("reference", false, always)];
        assert_eq!(default_backend(NO_CT, &cpu).info.name, "table");
    }

    #[test]
    fn named_choice_is_strict() {
        let pick = |n| select("x", LIST, BackendChoice::Named(n)).map(|b| b.info.name);
        assert_eq!(pick("table"), Ok("table"));
        assert_eq!(pick("reference"), Ok("reference"));
        assert!(matches!(pick("future"), Err(Error::BackendUnavailable { needs: "magic", .. })));
        match pick("nope") {
            Err(Error::UnknownBackend { known, .. }) => assert_eq!(known.len(), 4),
            other => panic!("{other:?}"),
        }
    }
}
