//! The GOST 28147-89 S-box sets. Row `i` substitutes nibble `i` of the
//! 32-bit word, counting from the least significant nibble.
//!
//! Sources: tc26-z from GOST R 34.12-2015 §5.1.1 / RFC 7836 (id-tc26-gost-28147-param-Z);
//! test = id-GostR3411-94-TestParamSet (1.2.643.2.2.30.0, "Applied Cryptography",
//! Crypto++/Botan default); cryptopro-a..d = id-Gost28147-89-CryptoPro-A..D-ParamSet
//! (1.2.643.2.2.31.1..4, RFC 4357 §11.2). Checked against crates/multiblock/vectors/gost89.json.
//! dstu4145 = the default long-term key element (DKE No. 1) of DSTU 4145-2002, the S-box
//! set Ukrainian GOST 28147-89 uses unless a certificate names another; the same 64-byte
//! packed value is the default DKE of Bouncy Castle's DSTU 4145 parameters and UAPKI's
//! GOST 28147-89 S-box No. 1 (row i, two nibbles a byte, high nibble first). UAPKI's
//! GOST 28147-89 key wrap self-test vector, checked in wrap/, confirms the row order.

use crate::error::{Error, Result};

/// Eight 4-bit S-boxes π0..π7, each as its 16 outputs.
pub type Sbox = [[u8; 16]; 8];

/// A named S-box set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SboxSet {
    /// id-tc26-gost-28147-param-Z (RFC 7836; Magma's S-box, GOST R 34.12-2015).
    Tc26Z,
    /// The test set of GOST R 34.11-94 (RFC 5831), used by early GOST 28147-89 vectors.
    Test,
    /// id-Gost28147-89-CryptoPro-A-ParamSet (RFC 4357).
    CryptoProA,
    /// id-Gost28147-89-CryptoPro-B-ParamSet (RFC 4357).
    CryptoProB,
    /// id-Gost28147-89-CryptoPro-C-ParamSet (RFC 4357).
    CryptoProC,
    /// id-Gost28147-89-CryptoPro-D-ParamSet (RFC 4357).
    CryptoProD,
    /// The default DKE (S-box set No. 1) of DSTU 4145-2002, Ukraine's GOST 28147-89 S-box.
    Dstu4145,
}

impl SboxSet {
    /// Every set, as `multiblock info`'s help lists them.
    pub const ALL: [SboxSet; 7] = [
        SboxSet::Tc26Z,
        SboxSet::Test,
        SboxSet::CryptoProA,
        SboxSet::CryptoProB,
        SboxSet::CryptoProC,
        SboxSet::CryptoProD,
        SboxSet::Dstu4145,
    ];

    /// The set of a name from [`SboxSet::name`].
    pub fn from_name(name: &str) -> Result<SboxSet> {
        let known = || SboxSet::ALL.map(SboxSet::name).to_vec();
        SboxSet::ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| Error::UnknownSbox { name: name.into(), known: known() })
    }

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            SboxSet::Tc26Z => "tc26-z",
            SboxSet::Test => "test",
            SboxSet::CryptoProA => "cryptopro-a",
            SboxSet::CryptoProB => "cryptopro-b",
            SboxSet::CryptoProC => "cryptopro-c",
            SboxSet::CryptoProD => "cryptopro-d",
            SboxSet::Dstu4145 => "dstu4145",
        }
    }

    /// The eight S-boxes.
    pub const fn table(self) -> &'static Sbox {
        match self {
            SboxSet::Tc26Z => &TC26_Z,
            SboxSet::Test => &TEST,
            SboxSet::CryptoProA => &CRYPTOPRO_A,
            SboxSet::CryptoProB => &CRYPTOPRO_B,
            SboxSet::CryptoProC => &CRYPTOPRO_C,
            SboxSet::CryptoProD => &CRYPTOPRO_D,
            SboxSet::Dstu4145 => &DSTU4145,
        }
    }
}

/// One value per S-box set, built on first use and kept for the process
/// (the table backends' derived tables). The set is found by value: the
/// sets are `const` items, whose addresses may differ between uses, so a
/// lookup by address missed the cache and leaked new tables on every key
/// setup (found by fuzz/fuzz_targets/magma_backends.rs).
pub(super) fn per_set<T>(
    cache: &'static [std::sync::OnceLock<Box<T>>; SboxSet::ALL.len()],
    sbox: &Sbox,
    build: impl FnOnce() -> Box<T>,
) -> &'static T {
    match SboxSet::ALL.iter().position(|s| s.table() == sbox) {
        Some(i) => cache[i].get_or_init(build),
        // Every Sbox comes from SboxSet today; stay correct if that changes.
        None => Box::leak(build()),
    }
}

/// An S-box set from its eight rows π_0..π_7, each π_i(0)..π_i(15) as hex
/// digits, rows separated by one space (the order RFC 7836 and RFC 4357 print).
const fn sbox(rows: &str) -> Sbox {
    let text = rows.as_bytes();
    assert!(text.len() == 8 * 17 - 1, "eight rows of sixteen digits");
    let mut out = [[0u8; 16]; 8];
    let mut i = 0;
    while i < 128 {
        let c = text[i / 16 * 17 + i % 16];
        out[i / 16][i % 16] = match c {
            b'0'..=b'9' => c - b'0',
            b'A'..=b'F' => c - b'A' + 10,
            _ => panic!("a hex digit"),
        };
        i += 1;
    }
    out
}

const TC26_Z: Sbox = sbox("C462A5B9E8D703F1 68239A5C1E47BD0F B3582FADE174C960 C821D4F670A53E9B 7F5A816D093EB42C 5DF692CAB78143E0 8E25691CF4B0DA37 17ED05834FA69CB2");

const TEST: Sbox = sbox("4A92D80E6B1C7F53 EB4C6DFA23810759 581DA342EFC7609B 7DA1089FE46CB253 6C715FD84A9E03B2 4BA0721D36859CFE DB413F590AE7682C 1FD057A4923E6B8C");

const CRYPTOPRO_A: Sbox = sbox("96328B17A4EFC0D5 37E98AF0526CB4D1 E462B3D8CF5A0719 E7ACD13902B4F856 B5198DF0E423C7A6 3ADC120B75948FE6 1D297A608C45F3BE BAF50CE8623917D4");

const CRYPTOPRO_B: Sbox = sbox("84B135092EACD67F 012A4D5C973FB86E EC0A92DB758F3614 750DB6123ACF4E98 27CF95AB140D68E3 83264DEBC17FA095 52AB91C374D06F8E 04BE8371A296FD5C");

const CRYPTOPRO_C: Sbox = sbox("1BC29D0F458EA763 017DB4528EFC9A63 825049FA37CD6E1B 36015DA8B297EFC4 8DB0451293CE6FA7 C9B18E247365A0FD A968DE20F35B41C7 7405A2FEC61BD938");

// RFC 4357 CryptoPro-D. Not the GOST R 34.11-94 CryptoPro hash table that
// RustCrypto `magma` ships under the name `Gost89CryptoProD`.
const CRYPTOPRO_D: Sbox = sbox("FC2A645079ED1B83 B634CFE27D805A91 1CB0FE65AD489372 15ECA70D62B493F8 0C89D2AB73654EF1 80F325EB1A47C9D6 306F1E92D8C4BA57 1A68FB04C3597D2E");

// DSTU 4145-2002 DKE No. 1; packed, a9d6eb45f13c7082 80c4967b231f5ead ... 123e6db8fac57904.
const DSTU4145: Sbox = sbox("A9D6EB45F13C7082 80C4967B231F5EAD F658EBA4C037291D 38D96BF025CA4E17 F8E9720DC615B43A 28975F0BC1DEA364 38B564EA2C179FD0 123E6DB8FAC57904");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_a_permutation() {
        for set in SboxSet::ALL {
            for row in set.table() {
                let mut seen = [false; 16];
                for &v in row {
                    assert!(!seen[v as usize], "{}: repeated value", set.name());
                    seen[v as usize] = true;
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for set in SboxSet::ALL {
            assert_eq!(SboxSet::from_name(set.name()), Ok(set));
        }
        assert!(SboxSet::from_name("cryptopro-e").is_err());
    }
}
