//! The modes of operation of a cipher on one backend (`auto`: none forced,
//! what a user gets), at the same message size as the ECB rows, so that the
//! report shows mode-vs-ECB ratios measured in one run: CTR, CBC and the
//! AEAD mode in the default run ([`few`]), every mode with `--modes`.

use crate::measure::{choice, measure, shown};
use crate::row::Row;
use crate::Failure;
use multiblock::modes::{self, Kind, Mode, Params, Request};
use multiblock::{Cipher, CipherId, Error};

/// A request that the mode accepts: the IV length differs between modes
/// (GOST CTR takes n/2 bytes, MGM a nonce with its top bit clear, ECB none),
/// so try the usual lengths and keep the first one the mode takes. IEEE 1619
/// XTS (Kuznyechik) runs in VeraCrypt's layout, 512-byte data units.
pub fn request<'a>(id: CipherId, mode: Mode, key: &'a [u8], backend: &'a str, probe: &[u8]) -> Option<Request<'a>> {
    let n = id.block_bytes();
    let mut tries: Vec<(Option<Vec<u8>>, Option<usize>)> =
        vec![(Some(vec![0x11; n]), None), (Some(vec![0x11; n / 2]), None), (None, None)];
    if mode == Mode::Xts {
        tries.insert(0, (None, Some(512)));
    }
    tries.into_iter().find_map(|(iv, data_unit)| {
        let req = Request {
            cipher: id,
            mode,
            key,
            sbox: None,
            backend: choice(backend),
            params: Params {
                iv,
                data_unit,
                aad: if mode.kind() == Kind::Aead { vec![0x22; 16] } else { Vec::new() },
                ..Params::default()
            },
        };
        let ok = match mode.kind() {
            Kind::Mac => modes::mac(&req, probe).is_ok(),
            _ => modes::encrypt(&req, probe).is_ok(),
        };
        ok.then_some(req)
    })
}

/// The default run's modes of `id`: its counter mode (CTR, or CNT for
/// GOST 28147-89), CBC (serial encryption, parallel decryption) and its
/// AEAD mode (MGM or GCM) where it has one.
pub fn few(id: CipherId) -> Vec<Mode> {
    let modes = Mode::for_cipher(id);
    let first = |of: &[Mode]| of.iter().copied().find(|m| modes.contains(m));
    [first(&[Mode::Ctr, Mode::Cnt]), first(&[Mode::Cbc]), first(&[Mode::Mgm, Mode::Gcm])].into_iter().flatten().collect()
}

/// Rows of every mode of `id`, or of the modes in `only`. The one-shot
/// calls allocate and fill their output; the `ecb` row shows what that
/// costs over the in-place ECB of the cipher rows.
pub fn rows(id: CipherId, backend: &'static str, bytes: usize, reps: usize, only: Option<&[Mode]>) -> Result<Vec<Row>, Failure> {
    let key = crate::measure::key_for(id);
    let info = Cipher::with_id(id, &key, None, choice(backend)).map_err(Failure::input)?.backend();
    let info = shown(backend, info);
    let len = bytes / id.block_bytes() * id.block_bytes();
    let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
    let mut rows = Vec::new();
    for mode in Mode::for_cipher(id).into_iter().filter(|m| only.is_none_or(|o| o.contains(m))) {
        // Two keys for IEEE 1619 XTS (K1 ‖ K2), one for every other mode.
        let key: Vec<u8> = (0..mode.key_bytes(id)).map(|i| (i * 7 + 1) as u8).collect();
        let Some(req) = request(id, mode, &key, backend, &data[..id.block_bytes() * 2]) else { continue };
        let mut record = |direction: &'static str, f: &mut dyn FnMut() -> Result<Vec<u8>, Error>| {
            let mut failed = None;
            let (ticks, secs) = measure(reps, || {
                if let Err(e) = f() {
                    failed = Some(e);
                }
            });
            if let Some(e) = failed {
                return Err(Failure::Input(format!("bench {id} {mode} {direction}: {e}")));
            }
            rows.push(Row {
                cipher: id.name(),
                backend: info.name,
                constant_time: info.constant_time,
                direction,
                ways: info.ways,
                bytes: len,
                mb_per_s: len as f64 / secs / 1e6,
                cycles_per_byte: ticks as f64 / len.max(1) as f64,
                peer: None,
                mode: Some(mode.name()),
            });
            Ok(())
        };
        if mode.kind() == Kind::Mac {
            record("mac", &mut || modes::mac(&req, &data))?;
        } else {
            let sealed = modes::encrypt(&req, &data).map_err(Failure::input)?;
            record("encrypt", &mut || modes::encrypt(&req, &data))?;
            record("decrypt", &mut || modes::decrypt(&req, &sealed))?;
        }
    }
    Ok(rows)
}
