//! TLSTREE (RFC 9189 §8.1, RFC 9367 §4.1.2): the key of record `seqnum`
//! under the root key K_root of a GOST TLS connection,
//!
//! TLSTREE(K_root, i) = KDF_3(KDF_2(KDF_1(K_root, STR_8(i & C_1)), STR_8(i & C_2)), STR_8(i & C_3)),
//!
//! with KDF_j(K, D) = KDF_GOSTR3411_2012_256(K, "level*j*", D), STR_8 the
//! 8-byte big-endian sequence number, and the masks C_1 ⊂ C_2 ⊂ C_3 of the
//! cipher suite. TLS 1.2 (RFC 9189) and TLS 1.3 (RFC 9367) use the same
//! chain and labels; only the masks differ.
//!
//! [`TlsTree`] keeps each level's key with the masked sequence number it
//! was made for: the records under one level-3 key recompute nothing, and a
//! record that crosses a level-3 boundary (but no level-2 one) recomputes
//! only level 3. The sequence number is public, so the cache's branches on
//! it leak nothing secret.

use super::derive::kdf_into;
use zeroize::Zeroizing;

/// A GOST TLS cipher suite that re-keys its records with TLSTREE; each has
/// its own masks C_1, C_2, C_3 ([`Suite::masks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suite {
    /// TLS_GOSTR341112_256_WITH_KUZNYECHIK_CTR_OMAC (TLS 1.2, RFC 9189).
    KuznyechikCtrOmac,
    /// TLS_GOSTR341112_256_WITH_MAGMA_CTR_OMAC (TLS 1.2, RFC 9189).
    MagmaCtrOmac,
    /// TLS_GOSTR341112_256_WITH_KUZNYECHIK_MGM_L (TLS 1.3, RFC 9367).
    KuznyechikMgmL,
    /// TLS_GOSTR341112_256_WITH_KUZNYECHIK_MGM_S (TLS 1.3, RFC 9367).
    KuznyechikMgmS,
    /// TLS_GOSTR341112_256_WITH_MAGMA_MGM_L (TLS 1.3, RFC 9367).
    MagmaMgmL,
    /// TLS_GOSTR341112_256_WITH_MAGMA_MGM_S (TLS 1.3, RFC 9367).
    MagmaMgmS,
}

impl Suite {
    /// Every suite, TLS 1.2's first.
    pub const ALL: [Suite; 6] = [
        Suite::KuznyechikCtrOmac,
        Suite::MagmaCtrOmac,
        Suite::KuznyechikMgmL,
        Suite::KuznyechikMgmS,
        Suite::MagmaMgmL,
        Suite::MagmaMgmS,
    ];

    /// The masks [C_1, C_2, C_3]: RFC 9189 §8.1.1 Table 3 (CTR_OMAC) and
    /// RFC 9367 §4.1.2 Table 1 (MGM).
    pub const fn masks(self) -> [u64; 3] {
        match self {
            Suite::KuznyechikCtrOmac => [0xFFFF_FFFF_0000_0000, 0xFFFF_FFFF_FFF8_0000, 0xFFFF_FFFF_FFFF_FFC0],
            Suite::MagmaCtrOmac => [0xFFFF_FFC0_0000_0000, 0xFFFF_FFFF_FE00_0000, 0xFFFF_FFFF_FFFF_F000],
            Suite::KuznyechikMgmL => [0xF800_0000_0000_0000, 0xFFFF_FFF0_0000_0000, 0xFFFF_FFFF_FFFF_E000],
            Suite::MagmaMgmL => [0xFFE0_0000_0000_0000, 0xFFFF_FFFF_C000_0000, 0xFFFF_FFFF_FFFF_FF80],
            Suite::KuznyechikMgmS => [0xFFFF_FFFF_E000_0000, 0xFFFF_FFFF_FFFF_0000, 0xFFFF_FFFF_FFFF_FFF8],
            Suite::MagmaMgmS => [0xFFFF_FFFF_FC00_0000, 0xFFFF_FFFF_FFFF_E000, 0xFFFF_FFFF_FFFF_FFFF],
        }
    }

    /// A short lower-case name: `kuznyechik-ctr-omac`, `magma-ctr-omac`,
    /// `kuznyechik-mgm-l`, `kuznyechik-mgm-s`, `magma-mgm-l`, `magma-mgm-s`.
    pub const fn name(self) -> &'static str {
        match self {
            Suite::KuznyechikCtrOmac => "kuznyechik-ctr-omac",
            Suite::MagmaCtrOmac => "magma-ctr-omac",
            Suite::KuznyechikMgmL => "kuznyechik-mgm-l",
            Suite::KuznyechikMgmS => "kuznyechik-mgm-s",
            Suite::MagmaMgmL => "magma-mgm-l",
            Suite::MagmaMgmS => "magma-mgm-s",
        }
    }

    /// The cipher suite's name in its RFC.
    pub const fn tls_name(self) -> &'static str {
        match self {
            Suite::KuznyechikCtrOmac => "TLS_GOSTR341112_256_WITH_KUZNYECHIK_CTR_OMAC",
            Suite::MagmaCtrOmac => "TLS_GOSTR341112_256_WITH_MAGMA_CTR_OMAC",
            Suite::KuznyechikMgmL => "TLS_GOSTR341112_256_WITH_KUZNYECHIK_MGM_L",
            Suite::KuznyechikMgmS => "TLS_GOSTR341112_256_WITH_KUZNYECHIK_MGM_S",
            Suite::MagmaMgmL => "TLS_GOSTR341112_256_WITH_MAGMA_MGM_L",
            Suite::MagmaMgmS => "TLS_GOSTR341112_256_WITH_MAGMA_MGM_S",
        }
    }
}

/// The labels of KDF_1, KDF_2, KDF_3.
const LABELS: [&[u8]; 3] = [b"level1", b"level2", b"level3"];

/// TLSTREE(`root`, `seqnum`) computed whole: three KDF_GOSTR3411_2012_256
/// calls. For a sequence of records use a [`TlsTree`], which reuses the
/// upper levels.
///
/// ```
/// use multiblock::kdf::{tlstree, Suite};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // RFC 9189 Appendix A.1.1.1 (Magma CTR-OMAC), seqnum 4096.
/// let root = hex("00112233445566778899aabbcceeff0a112233445566778899aabbcceeff0a00").try_into().unwrap();
/// let key = tlstree(&root, Suite::MagmaCtrOmac, 4096);
/// assert_eq!(key[..], hex("fb30ee53cfcf89d748fc0c72ef160b8b53cbbbfd031282b026214ab2e07758ff"));
/// ```
pub fn tlstree(root: &[u8; 32], suite: Suite, seqnum: u64) -> Zeroizing<[u8; 32]> {
    let masks = suite.masks();
    let mut keys = Zeroizing::new([[0u8; 32]; 3]);
    kdf_into(root, LABELS[0], &(seqnum & masks[0]).to_be_bytes(), &mut keys[0]);
    for level in 1..3 {
        let (upper, lower) = keys.split_at_mut(level);
        kdf_into(&upper[level - 1], LABELS[level], &(seqnum & masks[level]).to_be_bytes(), &mut lower[0]);
    }
    Zeroizing::new(keys[2])
}

/// TLSTREE over one root key, with each level's last key cached.
///
/// ```
/// use multiblock::kdf::{Suite, TlsTree};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// // RFC 9367 Appendix A.2.2 (Magma MGM-L): server_write_key_ap and its record keys.
/// let root = hex("15d92c5147b21310ededf55b3d7ab776817d6fe2fcf230d7e3f29275f6e241ec").try_into().unwrap();
/// let mut tree = TlsTree::new(&root, Suite::MagmaMgmL);
/// let first = hex("7bb881553598def534fcaf9b77a3355bc3bca3874d6740f6cbf5c1b6d35c65ed");
/// assert_eq!(tree.key(0)[..], first);
/// assert_eq!(tree.key(1)[..], first); // records 0..=127 share a key (C_3 = 0x…ff80)
/// assert_eq!(tree.key(128)[..], hex("93d5d6e1036fdfb3efbf31e6da5eece685171c977ff9cd6c3a3f67c0224ab6eb"));
/// ```
pub struct TlsTree {
    suite: Suite,
    root: Zeroizing<[u8; 32]>,
    /// The keys of levels 1, 2, 3 for the masked sequence numbers in `masked`.
    keys: Zeroizing<[[u8; 32]; 3]>,
    /// `seqnum & C_j` that `keys[j - 1]` was derived for.
    masked: [u64; 3],
    /// How many levels, from level 1 down, hold a key (0 before the first call).
    valid: usize,
}

impl TlsTree {
    /// A tree over the root key (the connection's `sender_write_key` or
    /// MAC key) for `suite`; nothing is derived until the first [`TlsTree::key`].
    pub fn new(root: &[u8; 32], suite: Suite) -> TlsTree {
        TlsTree {
            suite,
            root: Zeroizing::new(*root),
            keys: Zeroizing::new([[0; 32]; 3]),
            masked: [0; 3],
            valid: 0,
        }
    }

    /// The suite whose masks the tree uses.
    pub fn suite(&self) -> Suite {
        self.suite
    }

    /// TLSTREE(K_root, `seqnum`): the key of record `seqnum`, borrowed from
    /// the cache (the tree wipes it when it moves on or is dropped). Only
    /// the levels whose masked sequence number changed since the last call
    /// are derived again; any order of sequence numbers is correct.
    pub fn key(&mut self, seqnum: u64) -> &[u8; 32] {
        let masks = self.suite.masks();
        let first_stale = (0..self.valid).find(|&j| self.masked[j] != seqnum & masks[j]).unwrap_or(self.valid);
        for level in first_stale..3 {
            let masked = seqnum & masks[level];
            let (upper, lower) = self.keys.split_at_mut(level);
            let parent: &[u8; 32] = if level == 0 { &self.root } else { &upper[level - 1] };
            kdf_into(parent, LABELS[level], &masked.to_be_bytes(), &mut lower[0]);
            self.masked[level] = masked;
        }
        self.valid = 3;
        &self.keys[2]
    }
}

/// Shows the suite and which masked sequence numbers are cached, never a key.
impl core::fmt::Debug for TlsTree {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TlsTree")
            .field("suite", &self.suite)
            .field("cached", &&self.masked[..self.valid])
            .finish_non_exhaustive()
    }
}
