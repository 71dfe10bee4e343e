//! `mb_aead_stream_*` against the one-shot `mb_encrypt` / `mb_decrypt`
//! (pinned by the vector tests) on random splits, with the tag in the
//! input and apart; a wrong tag, short buffers and misuse.

use std::ffi::CStr;
use std::ptr;

use crate::aead_stream::*;
use crate::oneshot::*;
use crate::status::*;
use crate::tests::{bytes, zero_params};

struct Case {
    cipher: &'static CStr,
    mode: &'static CStr,
    key: Vec<u8>,
    iv: Vec<u8>,
    aad: Vec<u8>,
}

fn cases() -> Vec<Case> {
    let case = |cipher, mode, key_len, block: usize, seed| Case {
        cipher,
        mode,
        key: bytes(seed, key_len),
        iv: bytes(seed + 1, block).into_iter().map(|b| b & 0x7f).collect(),
        aad: bytes(seed + 2, 19),
    };
    vec![
        case(c"kuznyechik", c"mgm", 32, 16, 1),
        case(c"magma", c"mgm", 32, 8, 2),
        case(c"kalyna-128-128", c"gcm", 16, 16, 3),
        case(c"kalyna-256-512", c"gcm", 64, 32, 4),
        case(c"kalyna-128-256", c"ccm", 32, 16, 5),
        case(c"kalyna-512-512", c"ccm", 64, 64, 6),
    ]
}

fn one_shot(c: &Case, encrypt: bool, data: &[u8]) -> (i32, Vec<u8>) {
    let mut out = vec![0u8; data.len() + 128];
    let mut len = out.len();
    let f = if encrypt { mb_encrypt } else { mb_decrypt };
    let rc = unsafe {
        f(
            c.cipher.as_ptr(),
            c.mode.as_ptr(),
            c.key.as_ptr(),
            c.key.len(),
            c.iv.as_ptr(),
            c.iv.len(),
            c.aad.as_ptr(),
            c.aad.len(),
            ptr::null(),
            data.as_ptr(),
            data.len(),
            out.as_mut_ptr(),
            &mut len,
        )
    };
    out.truncate(len);
    (rc, out)
}

fn new(c: &Case, encrypt: bool, text_len: u64, tag: Option<&[u8]>) -> (i32, *mut MbAeadStream) {
    let mut h = ptr::null_mut();
    let p = zero_params();
    let (tp, tl) = tag.map_or((ptr::null(), 0), |t| (t.as_ptr(), t.len()));
    let rc = unsafe {
        mb_aead_stream_new(
            &mut h,
            encrypt as i32,
            c.cipher.as_ptr(),
            c.mode.as_ptr(),
            c.key.as_ptr(),
            c.key.len(),
            c.iv.as_ptr(),
            c.iv.len(),
            c.aad.as_ptr(),
            c.aad.len(),
            &p,
            text_len,
            tp,
            tl,
        )
    };
    (rc, h)
}

/// Feeds `data` in pieces of `sizes` (cycled); returns the output, the
/// final status, the tag (encryption) and what final wrote.
fn feed(h: *mut MbAeadStream, data: &[u8], sizes: &[usize]) -> (Vec<u8>, i32, Vec<u8>) {
    let mut out = Vec::new();
    let (mut at, mut k) = (0, 0);
    while at < data.len() {
        let n = sizes[k % sizes.len()].min(data.len() - at);
        k += 1;
        let mut buf = vec![0u8; n + 64];
        let mut len = buf.len();
        assert_eq!(unsafe { mb_aead_stream_update(h, data[at..].as_ptr(), n, buf.as_mut_ptr(), &mut len) }, MB_OK);
        out.extend_from_slice(&buf[..len]);
        at += n;
    }
    let (mut last, mut tag) = (vec![0u8; 64], vec![0u8; 64]);
    let (mut ll, mut tl) = (last.len(), tag.len());
    let rc = unsafe { mb_aead_stream_final(h, last.as_mut_ptr(), &mut ll, tag.as_mut_ptr(), &mut tl) };
    assert!(rc == MB_OK || ll == 0, "a failed final wrote {ll} bytes");
    out.extend_from_slice(&last[..ll]);
    tag.truncate(if rc == MB_OK { tl } else { 0 });
    unsafe { mb_aead_stream_free(h) };
    (out, rc, tag)
}

#[test]
fn streams_equal_one_shot_and_wrong_tags_fail() {
    for c in cases() {
        for (len, sizes) in [(1usize, vec![1]), (100, vec![7, 0, 13]), (5000, vec![1000, 1, 333]), (70_001, vec![65_536])] {
            let data = bytes(len as u64, len);
            let (rc, sealed) = one_shot(&c, true, &data);
            assert_eq!(rc, MB_OK);
            let (_, h) = new(&c, true, len as u64, None);
            let (ct, rc, tag) = feed(h, &data, &sizes);
            assert_eq!(rc, MB_OK);
            assert_eq!([ct, tag.clone()].concat(), sealed, "{:?} {:?} {len}", c.cipher, c.mode);
            // Tag in the input, and apart.
            let (_, h) = new(&c, false, len as u64, None);
            let (pt, rc, _) = feed(h, &sealed, &sizes);
            assert_eq!((rc, pt), (MB_OK, data.clone()));
            let (_, h) = new(&c, false, len as u64, Some(&tag));
            let (pt, rc, _) = feed(h, &sealed[..len], &sizes);
            assert_eq!((rc, pt), (MB_OK, data.clone()));
            // A flipped byte: MB_ERR_AUTHENTICATION, and final writes nothing.
            let mut bad = sealed.clone();
            bad[len / 2] ^= 0x20;
            let (_, h) = new(&c, false, len as u64, None);
            assert_eq!(feed(h, &bad, &sizes).1, MB_ERR_AUTHENTICATION);
            let mut bad_tag = tag.clone();
            bad_tag[0] ^= 1;
            let (_, h) = new(&c, false, len as u64, Some(&bad_tag));
            assert_eq!(feed(h, &sealed[..len], &sizes).1, MB_ERR_AUTHENTICATION);
        }
    }
}

#[test]
fn short_buffers_leave_the_stream_usable_and_misuse_is_refused() {
    let c = &cases()[0];
    let data = bytes(9, 100);
    let (_, sealed) = one_shot(c, true, &data);
    let (_, h) = new(c, true, 100, None);
    let mut out = vec![0u8; 200];
    let mut len = 10;
    let rc = unsafe { mb_aead_stream_update(h, data.as_ptr(), 100, out.as_mut_ptr(), &mut len) };
    assert_eq!((rc, len), (MB_ERR_BUFFER_TOO_SMALL, 96));
    len = out.len();
    assert_eq!(unsafe { mb_aead_stream_update(h, data.as_ptr(), 100, out.as_mut_ptr(), &mut len) }, MB_OK);
    let mut ct = out[..len].to_vec();
    let (mut last, mut tag) = ([0u8; 64], [0u8; 64]);
    let (mut ll, mut tl) = (64, 8);
    let rc = unsafe { mb_aead_stream_final(h, last.as_mut_ptr(), &mut ll, tag.as_mut_ptr(), &mut tl) };
    assert_eq!((rc, tl), (MB_ERR_BUFFER_TOO_SMALL, 16));
    (ll, tl) = (64, 64); // *out_len was set to 0 by the failed call
    assert_eq!(unsafe { mb_aead_stream_final(h, last.as_mut_ptr(), &mut ll, tag.as_mut_ptr(), &mut tl) }, MB_OK);
    ct.extend_from_slice(&last[..ll]);
    ct.extend_from_slice(&tag[..tl]);
    assert_eq!(ct, sealed);
    assert_eq!(unsafe { mb_aead_stream_final(h, last.as_mut_ptr(), &mut ll, tag.as_mut_ptr(), &mut tl) }, MB_ERR_PARAM);
    unsafe { mb_aead_stream_free(h) };
    // CCM without the length, a tag given to an encryption, a non-AEAD mode.
    assert_eq!(new(&cases()[4], true, MB_TEXT_LEN_UNKNOWN, None).0, MB_ERR_PARAM);
    assert_eq!(new(c, true, MB_TEXT_LEN_UNKNOWN, Some(&[0; 16])).0, MB_ERR_PARAM);
    let ctr = Case { mode: c"ctr", iv: vec![0; 8], ..cases().remove(0) };
    assert_eq!(new(&ctr, true, MB_TEXT_LEN_UNKNOWN, None).0, MB_ERR_PARAM);
}

/// Feeds `pieces` (lengths, of `data` in order); the status of each update
/// and what it wrote, then of final, with what it wrote and the tag.
fn feed_pieces(h: *mut MbAeadStream, data: &[u8], pieces: &[usize]) -> (Vec<(i32, usize)>, i32, usize, usize) {
    let mut updates = Vec::new();
    let mut at = 0;
    for &n in pieces {
        let mut buf = vec![0u8; n + 64];
        let mut len = buf.len();
        let rc = unsafe { mb_aead_stream_update(h, data[at..].as_ptr(), n, buf.as_mut_ptr(), &mut len) };
        updates.push((rc, len));
        at += n;
    }
    let (mut last, mut tag) = ([0u8; 64], [0u8; 64]);
    let (mut ll, mut tl) = (last.len(), tag.len());
    let rc = unsafe { mb_aead_stream_final(h, last.as_mut_ptr(), &mut ll, tag.as_mut_ptr(), &mut tl) };
    (updates, rc, ll, tl)
}

#[test]
fn every_mode_takes_exactly_the_declared_text_len() {
    for c in cases() {
        let data = bytes(31, 300);
        let (_, sealed) = one_shot(&c, true, &data[..200]);
        let tag_bytes = sealed.len() - 200;
        let who = format!("{:?} {:?}", c.cipher, c.mode);
        for encrypt in [true, false] {
            // Decryption: the tag in the input, then apart.
            for tag_apart in [false, true] {
                if encrypt && tag_apart {
                    continue;
                }
                let input: Vec<u8> = match (encrypt, tag_apart) {
                    (true, _) => data.clone(),
                    (false, false) => [&sealed[..], &data[..]].concat(),
                    (false, true) => [&sealed[..200], &data[..]].concat(),
                };
                // The input the declared 200-byte text takes.
                let full = if encrypt || tag_apart { 200 } else { 200 + tag_bytes };
                let tag = tag_apart.then(|| &sealed[200..]);
                let who = format!("{who} encrypt {encrypt} tag apart {tag_apart}");
                // One byte short: final fails, writes nothing, no tag; spent.
                let (rc, h) = new(&c, encrypt, 200, tag);
                assert_eq!(rc, MB_OK);
                // (Decryption writes no tag and leaves *tag_len alone.)
                let tag_written = |tl: usize| if encrypt { tl } else { 0 };
                let (updates, rc, ll, tl) = feed_pieces(h, &input, &[full - 1]);
                let tl = tag_written(tl);
                assert_eq!(updates[0].0, MB_OK, "{who}");
                assert_eq!((rc, ll, tl), (MB_ERR_PARAM, 0, 0), "{who}: short");
                let (_, rc, _, _) = feed_pieces(h, &input, &[]);
                assert_eq!(rc, MB_ERR_PARAM, "{who}: spent after a short input");
                unsafe { mb_aead_stream_free(h) };
                // One byte over, in one update or at the end of several:
                // that update fails and writes nothing; final then too.
                for pieces in [vec![full + 1], vec![100, full - 100, 1], vec![full - 3, 7]] {
                    let (_, h) = new(&c, encrypt, 200, tag);
                    let (updates, rc, ll, tl) = feed_pieces(h, &input, &pieces);
                    let tl = tag_written(tl);
                    let (&(last_rc, last_len), before) = updates.split_last().unwrap();
                    assert!(before.iter().all(|&(rc, _)| rc == MB_OK), "{who} {pieces:?}");
                    assert_eq!((last_rc, last_len), (MB_ERR_PARAM, 0), "{who} {pieces:?}: the update past the length");
                    let last = unsafe { CStr::from_ptr(crate::info::mb_last_error()) }.to_string_lossy().into_owned();
                    assert_eq!((rc, ll, tl), (MB_ERR_PARAM, 0, 0), "{who} {pieces:?}: final after it");
                    assert!(last.contains("already finalized"), "{who}: {last}");
                    unsafe { mb_aead_stream_free(h) };
                }
                // Exactly the length: MB_OK (the other tests check the bytes).
                let (_, h) = new(&c, encrypt, 200, tag);
                let (updates, rc, _, _) = feed_pieces(h, &input, &[full]);
                assert_eq!((updates[0].0, rc), (MB_OK, MB_OK), "{who}: exact");
                unsafe { mb_aead_stream_free(h) };
            }
        }
    }
}

#[test]
fn a_length_mismatch_says_what_was_declared() {
    let c = &cases()[0];
    let data = bytes(5, 64);
    let (_, h) = new(c, true, 32, None);
    let mut out = [0u8; 128];
    let mut len = out.len();
    assert_eq!(unsafe { mb_aead_stream_update(h, data.as_ptr(), 33, out.as_mut_ptr(), &mut len) }, MB_ERR_PARAM);
    let last = unsafe { CStr::from_ptr(crate::info::mb_last_error()) }.to_string_lossy().into_owned();
    assert!(last.contains("declared 32 bytes long (text_len), got 33 bytes"), "{last}");
    unsafe { mb_aead_stream_free(h) };
}
