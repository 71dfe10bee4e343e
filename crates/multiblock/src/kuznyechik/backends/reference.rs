//! The reference backend: GOST R 34.12-2015 §4.4 (RFC 7801 §4.4) as written,
//! one block at a time, L computed by sixteen LFSR steps R.
//! Not constant-time: π is a table lookup indexed by secret bytes.

use super::super::transforms::{l, l_inv, s, s_inv, x, Block};
use super::super::keys::Keys;
use crate::backend::{always, Backend, BackendInfo, BlockKernel};

pub(crate) const BACKEND: Backend<Keys> = Backend {
    info: BackendInfo { name: "reference", constant_time: false, ways: 1, needs: "nothing" },
    available: always,
    new: |keys| Box::new(Reference(keys.clone())),
};

struct Reference(Keys);

/// E(a) = X[K10] LSX[K9] … LSX[K1](a) (§4.4.1).
pub(crate) fn encrypt_block(rk: &[Block; 10], a: &mut Block) {
    for k in &rk[..9] {
        x(k, a);
        s(a);
        l(a);
    }
    x(&rk[9], a);
}

/// D(a) = X[K1] S⁻¹L⁻¹X[K2] … S⁻¹L⁻¹X[K10](a) (§4.4.2).
pub(crate) fn decrypt_block(rk: &[Block; 10], a: &mut Block) {
    for k in rk[1..].iter().rev() {
        x(k, a);
        l_inv(a);
        s_inv(a);
    }
    x(&rk[0], a);
}

/// Applies `f` to each 16-byte block of `data` in place.
fn each_block(data: &mut [u8], rk: &[Block; 10], f: fn(&[Block; 10], &mut Block)) {
    for chunk in data.chunks_exact_mut(16) {
        let mut a: Block = chunk.try_into().expect("16-byte chunk");
        f(rk, &mut a);
        chunk.copy_from_slice(&a);
    }
}

impl BlockKernel for Reference {
    fn encrypt_blocks(&self, data: &mut [u8]) {
        each_block(data, &self.0.rk, encrypt_block);
    }

    fn decrypt_blocks(&self, data: &mut [u8]) {
        each_block(data, &self.0.rk, decrypt_block);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::kuznyechik::transforms::tests::{block, rng_block};
    use crate::test_util::check_against;

    /// `backend` against this one on 0..blocks blocks, both directions.
    pub(crate) fn every_length(backend: Backend<Keys>, blocks: usize) {
        let mut seed = 11;
        let key: Vec<u8> = (0..32).map(|i| rng_block(&mut seed)[i % 16]).collect();
        let keys = Keys::new(&key);
        let (kernel, oracle) = ((backend.new)(&keys), (BACKEND.new)(&keys));
        for blocks in 0..blocks {
            let data: Vec<u8> = (0..blocks).flat_map(|_| rng_block(&mut seed)).collect();
            check_against(&*kernel, &*oracle, &data, &format!("{blocks} blocks"));
        }
    }

    // GOST R 34.12-2015 Appendix A.1.5–A.1.6 / RFC 7801 §5.5–5.6.
    #[test]
    fn standard_example() {
        let key = [
            block("8899aabbccddeeff0011223344556677"),
            block("fedcba98765432100123456789abcdef"),
        ]
        .concat();
        let keys = Keys::new(&key);
        let kernel = (BACKEND.new)(&keys);
        let mut data = block("1122334455667700ffeeddccbbaa9988");
        kernel.encrypt_blocks(&mut data);
        assert_eq!(data, block("7f679d90bebc24305a468d42b9d4edcd"));
        kernel.decrypt_blocks(&mut data);
        assert_eq!(data, block("1122334455667700ffeeddccbbaa9988"));
        kernel.encrypt_blocks(&mut []);
    }
}
