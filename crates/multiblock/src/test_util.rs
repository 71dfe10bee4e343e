//! Helpers the unit tests share (their random generator is `test_rng`).

use crate::backend::BlockKernel;

/// The bytes of a hex string, two digits a byte.
pub(crate) fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// `kernel` against `oracle` on `data` (whole blocks): the same ciphertext,
/// and `kernel` decrypts it back to `data`. `what` names the case in a
/// failure.
pub(crate) fn check_against(kernel: &dyn BlockKernel, oracle: &dyn BlockKernel, data: &[u8], what: &str) {
    let (mut got, mut want) = (data.to_vec(), data.to_vec());
    kernel.encrypt_blocks(&mut got);
    oracle.encrypt_blocks(&mut want);
    assert_eq!(got, want, "{what}: encrypt");
    kernel.decrypt_blocks(&mut got);
    assert_eq!(got, data, "{what}: decrypt");
}
