//! The workloads of the constant-time check: for one cipher and backend, key
//! setup, encryption and decryption of a few batch sizes; for the modes that
//! handle secrets, a round trip (and a rejected forgery for the AEADs). Keys
//! and plaintexts are marked secret before use; only outputs that are public
//! by design are declassified, and only after the library has returned.

use crate::secret::{classify, declassify, still_secret};
use multiblock::modes::{self, Kind, Mode, Params, Request};
use multiblock::{BackendChoice, Cipher, CipherId, Error};

/// One thing to check: a cipher (with an S-box set for gost89), a backend
/// and what to run on it.
#[derive(Debug, Clone)]
pub struct Case {
    pub cipher: CipherId,
    pub sbox: Option<&'static str>,
    pub backend: &'static str,
    pub work: Work,
}

#[derive(Debug, Clone)]
pub enum Work {
    /// Key setup, then ECB encryption and decryption of these block counts.
    Blocks(Vec<usize>),
    /// A mode's round trip with these parameters (IV, AAD, sections).
    Mode(Mode, Params),
}

impl Case {
    pub fn label(&self) -> String {
        let sbox = self.sbox.map(|s| format!("[{s}]")).unwrap_or_default();
        let what = match &self.work {
            Work::Blocks(counts) => format!("key setup + ecb {counts:?} blocks"),
            Work::Mode(m, _) => format!("{m}"),
        };
        format!("{}{sbox} on {}: {what}", self.cipher, self.backend)
    }

    /// Runs the case; an `Err` is a functional failure (a wrong round trip).
    pub fn run(&self) -> Result<(), String> {
        match &self.work {
            Work::Blocks(counts) => counts.iter().try_for_each(|&n| self.blocks(n)),
            Work::Mode(mode, params) => self.mode(*mode, params),
        }
    }

    fn blocks(&self, n: usize) -> Result<(), String> {
        let key = pseudo_random(1 + n as u64, self.cipher.key_bytes());
        let plain = pseudo_random(2 + n as u64, n * self.cipher.block_bytes());
        classify(&key);
        classify(&plain);
        let c = Cipher::with_id(self.cipher, &key, self.sbox, BackendChoice::Named(self.backend))
            .map_err(|e| e.to_string())?;
        let mut sealed = plain.clone();
        c.encrypt_blocks(&mut sealed).map_err(|e| e.to_string())?;
        let mut opened = sealed.clone();
        c.decrypt_blocks(&mut opened).map_err(|e| e.to_string())?;
        drop(c);
        if !still_secret(&sealed) || !still_secret(&opened) {
            return Err(format!("the output of {n} blocks is no longer marked secret: the check is blind here"));
        }
        for public in [&key, &plain, &sealed, &opened] {
            declassify(public);
        }
        if opened != plain || (n > 0 && sealed == plain) {
            return Err(format!("ecb round trip of {n} blocks failed"));
        }
        Ok(())
    }

    fn mode(&self, mode: Mode, params: &Params) -> Result<(), String> {
        let key = pseudo_random(7, self.cipher.key_bytes());
        // Three and a half blocks: several kernel calls' worth for the
        // sequential modes and a partial last block (DSTU CMAC pads it, §9).
        // (Whole blocks where the mode needs them; padding removal is not
        // part of the check, see the README's Security section.)
        let whole = matches!(mode, Mode::Kw | Mode::Cbc);
        let len = if whole { 3 * self.cipher.block_bytes() } else { 7 * self.cipher.block_bytes() / 2 };
        let plain = pseudo_random(8, len);
        classify(&key);
        classify(&plain);
        let req = Request {
            cipher: self.cipher,
            mode,
            key: &key,
            sbox: self.sbox,
            backend: BackendChoice::Named(self.backend),
            params: params.clone(),
        };
        let result = match mode.kind() {
            Kind::Mac => mac_twice(&req, &plain),
            _ => round_trip(&req, &plain),
        };
        declassify(&key);
        result
    }
}

/// MAC: the tag is public; computing it twice must agree.
fn mac_twice(req: &Request<'_>, plain: &[u8]) -> Result<(), String> {
    let a = modes::mac(req, plain).map_err(|e| e.to_string())?;
    let b = modes::mac(req, plain).map_err(|e| e.to_string())?;
    if !still_secret(&a) {
        return Err("the tag is no longer marked secret: the check is blind here".into());
    }
    declassify(&a);
    declassify(&b);
    if a != b || a.is_empty() {
        return Err("mac differs between two runs".into());
    }
    Ok(())
}

/// Encrypt (the ciphertext, and tag, are public), decrypt (the plaintext
/// is declassified only to compare it); for AEAD and key wrap also a
/// forged tag, which must be rejected.
fn round_trip(req: &Request<'_>, plain: &[u8]) -> Result<(), String> {
    let sealed = modes::encrypt(req, plain).map_err(|e| e.to_string())?;
    if !still_secret(&sealed) {
        return Err("the ciphertext is no longer marked secret: the check is blind here".into());
    }
    declassify(&sealed);
    let opened = modes::decrypt(req, &sealed).map_err(|e| e.to_string())?;
    declassify(&opened);
    declassify(plain);
    if opened != plain {
        return Err("decrypt(encrypt(x)) != x".into());
    }
    if matches!(req.mode.kind(), Kind::Aead | Kind::KeyWrap) {
        let mut forged = sealed.clone();
        *forged.last_mut().expect("a tag") ^= 1;
        match modes::decrypt(req, &forged) {
            Err(Error::Authentication) => {}
            other => return Err(format!("a forged tag was not rejected: {other:?}")),
        }
    }
    Ok(())
}

/// Deterministic bytes (splitmix64): the check needs no real randomness.
pub fn pseudo_random(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// The S-box sets to check for `id` (every set for gost89).
fn sboxes(id: CipherId) -> Vec<Option<&'static str>> {
    match id {
        CipherId::Gost89 => multiblock::magma::SboxSet::ALL.iter().map(|s| Some(s.name())).collect(),
        _ => vec![None],
    }
}

/// 1 block, a partial batch and more than one full batch.
fn block_counts(ways: usize) -> Vec<usize> {
    let mut v = vec![1, ways / 2 + 1, ways + 3];
    v.dedup();
    v
}

/// The modes of `id` that handle secrets, with parameters that exercise
/// them on little data (ACPKM sections of two blocks: several re-keyings).
fn mode_work(id: CipherId) -> Vec<Work> {
    let n = id.block_bytes();
    let iv = |len: usize| Params { iv: Some(pseudo_random(3, len)), ..Params::default() };
    let mut nonce = pseudo_random(4, n);
    nonce[0] &= 0x7f;
    let aad = pseudo_random(5, 5);
    match id {
        CipherId::Kuznyechik | CipherId::Magma => vec![
            Work::Mode(Mode::Ctr, iv(n / 2)),
            Work::Mode(Mode::CtrAcpkm, Params { section_bytes: Some(2 * n), ..iv(n / 2) }),
            Work::Mode(Mode::Mgm, Params { iv: Some(nonce), aad, ..Params::default() }),
            Work::Mode(Mode::Mac, Params::default()),
            Work::Mode(
                Mode::OmacAcpkm,
                Params { section_bytes: Some(2 * n), key_section_bytes: Some(if n == 8 { 32 } else { 48 }), ..Params::default() },
            ),
        ],
        CipherId::Gost89 => vec![Work::Mode(Mode::Cnt, iv(8)), Work::Mode(Mode::Mac, Params::default())],
        CipherId::Ublock128_128 | CipherId::Ublock128_256 | CipherId::Ublock256_256 => {
            vec![Work::Mode(Mode::Cbc, iv(n))]
        }
        _ => vec![
            Work::Mode(Mode::Ctr, iv(n)),
            Work::Mode(Mode::Gcm, Params { aad, ..iv(n) }),
            Work::Mode(Mode::Cmac, Params::default()),
            Work::Mode(Mode::Ccm, iv(n)),
            Work::Mode(Mode::Kw, Params::default()),
        ],
    }
}

/// Which backends a run covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// Every backend flagged `constant_time` that this CPU runs, with the
    /// modes on each: memcheck must report nothing.
    ConstantTime,
    /// Every backend not flagged `constant_time` (table, table12,
    /// reference): memcheck must report each of them.
    Leaky,
}

/// The cases of a run, and the constant-time backends skipped because this
/// CPU lacks what they need (as "cipher/backend (needs ...)").
pub fn cases(selection: Selection) -> (Vec<Case>, Vec<String>) {
    let mut cases = Vec::new();
    let mut skipped = Vec::new();
    for id in CipherId::ALL {
        let statuses = multiblock::backends(id.name()).expect("a known cipher");
        for st in statuses {
            let info = st.info;
            let wanted = match selection {
                Selection::ConstantTime => info.constant_time,
                Selection::Leaky => !info.constant_time,
            };
            if !wanted {
                continue;
            }
            if !st.available {
                skipped.push(format!("{id}/{} (needs {})", info.name, info.needs));
                continue;
            }
            for sbox in sboxes(id) {
                let case = |work| Case { cipher: id, sbox, backend: info.name, work };
                cases.push(case(Work::Blocks(block_counts(info.ways))));
                // The modes run once per backend (with the default S-box set).
                if selection == Selection::ConstantTime && sbox == sboxes(id)[0] {
                    cases.extend(mode_work(id).into_iter().map(case));
                }
            }
        }
    }
    (cases, skipped)
}
