//! Every mode of every cipher with arbitrary ciphertext, tag, IV, AAD and
//! parameters: decrypt and mac never panic (errors only), mac is
//! deterministic, and where encrypt accepts the inputs, decrypt(encrypt(x))
//! gives x back and a flipped bit of an AEAD / key-wrap output is refused as
//! an authentication failure.
#![no_main]

use libfuzzer_sys::fuzz_target;
use multiblock::magma::SboxSet;
use multiblock::modes::{self, Kind, Mode, Padding, Params, Request};
use multiblock::{BackendChoice, CipherId, Error};
use multiblock_fuzz::key_of;

/// A mode parameter: unset, a whole number of bytes in bits, small, or anything.
#[derive(arbitrary::Arbitrary, Debug, Clone, Copy)]
enum Param {
    Unset,
    Bytes(u8),
    Small(u16),
    Any(usize),
}

impl Param {
    fn get(self) -> Option<usize> {
        match self {
            Param::Unset => None,
            Param::Bytes(b) => Some(8 * b as usize),
            Param::Small(v) => Some(v as usize),
            Param::Any(v) => Some(v),
        }
    }
}

#[derive(arbitrary::Arbitrary, Debug)]
struct Input {
    cipher: u8,
    /// Below 128: a mode of the cipher; else any mode name (most are refused).
    mode: u8,
    /// 0: no --sbox; otherwise a set (only gost89 takes all; magma tc26-z).
    sbox: u8,
    padding: u8,
    key: Vec<u8>,
    iv: Option<Vec<u8>>,
    aad: Vec<u8>,
    s: Param,
    m: Param,
    mac_bits: Param,
    tag_bits: Param,
    section_bytes: Param,
    key_section_bytes: Param,
    nb: Param,
    key_meshing: bool,
    /// IEEE 1619 XTS (Kuznyechik): bytes per data unit and the first unit's number.
    data_unit: Param,
    unit: Option<u64>,
    /// Which bit of an AEAD / key-wrap output to flip.
    flip: u32,
    data: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let cipher = CipherId::ALL[input.cipher as usize % CipherId::ALL.len()];
    let mode = if input.mode < 128 {
        let modes = Mode::for_cipher(cipher);
        modes[input.mode as usize % modes.len()]
    } else {
        Mode::ALL[input.mode as usize % Mode::ALL.len()]
    };
    let sbox = match input.sbox as usize % (SboxSet::ALL.len() + 1) {
        0 => None,
        i => Some(SboxSet::ALL[i - 1].name()),
    };
    // Two keys (K1 ‖ K2) for Kuznyechik's IEEE 1619 XTS, one otherwise.
    let key = key_of(&input.key, mode.key_bytes(cipher));
    let req = Request {
        cipher,
        mode,
        key: &key,
        sbox,
        backend: BackendChoice::Auto,
        params: Params {
            iv: input.iv.clone(),
            aad: input.aad.clone(),
            padding: Padding::ALL[input.padding as usize % Padding::ALL.len()],
            s: input.s.get(),
            m: input.m.get(),
            mac_bits: input.mac_bits.get(),
            tag_bits: input.tag_bits.get(),
            section_bytes: input.section_bytes.get(),
            key_section_bytes: input.key_section_bytes.get(),
            nb: input.nb.get(),
            key_meshing: input.key_meshing,
            data_unit: input.data_unit.get(),
            unit: input.unit.map(u128::from),
        },
    };
    let data = &input.data;
    let one_line = |r: &Result<Vec<u8>, Error>| {
        if let Err(e) = r {
            assert!(!e.to_string().contains('\n'), "a multi-line error: {e}");
        }
    };

    // Arbitrary input as ciphertext (or message): errors only, never a panic.
    let decrypted = modes::decrypt(&req, data);
    one_line(&decrypted);
    let tag = modes::mac(&req, data);
    one_line(&tag);
    if mode.kind() == Kind::Mac {
        assert!(decrypted.is_err() && modes::encrypt(&req, data).is_err(), "{cipher} {mode}: a MAC mode ciphered");
        if let Ok(t) = tag {
            assert!(modes::mac(&req, data).unwrap() == t, "{cipher} {mode}: MAC is not deterministic");
        }
        return;
    }
    assert!(tag.is_err(), "{cipher} {mode}: a cipher mode computed a MAC");

    let encrypted = modes::encrypt(&req, data);
    one_line(&encrypted);
    let Ok(ct) = encrypted else { return };
    let pt = modes::decrypt(&req, &ct)
        .unwrap_or_else(|e| panic!("{cipher} {mode} {:?}: decrypt(encrypt(x)) failed: {e}", req.params.padding));
    match req.params.padding {
        // Procedures 1 and 3 cannot be removed: the zeros (0x80 0..) stay.
        Padding::Gost1 | Padding::Gost3 => {
            assert!(pt.starts_with(data) && pt.len() < data.len() + cipher.block_bytes(), "{cipher} {mode}: round trip")
        }
        _ => assert!(pt == *data, "{cipher} {mode} {:?}: decrypt(encrypt(x)) != x", req.params.padding),
    }
    match mode.kind() {
        Kind::Cipher if req.params.padding == Padding::None => {
            assert_eq!(ct.len(), data.len(), "{cipher} {mode}: ciphertext length")
        }
        // A tag (or integrity value) of at least 64 bits: a flipped bit anywhere
        // must fail the check (a shorter tag could collide by chance).
        Kind::Aead | Kind::KeyWrap if ct.len() >= data.len() + 8 => {
            let mut bad = ct.clone();
            let bit = input.flip as usize % (8 * bad.len());
            bad[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(modes::decrypt(&req, &bad), Err(Error::Authentication), "{cipher} {mode}: flipped bit {bit} accepted");
        }
        _ => {}
    }
});
