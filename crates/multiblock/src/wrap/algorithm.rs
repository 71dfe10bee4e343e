//! The wrap formats by name, as the command line and the bindings name them.

use super::Kexp15Cipher;
use crate::error::{Error, Result};

/// A key export or key wrap format.
///
/// ```
/// use multiblock::wrap::{Algorithm, Kexp15Cipher};
/// assert_eq!(Algorithm::from_name("magma-kexp15")?, Algorithm::Kexp15(Kexp15Cipher::Magma));
/// assert_eq!(Algorithm::Dstu7624Wrap.name(), "dstu7624-wrap");
/// assert!(Algorithm::from_name("aes-kw").is_err());
/// # Ok::<(), multiblock::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// KExp15/KImp15 of R 1323565.1.017-2018 over Kuznyechik or Magma.
    Kexp15(Kexp15Cipher),
    /// Dstu7624Wrap of the Ukrainian CMS profile (Kalyna-256/256).
    Dstu7624Wrap,
    /// The GOST 28147-89 key wrap of the Ukrainian CMS profile (order No. 108
    /// of 2013), with DSTU 4145-2002's default S-box set (DKE No. 1).
    Gost28147Wrap,
}

impl Algorithm {
    /// Every format, in the order the command line lists them.
    ///
    /// ```
    /// use multiblock::wrap::Algorithm;
    /// for a in Algorithm::ALL {
    ///     assert_eq!(Algorithm::from_name(a.name())?, a);
    /// }
    /// # Ok::<(), multiblock::Error>(())
    /// ```
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Kexp15(Kexp15Cipher::Kuznyechik),
        Algorithm::Kexp15(Kexp15Cipher::Magma),
        Algorithm::Dstu7624Wrap,
        Algorithm::Gost28147Wrap,
    ];

    /// The name on the command line (`"kuznyechik-kexp15"`).
    ///
    /// ```
    /// use multiblock::wrap::{Algorithm, Kexp15Cipher};
    /// assert_eq!(Algorithm::Kexp15(Kexp15Cipher::Kuznyechik).name(), "kuznyechik-kexp15");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Kexp15(cipher) => cipher.name(),
            Algorithm::Dstu7624Wrap => super::dstu7624::NAME,
            Algorithm::Gost28147Wrap => super::gost28147::NAME,
        }
    }

    /// The format of a name from [`Algorithm::name`]; an unknown name is a
    /// one-line error that lists the known ones.
    ///
    /// ```
    /// use multiblock::wrap::Algorithm;
    /// let err = Algorithm::from_name("kw").unwrap_err().to_string();
    /// assert_eq!(err, "unknown key wrap 'kw' (expected one of: kuznyechik-kexp15, magma-kexp15, dstu7624-wrap, gost28147-wrap)");
    /// ```
    pub fn from_name(name: &str) -> Result<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name).ok_or_else(|| {
            let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
            Error::Param(format!(
                "unknown key wrap '{}' (expected one of: {})",
                name.escape_debug(),
                known.join(", ")
            ))
        })
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
