//! Key schedule, GOST R 34.12-2015 §4.3 (RFC 7801 §4.3).
//!
//! K = k255‖…‖k0; K1 = k255‖…‖k128 (the first 16 key bytes), K2 = the last 16.
//! (K_{2i+1}, K_{2i+2}) = F[C_{8(i-1)+8}] ∘ … ∘ F[C_{8(i-1)+1}](K_{2i-1}, K_{2i}), i = 1..4,
//! with F[k](a1, a0) = (LSX[k](a1) ⊕ a0, a1) and C_i = L(Vec128(i)).

use super::layers::{Lookup, Tree};
use super::keys::Keys;
use super::linear::{l_map, round_constant};
use super::constants::PI;
use super::transforms::{x, Block};
use crate::simd::{Job, Machine, Simd};
use std::sync::OnceLock;
use zeroize::Zeroize;


/// C_1..C_32, computed once per process (they are public).
fn round_constants() -> &'static [Block; 32] {
    static C: OnceLock<[Block; 32]> = OnceLock::new();
    C.get_or_init(|| core::array::from_fn(|i| round_constant(i as u8 + 1)))
}

/// S on key material, in constant time (the key is secret; the table π of
/// `transforms::s` is indexed by its bytes): the avx2 (neon) backend's π
/// where the CPU has AVX2 (NEON), else the portable backend's bitsliced
/// circuit.
fn s_secret(a: &mut Block) {
    #[cfg(target_arch = "x86_64")]
    if super::backends::avx2::sub_block(a) {
        return;
    }
    #[cfg(target_arch = "aarch64")]
    if super::backends::neon::sub_block(a) {
        return;
    }
    super::backends::portable::sub_block(a);
}

/// F[k](a1, a0) = (LSX[k](a1) ⊕ a0, a1), in place on the pair.
fn feistel_step(k: &Block, a1: &mut Block, a0: &mut Block) {
    let mut t = *a1;
    x(k, &mut t);
    s_secret(&mut t);
    let mut u = l_map().apply(&t);
    t.zeroize();
    x(a0, &mut u);
    *a0 = *a1;
    *a1 = u;
    u.zeroize();
}

/// The ten round keys K1..K10 from a 32-byte key.
/// On CPUs with AVX-512 VBMI and GFNI, all 32 steps run on the narrow
/// kernel's round (`narrow::expand`); with AVX2 (or NEON), in one job of
/// that instruction set ([`OnMachine`]); elsewhere one step at a time.
pub(crate) fn expand(key: &[u8]) -> [Block; 10] {
    let key: &[u8; 32] = key.try_into().expect("Kuznyechik keys are 32 bytes");
    let mut rk = [[0u8; 16]; 10];
    #[cfg(target_arch = "x86_64")]
    {
        use crate::simd::{Avx2, Narrow, Ymm};
        if super::narrow::expand(key, &mut rk) {
            return rk;
        }
        if let Some(m) = Ymm::<Avx2>::detect() {
            m.vectorize(OnMachine { m, block: m.half(), key, rk: &mut rk });
            return rk;
        }
    }
    #[cfg(target_arch = "aarch64")]
    if let Some(m) = crate::simd::Neon::detect() {
        m.vectorize(OnMachine { m, block: m, key, rk: &mut rk });
        return rk;
    }
    expand_one_step_at_a_time(key)
}

/// The 32 steps inside one machine's instruction set: the pair (a1, a0)
/// in 16-byte registers of `block`, S by the `avx2` backend's lookup tree
/// (`Tree`), L by [`super::linear::Linear::apply_in`] on `m` (two images
/// per ymm). Keeping the whole schedule in one `#[target_feature]` call
/// saves, per step, two calls into it and the byte-wise copies, XORs and
/// wipes of the step-by-step form (Sapphire Rapids with AVX-512 disabled,
/// key setup + 64 bytes: 3.53 µs against 4.26).
struct OnMachine<'a, M, B> {
    m: M,
    block: B,
    key: &'a [u8; 32],
    rk: &'a mut [Block; 10],
}

impl<M: Simd, B: Simd> Job for OnMachine<'_, M, B> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let OnMachine { m, block: b, key, rk } = self;
        debug_assert_eq!(B::BYTES, 16);
        let (c, l) = (round_constants(), l_map());
        rk[0].copy_from_slice(&key[..16]);
        rk[1].copy_from_slice(&key[16..]);
        let (mut a1, mut a0) = (b.load(&key[..16]), b.load(&key[16..]));
        // L's block and partial sums pass through memory; wiped at the end.
        let mut buf = [0u8; 64];
        for i in 0..4 {
            for ci in &c[8 * i..8 * i + 8] {
                let u = b.xor(l.apply_in(m, b, Tree::lookup(b, b.xor(a1, b.load(ci)), &PI), &mut buf), a0);
                a0 = a1;
                a1 = u;
            }
            b.store(a1, &mut rk[2 * i + 2]);
            b.store(a0, &mut rk[2 * i + 3]);
        }
        buf.zeroize();
    }
}

/// [`expand`] with S and L of each step called on their own.
pub(crate) fn expand_one_step_at_a_time(key: &[u8; 32]) -> [Block; 10] {
    let mut rk = [[0u8; 16]; 10];
    rk[0].copy_from_slice(&key[..16]);
    rk[1].copy_from_slice(&key[16..]);
    let (mut a1, mut a0) = (rk[0], rk[1]);
    for i in 1..5 {
        for j in 1..=8 {
            let c = &round_constants()[8 * (i - 1) + j - 1];
            feistel_step(c, &mut a1, &mut a0);
        }
        rk[2 * i] = a1;
        rk[2 * i + 1] = a0;
    }
    a1.zeroize();
    a0.zeroize();
    rk
}

impl Keys {
    /// `key` must be 32 bytes.
    pub fn new(key: &[u8]) -> Keys {
        assert_eq!(key.len(), 32, "Kuznyechik keys are 32 bytes");
        Keys { rk: expand(key) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kuznyechik::transforms::tests::block;

    const KEY: &str = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";

    fn key_bytes() -> Vec<u8> {
        (0..32).map(|i| u8::from_str_radix(&KEY[2 * i..2 * i + 2], 16).unwrap()).collect()
    }

    // GOST R 34.12-2015 Appendix A.1.4 / RFC 7801 §5.4.
    #[test]
    fn round_constants_c1_to_c8() {
        let expected = [
            "6ea276726c487ab85d27bd10dd849401",
            "dc87ece4d890f4b3ba4eb92079cbeb02",
            "b2259a96b4d88e0be7690430a44f7f03",
            "7bcd1b0b73e32ba5b79cb140f2551504",
            "156f6d791fab511deabb0c502fd18105",
            "a74af7efab73df160dd208608b9efe06",
            "c9e8819dc73ba5ae50f5b570561a6a07",
            "f6593616e6055689adfba18027aa2a08",
        ];
        for (i, c) in expected.iter().enumerate() {
            assert_eq!(round_constant(i as u8 + 1), block(c), "C{}", i + 1);
        }
    }

    #[test]
    fn first_feistel_step() {
        let k = key_bytes();
        let (mut a1, mut a0) = (block(&KEY[..32]), block(&KEY[32..]));
        assert_eq!(&a1[..], &k[..16]);
        feistel_step(&round_constant(1), &mut a1, &mut a0);
        assert_eq!(a1, block("c3d5fa01ebe36f7a9374427ad7ca8949"));
        assert_eq!(a0, block("8899aabbccddeeff0011223344556677"));
    }

    /// The one-job schedule on the emulated machines (one and two images
    /// per register for L) and on this CPU's, against the step-by-step one,
    /// on random keys.
    #[test]
    fn schedule_in_one_job_is_the_standard() {
        use crate::simd::emu::Emu;
        let mut rng = crate::test_rng::Rng(0x6b73);
        for _ in 0..50 {
            let key: [u8; 32] = rng.bytes(32).try_into().unwrap();
            let want = expand_one_step_at_a_time(&key);
            let mut rk = [[0u8; 16]; 10];
            OnMachine { m: Emu::<32>, block: Emu::<16>, key: &key, rk: &mut rk }.run();
            assert_eq!(rk, want, "ymm-wide L");
            let mut rk = [[0u8; 16]; 10];
            OnMachine { m: Emu::<16>, block: Emu::<16>, key: &key, rk: &mut rk }.run();
            assert_eq!(rk, want, "xmm-wide L");
            #[cfg(target_arch = "x86_64")]
            if let Some(m) = crate::simd::Ymm::<crate::simd::Avx2>::detect() {
                use crate::simd::Narrow;
                let mut rk = [[0u8; 16]; 10];
                m.vectorize(OnMachine { m, block: m.half(), key: &key, rk: &mut rk });
                assert_eq!(rk, want, "AVX2");
            }
            assert_eq!(expand(&key), want, "this CPU's schedule");
        }
    }

    #[test]
    fn round_keys_k1_to_k10() {
        let expected = [
            "8899aabbccddeeff0011223344556677",
            "fedcba98765432100123456789abcdef",
            "db31485315694343228d6aef8cc78c44",
            "3d4553d8e9cfec6815ebadc40a9ffd04",
            "57646468c44a5e28d3e59246f429f1ac",
            "bd079435165c6432b532e82834da581b",
            "51e640757e8745de705727265a0098b1",
            "5a7925017b9fdd3ed72a91a22286f984",
            "bb44e25378c73123a5f32f73cdb6e517",
            "72e9dd7416bcf45b755dbaa88e4a4043",
        ];
        let rk = expand(&key_bytes());
        for (i, k) in expected.iter().enumerate() {
            assert_eq!(rk[i], block(k), "K{}", i + 1);
        }
    }
}
