//! The CLI's hex text: decoding arbitrary text never panics, accepts exactly
//! the texts of an even number of hex digits among whitespace, and agrees
//! with encoding; the `--hex` input path refuses non-UTF-8 with an error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use multiblock_cli::{hex, request};

fuzz_target!(|data: &[u8]| {
    assert!(hex::decode(&hex::encode(data), "x").as_deref() == Ok(data), "decode(encode(x)) != x");
    match std::str::from_utf8(data) {
        Ok(text) => {
            let digits: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            let valid = digits.len() % 2 == 0 && digits.chars().all(|c| c.is_ascii_hexdigit());
            match hex::decode(text, "--key") {
                Ok(bytes) => {
                    assert!(valid, "accepted {text:?}");
                    assert_eq!(hex::encode(&bytes), digits.to_ascii_lowercase());
                }
                Err(msg) => {
                    assert!(!valid, "refused {text:?}: {msg}");
                    assert!(!msg.contains('\n') && msg.contains("--key"), "{msg:?}");
                }
            }
            assert_eq!(request::input_bytes(data.to_vec(), true), hex::decode(text, "the input"));
        }
        Err(_) => assert!(request::input_bytes(data.to_vec(), true).is_err()),
    }
    assert!(request::input_bytes(data.to_vec(), false).as_deref() == Ok(data));
});
