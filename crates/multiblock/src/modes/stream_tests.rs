//! [`CipherStream`] and [`MacStream`] against the one-shot calls (which
//! the vector tests pin down): every cipher, every streaming mode, lengths
//! from 0 to 300 blocks and odd byte lengths, random splits, 1 and 3 threads.

use super::*;
use crate::backend::BackendChoice;
use crate::modes::gost::mgm;
use crate::modes::{self, Padding, Params};
use crate::CipherId;

use crate::test_rng::{split, Rng};

fn params(iv: Option<Vec<u8>>) -> Params {
    Params { iv, ..Params::default() }
}

/// Parameter sets for every streaming (cipher, mode): the parallel forms
/// and the sequential fallbacks (s < n, m > n, ACPKM, key meshing).
fn configs(id: CipherId, mode: Mode, rng: &mut Rng) -> Vec<Params> {
    let n = id.block_bytes();
    let (near_2_64, any_unit) = (u64::MAX as u128 - 1, rng.next() as u128);
    let mut iv = |len: usize| Some(rng.bytes(len));
    let gost_r = matches!(id, CipherId::Kuznyechik | CipherId::Magma);
    match mode {
        // IEEE 1619: one unit with the tweak as IV, and data units.
        Mode::Xts if id == CipherId::Kuznyechik => vec![
            params(iv(n)),
            Params { data_unit: Some(32), unit: Some(near_2_64), ..params(None) },
            Params { data_unit: Some(512), unit: Some(any_unit), ..params(None) },
        ],
        Mode::Ecb => vec![params(None), Params { padding: Padding::Pkcs7, ..params(None) }],
        Mode::Cbc if gost_r => vec![
            params(iv(n)),
            Params { padding: Padding::Pkcs7, ..params(iv(2 * n)) },
            Params { padding: Padding::Gost2, ..params(iv(3 * n)) },
        ],
        Mode::Cbc => vec![params(iv(n)), Params { padding: Padding::Pkcs7, ..params(iv(n)) }],
        Mode::Ctr if gost_r => vec![params(iv(n / 2)), Params { s: Some(24), ..params(iv(n / 2)) }],
        Mode::CtrAcpkm => vec![Params { section_bytes: Some(2 * n), ..params(iv(n / 2)) }, params(iv(n / 2))],
        Mode::Cfb if gost_r => vec![params(iv(n)), Params { s: Some(8), ..params(iv(n)) }, params(iv(2 * n))],
        Mode::Cfb if id == CipherId::Gost89 => {
            vec![params(iv(8)), Params { key_meshing: true, ..params(iv(8)) }]
        }
        Mode::Cfb => vec![params(iv(n)), Params { s: Some(8), ..params(iv(n)) }],
        Mode::Cnt => vec![params(iv(8)), Params { key_meshing: true, ..params(iv(8)) }],
        Mode::Ofb if gost_r => vec![params(iv(n)), Params { s: Some(8 * (n - 1)), ..params(iv(2 * n)) }],
        Mode::Ofb | Mode::Ctr | Mode::Xts | Mode::Gmac => vec![params(iv(n))],
        Mode::Mac | Mode::OmacAcpkm | Mode::Cmac => vec![params(None)],
        _ => Vec::new(),
    }
}

fn req(id: CipherId, mode: Mode, key: &[u8], params: Params) -> Request<'_> {
    Request { cipher: id, mode, key, sbox: None, backend: BackendChoice::Auto, params }
}

/// Streams `data` in random pieces with `threads` threads and pieces of
/// work down to one block, so that even short inputs are split.
fn stream(req: &Request<'_>, encrypt: bool, threads: usize, data: &[u8], rng: &mut Rng) -> Result<Vec<u8>> {
    let s = if encrypt { CipherStream::encryptor(req)? } else { CipherStream::decryptor(req)? };
    let mut s = s.threads(threads)?;
    s.pool.min_task = req.cipher.block_bytes();
    let mut out = Vec::new();
    for piece in split(rng, data) {
        let form = rng.below(3);
        if form == 0 {
            s.update(piece, &mut out)?;
        } else if form == 1 {
            // The out-of-place form into a buffer of stale bytes, just
            // large enough (a mapped file's pieces go this way).
            let mut buf = vec![0x5a; s.output_len(piece.len()).max(piece.len())];
            let n = s.update_into(piece, &mut buf)?;
            out.extend_from_slice(&buf[..n]);
        } else {
            // The in-place form on a buffer just large enough.
            let mut buf = piece.to_vec();
            buf.resize(s.output_len(piece.len()).max(piece.len()), 0xa5);
            let n = s.update_in_place(&mut buf, piece.len())?;
            out.extend_from_slice(&buf[..n]);
        }
    }
    s.finalize(&mut out)?;
    Ok(out)
}

/// The lengths tried for block size `n`: 0 to 300 blocks, odd ones too.
fn lengths(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut v = vec![0, 1, n - 1, n, n + 1, 2 * n + 3, 300 * n, 300 * n - 1, 300 * n + 7];
    v.extend((0..6).map(|_| rng.below(300 * n + 1)));
    v
}

fn same(a: &Result<Vec<u8>>, b: &Result<Vec<u8>>) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => x == y,
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

#[test]
fn every_streaming_mode_equals_one_shot_on_random_splits_and_threads() {
    let mut rng = Rng(0x5eed_0010_cafe_f00d);
    let mut checked = 0;
    for id in CipherId::ALL {
        for mode in Mode::for_cipher(id).into_iter().filter(|m| streams(*m) && m.kind() == Kind::Cipher) {
            let sets = configs(id, mode, &mut rng);
            assert!(!sets.is_empty(), "{id} {mode}: no test parameters");
            for p in sets {
                let key = rng.bytes(mode.key_bytes(id));
                let r = req(id, mode, &key, p.clone());
                for len in lengths(id.block_bytes(), &mut rng) {
                    let data = rng.bytes(len);
                    let ct = modes::encrypt(&r, &data);
                    let ct_in = ct.as_ref().map_or(data.clone(), Clone::clone);
                    let pt = modes::decrypt(&r, &ct_in);
                    for threads in [1, 3] {
                        let sct = stream(&r, true, threads, &data, &mut rng);
                        assert!(same(&ct, &sct), "{id} {mode} {p:?} len {len} threads {threads}: encrypt");
                        let spt = stream(&r, false, threads, &ct_in, &mut rng);
                        assert!(same(&pt, &spt), "{id} {mode} {p:?} len {len} threads {threads}: decrypt");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn every_mac_stream_equals_one_shot_on_random_splits() {
    let mut rng = Rng(0x0dd5_eed0_0000_0001);
    for id in CipherId::ALL {
        for mode in Mode::for_cipher(id).into_iter().filter(|m| m.kind() == Kind::Mac) {
            for p in configs(id, mode, &mut rng) {
                let key = rng.bytes(id.key_bytes());
                let r = req(id, mode, &key, p.clone());
                for len in lengths(id.block_bytes(), &mut rng) {
                    let data = rng.bytes(len);
                    let one = modes::mac(&r, &data);
                    let pieces = split(&mut rng, &data);
                    let streamed = MacStream::new(&r).and_then(|mut m| {
                        pieces.iter().try_for_each(|piece| m.update(piece))?;
                        m.finalize()
                    });
                    assert!(same(&one, &streamed), "{id} {mode} {p:?} len {len}");
                }
            }
        }
    }
}

#[test]
fn large_updates_split_at_the_real_task_size_give_the_same_bytes() {
    // Several MIN_TASK_BYTES per update, not a multiple of the block size.
    let mut rng = Rng(0x1a59_e000_0000_0042);
    let data = rng.bytes(3 * crate::modes::threads::MIN_TASK_BYTES + 1000);
    for (id, mode, iv) in [
        (CipherId::Kuznyechik, Mode::Ctr, 8),
        (CipherId::Kalyna128_128, Mode::Ctr, 16),
        (CipherId::Magma, Mode::Ecb, 0),
        (CipherId::Kalyna256_256, Mode::Xts, 32),
        (CipherId::Ublock128_128, Mode::Cbc, 16),
    ] {
        let key = rng.bytes(id.key_bytes());
        let r = req(id, mode, &key, params((iv > 0).then(|| rng.bytes(iv))));
        let data = if mode == Mode::Ecb || mode == Mode::Cbc { &data[..data.len() / 64 * 64] } else { &data[..] };
        let one = modes::encrypt(&r, data).unwrap();
        for threads in [1, 2, 4] {
            let mut s = CipherStream::encryptor(&r).unwrap().threads(threads).unwrap();
            let mut out = Vec::new();
            s.update(data, &mut out).unwrap();
            s.finalize(&mut out).unwrap();
            assert!(out == one, "{id} {mode} threads {threads}");
            let mut d = CipherStream::decryptor(&r).unwrap().threads(threads).unwrap();
            let mut back = Vec::new();
            d.update(&out, &mut back).unwrap();
            d.finalize(&mut back).unwrap();
            assert!(back == data, "{id} {mode} threads {threads}: round trip");
        }
    }
}

#[test]
fn zero_copy_is_claimed_by_the_split_keystream_modes_only() {
    let key = [7u8; 32];
    for (id, mode, iv, zero_copy) in [
        (CipherId::Kuznyechik, Mode::Ctr, 8, true),
        (CipherId::Magma, Mode::CtrAcpkm, 4, true),
        (CipherId::Kalyna128_128, Mode::Ctr, 16, true),
        (CipherId::Kuznyechik, Mode::Ofb, 16, false),
        (CipherId::Kuznyechik, Mode::Cbc, 16, false),
        (CipherId::Magma, Mode::Ecb, 0, false),
    ] {
        let r = req(id, mode, &key[..id.key_bytes()], params((iv > 0).then(|| vec![1; iv])));
        let s = CipherStream::encryptor(&r).unwrap();
        assert_eq!(s.zero_copy(), zero_copy, "{id} {mode}");
        // Too small an output buffer is an error, not a panic.
        let mut small = [0u8; 7];
        assert!(CipherStream::encryptor(&r).unwrap().update_into(&[0; 64], &mut small).is_err(), "{id} {mode}");
    }
}

#[test]
fn aead_and_key_wrap_say_they_do_not_stream() {
    let key = [1u8; 32];
    for (id, mode) in
        [(CipherId::Kuznyechik, Mode::Mgm), (CipherId::Kalyna128_256, Mode::Gcm), (CipherId::Kalyna128_256, Mode::Kw)]
    {
        let r = req(id, mode, &key, params(Some(vec![0; id.block_bytes()])));
        assert!(!streams(mode));
        let e = CipherStream::encryptor(&r).err().expect("no stream").to_string();
        assert!(e.contains("does not stream"), "{e}");
        // AEAD points to the AEAD stream; key wrap has none.
        assert_eq!(e.contains("AEAD stream"), mode != Mode::Kw, "{e}");
    }
}

#[test]
fn mgm_split_across_threads_equals_one_shot() {
    let mut rng = Rng(0x0363_0000_0000_0007);
    for id in [CipherId::Kuznyechik, CipherId::Magma] {
        let n = id.block_bytes();
        for len in lengths(n, &mut rng) {
            let key = rng.bytes(32);
            let mut nonce = rng.bytes(n);
            nonce[0] &= 0x7f;
            let aad_len = rng.below(3 * n);
            let aad = rng.bytes(aad_len);
            let r = req(id, Mode::Mgm, &key, Params { iv: Some(nonce), aad, ..Params::default() });
            let data = rng.bytes(len);
            let one = modes::encrypt(&r, &data).unwrap();
            for threads in [1, 3] {
                let mut pool = crate::modes::threads::Pool::new(threads).unwrap();
                pool.min_task = n;
                let sealed = mgm::seal_pool(&r, &data, &pool).unwrap();
                assert!(sealed == one, "{id} len {len} threads {threads}");
                assert!(mgm::open_pool(&r, &sealed, &pool).unwrap() == data, "{id} len {len} threads {threads}");
                let mut bad = sealed.clone();
                let at = rng.below(bad.len());
                bad[at] ^= 1;
                assert!(matches!(mgm::open_pool(&r, &bad, &pool), Err(Error::Authentication)), "{id} len {len}");
            }
            assert!(crate::modes::threaded::encrypt_threads(&r, &data, 2).unwrap() == one);
        }
    }
}
