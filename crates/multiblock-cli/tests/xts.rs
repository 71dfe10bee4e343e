//! `--mode xts` on Kuznyechik: IEEE 1619 XTS with VeraCrypt's data units
//! (`--data-unit 512 --unit N`) or one unit with `--iv` as the tweak. The
//! library's one-shot result (checked against an independent XTS in its
//! own tests) is what the command must write; a region that starts at
//! unit N decrypts on its own; bad keys and layouts exit 2 with one line.

mod common;

use common::{bytes, fails, hex, run};
use multiblock::modes::{self, Mode, Params, Request};
use multiblock::{BackendChoice, CipherId};

fn request(key: &[u8], params: Params) -> Request<'_> {
    Request { cipher: CipherId::Kuznyechik, mode: Mode::Xts, key, sbox: None, backend: BackendChoice::Auto, params }
}

fn xts(verb: &str, key: &[u8], extra: &[&str], data: &[u8]) -> std::process::Output {
    let key = hex(key);
    let mut args = vec![verb, "--cipher", "kuznyechik", "--mode", "xts", "--key", &key, "--quiet"];
    args.extend_from_slice(extra);
    run(&args, data)
}

#[test]
fn data_units_from_unit_n_give_the_library_result_and_sub_ranges_decrypt_alone() {
    let key = bytes(64, 1);
    let volume = bytes(40 * 512, 2);
    let first: u128 = (1 << 32) - 3;
    let params = Params { data_unit: Some(512), unit: Some(first), ..Params::default() };
    let want = modes::encrypt(&request(&key, params), &volume).unwrap();
    let first_text = first.to_string();
    for threads in ["1", "2"] {
        let o = xts("encrypt", &key, &["--data-unit", "512", "--unit", &first_text, "--threads", threads], &volume);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stdout == want, "threads {threads}");
    }
    // Units 7..19 on their own, numbered from first + 7.
    let unit = (first + 7).to_string();
    let o = xts("decrypt", &key, &["--data-unit", "512", "--unit", &unit], &want[7 * 512..19 * 512]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout == volume[7 * 512..19 * 512]);
    // Without --unit the first unit is 0.
    let o = xts("encrypt", &key, &["--data-unit", "512"], &volume[..1024]);
    let zero = Params { data_unit: Some(512), unit: Some(0), ..Params::default() };
    assert!(o.stdout == modes::encrypt(&request(&key, zero), &volume[..1024]).unwrap());
}

#[test]
fn a_partial_last_unit_and_the_iv_form_round_trip() {
    let key = bytes(64, 3);
    let data = bytes(3 * 512 + 100, 4);
    let o = xts("encrypt", &key, &["--data-unit", "512", "--unit", "18446744073709551615"], &data);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let params = Params { data_unit: Some(512), unit: Some(u64::MAX as u128), ..Params::default() };
    assert!(o.stdout == modes::encrypt(&request(&key, params), &data).unwrap());
    let back = xts("decrypt", &key, &["--data-unit", "512", "--unit", "18446744073709551615"], &o.stdout);
    assert!(back.stdout == data);
    let iv = bytes(16, 5);
    let o = xts("encrypt", &key, &["--iv", &hex(&iv)], &data[..1000]);
    let params = Params { iv: Some(iv), ..Params::default() };
    assert!(o.stdout == modes::encrypt(&request(&key, params), &data[..1000]).unwrap());
}

#[test]
fn bad_keys_layouts_and_lengths_exit_2_with_one_line() {
    let key = bytes(64, 6);
    let o = xts("encrypt", &key[..32], &["--data-unit", "512"], &[0; 512]);
    fails(&o, 2, "64 bytes", "a 32-byte key");
    let o = xts("encrypt", &key, &["--data-unit", "500"], &[0; 512]);
    fails(&o, 2, "multiple of 16", "--data-unit 500");
    let o = xts("encrypt", &key, &["--data-unit", "512"], &[0; 15]);
    fails(&o, 2, "16-byte block", "15 bytes");
    let o = xts("encrypt", &key, &["--data-unit", "512"], &[0; 520]);
    fails(&o, 2, "last data unit is 8 bytes", "a last unit of 8 bytes");
    let o = xts("encrypt", &key, &["--data-unit", "512", "--unit", "-1"], &[0; 512]);
    fails(&o, 2, "negative", "--unit -1");
    let o = xts("encrypt", &key, &[], &[0; 512]);
    fails(&o, 2, "--data-unit", "neither --data-unit nor --iv");
    let o = run(&["encrypt", "--cipher", "magma", "--mode", "xts", "--key", &hex(&key[..32])], &[0; 16]);
    fails(&o, 2, "128-bit blocks", "magma xts");
    let o = run(&["encrypt", "--cipher", "kuznyechik", "--mode", "ctr", "--key", &hex(&key[..32]), "--iv", "0011223344556677", "--data-unit", "512"], &[0; 16]);
    fails(&o, 2, "--data-unit", "ctr with --data-unit");
}
