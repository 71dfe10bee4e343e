//! `portable`: Magma / GOST 28147-89 bitsliced on `u64` in plain Rust, 64
//! blocks a batch: the constant-time default wherever no SIMD backend runs.
//!
//! Word i of a half holds bit i of that half (N1 or N2) of all 64 blocks
//! (`kernel::bitslice`). One round, N2 ^= rotl11(S(N1 + K)):
//! - N1 + K mod 2^32: a ripple-carry adder whose second operand is the key
//!   word's bits spread to all-ones or zero words (the key is the same for
//!   every block): sum = a ⊕ c ⊕ k, carry = (a ∧ c) ∨ (k ∧ (a ⊕ c)),
//!   5 ops a bit, 154 for the word;
//! - S: eight 4-bit S-boxes as circuits from their ANF (`bitslice::sub4`),
//!   one kernel compiled per S-box set, chosen at key setup (the set is
//!   public, the key is not). tc26-z: 11 ANDs + 27..32 XORs/NOTs per
//!   S-box, 334 ops for the eight;
//! - rotl11 is free (word renaming), the XOR into N2 is 32 ops; the swap is
//!   free (two rounds per loop step with the halves' roles exchanged).
//!
//! About 520 ops a round, 16.6k for 32 rounds of 64 blocks (512 bytes):
//! 32.5 ops/byte, plus the two transposes (2 × 2 × 1152 ops, 9 ops/byte)
//! and the byte-order loads: about 42 ops/byte in all. The table backend
//! does about 10 loads and ops per block round, 40 ops/byte, but its loads
//! wait on each other; measured side by side in README's backends table.
//!
//! Constant-time: no table, branch or address depends on the key or the
//! data. Key setup spreads key bits with arithmetic (`bitslice::spread`);
//! a short batch is zero-filled up to 64 blocks in the kernel's own state
//! (its length is public).

use super::super::imit::Anf;
use super::super::sbox::SboxSet;
use super::super::keys::{ByteOrder, Keys};
use crate::backend::{Backend, BlockKernel};
use crate::kernel::bitslice::{anf, portable_backend, spread, sub4, transpose64, WAYS};
use crate::kernel::{self, BatchCipher};
use crate::simd::Scalar;
use core::marker::PhantomData;
use zeroize::{Zeroize, ZeroizeOnDrop};

pub(crate) const BACKEND: Backend<Keys> = portable_backend(keyed);

/// The kernel compiled for the key's S-box set.
fn keyed(keys: &Keys) -> Box<dyn BlockKernel> {
    macro_rules! per_set {
        ($($i:literal),*) => {
            match SboxSet::ALL.iter().position(|&s| s == keys.set) {
                $(Some($i) => (kernel::backend::<Scalar, Bitsliced<Set<$i>>>("portable", true, WAYS).new)(keys),)*
                _ => unreachable!("SboxSet::ALL lists every set"),
            }
        };
    }
    per_set!(0, 1, 2, 3, 4, 5, 6)
}

/// The ANFs of the eight S-boxes of a set (`bitslice::anf`), and the same
/// as the scalar MAC step's g reads them (`imit::Anf`).
trait Circuits: Send + Sync + 'static {
    const ANF: [u64; 8];
    const IMIT: Anf;
}

/// S-box set `SboxSet::ALL[I]`.
struct Set<const I: usize>;

impl<const I: usize> Circuits for Set<I> {
    const ANF: [u64; 8] = {
        let s = SboxSet::ALL[I].table();
        [anf(&s[0]), anf(&s[1]), anf(&s[2]), anf(&s[3]), anf(&s[4]), anf(&s[5]), anf(&s[6]), anf(&s[7])]
    };
    const IMIT: Anf = Anf::new(SboxSet::ALL[I].table());
}

/// Which key word each round uses (RFC 5830 §6.1): K0..K7 three times,
/// then K7..K0; decryption the reverse. Public.
const ENC_ORDER: [usize; 32] = {
    let mut o = [0; 32];
    let mut i = 0;
    while i < 32 {
        o[i] = if i < 24 { i % 8 } else { 7 - i % 8 };
        i += 1;
    }
    o
};

/// The eight key words bit by bit, each bit spread over a word; wiped on drop.
#[derive(Zeroize, ZeroizeOnDrop)]
struct KeyBits([[u64; 32]; 8]);

/// The MAC step's round keys (K0..K7 twice); wiped on drop.
#[derive(Zeroize, ZeroizeOnDrop)]
struct ImitKeys([u32; 16]);

struct Bitsliced<S> {
    k: KeyBits,
    imit: ImitKeys,
    order: ByteOrder,
    set: PhantomData<S>,
}

impl<S: Circuits> Bitsliced<S> {
    /// One round: `dst ^= rotl11(S(src + k))`.
    #[inline(always)]
    fn round(dst: &mut [u64; 32], src: &[u64; 32], k: &[u64; 32]) {
        let mut x = [0u64; 32];
        let mut carry = 0u64;
        for i in 0..32 {
            let t = src[i] ^ carry;
            x[i] = t ^ k[i];
            carry = (src[i] & carry) | (k[i] & t);
        }
        // Written out per S-box so that each ANF is a constant where
        // `sub4` folds it (a loop over j left the term selection to run time).
        macro_rules! s_boxes {
            ($($j:literal)*) => {$(
                let y = sub4(S::ANF[$j], [x[4 * $j], x[4 * $j + 1], x[4 * $j + 2], x[4 * $j + 3]]);
                for (b, y) in y.into_iter().enumerate() {
                    dst[(4 * $j + b + 11) % 32] ^= y;
                }
            )*};
        }
        s_boxes!(0 1 2 3 4 5 6 7);
    }

    /// The 32 rounds on `batch` (whole blocks, at most 64), key words in
    /// the order `order(i)` gives for round i.
    #[inline(always)]
    fn crypt(&self, batch: &mut [u8], decrypt: bool) {
        let mut s = [0u64; 64];
        for (w, block) in s.iter_mut().zip(batch.chunks_exact(8)) {
            let (n1, n2) = self.order.load(block);
            *w = u64::from(n1) | (u64::from(n2) << 32);
        }
        transpose64(&mut s);
        let (mut n1, mut n2) = ([0u64; 32], [0u64; 32]);
        n1.copy_from_slice(&s[..32]);
        n2.copy_from_slice(&s[32..]);
        let key = |i: usize| &self.k.0[if decrypt { ENC_ORDER[31 - i] } else { ENC_ORDER[i] }];
        for r in (0..32).step_by(2) {
            Self::round(&mut n2, &n1, key(r));
            Self::round(&mut n1, &n2, key(r + 1));
        }
        // After an even number of rounds the halves are swapped (the last
        // round does not swap, RFC 5830 §6.1).
        s[..32].copy_from_slice(&n2);
        s[32..].copy_from_slice(&n1);
        transpose64(&mut s);
        for (w, block) in s.iter().zip(batch.chunks_exact_mut(8)) {
            self.order.store(*w as u32, (*w >> 32) as u32, block);
        }
        s.zeroize();
        n1.zeroize();
        n2.zeroize();
    }
}

impl<S: Circuits> BatchCipher<Scalar> for Bitsliced<S> {
    type Keys = Keys;
    const BATCH_BYTES: usize = 8 * WAYS;
    const GRANULE_BYTES: usize = 8;

    fn new(_: Scalar, keys: &Keys) -> Self {
        let mut k = KeyBits([[0; 32]; 8]);
        for (bits, &word) in k.0.iter_mut().zip(&keys.k) {
            for (i, b) in bits.iter_mut().enumerate() {
                *b = spread(u64::from(word >> i));
            }
        }
        let imit = ImitKeys(core::array::from_fn(|i| keys.k[i % 8]));
        Bitsliced { k, imit, order: keys.order, set: PhantomData }
    }
    #[inline(always)]
    fn encrypt(&self, _: Scalar, batch: &mut [u8]) {
        self.crypt(batch, false)
    }
    #[inline(always)]
    fn decrypt(&self, _: Scalar, batch: &mut [u8]) {
        self.crypt(batch, true)
    }
    /// One block at a time on general registers (a 64-block bitsliced
    /// step would cost 64 blocks' work per message block): the
    /// constant-time SWAR g of `imit::Anf`.
    #[inline(always)]
    fn imit_steps(&self, _: Scalar, state: &mut [u8; 8], data: &[u8]) -> bool {
        super::super::imit::steps(self.order, &self.imit.0, |x| S::IMIT.g(x), state, data);
        true
    }
}
