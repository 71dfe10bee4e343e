//! DSTU 7624:2014 modes (Kalyna) and uBlock CBC through the one-shot API:
//! every mode vector, a cross-check of every mode against the independent
//! dstu-core 0.7 hazmat code on random keys, IVs and data for all five
//! Kalyna variants, round trips over many lengths, and the errors.
//! (Streaming = one-shot is tested next to the streaming types, in
//! src/modes/dstu/tests.rs.)

mod common;
use common::*;

use multiblock::modes::{self, Kind, Mode, Padding, Params, Request};
use multiblock::{BackendChoice, Cipher, CipherId, Error};

const KALYNA: [CipherId; 5] = [
    CipherId::Kalyna128_128,
    CipherId::Kalyna128_256,
    CipherId::Kalyna256_256,
    CipherId::Kalyna256_512,
    CipherId::Kalyna512_512,
];

const UBLOCK: [CipherId; 3] = [CipherId::Ublock128_128, CipherId::Ublock128_256, CipherId::Ublock256_256];

fn req<'a>(id: CipherId, mode: Mode, key: &'a [u8], params: Params) -> Request<'a> {
    Request { cipher: id, mode, key, sbox: None, backend: BackendChoice::Auto, params }
}

fn with_iv(iv: &[u8]) -> Params {
    Params { iv: Some(iv.to_vec()), ..Params::default() }
}

fn enc(r: &Request<'_>, d: &[u8]) -> Vec<u8> {
    modes::encrypt(r, d).unwrap_or_else(|e| panic!("{} {} encrypt {} bytes: {e}", r.cipher, r.mode, d.len()))
}

fn dec(r: &Request<'_>, d: &[u8]) -> Vec<u8> {
    modes::decrypt(r, d).unwrap_or_else(|e| panic!("{} {} decrypt {} bytes: {e}", r.cipher, r.mode, d.len()))
}

fn mac(r: &Request<'_>, d: &[u8]) -> Vec<u8> {
    modes::mac(r, d).unwrap_or_else(|e| panic!("{} {} mac {} bytes: {e}", r.cipher, r.mode, d.len()))
}

fn is_param(r: multiblock::Result<Vec<u8>>, needle: &str) {
    match r {
        Err(Error::Param(msg)) => {
            assert!(msg.contains(needle), "message {msg:?} should name {needle:?}");
            assert!(!msg.contains('\n'), "one line: {msg:?}");
        }
        other => panic!("expected Error::Param naming {needle:?}, got {other:?}"),
    }
}

// ---------------------------------------------------------------- vectors

fn vector_params(v: &serde_json::Value) -> Params {
    let p = |k: &str| v.get("params").and_then(|p| p.get(k)).and_then(|x| x.as_u64()).map(|x| x as usize);
    Params {
        iv: field(v, "iv").map(hex),
        aad: field(v, "aad").map(hex).unwrap_or_default(),
        s: p("s"),
        tag_bits: p("tag_bits"),
        nb: p("nb"),
        ..Params::default()
    }
}

#[test]
fn every_kalyna_and_ublock_mode_vector() {
    let mut count = std::collections::BTreeMap::new();
    for v in vectors("kalyna.json").iter().chain(vectors("ublock.json").iter()) {
        let mode_name = field(v, "mode").unwrap();
        if mode_name == "ecb" {
            continue;
        }
        let id = CipherId::from_name(field(v, "cipher").unwrap()).unwrap();
        let mode = Mode::parse(id, mode_name).unwrap_or_else(|e| panic!("{e}"));
        let key = hex(field(v, "key").unwrap());
        let r = req(id, mode, &key, vector_params(v));
        let pt = hex(field(v, "plaintext").unwrap_or(""));
        let ct = hex(field(v, "ciphertext").unwrap_or(""));
        let tag = hex(field(v, "tag").unwrap_or(""));
        match mode.kind() {
            Kind::Cipher | Kind::KeyWrap => {
                assert_eq!(to_hex(&enc(&r, &pt)), to_hex(&ct), "{id} {mode} encrypt");
                assert_eq!(to_hex(&dec(&r, &ct)), to_hex(&pt), "{id} {mode} decrypt");
            }
            Kind::Aead => {
                let sealed = [ct.as_slice(), tag.as_slice()].concat();
                assert_eq!(to_hex(&enc(&r, &pt)), to_hex(&sealed), "{id} {mode} seal");
                assert_eq!(to_hex(&dec(&r, &sealed)), to_hex(&pt), "{id} {mode} open");
                for i in [0, ct.len(), sealed.len() - 1] {
                    let mut bad = sealed.clone();
                    bad[i] ^= 0x01;
                    assert_eq!(modes::decrypt(&r, &bad), Err(Error::Authentication), "{id} {mode} byte {i}");
                }
            }
            Kind::Mac => assert_eq!(to_hex(&mac(&r, &pt)), to_hex(&tag), "{id} {mode}"),
        }
        *count.entry((id.family() == multiblock::Family::Kalyna, mode_name.to_string())).or_insert(0) += 1;
    }
    let kalyna_modes = ["cbc", "ccm", "cfb", "cmac", "ctr", "gcm", "gmac", "kw", "ofb", "xts"];
    for m in kalyna_modes {
        assert!(count.get(&(true, m.to_string())).copied().unwrap_or(0) > 0, "no Kalyna {m} vector ran");
    }
    assert_eq!(count.get(&(false, "cbc".to_string())), Some(&3), "uBlock CBC vectors");
}

// ------------------------------------------------------- dstu-core oracle

/// (key, iv, aad, plaintext) → (ciphertext, full-block tag).
type GcmFn = fn(&[u8], &[u8], &[u8], &[u8]) -> (Vec<u8>, Vec<u8>);
/// (key, iv, aad, plaintext) → ciphertext ‖ tag.
type CcmFn = fn(&[u8], &[u8], &[u8], &[u8]) -> Vec<u8>;

/// dstu-core 0.7 hazmat for one Kalyna variant, behind slices.
struct Oracle {
    id: CipherId,
    ctr: fn(&[u8], &[u8], &mut [u8]),
    cbc: fn(&[u8], &[u8], &mut [u8], bool),
    cfb: fn(&[u8], &[u8], usize, &mut [u8], bool),
    ofb: fn(&[u8], &[u8], &mut [u8]),
    /// 16-byte tag.
    cmac: fn(&[u8], &[u8]) -> Vec<u8>,
    /// (ciphertext, full-block tag).
    gcm: GcmFn,
    /// Full-block tag.
    gmac: fn(&[u8], &[u8]) -> Vec<u8>,
    /// dstu-core's fixed (N_B, tag bytes) for this variant; returns C ‖ T.
    ccm: CcmFn,
    ccm_nb: usize,
    ccm_tag: usize,
    xts: fn(&[u8], &[u8], &mut [u8], bool),
    kw: fn(&[u8], &[u8]) -> Vec<u8>,
}

macro_rules! oracle {
    ($id:expr, $bb:literal, $nb:literal, $q:literal,
     $ctr:ident, $cbc:ident, $cfb:ident, $ofb:ident, $cmac:ident, $gcm:ident, $gmac:ident, $ccm:ident,
     $xts:ident, $kw:ident) => {{
        use dstu_core::hazmat::*;
        Oracle {
            id: $id,
            ctr: |k, iv, d| kalyna_ctr::$ctr::new(k.try_into().unwrap(), iv.try_into().unwrap()).apply_in_place(d),
            cbc: |k, iv, d, e| {
                let mut c = kalyna_cbc::$cbc::new(k.try_into().unwrap(), iv.try_into().unwrap());
                if e {
                    c.encrypt_in_place(d).unwrap()
                } else {
                    c.decrypt_in_place(d).unwrap()
                }
            },
            cfb: |k, iv, q, d, e| {
                let mut c = kalyna_cfb::$cfb::new(k.try_into().unwrap(), iv.try_into().unwrap(), q).unwrap();
                if e {
                    c.encrypt_in_place(d).unwrap()
                } else {
                    c.decrypt_in_place(d).unwrap()
                }
            },
            ofb: |k, iv, d| kalyna_ofb::$ofb::new(k.try_into().unwrap(), iv.try_into().unwrap()).apply_in_place(d),
            cmac: |k, m| kalyna_cmac::$cmac::mac(k.try_into().unwrap(), m).unwrap().to_vec(),
            gcm: |k, iv, a, p| {
                let g = kalyna_gcm::$gcm::new(k.try_into().unwrap());
                let mut ct = vec![0u8; p.len()];
                let tag = g.encrypt(iv.try_into().unwrap(), a, p, &mut ct).unwrap();
                (ct, tag.to_vec())
            },
            gmac: |k, m| kalyna_gmac::$gmac::mac(k.try_into().unwrap(), m).unwrap().to_vec(),
            ccm: |k, iv, a, p| {
                let c = kalyna_ccm::$ccm::new(k.try_into().unwrap());
                let mut buf = p.to_vec();
                let tag = c.seal_in_place(iv.try_into().unwrap(), a, &mut buf).unwrap();
                buf.extend_from_slice(&tag);
                buf
            },
            ccm_nb: $nb,
            ccm_tag: $q,
            xts: |k, iv, d, e| {
                let x = kalyna_xts::$xts::new(k.try_into().unwrap());
                if e {
                    x.encrypt_in_place(iv.try_into().unwrap(), d).unwrap()
                } else {
                    x.decrypt_in_place(iv.try_into().unwrap(), d).unwrap()
                }
            },
            kw: |k, p| {
                let mut out = vec![0u8; p.len() + $bb];
                kalyna_kw::$kw::wrap(k.try_into().unwrap(), p, &mut out).unwrap();
                out
            },
        }
    }};
}

#[rustfmt::skip]
fn oracles() -> [Oracle; 5] {
    [
        oracle!(CipherId::Kalyna128_128, 16, 4, 16, Kalyna128_128Ctr, Kalyna128_128Cbc, Kalyna128_128Cfb,
            Kalyna128_128Ofb, Kalyna128_128Cmac, Kalyna128_128Gcm, Kalyna128_128Gmac, Kalyna128_128Ccm,
            Kalyna128_128Xts, Kalyna128_128Kw),
        oracle!(CipherId::Kalyna128_256, 16, 4, 16, Kalyna128_256Ctr, Kalyna128_256Cbc, Kalyna128_256Cfb,
            Kalyna128_256Ofb, Kalyna128_256Cmac, Kalyna128_256Gcm, Kalyna128_256Gmac, Kalyna128_256Ccm,
            Kalyna128_256Xts, Kalyna128_256Kw),
        oracle!(CipherId::Kalyna256_256, 32, 4, 16, Kalyna256_256Ctr, Kalyna256_256Cbc, Kalyna256_256Cfb,
            Kalyna256_256Ofb, Kalyna256_256Cmac, Kalyna256_256Gcm, Kalyna256_256Gmac, Kalyna256_256Ccm,
            Kalyna256_256Xts, Kalyna256_256Kw),
        oracle!(CipherId::Kalyna256_512, 32, 6, 32, Kalyna256_512Ctr, Kalyna256_512Cbc, Kalyna256_512Cfb,
            Kalyna256_512Ofb, Kalyna256_512Cmac, Kalyna256_512Gcm, Kalyna256_512Gmac, Kalyna256_512Ccm,
            Kalyna256_512Xts, Kalyna256_512Kw),
        oracle!(CipherId::Kalyna512_512, 64, 8, 64, Kalyna512_512Ctr, Kalyna512_512Cbc, Kalyna512_512Cfb,
            Kalyna512_512Ofb, Kalyna512_512Cmac, Kalyna512_512Gcm, Kalyna512_512Gmac, Kalyna512_512Ccm,
            Kalyna512_512Xts, Kalyna512_512Kw),
    ]
}

/// Whole-block counts to try; one long message crosses the modes' chunks.
fn block_counts(rng: &mut Rng) -> Vec<usize> {
    let mut v: Vec<usize> = (0..=9).chain([15, 16, 17, 33]).collect();
    v.push(64 + rng.below(237)); // up to 300 blocks
    v
}

/// A partial tail (1..n bytes) half of the time.
fn odd(rng: &mut Rng, n: usize) -> usize {
    if rng.below(2) == 0 {
        0
    } else {
        1 + rng.below(n - 1)
    }
}

#[test]
fn ctr_ofb_cbc_match_dstu_core() {
    let mut rng = Rng::new(1);
    for o in oracles() {
        let (id, n) = (o.id, o.id.block_bytes());
        for blocks in block_counts(&mut rng) {
            let key = rng.bytes(id.key_bytes());
            let iv = rng.bytes(n);
            let len = blocks * n + odd(&mut rng, n);
            let data = rng.bytes(len);
            let p = with_iv(&iv);

            let mut want = data.clone();
            (o.ctr)(&key, &iv, &mut want);
            assert_eq!(enc(&req(id, Mode::Ctr, &key, p.clone()), &data), want, "{id} ctr {len}");

            let mut want = data.clone();
            (o.ofb)(&key, &iv, &mut want);
            assert_eq!(enc(&req(id, Mode::Ofb, &key, p.clone()), &data), want, "{id} ofb {len}");

            let whole = &data[..blocks * n];
            let r = req(id, Mode::Cbc, &key, p.clone());
            let mut want = whole.to_vec();
            (o.cbc)(&key, &iv, &mut want, true);
            assert_eq!(enc(&r, whole), want, "{id} cbc encrypt {blocks} blocks");
            let mut want = whole.to_vec();
            (o.cbc)(&key, &iv, &mut want, false);
            assert_eq!(dec(&r, whole), want, "{id} cbc decrypt {blocks} blocks");
        }
    }
}

#[test]
fn cfb_matches_dstu_core_for_every_s() {
    let mut rng = Rng::new(2);
    for o in oracles() {
        let (id, n) = (o.id, o.id.block_bytes());
        for s in [8, 64, 128, 256, 512].into_iter().filter(|&s| s <= 8 * n) {
            let q = s / 8;
            let counts = if q < n { vec![0, 1, 2, 3] } else { block_counts(&mut rng) };
            for blocks in counts {
                let key = rng.bytes(id.key_bytes());
                let iv = rng.bytes(n);
                let len = blocks * n + odd(&mut rng, n);
                let data = rng.bytes(len);
                let r = req(id, Mode::Cfb, &key, Params { s: Some(s), ..with_iv(&iv) });
                let mut want = data.clone();
                (o.cfb)(&key, &iv, q, &mut want, true);
                assert_eq!(enc(&r, &data), want, "{id} cfb s={s} encrypt {len}");
                let mut want = data.clone();
                (o.cfb)(&key, &iv, q, &mut want, false);
                assert_eq!(dec(&r, &data), want, "{id} cfb s={s} decrypt {len}");
            }
        }
    }
}

#[test]
fn cmac_and_gmac_match_dstu_core() {
    let mut rng = Rng::new(3);
    for o in oracles() {
        let (id, n) = (o.id, o.id.block_bytes());
        // Every length from 1 byte to 4 blocks (whole and partial last
        // blocks, §9's two keys), then random ones up to 40 blocks.
        let lens: Vec<usize> = (1..=4 * n).chain((0..8).map(|_| 1 + rng.below(40 * n))).collect();
        for len in lens {
            let key = rng.bytes(id.key_bytes());
            let msg = rng.bytes(len);
            let r = req(id, Mode::Cmac, &key, Params { tag_bits: Some(128), ..Params::default() });
            assert_eq!(mac(&r, &msg), (o.cmac)(&key, &msg), "{id} cmac {len} bytes");
        }
        for len in [1, 2, n - 1, n, n + 1, 2 * n, 3 * n + 5, 40 * n + 3] {
            let key = rng.bytes(id.key_bytes());
            let msg = rng.bytes(len);
            let full = (o.gmac)(&key, &msg);
            let r = req(id, Mode::Gmac, &key, Params::default());
            assert_eq!(mac(&r, &msg), full, "{id} gmac {len}");
            let r = req(id, Mode::Gmac, &key, Params { tag_bits: Some(64), iv: Some(vec![0; n]), ..Params::default() });
            assert_eq!(mac(&r, &msg), full[..8], "{id} gmac 64-bit tag {len}");
        }
    }
}

#[test]
fn gcm_matches_dstu_core() {
    let mut rng = Rng::new(4);
    for o in oracles() {
        let (id, n) = (o.id, o.id.block_bytes());
        let aad_lens = [0, 1, n - 1, n, n + 3, 2 * n];
        for (i, blocks) in block_counts(&mut rng).into_iter().enumerate() {
            let key = rng.bytes(id.key_bytes());
            let iv = rng.bytes(n);
            let len = blocks * n + odd(&mut rng, n);
            let pt = rng.bytes(len);
            let aad = rng.bytes(aad_lens[i % aad_lens.len()]);
            if aad.is_empty() && pt.is_empty() {
                continue;
            }
            let (ct, tag) = (o.gcm)(&key, &iv, &aad, &pt);
            for tag_bits in [8 * n, 64] {
                let p = Params { aad: aad.clone(), tag_bits: Some(tag_bits), ..with_iv(&iv) };
                let r = req(id, Mode::Gcm, &key, p);
                let sealed = enc(&r, &pt);
                let want = [ct.as_slice(), &tag[..tag_bits / 8]].concat();
                assert_eq!(sealed, want, "{id} gcm pt {} aad {} tag {tag_bits}", pt.len(), aad.len());
                assert_eq!(dec(&r, &sealed), pt);
            }
        }
    }
}

#[test]
fn ccm_matches_dstu_core() {
    let mut rng = Rng::new(5);
    for o in oracles() {
        let (id, n) = (o.id, o.id.block_bytes());
        // dstu-core's CCM: 1..=255 plaintext bytes, 0..=255 aad bytes.
        let cases =
            [(1, 0), (n - 1, 0), (n, 1), (n + 1, n), (2 * n, n - 3), (3 * n + 7, 2 * n + 1), (255, 255), (100, 0)];
        for (pt_len, aad_len) in cases {
            let key = rng.bytes(id.key_bytes());
            let iv = rng.bytes(n);
            let pt = rng.bytes(pt_len);
            let aad = rng.bytes(aad_len);
            let want = (o.ccm)(&key, &iv, &aad, &pt);
            let p = Params { aad, nb: Some(o.ccm_nb), tag_bits: Some(8 * o.ccm_tag), ..with_iv(&iv) };
            let r = req(id, Mode::Ccm, &key, p);
            assert_eq!(enc(&r, &pt), want, "{id} ccm pt {pt_len} aad {aad_len}");
            assert_eq!(dec(&r, &want), pt);
        }
    }
}

#[test]
fn xts_and_kw_match_dstu_core() {
    let mut rng = Rng::new(6);
    for o in oracles() {
        let (id, n) = (o.id, o.id.block_bytes());
        for blocks in block_counts(&mut rng).into_iter().filter(|&b| b > 0) {
            let key = rng.bytes(id.key_bytes());
            let iv = rng.bytes(n);
            let len = blocks * n + odd(&mut rng, n);
            let data = rng.bytes(len);
            let r = req(id, Mode::Xts, &key, with_iv(&iv));
            let mut want = data.clone();
            (o.xts)(&key, &iv, &mut want, true);
            assert_eq!(enc(&r, &data), want, "{id} xts encrypt {}", data.len());
            let mut want = data.clone();
            (o.xts)(&key, &iv, &mut want, false);
            assert_eq!(dec(&r, &data), want, "{id} xts decrypt {}", data.len());
        }
        // dstu-core wraps 1..=20 blocks.
        for blocks in [1, 2, 3, 7, 20] {
            let key = rng.bytes(id.key_bytes());
            let data = rng.bytes(blocks * n);
            let r = req(id, Mode::Kw, &key, Params::default());
            let want = (o.kw)(&key, &data);
            assert_eq!(enc(&r, &data), want, "{id} kw {blocks} blocks");
            assert_eq!(dec(&r, &want), data);
        }
    }
}

/// The counters at their carry points: CTR and CCM carry through the whole
/// block, GCM wraps its low 64 bits. The IV is chosen as D_K(S) for the S
/// wanted.
#[test]
fn counters_carry_like_dstu_core() {
    let mut rng = Rng::new(7);
    for o in oracles() {
        let (id, n) = (o.id, o.id.block_bytes());
        let key = rng.bytes(id.key_bytes());
        let c = Cipher::with_id(id, &key, None, BackendChoice::Auto).unwrap();
        for ones in [8, n - 1, n] {
            // S = 0xff × ones, then random bytes.
            let mut s = rng.bytes(n);
            s[..ones].fill(0xff);
            let mut iv = s.clone();
            c.decrypt_blocks(&mut iv).unwrap();
            let data = rng.bytes(3 * n + 1);

            let mut want = data.clone();
            (o.ctr)(&key, &iv, &mut want);
            assert_eq!(enc(&req(id, Mode::Ctr, &key, with_iv(&iv)), &data), want, "{id} ctr carry {ones}");

            let (ct, tag) = (o.gcm)(&key, &iv, b"", &data);
            let sealed = enc(&req(id, Mode::Gcm, &key, with_iv(&iv)), &data);
            assert_eq!(sealed, [ct, tag].concat(), "{id} gcm wrap {ones}");

            let p = Params { nb: Some(o.ccm_nb), tag_bits: Some(8 * o.ccm_tag), ..with_iv(&iv) };
            let want = (o.ccm)(&key, &iv, b"", &data);
            assert_eq!(enc(&req(id, Mode::Ccm, &key, p), &data), want, "{id} ccm carry {ones}");
        }
    }
}

/// KW past 21 blocks, where the step counter needs more than one byte
/// (v = 6(2r+1) > 255): Bouncy Castle 1.72's DSTU7624WrapEngine (Debian
/// libbcprov-java), computed here, XORs it as 4 little-endian bytes; so do
/// we (UAPKI XORs only the low byte; dstu-core stops at 20 blocks).
#[test]
fn kw_past_255_steps_matches_bouncy_castle() {
    let seq = |n: usize, start: usize| -> Vec<u8> { (0..n).map(|i| (start + 7 * i) as u8).collect() };
    let key = seq(16, 1);
    let data = seq(22 * 16, 3);
    let want = [
        "c8b9649810bbec84201c3f4cd123ca4121a374adc6e9655bbf4ecbc66ef0c5f46096246b426a4e7686677f77d7f0d5c3",
        "ea1d4c462c2bad22d40e95d851a4d4bd9c5bc29bc13787ce424d83e77c04fe3456c8909a3c47e49010f7fd9ba8a9de38",
        "b69de964c456ac2b5371101c6a0c7032af4ca34d5fb00f17d77da353391319e88b4fbdf553818432690dd0ec7ce79b9e",
        "e4db2885cbb647f6eef239a65f626421f3db53149053b2ad63c5b0c47494821353646395cb74e1b0cfd2cc3e33d06cda",
        "307dfce84ba80df2e11fa63dda3059e8865c49dff480d16d29dc6b489db54d08477926c34855c2a52a2a2b346d05e8cb",
        "f4422a308f465bb7af4f1b943d81512808b392845fc4eea71cf83ee95a250f3f91951167105c727d4b3ec01b7b37e318",
        "ceb646a488cb670b1778db4c0c32f223a4e5df0a39fb40c48a6cbb6b4cf41516a4711a33a6422ca26ccddb11900b0c7c",
        "8f89d02ef4937c172999a9197bd916d59f2a37d70f821b7df64153bb6f4a40cc",
    ]
    .concat();
    let r = req(CipherId::Kalyna128_128, Mode::Kw, &key, Params::default());
    assert_eq!(to_hex(&enc(&r, &data)), want);
    assert_eq!(dec(&r, &hex(&want)), data);
}

// ------------------------------------------------------------ round trips

/// The parameters a round trip of `mode` uses, with random IV and AAD.
fn params_for(rng: &mut Rng, mode: Mode, n: usize) -> Params {
    let iv = Some(rng.bytes(n));
    let aad_len = rng.below(2 * n + 1);
    match mode {
        Mode::Ctr | Mode::Ofb | Mode::Xts => Params { iv, ..Params::default() },
        Mode::Cbc => {
            let padding = [Padding::None, Padding::Gost2, Padding::Pkcs7][rng.below(3)];
            Params { iv, padding, ..Params::default() }
        }
        Mode::Cfb => Params { iv, s: Some([64, 8 * n][rng.below(2)]), ..Params::default() },
        Mode::Gcm => Params {
            iv,
            aad: rng.bytes(aad_len),
            tag_bits: Some(64 + 8 * rng.below(8 * n / 8 - 7)),
            ..Params::default()
        },
        Mode::Ccm => {
            let tags: Vec<usize> = [64, 128, 256, 384, 512].into_iter().filter(|&t| t <= 8 * n).collect();
            let tag_bits = Some(tags[rng.below(tags.len())]);
            Params { iv, aad: rng.bytes(aad_len), nb: Some([4, 6, 8][rng.below(3)]), tag_bits, ..Params::default() }
        }
        Mode::Kw => Params::default(),
        _ => unreachable!(),
    }
}

/// Lengths this mode takes: whole blocks from `min_blocks`, plus odd bytes
/// where it allows them.
fn takes_odd(mode: Mode, p: &Params) -> bool {
    match mode {
        Mode::Cbc => p.padding != Padding::None,
        Mode::Kw => false,
        _ => true,
    }
}

#[test]
fn every_mode_round_trips_at_many_lengths() {
    let mut rng = Rng::new(8);
    let counts: Vec<usize> = (0..=20).chain([31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 300]).collect();
    for id in KALYNA.into_iter().chain(UBLOCK) {
        let n = id.block_bytes();
        for mode in Mode::for_cipher(id).into_iter().filter(|m| m.kind() != Kind::Mac && *m != Mode::Ecb) {
            for &blocks in &counts {
                // One block operation per q bytes (CFB) or 12 per block (KW):
                // the longest lengths are enough for the other modes.
                if blocks > 33 && matches!(mode, Mode::Kw) && blocks % 2 == 1 {
                    continue;
                }
                let key = rng.bytes(id.key_bytes());
                let p = params_for(&mut rng, mode, n);
                let extra = if takes_odd(mode, &p) { odd(&mut rng, n) } else { 0 };
                let len = blocks * n + extra;
                let min = match mode {
                    Mode::Xts | Mode::Kw => n,
                    Mode::Ccm => 1,
                    Mode::Gcm if p.aad.is_empty() => 1,
                    _ => 0,
                };
                if len < min {
                    continue;
                }
                let data = rng.bytes(len);
                let r = req(id, mode, &key, p.clone());
                let out = enc(&r, &data);
                let grow = match mode {
                    Mode::Gcm | Mode::Ccm => p.tag_bits.unwrap() / 8,
                    Mode::Kw => n,
                    Mode::Cbc if p.padding != Padding::None => n - len % n,
                    _ => 0,
                };
                assert_eq!(out.len(), len + grow, "{id} {mode} {len} {p:?}");
                assert_eq!(dec(&r, &out), data, "{id} {mode} {len} {p:?}");
                if len > 0 && mode != Mode::Cbc {
                    assert_ne!(out[..len.min(out.len())], data[..], "{id} {mode} {len}: output = input");
                }
            }
        }
    }
}

#[test]
fn macs_depend_on_every_byte_and_tag_bits_truncate() {
    let mut rng = Rng::new(9);
    for id in KALYNA {
        let n = id.block_bytes();
        for (mode, len) in [(Mode::Cmac, 3 * n), (Mode::Cmac, 3 * n - 5), (Mode::Gmac, 3 * n - 5)] {
            let key = rng.bytes(id.key_bytes());
            let msg = rng.bytes(len);
            let full = mac(&req(id, mode, &key, Params::default()), &msg);
            assert_eq!(full.len(), n);
            let short = mac(&req(id, mode, &key, Params { tag_bits: Some(64), ..Params::default() }), &msg);
            assert_eq!(short, full[..8]);
            for i in [0, len / 2, len - 1] {
                let mut m = msg.clone();
                m[i] ^= 0x20;
                let other = mac(&req(id, mode, &key, Params::default()), &m);
                assert_ne!(other, full, "{id} {mode} byte {i}");
            }
        }
        // CMAC's padding is part of the MAC: a partial block differs from the
        // same bytes padded by hand to a whole block (other key K*).
        let key = rng.bytes(id.key_bytes());
        let msg = rng.bytes(n + 3);
        let mut padded = msg.clone();
        padded.push(0x80);
        padded.resize(2 * n, 0);
        let r = req(id, Mode::Cmac, &key, Params::default());
        assert_ne!(mac(&r, &msg), mac(&r, &padded), "{id} cmac partial vs padded");
    }
}

// ----------------------------------------------------------------- errors

#[test]
fn wrong_ivs_and_parameters_are_param_errors() {
    for id in KALYNA {
        let n = id.block_bytes();
        let key = vec![1u8; id.key_bytes()];
        let data = vec![2u8; 2 * n];
        for mode in [Mode::Ctr, Mode::Cbc, Mode::Cfb, Mode::Ofb, Mode::Gcm, Mode::Ccm, Mode::Xts] {
            is_param(modes::encrypt(&req(id, mode, &key, Params::default()), &data), "--iv");
            for bad in [n - 1, n + 1, 2 * n] {
                let r = req(id, mode, &key, with_iv(&vec![0; bad]));
                is_param(modes::encrypt(&r, &data), &format!("{n} bytes"));
                is_param(modes::decrypt(&r, &data), "--iv");
            }
            // A parameter the mode does not take.
            let r = req(id, mode, &key, Params { m: Some(8 * n), ..with_iv(&vec![0; n]) });
            is_param(modes::encrypt(&r, &data), "--m");
        }
        let iv = vec![0u8; n];
        let bad = |p: Params, mode: Mode, needle: &str| {
            let r = req(id, mode, &key, Params { iv: p.iv.clone().or(Some(iv.clone())), ..p });
            is_param(modes::encrypt(&r, &data), needle);
        };
        bad(Params { s: Some(24), ..Params::default() }, Mode::Cfb, "--s");
        bad(Params { s: Some(16 * n), ..Params::default() }, Mode::Cfb, "--s");
        bad(Params { tag_bits: Some(56), ..Params::default() }, Mode::Gcm, "--tag-bits");
        bad(Params { tag_bits: Some(8 * n + 8), ..Params::default() }, Mode::Gcm, "--tag-bits");
        bad(Params { tag_bits: Some(72), ..Params::default() }, Mode::Ccm, "--tag-bits");
        bad(Params { nb: Some(5), ..Params::default() }, Mode::Ccm, "--nb");
        bad(Params { aad: vec![1], ..Params::default() }, Mode::Ctr, "--aad");
        bad(Params { tag_bits: Some(128), ..Params::default() }, Mode::Xts, "--tag-bits");
        let r = req(id, Mode::Kw, &key, with_iv(&iv));
        is_param(modes::encrypt(&r, &data), "--iv");
        let r = req(id, Mode::Gmac, &key, with_iv(&vec![0; n + 1]));
        is_param(modes::mac(&r, &data), "--iv");
        let r = req(id, Mode::Cmac, &key, Params { tag_bits: Some(8 * n + 8), ..Params::default() });
        is_param(modes::mac(&r, &data), "--tag-bits");
    }
}

#[test]
fn lengths_a_mode_cannot_take_are_refused() {
    for id in KALYNA {
        let n = id.block_bytes();
        let key = vec![3u8; id.key_bytes()];
        let p = with_iv(&vec![4; n]);
        let r = |mode, p: Params| req(id, mode, &key, p);
        // CBC without padding: whole blocks.
        assert!(matches!(modes::encrypt(&r(Mode::Cbc, p.clone()), &vec![0; n + 1]), Err(Error::DataLength { .. })));
        assert!(matches!(modes::decrypt(&r(Mode::Cbc, p.clone()), &vec![0; n - 1]), Err(Error::DataLength { .. })));
        // CBC with padding: a bad pad is refused.
        let padded = Params { padding: Padding::Pkcs7, ..p.clone() };
        let mut ct = enc(&r(Mode::Cbc, padded.clone()), b"abc");
        *ct.last_mut().unwrap() ^= 1;
        assert!(matches!(modes::decrypt(&r(Mode::Cbc, padded), &ct), Err(Error::Param(_))));
        // XTS: at least one block.
        for len in [0, 1, n - 1] {
            is_param(modes::encrypt(&r(Mode::Xts, p.clone()), &vec![0; len]), "block");
            is_param(modes::decrypt(&r(Mode::Xts, p.clone()), &vec![0; len]), "block");
        }
        // KW: whole blocks, at least one; unwrap at least two.
        let kw = Params::default();
        for len in [0, 1, n - 1, n + 1] {
            is_param(modes::encrypt(&r(Mode::Kw, kw.clone()), &vec![0; len]), "blocks");
        }
        for len in [0, n, 2 * n + 1] {
            is_param(modes::decrypt(&r(Mode::Kw, kw.clone()), &vec![0; len]), "blocks");
        }
        // CMAC: any length but zero (§9); it pads by itself, so no --padding.
        is_param(modes::mac(&r(Mode::Cmac, Params::default()), b""), "§9");
        for len in [1, n - 1, n, n + 1] {
            assert_eq!(mac(&r(Mode::Cmac, Params::default()), &vec![0; len]).len(), n);
        }
        for padding in [Padding::Gost2, Padding::Pkcs7] {
            is_param(modes::mac(&r(Mode::Cmac, Params { padding, ..Params::default() }), b"abc"), "--padding");
        }
        // GCM: not both empty; GMAC: not empty; CCM: a non-empty message.
        is_param(modes::encrypt(&r(Mode::Gcm, p.clone()), b""), "§12.1");
        is_param(modes::decrypt(&r(Mode::Gcm, p.clone()), &vec![0; n]), "§12.1");
        is_param(modes::decrypt(&r(Mode::Gcm, p.clone()), &vec![0; n - 1]), "tag");
        is_param(modes::mac(&r(Mode::Gmac, Params::default()), b""), "§12.1");
        is_param(modes::encrypt(&r(Mode::Ccm, p.clone()), b""), "§13.1");
        is_param(modes::decrypt(&r(Mode::Ccm, p.clone()), &vec![0; n]), "tag");
        // CCM: the message length must fit N_B bytes (checked on the AAD here).
        let big = Params { aad: vec![0; 1 << 16], nb: Some(4), ..p.clone() };
        assert!(modes::encrypt(&r(Mode::Ccm, big), b"x").is_ok());
    }
}

#[test]
fn wrong_tags_and_wraps_fail_authentication_and_release_nothing() {
    let mut rng = Rng::new(10);
    for id in KALYNA {
        let n = id.block_bytes();
        let key = rng.bytes(id.key_bytes());
        let iv = rng.bytes(n);
        for mode in [Mode::Gcm, Mode::Ccm] {
            let p = Params { aad: rng.bytes(5), ..with_iv(&iv) };
            let r = req(id, mode, &key, p.clone());
            let pt = rng.bytes(2 * n + 3);
            let sealed = enc(&r, &pt);
            for i in 0..sealed.len() {
                let mut bad = sealed.clone();
                bad[i] ^= 1 << (i % 8);
                assert_eq!(modes::decrypt(&r, &bad), Err(Error::Authentication), "{id} {mode} byte {i}");
            }
            // Other AAD or IV.
            let other = req(id, mode, &key, Params { aad: b"other".to_vec(), ..p.clone() });
            assert_eq!(modes::decrypt(&other, &sealed), Err(Error::Authentication), "{id} {mode} aad");
            let mut iv2 = iv.clone();
            iv2[0] ^= 1;
            let other = req(id, mode, &key, Params { iv: Some(iv2), ..p.clone() });
            match mode {
                // CCM's tag covers the nonce; DSTU GCM's does not (§12: the
                // IV only seeds the keystream), so the plaintext just differs.
                Mode::Ccm => assert_eq!(modes::decrypt(&other, &sealed), Err(Error::Authentication)),
                _ => assert_ne!(dec(&other, &sealed), pt),
            }
            // Another tag length reads a different tag.
            let other = req(id, mode, &key, Params { tag_bits: Some(64), ..p.clone() });
            assert_eq!(modes::decrypt(&other, &sealed), Err(Error::Authentication), "{id} {mode} tag length");
        }
        let r = req(id, Mode::Kw, &key, Params::default());
        let wrapped = enc(&r, &rng.bytes(2 * n));
        for i in 0..wrapped.len() {
            let mut bad = wrapped.clone();
            bad[i] ^= 0x80;
            assert_eq!(modes::decrypt(&r, &bad), Err(Error::Authentication), "{id} kw byte {i}");
        }
        let other_key = rng.bytes(id.key_bytes());
        assert_eq!(
            modes::decrypt(&req(id, Mode::Kw, &other_key, Params::default()), &wrapped),
            Err(Error::Authentication)
        );
    }
}

#[test]
fn ublock_offers_cbc_only() {
    for id in UBLOCK {
        let n = id.block_bytes();
        let key = vec![5u8; id.key_bytes()];
        for mode in [Mode::Ctr, Mode::Gcm, Mode::Xts, Mode::Kw] {
            let r = req(id, mode, &key, with_iv(&vec![0; n]));
            assert!(matches!(modes::encrypt(&r, &vec![0; n]), Err(Error::UnknownMode { .. })), "{id} {mode}");
        }
        let r = req(id, Mode::Cbc, &key, with_iv(&vec![0; n + 1]));
        is_param(modes::encrypt(&r, &vec![0; n]), "--iv");
        // CBC is E_K(P ⊕ IV): the first block is ECB of P ⊕ IV.
        let iv: Vec<u8> = (0..n as u8).collect();
        let pt = vec![0x33u8; 3 * n];
        let ct = enc(&req(id, Mode::Cbc, &key, with_iv(&iv)), &pt);
        let c = Cipher::with_id(id, &key, None, BackendChoice::Auto).unwrap();
        let mut first: Vec<u8> = pt[..n].iter().zip(&iv).map(|(a, b)| a ^ b).collect();
        c.encrypt_blocks(&mut first).unwrap();
        assert_eq!(ct[..n], first[..]);
    }
}

/// An empty message has no DSTU MAC (§9 pads and MACs at least one bit):
/// dstu-core refuses it, and so do we (UAPKI's code would return the MAC of
/// one zero block, a collision).
#[test]
fn cmac_of_an_empty_message_is_refused_as_by_dstu_core() {
    use dstu_core::hazmat::kalyna_cmac::{CmacError, Kalyna128_128Cmac, Kalyna512_512Cmac};
    assert_eq!(Kalyna128_128Cmac::mac(&[0; 16], b""), Err(CmacError::EmptyMessage));
    assert_eq!(Kalyna512_512Cmac::mac(&[0; 64], b""), Err(CmacError::EmptyMessage));
    for id in KALYNA {
        let key = vec![0u8; id.key_bytes()];
        is_param(modes::mac(&req(id, Mode::Cmac, &key, Params::default()), b""), "empty");
        let mut s = modes::stream::MacStream::new(&req(id, Mode::Cmac, &key, Params::default())).unwrap();
        s.update(b"").unwrap();
        assert!(matches!(s.finalize(), Err(Error::Param(_))), "{id} streaming");
    }
}
