//! Helpers the unit tests share (their random generator is `test_rng`).

/// The bytes of a hex string, two digits a byte.
pub(crate) fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}
