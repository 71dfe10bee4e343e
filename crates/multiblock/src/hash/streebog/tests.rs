//! Streebog against the standard's examples, the reference backend and
//! RustCrypto `streebog`, on every backend this CPU runs and, for the
//! AVX-512, AVX2 and NEON kernels, on the emulator.

use super::affine::{AffineKernel, Spread};
use super::rows::PiLookup;
use super::constants::PI;
use super::neon::NeonKernel;
use super::paired::{Affine, Nibbles, PairedKernel};
use super::split::SplitKernel;
use super::xmm::XmmKernel;
use super::pi_structure::{self, AffineLogs, Field, Logs, TreeCore, ZeroingLogs, OUTPUT};
use super::compress::{Block, Compress, State};
use super::{digest_many, Core, BACKENDS};
use crate::simd::emu::Emu;
use crate::test_rng::Rng;
use crate::cpu::CpuFeatures;
use crate::{BackendChoice, Error};
use digest::Digest;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// As the standard prints a value (most significant byte first): reversed
/// into memory order.
fn printed(s: &str) -> Vec<u8> {
    let mut v = hex(s);
    v.reverse();
    v
}

/// The names of the backends this CPU runs.
fn runnable() -> Vec<&'static str> {
    BACKENDS.iter().filter(|b| (b.available)(CpuFeatures::get())).map(|b| b.info.name).collect()
}

fn hash(name: &str, digest_bytes: usize, data: &[u8]) -> Vec<u8> {
    let mut core = Core::new(digest_bytes, BackendChoice::Named(name)).unwrap();
    core.update(data);
    let mut out = vec![0; digest_bytes];
    core.finalize_into(&mut out);
    core.reset();
    out
}

fn rust_crypto(digest_bytes: usize, data: &[u8]) -> Vec<u8> {
    match digest_bytes {
        32 => streebog::Streebog256::digest(data).to_vec(),
        _ => streebog::Streebog512::digest(data).to_vec(),
    }
}

/// GOST R 34.11-2012 Appendix A (RFC 6986 §10): M1 (63 bytes) and M2
/// (72 bytes), printed most significant byte first like the digests.
const EXAMPLES: [(&str, &str, &str); 2] = [
    (
        "323130393837363534333231303938373635343332313039383736353433323130393837363534333231303938373635343332313039383736353433323130",
        "486f64c1917879417fef082b3381a4e211c324f074654c38823a7b76f830ad00fa1fbae42b1285c0352f227524bc9ab16254288dd6863dccd5b9f54a1ad0541b",
        "00557be5e584fd52a449b16b0251d05d27f94ab76cbaa6da890b59d8ef1e159d",
    ),
    (
        "fbe2e5f0eee3c820fbeafaebef20fffbf0e1e0f0f520e0ed20e8ece0ebe5f0f2f120fff0eeec20f120faf2fee5e2202ce8f6f3ede220e8e6eee1e8f0f2d1202ce8f0f2e5e220e5d1",
        "28fbc9bada033b1460642bdcddb90c3fb3e56c497ccd0f62b8a2ad4935e85f037613966de4ee00531ae60f3b5a47f8dae06915d5f2f194996fcabf2622e6881e",
        "508f7e553c06501d749a66fc28c6cac0b005746d97537fa85d9e40904efed29d",
    ),
];

#[test]
fn standard_examples_on_every_backend() {
    for name in runnable() {
        for (i, (msg, h512, h256)) in EXAMPLES.iter().enumerate() {
            let msg = printed(msg);
            assert_eq!(hash(name, 64, &msg), printed(h512), "{name}: M{} Streebog-512", i + 1);
            assert_eq!(hash(name, 32, &msg), printed(h256), "{name}: M{} Streebog-256", i + 1);
        }
    }
}

/// M1 is "012345678901234567890123456789012345678901234567890123456789012"
/// in memory order: the byte order is RustCrypto's.
#[test]
fn example_m1_is_the_ascii_digits() {
    assert_eq!(printed(EXAMPLES[0].0), b"012345678901234567890123456789012345678901234567890123456789012");
}

fn lengths() -> Vec<usize> {
    (0..=300).chain([1000, 4096, 65537]).collect()
}

#[test]
fn every_backend_is_the_reference_and_rust_crypto() {
    let mut rng = Rng(0x57_2e_b0);
    for len in lengths() {
        let data = rng.bytes(len);
        for digest_bytes in [32, 64] {
            let want = rust_crypto(digest_bytes, &data);
            for name in runnable() {
                assert_eq!(hash(name, digest_bytes, &data), want, "{name}, {digest_bytes}-byte digest, {len} bytes");
            }
        }
    }
}

/// `update` in two pieces, split at every point, and in random pieces.
#[test]
fn updates_in_pieces() {
    let mut rng = Rng(0x3a_11);
    for len in [0, 1, 63, 64, 65, 127, 128, 200] {
        let data = rng.bytes(len);
        for name in runnable() {
            let want = hash(name, 64, &data);
            let mut core = Core::new(64, BackendChoice::Named(name)).unwrap();
            for at in 0..=len {
                core.update(&data[..at]);
                core.update(&data[at..]);
                let mut out = [0u8; 64];
                core.finalize_into(&mut out);
                core.reset();
                assert_eq!(out.to_vec(), want, "{name}, {len} bytes split at {at}");
            }
            for _ in 0..20 {
                for piece in crate::test_rng::split(&mut rng, &data) {
                    core.update(piece);
                }
                let mut clone = core.clone();
                let mut out = [0u8; 64];
                core.finalize_into(&mut out);
                core.reset();
                assert_eq!(out.to_vec(), want, "{name}, {len} bytes in random pieces");
                clone.finalize_into(&mut out);
                clone.reset();
                assert_eq!(out.to_vec(), want, "{name}, {len} bytes, a clone");
            }
        }
    }
}

#[test]
fn digest_many_mixed_lengths() {
    let mut rng = Rng(0x99);
    let lens = [0, 1, 63, 64, 65, 1000, 3, 64, 0, 128, 129];
    let msgs: Vec<Vec<u8>> = lens.iter().map(|&n| rng.bytes(n)).collect();
    for count in [0, 1, 2, 7, 8, 9, lens.len()] {
        let refs: Vec<&[u8]> = msgs[..count].iter().map(|m| &m[..]).collect();
        for digest_bytes in [32, 64] {
            for name in runnable() {
                let got = digest_many(digest_bytes, &refs, BackendChoice::Named(name)).unwrap();
                assert_eq!(got.len(), count);
                for (g, m) in got.iter().zip(&refs) {
                    assert_eq!(*g, rust_crypto(digest_bytes, m), "{name}, {count} messages");
                }
            }
        }
    }
}

#[test]
fn parameters_are_checked() {
    assert!(matches!(Core::new(48, BackendChoice::Auto), Err(Error::Param(_))));
    assert!(matches!(digest_many(0, &[], BackendChoice::Auto), Err(Error::Param(_))));
    assert!(matches!(Core::new(64, BackendChoice::Named("no-such")), Err(Error::UnknownBackend { .. })));
    let core = Core::new(32, BackendChoice::Named("portable")).unwrap();
    assert_eq!((core.digest_bytes, core.backend().name, core.backend().constant_time), (32, "portable", true));
    assert!(Core::new(64, BackendChoice::Auto).unwrap().backend().constant_time || std::env::var(crate::BACKEND_ENV).is_ok());
}

/// The AVX-512 kernel on the emulator, each way to make L's inputs, each
/// order of the key and state chains and each way the row kernel looks π
/// up: g, the block loop, two compressions at once and the row kernel,
/// against the reference's: this runs on every CPU.
#[test]
fn affine_kernel_on_the_emulator() {
    emulated(&AffineKernel::<_, { Spread::SWAPPED }, true, { PiLookup::HALVES }>(Emu::<64>));
    emulated(&AffineKernel::<_, { Spread::EIGHT }, true, { PiLookup::HALVES }>(Emu::<64>));
    emulated(&AffineKernel::<_, { Spread::EIGHT }, false, { PiLookup::QUARTERS }>(Emu::<64>));
    emulated(&AffineKernel::<_, { Spread::MOVED }, true, { PiLookup::QUARTERS }>(Emu::<64>));
}

/// The ymm kernel on the emulator with both product strategies (GFNI and
/// nibble tables) and each way to π's core, against the reference's.
#[test]
fn paired_kernel_on_the_emulator() {
    emulated(&PairedKernel::<Emu<32>, Affine, Field>::new(Emu::<32>));
    emulated(&PairedKernel::<Emu<32>, Nibbles, Logs>::new(Emu::<32>));
    emulated(&PairedKernel::<Emu<32>, Affine, TreeCore>::new(Emu::<32>));
    emulated(&PairedKernel::<Emu<32>, Nibbles, Field>::new(Emu::<32>));
    emulated(&PairedKernel::<Emu<32>, Affine, AffineLogs>::new(Emu::<32>));
}

#[test]
fn split_kernel_on_the_emulator() {
    let many = || PairedKernel::<Emu<32>, Affine, AffineLogs>::new(Emu::<32>);
    emulated(&SplitKernel::<Emu<32>, AffineLogs, _>::new(Emu::<32>, many()));
    emulated(&SplitKernel::<Emu<32>, Field, _>::new(Emu::<32>, many()));
}

/// The decomposition of π (and its GF(2^4) pieces) on all 256 inputs.
#[test]
fn pi_decomposition_is_pi() {
    for x in 0..=255u8 {
        assert_eq!(pi_structure::pi_by_structure(x), PI[x as usize], "π({x:#04x})");
    }
    for a in 1..16u8 {
        assert_eq!(pi_structure::gf16_mul(a, pi_structure::gf16_inv(a)), 1, "I({a})");
    }
    // E is a field isomorphism onto the subfield, and TO_NIBBLE undoes it.
    for a in 0..16u8 {
        let e = pi_structure::embed(a);
        assert_eq!(crate::gf256::affine_byte(pi_structure::TO_NIBBLE, e), a, "E({a})");
        for b in 0..16u8 {
            let product = crate::gf256::mul(e, pi_structure::embed(b), crate::gf256::AES);
            assert_eq!(product, pi_structure::embed(pi_structure::gf16_mul(a, b)), "E({a})·E({b})");
        }
    }
}

/// π's core on a machine, all 256 inputs in 8 registers (entered into the
/// core's domain): OUTPUT · (core ⊕ OFFSET) = π.
struct CoreOfAll<M, S>(M, core::marker::PhantomData<S>);

impl<M: crate::simd::Simd, S: pi_structure::Core<M>> crate::simd::Job for CoreOfAll<M, S> {
    type Output = [u8; 256];
    #[inline(always)]
    fn run(self) -> [u8; 256] {
        let m = self.0;
        let all: [u8; 256] = core::array::from_fn(|x| x as u8);
        let mut out = [0u8; 256];
        for (i, o) in all.chunks(M::BYTES).zip(out.chunks_mut(M::BYTES)) {
            m.store(S::core(m, S::enter(m, m.load(i))), o);
        }
        out
    }
}

fn check_core<M: crate::simd::Simd, S: pi_structure::Core<M>>(m: M, what: &str) {
    let core = crate::simd::Machine::vectorize(m, CoreOfAll::<M, S>(m, core::marker::PhantomData));
    for x in 0..256 {
        assert_eq!(crate::gf256::affine_byte(OUTPUT, core[x] ^ S::OFFSET), PI[x], "{what}: π({x:#04x})");
    }
}

/// The SIMD cores on the emulator and, where the CPU has them, on ymm and
/// SSSE3 xmm.
#[test]
fn pi_core_on_every_machine() {
    check_core::<_, Field>(Emu::<32>, "Field on the emulator");
    check_core::<_, Logs>(Emu::<32>, "Logs on the emulator");
    check_core::<_, TreeCore>(Emu::<32>, "tree on the emulator");
    check_core::<_, AffineLogs>(Emu::<32>, "AffineLogs on the emulator");
    check_core::<_, ZeroingLogs>(Emu::<32>, "ZeroingLogs on the emulator");
    check_core::<_, ZeroingLogs>(Emu::<16>, "ZeroingLogs on the 16-byte emulator");
    #[cfg(target_arch = "x86_64")]
    {
        use crate::simd::{Avx2, Avx2Gfni, Machine, Ssse3, Xmm, Ymm};
        if let Some(m) = Xmm::<Ssse3>::detect() {
            check_core::<_, Logs>(m, "Logs on SSSE3 xmm");
            check_core::<_, ZeroingLogs>(m, "ZeroingLogs on SSSE3 xmm");
        }
        if let Some(m) = Ymm::<Avx2Gfni>::detect() {
            check_core::<_, Field>(m, "Field on ymm");
            check_core::<_, Logs>(m, "Logs on ymm with GFNI");
            check_core::<_, AffineLogs>(m, "AffineLogs on ymm");
        }
        if let Some(m) = Ymm::<Avx2>::detect() {
            check_core::<_, Logs>(m, "Logs on ymm");
            check_core::<_, TreeCore>(m, "tree on ymm");
        }
    }
}

/// The NEON kernel on the emulated 16-byte machine (so on any CPU): g,
/// the block loop and `g_many` against the reference's, then whole
/// messages of the lengths around the block boundaries (the standard's
/// examples included) against RustCrypto `streebog`, both digest sizes.
#[test]
fn neon_kernel_on_the_emulator() {
    let kernel = NeonKernel(Emu::<16>);
    emulated(&kernel);
    for (msg, h512, h256) in EXAMPLES {
        let msg = printed(msg);
        assert_eq!(hash_with(&kernel, 64, &msg), printed(h512), "Streebog-512 example");
        assert_eq!(hash_with(&kernel, 32, &msg), printed(h256), "Streebog-256 example");
    }
    let mut rng = Rng(0x4e_0e);
    for len in [0, 1, 63, 64, 65, 127, 128, 129, 200, 1000] {
        let data = rng.bytes(len);
        for digest_bytes in [32, 64] {
            let want = rust_crypto(digest_bytes, &data);
            assert_eq!(hash_with(&kernel, digest_bytes, &data), want, "{digest_bytes}-byte digest, {len} bytes");
        }
    }
}

/// The xmm kernel on the emulated 16-byte machine, with each of π's cores
/// that need no GFNI: g, the block loop and `g_many` against the
/// reference's.
#[test]
fn xmm_kernel_on_the_emulator() {
    emulated(&XmmKernel::<Emu<16>, Logs>::new(Emu::<16>));
    emulated(&XmmKernel::<Emu<16>, TreeCore>::new(Emu::<16>));
    emulated(&XmmKernel::<Emu<16>, ZeroingLogs>::new(Emu::<16>));
}

/// A whole message through a kernel: stage 2 on its whole blocks but a
/// last one, the rest (0 to 64 bytes) through `finish` (as [`Core`] runs
/// them).
fn hash_with(kernel: &dyn Compress, digest_bytes: usize, data: &[u8]) -> Vec<u8> {
    let mut st = State::new(digest_bytes);
    let whole = data.len().saturating_sub(1) / 64 * 64;
    kernel.blocks_from_iv(digest_bytes, &mut st, &data[..whole]);
    let mut out = vec![0; digest_bytes];
    super::finish(kernel, &mut st, &data[whole..], &mut out);
    out
}

/// On aarch64 the backend tests above run the `neon` backend, the default.
#[cfg(target_arch = "aarch64")]
#[test]
fn neon_is_tested_and_the_default_on_aarch64() {
    assert!(runnable().contains(&"neon"), "{:?}", runnable());
    let core = Core::new(64, BackendChoice::Auto).unwrap();
    assert!(core.backend().name == "neon" || std::env::var(crate::BACKEND_ENV).is_ok(), "{}", core.backend().name);
}

fn emulated(emu: &dyn Compress) {
    let reference = (BACKENDS.iter().find(|b| b.info.name == "reference").unwrap().new)(&());
    let mut rng = Rng(0xe_40);
    let block = |rng: &mut Rng| -> Block { rng.bytes(64).try_into().unwrap() };
    for _ in 0..3 {
        let (h, n, m) = (block(&mut rng), block(&mut rng), block(&mut rng));
        let (mut a, mut b) = (h, h);
        reference.g(&mut a, &n, &m);
        emu.g(&mut b, &n, &m);
        assert_eq!(a, b, "g");
        let data = rng.bytes(192);
        let start = State { h, n, sigma: m };
        let (mut sa, mut sb) = (start.clone(), start);
        reference.blocks(&mut sa, &data);
        emu.blocks(&mut sb, &data);
        assert_eq!((sa.h, sa.n, sa.sigma), (sb.h, sb.n, sb.sigma), "blocks");
    }
    // A chain of 0 to 4 compressions (the end of §8), against the
    // reference's one at a time.
    for steps in 0..=4 {
        let h = block(&mut rng);
        let ns: Vec<Block> = (0..steps).map(|_| block(&mut rng)).collect();
        let ms: Vec<Block> = (0..steps).map(|_| block(&mut rng)).collect();
        let (mut a, mut b) = (h, h);
        reference.chain(&mut a, &ns, &ms);
        emu.chain(&mut b, &ns, &ms);
        assert_eq!(a, b, "chain of {steps}");
    }
    // A message's first compressions, from the IV with its keys made at
    // compile time (a chain of 1 to 4, 1 to 3 blocks), for both IVs,
    // against the reference's, which derives the keys.
    for digest_bytes in [32, 64] {
        for steps in 1..=4 {
            let ns: Vec<Block> = (0..steps).map(|i| if i == 0 { [0; 64] } else { block(&mut rng) }).collect();
            let ms: Vec<Block> = (0..steps).map(|_| block(&mut rng)).collect();
            let (mut a, mut b) = (State::new(digest_bytes).h, State::new(digest_bytes).h);
            reference.chain(&mut a, &ns, &ms);
            emu.chain_from_iv(digest_bytes, &mut b, &ns, &ms);
            assert_eq!(a, b, "chain of {steps} from the IV of {digest_bytes} bytes");
        }
        for blocks in 1..=3 {
            let data = rng.bytes(64 * blocks);
            let (mut sa, mut sb) = (State::new(digest_bytes), State::new(digest_bytes));
            reference.blocks(&mut sa, &data);
            emu.blocks_from_iv(digest_bytes, &mut sb, &data);
            assert_eq!((sa.h, sa.n, sa.sigma), (sb.h, sb.n, sb.sigma), "{blocks} blocks from the IV of {digest_bytes} bytes");
        }
        // Whole messages as `Core` runs them (stage 2 from the IV, or the
        // IV's compression in `finish`), against the reference's.
        for len in [0, 1, 63, 64, 65, 127, 128, 129, 200] {
            let data = rng.bytes(len);
            assert_eq!(hash_with(emu, digest_bytes, &data), hash_with(&*reference, digest_bytes, &data), "{len} bytes, {digest_bytes}-byte digest");
        }
        for count in [0, 1, 2, 3, 5, 6, 7, 8, 9, 13, 14, 17] {
            let ms: Vec<Block> = (0..count).map(|_| block(&mut rng)).collect();
            let mut a = vec![State::new(digest_bytes).h; count];
            let mut b = a.clone();
            reference.g_many(&mut a, &vec![[0; 64]; count], &ms);
            emu.g_many_from_iv(digest_bytes, &mut b, &ms);
            assert_eq!(a, b, "g_many of {count} from the IV of {digest_bytes} bytes");
        }
    }
    // N's low word about to carry within a call of `blocks`: the kernels
    // that keep N in a register take the memory path there.
    for low in [u64::MAX - 511, u64::MAX - 1023, u64::MAX - 1535, u64::MAX] {
        let (h, sigma) = (block(&mut rng), block(&mut rng));
        let mut n = block(&mut rng);
        n[..8].copy_from_slice(&low.to_le_bytes());
        let data = rng.bytes(192);
        let start = State { h, n, sigma };
        let (mut sa, mut sb) = (start.clone(), start);
        reference.blocks(&mut sa, &data);
        emu.blocks(&mut sb, &data);
        assert_eq!((sa.h, sa.n, sa.sigma), (sb.h, sb.n, sb.sigma), "blocks from N's low word {low:#x}");
    }
    // Counts below, at and above the kernels' lanes (8 for avx512-gfni).
    for count in 0..=17 {
        let hs: Vec<Block> = (0..count).map(|_| block(&mut rng)).collect();
        let ns: Vec<Block> = (0..count).map(|_| block(&mut rng)).collect();
        let ms: Vec<Block> = (0..count).map(|_| block(&mut rng)).collect();
        let (mut a, mut b) = (hs.clone(), hs);
        reference.g_many(&mut a, &ns, &ms);
        emu.g_many(&mut b, &ns, &ms);
        assert_eq!(a, b, "g_many on {count}");
    }
    // Several messages' blocks at once, against the reference's one
    // message at a time: counts around the lanes, 0 to 3 blocks, and N's
    // low word of one state about to carry within the call (the general
    // path) or not.
    for (count, blocks, near_carry) in [(0, 2, false), (1, 2, false), (2, 3, false), (3, 1, false), (4, 2, false), (5, 3, false), (6, 1, false), (8, 3, false), (8, 0, false), (9, 2, false), (13, 2, false), (17, 3, false), (8, 3, true), (16, 2, true)] {
        let starts: Vec<State> = (0..count)
            .map(|i| {
                let mut n = block(&mut rng);
                if near_carry && i == count - 1 {
                    n[..8].copy_from_slice(&(u64::MAX - 700).to_le_bytes());
                }
                State { h: block(&mut rng), n, sigma: block(&mut rng) }
            })
            .collect();
        let data: Vec<Vec<u8>> = (0..count).map(|_| rng.bytes(64 * blocks)).collect();
        blocks_many_is_one_at_a_time(&*reference, emu, starts, &data, &format!("{count} states, {blocks} blocks, N near a carry: {near_carry}"));
    }
    // Σ of all ones: a carry out of any word runs through all the words
    // above it (the row kernel adds the carries after the blocks).
    let starts: Vec<State> = (0..8).map(|_| State { h: block(&mut rng), n: block(&mut rng), sigma: [0xff; 64] }).collect();
    let data: Vec<Vec<u8>> = (0..8).map(|i| if i == 0 { vec![0; 128] } else { rng.bytes(128) }).collect();
    blocks_many_is_one_at_a_time(&*reference, emu, starts, &data, "Σ of all ones");
}

/// `kernel.blocks_many` from `starts` over `data` against `reference.blocks`
/// on one message at a time.
fn blocks_many_is_one_at_a_time(reference: &dyn Compress, kernel: &dyn Compress, starts: Vec<State>, data: &[Vec<u8>], what: &str) {
    let refs: Vec<&[u8]> = data.iter().map(|d| &d[..]).collect();
    let mut want = starts.clone();
    for (st, d) in want.iter_mut().zip(&refs) {
        reference.blocks(st, d);
    }
    let mut got = starts;
    let mut states: Vec<&mut State> = got.iter_mut().collect();
    kernel.blocks_many(&mut states, &refs);
    for (i, (a, b)) in want.iter().zip(&got).enumerate() {
        assert_eq!((a.h, a.n, a.sigma), (b.h, b.n, b.sigma), "blocks_many, {what}: state {i}");
    }
}

/// Cycles per byte (TSC ticks) of each backend and of RustCrypto
/// `streebog`, best of several runs: one 1 MiB message, 64-byte messages
/// one at a time, and 1024 messages of 64 bytes through `digest_many`.
/// `cargo test --release -p multiblock --lib streebog::tests::speed -- --ignored --nocapture`
#[test]
#[ignore]
fn speed() {
    fn best(bytes: usize, mut f: impl FnMut()) -> f64 {
        f();
        crate::hazmat::best_ticks(7, f) as f64 / bytes as f64
    }
    let long = Rng(1).bytes(1 << 20);
    let shorts: Vec<Vec<u8>> = (0..1024).map(|i| Rng(i + 2).bytes(64)).collect();
    let refs: Vec<&[u8]> = shorts.iter().map(|m| &m[..]).collect();
    for name in runnable().into_iter().filter(|n| *n != "reference") {
        let long_cpb = best(long.len(), || {
            std::hint::black_box(hash(name, 64, &long));
        });
        let short_cpb = best(64 * 1024, || {
            for m in &refs {
                std::hint::black_box(hash(name, 64, m));
            }
        });
        let many_cpb = best(64 * 1024, || {
            std::hint::black_box(digest_many(64, &refs, BackendChoice::Named(name)).unwrap());
        });
        println!("streebog-512 {name:12} 1 MiB {long_cpb:6.2} c/B, 64 B one by one {short_cpb:6.2}, digest_many 64 B {many_cpb:6.2}");
    }
    // The ymm kernel with each way to π's core (the tree: π before its
    // decomposition).
    #[cfg(target_arch = "x86_64")]
    {
        use crate::simd::{Avx2, Avx2Gfni, Machine, Ymm};
        let blocks = |kernel: &dyn Compress| {
            best(long.len(), || {
                let mut st = State::new(64);
                kernel.blocks(&mut st, &long);
                std::hint::black_box(st.h);
            })
        };
        if let Some(y) = Ymm::<Avx2Gfni>::detect() {
            let tree = blocks(&PairedKernel::<_, Affine, TreeCore>::new(y));
            let field = blocks(&PairedKernel::<_, Affine, Field>::new(y));
            let logs = blocks(&PairedKernel::<_, Affine, Logs>::new(y));
            let affine_logs = blocks(&PairedKernel::<_, Affine, AffineLogs>::new(y));
            println!(
                "streebog-512 avx2-gfni 1 MiB blocks: π by tree {tree:6.2}, Field {field:6.2}, Logs {logs:6.2}, AffineLogs {affine_logs:6.2} c/B"
            );
        }
        if let Some(y) = Ymm::<Avx2>::detect() {
            let tree = blocks(&PairedKernel::<_, Nibbles, TreeCore>::new(y));
            let logs = blocks(&PairedKernel::<_, Nibbles, Logs>::new(y));
            println!("streebog-512 avx2 1 MiB blocks: π by tree {tree:6.2}, Logs {logs:6.2} c/B");
        }
    }
    let long_cpb = best(long.len(), || {
        std::hint::black_box(streebog::Streebog512::digest(&long));
    });
    let short_cpb = best(64 * 1024, || {
        for m in &refs {
            std::hint::black_box(streebog::Streebog512::digest(m));
        }
    });
    println!("streebog-512 RustCrypto   1 MiB {long_cpb:6.2} c/B, 64 B one by one {short_cpb:6.2}");
}
