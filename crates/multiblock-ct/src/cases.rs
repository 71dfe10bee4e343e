//! The workloads of the constant-time check: for one cipher and backend, key
//! setup, encryption and decryption of a few batch sizes; for the modes that
//! handle secrets, a round trip (and a rejected forgery for the AEADs); for
//! one hash and backend, messages of a few lengths whole and in pieces and
//! many messages at once; for the keyed hashes (HMAC, Kupyna's MAC), a tag
//! computed twice. Keys, plaintexts and hashed messages are marked secret
//! before use (HMAC keys and KDF inputs run through the hash); only outputs
//! that are public by design are declassified, and only after the library
//! has returned.
//!
//! Every call into the library sits between [`Probe::enter`] and
//! [`Probe::leave`], and nothing that looks at a secret (comparisons of
//! results) does: `ct-trace` records the machine code executed between them.

use crate::secret::{classify, declassify, still_secret};
use multiblock::hash::{self, HashId, Hasher, Hmac, KupynaMac};
use multiblock::modes::{self, Kind, Mode, Params, Request};
use multiblock::{BackendChoice, Cipher, CipherId, Error, Family};

/// What a case runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// A block cipher, with an S-box set for gost89.
    Cipher(CipherId, Option<&'static str>),
    /// A hash.
    Hash(HashId),
}

impl std::fmt::Display for Subject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Subject::Cipher(id, Some(sbox)) => write!(f, "{id}[{sbox}]"),
            Subject::Cipher(id, None) => write!(f, "{id}"),
            Subject::Hash(id) => write!(f, "{id}"),
        }
    }
}

/// One thing to check: a cipher or hash, a backend and what to run on it.
#[derive(Debug, Clone)]
pub struct Case {
    pub subject: Subject,
    /// A backend's name, or [`AUTO`].
    pub backend: &'static str,
    pub work: Work,
}

/// The backend name of cases that force none ([`BackendChoice::Auto`], with
/// `MULTIBLOCK_BACKEND` unset): what a user gets, the size-aware dispatch
/// included (the gost89 MAC's one-block steps go to the narrow tier).
pub const AUTO: &str = "auto";

impl Case {
    fn cipher(&self) -> (CipherId, Option<&'static str>) {
        match self.subject {
            Subject::Cipher(id, sbox) => (id, sbox),
            Subject::Hash(id) => unreachable!("{id} is a hash: only cipher work asks for a cipher"),
        }
    }

    fn choice(&self) -> BackendChoice<'static> {
        match self.backend {
            AUTO => BackendChoice::Auto,
            name => BackendChoice::Named(name),
        }
    }
}

#[derive(Debug, Clone)]
pub enum Work {
    /// Key setup, then ECB encryption and decryption of these block counts.
    Blocks(Vec<usize>),
    /// A mode's round trip with these parameters (IV, AAD, sections).
    Mode(Mode, Params),
    /// Messages of these lengths hashed whole, in two pieces when `split`,
    /// and all at once by `digest_many`: the backend's kernels, padding and
    /// finalization.
    Hash { lengths: Vec<usize>, split: bool },
    /// HMAC of a message under a secret key, twice (on the default backend).
    Hmac,
    /// Kupyna's MAC of a message under a secret key, twice (on the default backend).
    KupynaMac,
}

impl Work {
    /// Work that runs a backend's own kernels (checked on every backend);
    /// the rest is code shared by all backends.
    pub fn is_kernel(&self) -> bool {
        matches!(self, Work::Blocks(_) | Work::Hash { .. })
    }
}

/// The secret bytes (keys and plaintexts) of one run. `ct-trace` runs every
/// case once per fill and requires the same instruction and address trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// Pseudo-random bytes (what `ct-check` uses).
    Random,
    Zeros,
    Ones,
}

impl Fill {
    /// The fills `ct-trace` compares: random, all-zero, all-ones.
    pub const TRACED: [Fill; 3] = [Fill::Random, Fill::Zeros, Fill::Ones];

    /// `len` secret bytes for the item numbered `seed` of a case.
    pub fn bytes(self, seed: u64, len: usize) -> Vec<u8> {
        // One allocation of the same size for every fill, so that the heap,
        // and every address the traced code computes from it, stays put.
        let mut v = pseudo_random(seed, len);
        match self {
            Fill::Random => {}
            Fill::Zeros => v.fill(0),
            Fill::Ones => v.fill(0xff),
        }
        v
    }

    pub fn name(self) -> &'static str {
        match self {
            Fill::Random => "random",
            Fill::Zeros => "zeros",
            Fill::Ones => "ones",
        }
    }
}

/// Marks where library code runs: `ct-trace` records the instructions
/// between `enter` and `leave`; `ct-check` needs no marks.
pub trait Probe {
    fn enter(&self);
    fn leave(&self);
}

/// The probe of runs that record nothing.
pub struct NoProbe;

impl Probe for NoProbe {
    fn enter(&self) {}
    fn leave(&self) {}
}

/// `f` between the probe's marks.
fn probed<T>(probe: &dyn Probe, f: impl FnOnce() -> T) -> T {
    probe.enter();
    let out = f();
    probe.leave();
    out
}

impl Case {
    pub fn label(&self) -> String {
        let what = match &self.work {
            Work::Blocks(counts) => format!("key setup + ecb {counts:?} blocks"),
            Work::Mode(m, p) if p.key_meshing => format!("{m} --key-meshing"),
            Work::Mode(m, _) => format!("{m}"),
            Work::Hash { lengths, split: true } => format!("hash {lengths:?} bytes, whole, split and many"),
            Work::Hash { lengths, split: false } => format!("hash {lengths:?} bytes, whole and many"),
            Work::Hmac => "hmac".to_string(),
            Work::KupynaMac => "kupyna mac".to_string(),
        };
        format!("{} on {}: {what}", self.subject, self.backend)
    }

    /// Whether the traces check this case without `--all-modes`: the ECB
    /// cases always, a mode on its cipher's default backend. The modes' own code
    /// (counters, GHASH, MAC subkeys, re-keying) is the same on every backend,
    /// and every backend's kernels and key setup are traced by the ECB cases
    /// (1 block, a partial and more than a full batch), so by default each mode
    /// is traced on the default backend only: a step costs ~6 µs in a VM
    /// and ~0.16 ms in the Bochs emulator (`ct-trace`), and QEMU is slow too (`ct-emu`).
    /// The Kalyna modes are traced for the three block sizes (128/128, 256/256,
    /// 512/512): the mode code depends on the block size only, and every key
    /// size's key schedule is traced by the ECB cases.
    pub fn traced_by_default(&self) -> bool {
        if self.work.is_kernel() || self.backend == AUTO {
            return true;
        }
        let (cipher, _) = self.cipher();
        if cipher.family() == multiblock::Family::Kalyna && cipher.key_bytes() != cipher.block_bytes() {
            return false;
        }
        multiblock::backends(cipher.name())
            .map(|all| all.iter().any(|s| s.is_default && s.info.name == self.backend))
            .unwrap_or(false)
    }

    /// The case cut to one run of each of its backend's kernels, or `None`
    /// when another case runs them (`ct-trace --kernels-once`, for the
    /// Bochs emulator, where a traced instruction costs about 0.16 ms):
    /// ECB of one block more than a batch only (a full batch and a partial
    /// one, as the one-block count alone would run), GOST 28147-89 under
    /// its first S-box set only (the sets are table contents loaded by the
    /// same code), and hashes whole and many at once but not split (the
    /// hasher's buffering is the same code on every backend).
    pub fn kernels_once(&self) -> Option<Case> {
        if let Subject::Cipher(id, sbox) = self.subject {
            if sbox != sboxes(id)[0] {
                return None;
            }
        }
        let work = match &self.work {
            Work::Blocks(counts) => Work::Blocks(counts.iter().max().into_iter().copied().collect()),
            Work::Hash { lengths, .. } => Work::Hash { lengths: lengths.clone(), split: false },
            other => other.clone(),
        };
        Some(Case { work, ..self.clone() })
    }

    /// Runs the case; an `Err` is a functional failure (a wrong round trip).
    pub fn run(&self) -> Result<(), String> {
        self.run_with(Fill::Random, &NoProbe)
    }

    /// Runs the case with secrets from `fill`, library calls inside `probe`.
    pub fn run_with(&self, fill: Fill, probe: &dyn Probe) -> Result<(), String> {
        match &self.work {
            Work::Blocks(counts) => self.blocks(counts, fill, probe),
            Work::Mode(mode, params) => self.mode(*mode, params, fill, probe),
            Work::Hash { lengths, split } => self.hash(lengths, *split, fill, probe),
            Work::Hmac => self.keyed_hash(fill, probe),
            Work::KupynaMac => self.keyed_hash(fill, probe),
        }
    }

    fn hash_id(&self) -> HashId {
        match self.subject {
            Subject::Hash(id) => id,
            Subject::Cipher(id, _) => unreachable!("{id} is a cipher: only hash work asks for a hash"),
        }
    }

    /// Each length hashed whole and, when `split`, in two pieces (the
    /// buffered partial block), then all of them at once; the digests are
    /// public.
    fn hash(&self, lengths: &[usize], split: bool, fill: Fill, probe: &dyn Probe) -> Result<(), String> {
        let id = self.hash_id();
        let messages: Vec<Vec<u8>> = lengths.iter().map(|&n| fill.bytes(20 + n as u64, n)).collect();
        for m in &messages {
            classify(m);
        }
        let mut digests = Vec::new();
        for m in &messages {
            let (whole, split) = probed(probe, || -> Result<_, Error> {
                let mut h = Hasher::with_backend(id, self.choice())?;
                let pieces = split.then(|| h.clone());
                h.update(m);
                let whole = h.finalize();
                let Some(mut pieces) = pieces else { return Ok((whole.clone(), whole)) };
                let (a, b) = m.split_at(m.len() / 3);
                pieces.update(a);
                pieces.update(b);
                Ok((whole, pieces.finalize()))
            })
            .map_err(|e| e.to_string())?;
            digests.push((whole, split));
        }
        let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        let many = probed(probe, || hash::digest_many_with_backend(id, &refs, self.choice())).map_err(|e| e.to_string())?;
        // A table backend's digest comes out of lookups, which memcheck
        // counts as defined: only a constant-time backend's digest must
        // still be marked (the leaky control is judged by memcheck's reports).
        let constant_time = hash::backends(id).iter().any(|s| s.info.name == self.backend && s.info.constant_time);
        for ((whole, split), from_many) in digests.iter().zip(&many) {
            if constant_time && !still_secret(whole) {
                return Err("the digest is no longer marked secret: the check is blind here".into());
            }
            for public in [whole, split, from_many] {
                declassify(public);
            }
            if whole != split || whole != from_many {
                return Err(format!("{id}: the digest differs between whole, split and many-message hashing"));
            }
        }
        for m in &messages {
            declassify(m);
        }
        Ok(())
    }

    /// A keyed hash's tag under a secret key, computed twice.
    fn keyed_hash(&self, fill: Fill, probe: &dyn Probe) -> Result<(), String> {
        let id = self.hash_id();
        let key = fill.bytes(30, id.digest_bytes());
        let message = fill.bytes(31, 100);
        classify(&key);
        classify(&message);
        let tag = || -> Result<Vec<u8>, Error> {
            match self.work {
                Work::KupynaMac => {
                    let mut mac = KupynaMac::with_backend(id.digest_bytes() * 8, &key, self.choice())?;
                    mac.update(&message);
                    Ok(mac.finalize_reset())
                }
                _ => {
                    let mut mac = Hmac::with_backend(id, &key, self.choice())?;
                    mac.update(&message);
                    Ok(mac.finalize())
                }
            }
        };
        let a = probed(probe, tag).map_err(|e| e.to_string())?;
        let b = probed(probe, tag).map_err(|e| e.to_string())?;
        if !still_secret(&a) {
            return Err("the tag is no longer marked secret: the check is blind here".into());
        }
        for public in [&a, &b, &key, &message] {
            declassify(public);
        }
        if a != b || a.len() != id.digest_bytes() {
            return Err(format!("{id}: the tag differs between two runs"));
        }
        Ok(())
    }

    /// One key setup, then ECB encryption and decryption of each count.
    fn blocks(&self, counts: &[usize], fill: Fill, probe: &dyn Probe) -> Result<(), String> {
        let (cipher, sbox) = self.cipher();
        let bb = cipher.block_bytes();
        let key = fill.bytes(1, cipher.key_bytes());
        classify(&key);
        let c = probed(probe, || Cipher::with_id(cipher, &key, sbox, self.choice()))
            .map_err(|e| e.to_string())?;
        for &n in counts {
            let plain = fill.bytes(2 + n as u64, n * bb);
            classify(&plain);
            let mut sealed = plain.clone();
            let mut opened = vec![0u8; sealed.len()];
            probed(probe, || -> Result<(), Error> {
                c.encrypt_blocks(&mut sealed)?;
                opened.copy_from_slice(&sealed);
                c.decrypt_blocks(&mut opened)
            })
            .map_err(|e| e.to_string())?;
            if !still_secret(&sealed) || !still_secret(&opened) {
                return Err(format!("the output of {n} blocks is no longer marked secret: the check is blind here"));
            }
            for public in [&plain, &sealed, &opened] {
                declassify(public);
            }
            if opened != plain || (n > 0 && sealed == plain && fill != Fill::Zeros) {
                return Err(format!("ecb round trip of {n} blocks failed"));
            }
        }
        probed(probe, || drop(c));
        declassify(&key);
        Ok(())
    }

    fn mode(&self, mode: Mode, params: &Params, fill: Fill, probe: &dyn Probe) -> Result<(), String> {
        let (cipher, sbox) = self.cipher();
        // Two keys for IEEE 1619 XTS (K1 ‖ K2), one for every other mode.
        let key = fill.bytes(7, mode.key_bytes(cipher));
        // Two and a half blocks: several kernel calls for the sequential
        // modes and a partial last block (DSTU CMAC pads it, §9).
        // (Whole blocks where the mode needs them; padding removal is not
        // part of the check, see the README's Security section.) XTS: two
        // data units, the first long enough for the tweaks' vector steps
        // (eight blocks at a time), the second ending in a stolen block.
        let n = cipher.block_bytes();
        let len = match mode {
            Mode::Kw | Mode::Cbc => 2 * n,
            Mode::Xts => 16 * n + n / 2,
            _ => 5 * n / 2,
        };
        let plain = fill.bytes(8, len);
        classify(&key);
        classify(&plain);
        let req = Request {
            cipher,
            mode,
            key: &key,
            sbox,
            backend: self.choice(),
            params: params.clone(),
        };
        let result = match mode.kind() {
            Kind::Mac => mac_twice(&req, &plain, probe),
            _ => round_trip(&req, &plain, probe),
        };
        declassify(&key);
        result
    }
}

/// MAC: the tag is public; computing it twice must agree.
fn mac_twice(req: &Request<'_>, plain: &[u8], probe: &dyn Probe) -> Result<(), String> {
    let a = probed(probe, || modes::mac(req, plain)).map_err(|e| e.to_string())?;
    let b = probed(probe, || modes::mac(req, plain)).map_err(|e| e.to_string())?;
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
fn round_trip(req: &Request<'_>, plain: &[u8], probe: &dyn Probe) -> Result<(), String> {
    let sealed = probed(probe, || modes::encrypt(req, plain)).map_err(|e| e.to_string())?;
    if !still_secret(&sealed) {
        return Err("the ciphertext is no longer marked secret: the check is blind here".into());
    }
    declassify(&sealed);
    let opened = probed(probe, || modes::decrypt(req, &sealed)).map_err(|e| e.to_string())?;
    declassify(&opened);
    declassify(plain);
    if opened != plain {
        return Err("decrypt(encrypt(x)) != x".into());
    }
    if matches!(req.mode.kind(), Kind::Aead | Kind::KeyWrap) {
        let mut forged = sealed.clone();
        *forged.last_mut().expect("a tag") ^= 1;
        match probed(probe, || modes::decrypt(req, &forged)) {
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

/// 1 block (a partial batch) and one block more than a full batch (two
/// kernel calls, the second partial). `ways` is the backend's batch in its
/// own unit: Kalyna backends count 16-byte blocks, so a batch holds fewer
/// of the wider variants' blocks.
fn block_counts(id: CipherId, ways: usize) -> Vec<usize> {
    let per_batch = match id.family() {
        Family::Kalyna => (ways * 16 / id.block_bytes()).max(1),
        _ => ways,
    };
    vec![1, per_batch + 1]
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
        ]
        .into_iter()
        .chain((id == CipherId::Kuznyechik).then(|| Work::Mode(Mode::Xts, Params { data_unit: Some(10 * n), ..Params::default() })))
        .collect(),
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
            Work::Mode(Mode::Xts, iv(n)),
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

impl Selection {
    /// The command-line name: `ct` or `leaky`.
    pub fn name(self) -> &'static str {
        match self {
            Selection::ConstantTime => "ct",
            Selection::Leaky => "leaky",
        }
    }

    /// The selection named `s` (see [`Selection::name`]).
    pub fn from_name(s: &str) -> Option<Selection> {
        [Selection::ConstantTime, Selection::Leaky].into_iter().find(|sel| sel.name() == s)
    }
}

/// A backend this CPU cannot run.
#[derive(Debug, Clone)]
pub struct Skipped {
    pub subject: Subject,
    pub backend: &'static str,
    pub needs: &'static str,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{} (needs {})", self.subject, self.backend, self.needs)
    }
}

/// The cases of a run, and the backends of the selection skipped because
/// this CPU lacks what they need.
pub fn cases(selection: Selection) -> (Vec<Case>, Vec<Skipped>) {
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
                skipped.push(Skipped { subject: Subject::Cipher(id, None), backend: info.name, needs: info.needs });
                continue;
            }
            for sbox in sboxes(id) {
                let case = |work| Case { subject: Subject::Cipher(id, sbox), backend: info.name, work };
                // The leaky control needs one difference: one block is enough.
                let counts = match selection {
                    Selection::ConstantTime => block_counts(id, info.ways),
                    Selection::Leaky => vec![1],
                };
                cases.push(case(Work::Blocks(counts)));
                // The modes run once per backend (with the default S-box set).
                if selection == Selection::ConstantTime && sbox == sboxes(id)[0] {
                    cases.extend(mode_work(id).into_iter().map(case));
                }
            }
        }
        // The gost89 MAC runs its steps on the key's backend, by default on
        // the one-block tier of the dispatch: checked as a user gets it.
        if selection == Selection::ConstantTime && id == CipherId::Gost89 {
            let mac = |params| Case { subject: Subject::Cipher(id, sboxes(id)[0]), backend: AUTO, work: Work::Mode(Mode::Mac, params) };
            cases.push(mac(Params::default()));
            cases.push(mac(Params { key_meshing: true, mac_bits: Some(64), ..Params::default() }));
        }
    }
    hash_cases(selection, &mut cases, &mut skipped);
    (cases, skipped)
}

/// Every named hash on each backend of the selection: one byte (a partial
/// block), and more than two and more than five blocks with a partial last
/// one (for the constant-time selection; the leaky control needs one
/// difference).
/// HMAC and Kupyna's MAC on the default backend: their own code is the
/// same on every backend.
fn hash_cases(selection: Selection, cases: &mut Vec<Case>, skipped: &mut Vec<Skipped>) {
    for id in HashId::NAMED {
        let subject = Subject::Hash(id);
        for st in hash::backends(id) {
            let info = st.info;
            if info.constant_time != (selection == Selection::ConstantTime) {
                continue;
            }
            if !st.available {
                skipped.push(Skipped { subject, backend: info.name, needs: info.needs });
                continue;
            }
            let lengths = match selection {
                // On a backend of 5 ways or more (Kupyna's, Streebog's
                // `avx512-gfni`): enough messages that `digest_many` takes
                // the row-layout kernel (groups of 5 or more 512-bit Kupyna
                // states, 3 or more 1024-bit ones, 6 or more Streebog
                // states); for 64-byte blocks the first 8 messages of 2
                // whole blocks or more, so that it also takes the kernels
                // that run several blocks of every message in one call
                // (Streebog's `avx512-gfni`); and one of 1100 bytes, two
                // runs of blocks or more (8 of 64 bytes, 4 of 128), to which
                // Kupyna's `avx512-gfni` gives T+ from the row layout. None
                // empty: each digest must come from secret bytes.
                Selection::ConstantTime if info.ways >= 5 => {
                    if id.block_bytes() == 64 {
                        vec![128, 2 * id.block_bytes() + 3, 150, 191, 192, 200, 255, 256, 1, 2, 5, 17, 63, 64, 65, 1100]
                    } else {
                        vec![1, 2 * id.block_bytes() + 3, 2, 130, 1100]
                    }
                }
                // Six blocks with the padding: every step of the AVX2
                // one-message Kupyna kernel, whose T+ runs two blocks at a
                // time ahead of T⊕ (the first pair, pairs begun beside an
                // odd block, a last block with no pair ahead).
                Selection::ConstantTime => vec![1, 2 * id.block_bytes() + 3, 5 * id.block_bytes() + 3],
                Selection::Leaky => vec![1],
            };
            cases.push(Case { subject, backend: info.name, work: Work::Hash { lengths, split: true } });
        }
        if selection == Selection::ConstantTime {
            cases.push(Case { subject, backend: AUTO, work: Work::Hmac });
            if matches!(id, HashId::Kupyna { .. }) {
                cases.push(Case { subject, backend: AUTO, work: Work::KupynaMac });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `kernels_once` keeps a case for every (subject, backend) pair whose
    /// kernels the full list runs, with the largest block count and no
    /// split, and drops only the S-box sets after the first.
    #[test]
    fn kernels_once_keeps_every_backend_kernel_and_cuts_the_rest() {
        let (all, _) = cases(Selection::ConstantTime);
        let kernels: Vec<&Case> = all.iter().filter(|c| c.work.is_kernel()).collect();
        let once: Vec<Case> = kernels.iter().filter_map(|c| c.kernels_once()).collect();
        assert!(once.len() < kernels.len(), "the S-box sets after the first are dropped");
        let key = |c: &Case| match c.subject {
            Subject::Cipher(id, _) => (id.name().to_string(), c.backend),
            Subject::Hash(id) => (id.to_string(), c.backend),
        };
        for c in &kernels {
            let kept: Vec<&Case> = once.iter().filter(|o| key(o) == key(c)).collect();
            assert_eq!(kept.len(), 1, "{}: one case left for its backend", c.label());
            match (&c.work, &kept[0].work) {
                (Work::Blocks(full), Work::Blocks(cut)) => {
                    assert_eq!(cut, &vec![*full.iter().max().unwrap()], "{}", c.label());
                    assert!(cut[0] > 1, "{}: more than one batch", c.label());
                }
                (Work::Hash { lengths, split: true }, Work::Hash { lengths: cut, split: false }) => {
                    assert_eq!(lengths, cut, "{}", c.label())
                }
                (full, cut) => panic!("{}: {full:?} became {cut:?}", c.label()),
            }
        }
        for c in all.iter().filter(|c| !c.work.is_kernel()) {
            assert!(matches!(c.kernels_once(), Some(Case { work: Work::Mode(..) | Work::Hmac | Work::KupynaMac, .. })));
        }
    }

    /// A hash case without the split still hashes and compares whole and many.
    #[test]
    fn a_hash_case_without_the_split_runs() {
        let (all, _) = cases(Selection::ConstantTime);
        let case = all.iter().find(|c| matches!(c.work, Work::Hash { .. }) && c.backend == "portable").expect("a portable hash case");
        let cut = case.kernels_once().expect("hash cases are kept");
        assert!(cut.label().ends_with("whole and many"), "{}", cut.label());
        cut.run().expect("whole and many agree");
    }
}
