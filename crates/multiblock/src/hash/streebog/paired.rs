//! Streebog on 256-bit registers without AVX-512: the state and the key of
//! g_N (RFC 6986 §7) side by side in four ymm, π from its GF(2^4)
//! structure (`pi_structure.rs`), L by products of 8×8 bit blocks
//! (`vgf2p8affineqb`, or two `pshufb` nibble tables where there is no GFNI).
//!
//! Pairing. In round i of E(K, m) (§7) the state X and the key K are both
//! put through LPS: X ← LPS(X) ⊕ K_(i+1), K_(i+1) = LPS(K_i ⊕ C_i). The two
//! LPS are independent, so each 128-bit lane holds 8 bytes of X and the
//! same 8 bytes of K: 16 bytes that need the same product table, which
//! `pshufb` (one table per 128-bit lane) then uses whole. Only
//! K_1 = LPS(h ⊕ N) is alone (both halves compute it).
//!
//! Layout. Lane j (register j / 2, half j % 2) holds byte j of the 8
//! words, X's word w at slot 8·(w mod 2) + w / 2 and K's 4 slots above:
//! X in the low dword of each 64-bit word, K in the high one.
//!
//! LPS: S bytewise; P and the move to L's layout are one transposition
//! ([`transpose`]: a `pshufb`, two rounds of unpacks and a `vpermq` per
//! register, both halves at once): after it lane i holds byte i of the
//! words of P·S(X), the slots unchanged. L: output lane j =
//! ⊕_i M_(j, i)·(lane i), M the 8×8 blocks of l; the lanes i reach j
//! as the four registers and the four registers shifted by one lane
//! (`vperm2i128`), 8 products per output register, each with its own
//! pair of blocks (one per 128-bit lane).
//!
//! S computes π's core c (π(x) = ω'·c, ω' π's last linear map, see
//! `pi_structure.rs`) and ω' is folded into L's blocks ([`block_of`]): one
//! lookup per register less. The logarithm cores return c ⊕ 0xc7; L of
//! that constant is a constant k0 in both halves, which X ⊕ K cancels and
//! the round constants take off ([`round_constants`]). `avx2` holds every value
//! under α bytewise (the core's domain: loads and stores go through α and
//! α⁻¹, C_i and L's blocks end in α), so its core starts from α(x)'s
//! nibbles.
//!
//! Count per LPS of the pair (ymm µops):
//!
//! | step | `avx2-gfni` | `avx2` |
//! |---|---|---|
//! | S: 4 × π's core (`AffineLogs` 16, `Logs` 17) | 64 | 68 |
//! | transpose: 4 `pshufb`, 8 unpacks, 4 `vpermq` | 16 | 16 |
//! | lane shift: `vperm2i128` of 4 inputs (`avx2`: of both nibbles) | 4 | 8 |
//! | products | 32 affine | 4 × 3 nibble splits, 64 `pshufb`, 32 xor |
//! | sums (4 × 7 xor) | 28 | 28 |
//! | K into X, C_i into K: 4 shifts, 8 xor | 12 | 12 |
//! | **LPS** | **156** | **240** |
//!
//! (π by Kuznyechik's 16-row `pshufb` tree, kept as a tested alternative,
//! takes 35 per register: 232 and 312.) Per block 13 LPS (K_1, then 12
//! rounds) and ≈ 60 µops to load m and N and finish h (`avx2`: 72 more
//! for α): ≈ 2 090 µops (33 per byte) on `avx2-gfni`, ≈ 3 250 (51 per
//! byte) on `avx2`. Without GFNI the 4 transposed registers are split into
//! nibbles before the lane shift, which then moves both nibble registers:
//! 4 lane moves more and 12 splitting µops fewer than splitting all 8
//! inputs, 1.5–3% faster on AMD Zen 4 (1 MiB of Streebog-512 14.39
//! against 14.63 ticks per byte, 64 × 64 KiB 13.46 against 13.90, 64
//! bytes 60.9 against 61.9; best of 8 alternating runs). L takes its
//! products input by input into the four sums, so that one input's
//! registers and its shifted copy are live rather than all eight inputs:
//! fewer spills of the 16 ymm registers (218 fewer stack accesses in the
//! compiled `avx2` code), 1–3.5% faster on Zen 4 (1 MiB 14.33 against
//! 14.46, 64 × 64 KiB 13.02 against 13.48, 64 bytes 61.0 against 62.6;
//! best of 4 alternating runs), `avx2-gfni` the same. (Spills that split
//! a cache line, where the stack frame was only 16-byte aligned, slowed 4
//! of 24 runs with the products output by output and none input by
//! input; every job's frame is 64-byte aligned, `simd/level.rs`.) The prepared
//! inputs are an array written out: built by `core::array::from_fn` they
//! made the `avx2` kernel about 5× slower. On Zen 4
//! (four vector pipes) `vpshufb`, `vpblendvb` and the lane moves share two
//! of them: `op_costs` times a `vpshufb` beside a `vpblendvb` or a
//! `vperm2i128` at one core cycle a pair, each alone at half a cycle, and
//! beside a product, a shift or an unpack at 0.82–0.88, so those mostly
//! take the same two pipes; logic and byte arithmetic issue on all four.
//! `avx2-gfni` has 92 µops per LPS of that kind (40 `pshufb`, blends and
//! lane moves, 40 products, 8 unpacks, 4 shifts) and 64 others, `avx2`
//! 128 (80 `pshufb` and lane moves and 8 shifts of L, the transposition
//! and the key, 32 of S, 8 unpacks) of 240. Zen 4 also issues simple µops
//! to the two pipes (a `vpshufb` beside a `vpxor` takes 0.66 core cycles a
//! pair, not 0.50): an LPS's whole mix, its dependencies taken out, issues
//! in about 49 core cycles on `avx2-gfni` and 74 on `avx2` (`op_costs`),
//! floors of ≈ 10.2 and ≈ 15.5 core cycles per byte. The benchmark counts
//! TSC ticks, and the core of the VM measured runs at about 1.4× the TSC
//! rate (`cargo run --release -p multiblock-bench --example op_costs`):
//! these floors are ≈ 7.2 and ≈ 11.0 ticks per byte.
//!
//! The measured rate sits above the floor because a block is one chain
//! of 13 LPS (X's round i needs K_(i+1), and the next block's K_1 needs
//! h): the four registers of a pair are all the independent work there is,
//! so S's latency shows. That is why `avx2-gfni` looks π's logarithms up
//! rather than computing the GF(2^4) products with `vgf2p8mulb` and
//! `vgf2p8affineinvqb` (`Field`: 15 µops per register but a chain of ≈ 25
//! cycles against ≈ 15), and why shortening the chain further by more
//! lookups (two sums at once instead of the subtraction in each mod 15)
//! lost more in µops than it gained (11.6 against 11.0 cycles/byte).
//!
//! Measured (Zen 4, TSC 2.596 GHz, best of 7; 1 MiB, and one 64-byte
//! message): `avx2-gfni` 10.7 cycles/byte and 51.5 (π by the tree: 15.8
//! and 70.1; by `Field`: 12.3 and 57), ≈ 53 ticks (≈ 73 core cycles) per
//! LPS against the 40 counted; `avx2`, all 8 inputs split, 14.6 and 66.8
//! (tree: 19.8 and 88.6). Peers in the same run: OpenSSL's gost-engine
//! `md_gost12_512` 19.2 cycles/byte, RustCrypto
//! `streebog` (tables, not constant-time) 20.6 and 83.2.
//!
//! Other ways to L without GFNI, counted per LPS of one state: masks over
//! the 64 input bits, 4 words per ymm (shift, xor, `vblendvpd`: 3 per
//! bit and register) ≈ 384, against 74 here (148 per pair); and A as an
//! 8×8 MDS matrix over GF(2^8) (Kazymyrov and Kazymyrova, 2013, IACR
//! ePrint 2013/556) gives the same two nibble tables per block as any
//! 8×8 bit block (its entries are not small enough for doublings to be
//! cheaper), so it brings nothing over the tables of `block_of`.
//!
//! Many messages (`g_many`, `blocks_many`) run two at a time: each LPS
//! of both pairs together, the lookups of both first ([`lps`]), so that
//! the two S chains, the longest part of an LPS, overlap and the pipes
//! that one chain leaves idle take the other's work. Measured on AMD Zen 5
//! with the backends forced (its default is `avx512-gfni`), TSC ticks per
//! byte, 64 messages, against one at a time in alternating runs:
//! `avx2-gfni` 8.4 against 11.4 (64 KiB), 10.0 against 13.9 (1 KiB),
//! 35.5 against 47.6 (64 B); `avx2` 14.7 against 17.8 (1 KiB), 50.6
//! against 59.5 (64 B). One message on `avx2` is the case of one pair,
//! the same instructions in the same order; on `avx2-gfni` it runs
//! `split.rs`, the state and the key in registers of their own. A
//! message's first compression, g_0(IV, m), takes the IV's keys
//! (`iv_keys.rs`) with m in both halves ([`g_one_from_iv`]): 12 LPS of
//! the pair against 13, a 64-byte message on `avx2` 59.4–59.6 ticks per
//! byte against 61.1–61.3 on Zen 4 (best of 6 alternating runs).
//!
//! Everything is constant-time: the tables are indexed by constants or
//! looked up by `pshufb` in registers, the loops count public blocks.

use super::constants::l_block;
use super::iv_keys::by_digest;
use super::pair_constants::{iv_keys, round_constants, Domain, Slots};
use super::one_message::{one_message_methods, OneMessage};
use super::compress::{Block, Compress, State};
use crate::gf256;
use super::pi_structure::{compose, Core, OUTPUT};
use crate::simd::{CrossLanes, Gfni, Job, Simd};
use core::marker::PhantomData;

/// What the kernel needs of a machine (32-byte registers).
pub(crate) trait Machine32: Simd + CrossLanes {}
impl<M: Simd + CrossLanes> Machine32 for M {}

/// The 32 products of L: for output register p, input register q, shifted
/// (t = 1) or not: product 8p + 2q + t, with one 8×8 block per 128-bit
/// half h: output lane 2p + h from input lane (2q + t + h) mod 8. S
/// leaves π's last linear map to these blocks ([`OUTPUT`]), and they put
/// their result in the core's domain ([`Core::DOMAIN`]).
const fn block_of(k: usize, h: usize, domain: u64) -> u64 {
    let (p, q, t) = (k / 8, k % 8 / 2, k % 2);
    folded_block(2 * p + h, (2 * q + t + h) % 8, domain)
}

/// The block of l from input byte `i` to output byte `j` with π's last
/// linear map ([`OUTPUT`]) before it and the core's domain after it.
pub(super) const fn folded_block(j: usize, i: usize, domain: u64) -> u64 {
    compose(domain, compose(l_block(j, i), OUTPUT))
}

/// k0 by output byte j: L (with [`folded_block`]'s blocks) of `offset` in
/// every input byte, the constant a core returning c ⊕ `offset` adds to
/// every LPS.
pub(super) const fn k0(offset: u8, domain: u64) -> [u8; 8] {
    let mut k0 = [0u8; 8];
    let mut j = 0;
    while j < 8 {
        let mut i = 0;
        while i < 8 {
            k0[j] ^= gf256::affine_byte(folded_block(j, i, domain), offset);
            i += 1;
        }
        j += 1;
    }
    k0
}

/// The products of L by a machine's instructions.
pub(crate) trait Products<M: Simd>: 'static {
    /// An input as the products take it.
    type Input: Copy;
    fn prepare(m: M, x: M::V) -> Self::Input;
    /// Product `k` (see [`block_of`]) of `x`, for the core `S`.
    fn product<S: Core<M>>(m: M, x: Self::Input, k: usize) -> M::V;
    /// `lanes_between` of two prepared inputs.
    fn across(m: M, a: Self::Input, b: Self::Input) -> Self::Input
    where
        M: CrossLanes;
}

/// One `vgf2p8affineqb` with the two blocks of the product.
pub(crate) struct Affine;

/// The blocks as `vgf2p8affineqb` matrices, both 64-bit words of a half.
const fn matrices(domain: u64) -> [[u8; 32]; 32] {
    let mut t = [[0u8; 32]; 32];
    let mut k = 0;
    while k < 32 {
        let mut w = 0;
        while w < 4 {
            let q = block_of(k, w / 2, domain).to_le_bytes();
            let mut b = 0;
            while b < 8 {
                t[k][8 * w + b] = q[b];
                b += 1;
            }
            w += 1;
        }
        k += 1;
    }
    t
}

impl<M: Gfni> Products<M> for Affine {
    type Input = M::V;
    #[inline(always)]
    fn prepare(_: M, x: M::V) -> M::V {
        x
    }
    #[inline(always)]
    fn product<S: Core<M>>(m: M, x: M::V, k: usize) -> M::V {
        let matrices: &[[u8; 32]; 32] = const { &matrices(S::DOMAIN) };
        m.affine_lanes(x, m.load(&matrices[k]))
    }
    #[inline(always)]
    fn across(m: M, a: M::V, b: M::V) -> M::V
    where
        M: CrossLanes,
    {
        m.lanes_between(a, b)
    }
}

/// B·x = B·lo(x) ⊕ B·(hi(x) << 4) by two 16-entry `pshufb` tables per half.
pub(crate) struct Nibbles;

/// For each product, B·n (shift 0) or B·(n << 4) (shift 4) for nibbles n,
/// one table per 128-bit half.
const fn nibble_tables(shift: u32, domain: u64) -> [[u8; 32]; 32] {
    let mut t = [[0u8; 32]; 32];
    let mut k = 0;
    while k < 32 {
        let mut b = 0;
        while b < 32 {
            t[k][b] = gf256::affine_byte(block_of(k, b / 16, domain), ((b % 16) as u8) << shift);
            b += 1;
        }
        k += 1;
    }
    t
}

impl<M: Simd> Products<M> for Nibbles {
    type Input = (M::V, M::V);
    #[inline(always)]
    fn prepare(m: M, x: M::V) -> (M::V, M::V) {
        let nibbles = m.splat8_opaque(0x0f);
        (m.and(x, nibbles), m.and(m.shr16::<4>(x), nibbles))
    }
    #[inline(always)]
    fn product<S: Core<M>>(m: M, (lo, hi): (M::V, M::V), k: usize) -> M::V {
        let low: &[[u8; 32]; 32] = const { &nibble_tables(0, S::DOMAIN) };
        let high: &[[u8; 32]; 32] = const { &nibble_tables(4, S::DOMAIN) };
        m.xor(m.shuffle8(m.load(&low[k]), lo), m.shuffle8(m.load(&high[k]), hi))
    }
    #[inline(always)]
    fn across(m: M, a: (M::V, M::V), b: (M::V, M::V)) -> (M::V, M::V)
    where
        M: CrossLanes,
    {
        (m.lanes_between(a.0, b.0), m.lanes_between(a.1, b.1))
    }
}

/// Slot 8·(w mod 2) + 4s + w / 2 → slot 2w + s (X's and K's byte of
/// word w side by side), in every lane.
const PAIR: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut b = 0;
    while b < 32 {
        let (w, s) = (b % 16 / 2, b % 2);
        t[b] = (8 * (w % 2) + 4 * s + w / 2) as u8;
        b += 1;
    }
    t
};

/// Lane a, slot 8·(w mod 2) + 4s + w / 2 → lane w, slot 8·(a mod 2) + 4s
/// + a / 2, for s = 0, 1 (X and K): per half, an 8×8 byte transposition.
#[inline(always)]
fn transpose<M: Machine32>(m: M, y: [M::V; 4]) -> [M::V; 4] {
    // The pairs of word w at bytes 2w, 2w + 1 (kept one `vpshufb`: LLVM
    // otherwise rewrites the unpacks below into longer shuffle chains).
    let pair = m.load(&PAIR);
    let mut x = y;
    for v in x.iter_mut() {
        *v = m.shuffle8_opaque(*v, pair);
    }
    // Lanes a, a + 2 interleaved: pairs 0..3 (lo) and 4..7 (hi); byte bit
    // 0 is now a's bit 1.
    let a = m.unpack_lo::<1>(x[0], x[1]);
    let b = m.unpack_hi::<1>(x[0], x[1]);
    let c = m.unpack_lo::<1>(x[2], x[3]);
    let d = m.unpack_hi::<1>(x[2], x[3]);
    // Then with lanes a + 4: each 64-bit word is one pair of lanes 0, 2,
    // 4, 6 (low half) or 1, 3, 5, 7 (high half), words 2p', 2p' + 1 in
    // register p'.
    let e = m.unpack_lo::<2>(a, c);
    let f = m.unpack_hi::<2>(a, c);
    let g = m.unpack_lo::<2>(b, d);
    let h = m.unpack_hi::<2>(b, d);
    // Even and odd lanes' words of one pair into one lane.
    [m.permute64::<0xd8>(e), m.permute64::<0xd8>(f), m.permute64::<0xd8>(g), m.permute64::<0xd8>(h)]
}

/// L·P·S of both halves (S's core by `S`, the rest of π in L's blocks),
/// for `L` independent pairs: the lookups of all of them first, so that
/// their chains, the longest part of an LPS, run side by side.
#[inline(always)]
fn lps<M: Machine32, P: Products<M>, S: Core<M>, const L: usize>(m: M, y: [[M::V; 4]; L]) -> [[M::V; 4]; L] {
    let mut s = y;
    for pair in s.iter_mut() {
        for v in pair.iter_mut() {
            *v = S::core(m, *v);
        }
    }
    let mut out = y;
    for (s, out) in s.iter().zip(out.iter_mut()) {
        let t = transpose(m, *s);
        // Input by input into the four sums, so that fewer values are live
        // at once; each shifted input is taken across from the prepared
        // ones (`Nibbles`: both nibble registers moved, 4 splits, not 8).
        let prepared = [P::prepare(m, t[0]), P::prepare(m, t[1]), P::prepare(m, t[2]), P::prepare(m, t[3])];
        let mut acc = [m.zero(); 4];
        for q in 0..4 {
            let shifted = P::across(m, prepared[q], prepared[(q + 1) % 4]);
            for (p, acc) in acc.iter_mut().enumerate() {
                let k = 8 * p + 2 * q;
                let both = m.xor(P::product::<S>(m, prepared[q], k), P::product::<S>(m, shifted, k + 1));
                *acc = if q == 0 { both } else { m.xor(*acc, both) };
            }
        }
        *out = acc;
    }
    out
}

/// A 64-byte value in memory order → the layout with the value in both
/// halves: word w to lane w, byte j at slot 8·(j mod 2) + 4s + j / 2, then
/// [`transpose`].
const LOAD: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut b = 0;
    while b < 32 {
        let (h, q) = (b / 16, b % 16);
        t[b] = (8 * h + 2 * (q % 4) + q / 8) as u8;
        b += 1;
    }
    t
};

/// After [`transpose`] of the layout, lane w holds word w, byte a at slot
/// 8·(a mod 2) + a / 2: back to byte a at a, zeros above.
const STORE: [u8; 32] = {
    let mut t = [0x80u8; 32];
    let mut b = 0;
    while b < 32 {
        let a = b % 16;
        if a < 8 {
            t[b] = (8 * (a % 2) + a / 2) as u8;
        }
        b += 1;
    }
    t
};

/// Where an LPS leaves the bytes of X and K in the four registers (byte j
/// of word w of X at 16 j + 8 (w mod 2) + ⌊w / 2⌋, K's 4 bytes above).
const SLOTS: Slots = Slots { x_at: [0, 8, 1, 9, 2, 10, 3, 11], k_after_x: 4 };

/// The domain of a core that returns c ⊕ `offset` ([`Core::OFFSET`]) in
/// the domain `matrix` ([`Core::DOMAIN`]): every LPS adds [`k0`] to both
/// halves, which the round constants take off.
pub(super) const fn core_domain(offset: u8, matrix: u64) -> Domain {
    Domain { matrix, k0: k0(offset, matrix) }
}

/// The IV's keys ([`iv_keys`]) of a `digest_bytes` digest for the core `S`.
#[inline(always)]
fn iv_keys_of<M: Simd, S: Core<M>>(digest_bytes: usize) -> &'static [[u8; 128]; 13] {
    by_digest(digest_bytes, const { &iv_keys(SLOTS, core_domain(S::OFFSET, S::DOMAIN), 32) }, const { &iv_keys(SLOTS, core_domain(S::OFFSET, S::DOMAIN), 64) })
}

/// X's half of every 64-bit word.
const LOW_DWORDS: u64 = 0xffff_ffff;

#[inline(always)]
fn load<M: Machine32>(m: M, v: &Block) -> [M::V; 4] {
    let idx = m.load(&LOAD);
    let mut y = [idx; 4];
    for (p, r) in y.iter_mut().enumerate() {
        let words: &[u8; 16] = v[16 * p..16 * p + 16].try_into().expect("16 bytes");
        *r = m.shuffle8(m.splat128(words), idx);
    }
    transpose(m, y)
}

#[inline(always)]
fn store<M: Machine32>(m: M, y: [M::V; 4], out: &mut Block) {
    let t = transpose(m, y);
    let idx = m.load(&STORE);
    let mut z = t;
    for v in z.iter_mut() {
        *v = m.shuffle8(*v, idx);
    }
    // Register p: words 2p, 2p + 1 in its two lanes' low halves.
    m.store(m.permute64::<0xd8>(m.unpack_lo::<8>(z[0], z[1])), &mut out[..32]);
    m.store(m.permute64::<0xd8>(m.unpack_lo::<8>(z[2], z[3])), &mut out[32..]);
}

/// Into the core's domain, bytewise ([`Core::DOMAIN`]).
#[inline(always)]
fn enter<M: Machine32, S: Core<M>>(m: M, y: [M::V; 4]) -> [M::V; 4] {
    let mut r = y;
    for v in r.iter_mut() {
        *v = S::enter(m, *v);
    }
    r
}

/// Out of the core's domain.
#[inline(always)]
fn leave<M: Machine32, S: Core<M>>(m: M, y: [M::V; 4]) -> [M::V; 4] {
    let mut r = y;
    for v in r.iter_mut() {
        *v = S::leave(m, *v);
    }
    r
}

/// A 64-byte value into the layout and the core's domain.
#[inline(always)]
fn load_in<M: Machine32, S: Core<M>>(m: M, v: &Block) -> [M::V; 4] {
    enter::<M, S>(m, load(m, v))
}

/// Out of the core's domain and the layout, into `out`.
#[inline(always)]
fn store_out<M: Machine32, S: Core<M>>(m: M, y: [M::V; 4], out: &mut Block) {
    store(m, leave::<M, S>(m, y), out)
}

#[inline(always)]
fn xor4<M: Simd>(m: M, a: [M::V; 4], b: [M::V; 4]) -> [M::V; 4] {
    let mut r = a;
    for i in 0..4 {
        r[i] = m.xor(a[i], b[i]);
    }
    r
}

/// g_N(h, m) on the layout (h, N, m in both halves); the result in both.
/// `L` independent inputs at once, each LPS of all of them together
/// ([`lps`]).
#[inline(always)]
fn g<M: Machine32, P: Products<M>, S: Core<M>, const L: usize>(m: M, h: [[M::V; 4]; L], n: [[M::V; 4]; L], msg: [[M::V; 4]; L]) -> [[M::V; 4]; L] {
    let low = m.splat64(LOW_DWORDS);
    let constants: &[[u8; 128]; 12] = const { &round_constants(SLOTS, core_domain(S::OFFSET, S::DOMAIN)) };
    // K_1 in both halves; then X = m ⊕ K_1, K = K_1 ⊕ C_1.
    let mut start = h;
    for l in 0..L {
        start[l] = xor4(m, h[l], n[l]);
    }
    let k1 = lps::<M, P, S, L>(m, start);
    let mut v = k1;
    for l in 0..L {
        for p in 0..4 {
            v[l][p] = m.xor3(k1[l][p], m.and(msg[l][p], low), m.load(&constants[0][32 * p..]));
        }
    }
    for i in 0..12 {
        let w = lps::<M, P, S, L>(m, v);
        // X ← LPS(X) ⊕ K_(i+2) (K moved down to X's dword), K ⊕ C_(i+2).
        for l in 0..L {
            for p in 0..4 {
                let x = m.xor(w[l][p], m.shr64::<32>(w[l][p]));
                v[l][p] = if i < 11 { m.xor(x, m.load(&constants[i + 1][32 * p..])) } else { x };
            }
        }
    }
    // h ⊕ m ⊕ E(K, m) in X's half, copied to K's (`pshufd` 0, 0, 2, 2).
    for l in 0..L {
        for p in 0..4 {
            v[l][p] = m.shuffle32::<0xa0>(m.xor3(v[l][p], h[l][p], msg[l][p]));
        }
    }
    v
}

/// g_0(IV, ·) of two messages from the IV's keys (`keys`:
/// [`iv_keys_of`]): the first message's state in X's half, the second's
/// in K's half, 12 LPS of the pair for both (against 13 for one message's
/// state and key). h of each in both halves, as [`g`] returns it.
#[inline(always)]
fn g_from_iv<M: Machine32, P: Products<M>, S: Core<M>>(m: M, keys: &[[u8; 128]; 13], h: [[M::V; 4]; 2], msg: [[M::V; 4]; 2]) -> [[M::V; 4]; 2] {
    let low = m.splat64(LOW_DWORDS);
    let mut v = msg[0];
    for p in 0..4 {
        v[p] = m.xor(m.or(m.and(msg[0][p], low), m.andnot(low, msg[1][p])), m.load(&keys[0][32 * p..]));
    }
    for k in &keys[1..] {
        [v] = lps::<M, P, S, 1>(m, [v]);
        for p in 0..4 {
            v[p] = m.xor(v[p], m.load(&k[32 * p..]));
        }
    }
    // h ⊕ m ⊕ E(K, m): the first message's from X's half, the second's
    // from K's half (`pshufd` 1, 1, 3, 3), each into both.
    let mut out = h;
    for p in 0..4 {
        out[0][p] = m.shuffle32::<0xa0>(m.xor3(v[p], h[0][p], msg[0][p]));
        out[1][p] = m.shuffle32::<0xf5>(m.xor3(v[p], h[1][p], msg[1][p]));
    }
    out
}

/// g_0(IV, m) of one message (h the IV of a `digest_bytes` digest): the
/// message in both halves through [`g_from_iv`], 12 LPS of the pair
/// against 13 for [`g`].
#[inline(always)]
fn g_one_from_iv<M: Machine32, P: Products<M>, S: Core<M>>(m: M, digest_bytes: usize, h: [M::V; 4], msg: [M::V; 4]) -> [M::V; 4] {
    let keys = iv_keys_of::<M, S>(digest_bytes);
    let [out, _] = g_from_iv::<M, P, S>(m, keys, [h, h], [msg, msg]);
    out
}

/// The kernel on machine `M` with products `P` and π's core `S`.
pub(crate) struct PairedKernel<M, P, S>(pub(crate) M, pub(crate) PhantomData<fn() -> (P, S)>);

impl<M, P, S> PairedKernel<M, P, S> {
    pub(crate) fn new(m: M) -> Self {
        PairedKernel(m, PhantomData)
    }
}

impl<M: Machine32, P: Products<M>, S: Core<M>> OneMessage for PairedKernel<M, P, S> {
    type M = M;
    type Regs = [M::V; 4];
    #[inline(always)]
    fn load(m: M, v: &Block) -> [M::V; 4] {
        load_in::<M, S>(m, v)
    }
    #[inline(always)]
    fn store(m: M, h: [M::V; 4], out: &mut Block) {
        store_out::<M, S>(m, h, out)
    }
    #[inline(always)]
    fn g(m: M, h: [M::V; 4], n: [M::V; 4], msg: [M::V; 4]) -> [M::V; 4] {
        let [h] = g::<M, P, S, 1>(m, [h], [n], [msg]);
        h
    }
    #[inline(always)]
    fn g_from_iv(m: M, digest_bytes: usize, h: [M::V; 4], msg: [M::V; 4]) -> [M::V; 4] {
        g_one_from_iv::<M, P, S>(m, digest_bytes, h, msg)
    }
}

/// [`Compress::blocks_many`] of two messages, their g side by side.
struct BlocksPair<'a, 'b, M, P, S> {
    m: M,
    states: &'a mut [&'b mut State],
    data: &'a [&'a [u8]],
    _p: PhantomData<fn() -> (P, S)>,
}

impl<M: Machine32, P: Products<M>, S: Core<M>> Job for BlocksPair<'_, '_, M, P, S> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let BlocksPair { m, states, data, .. } = self;
        let [a, b] = states else { panic!("two states") };
        let count = data[0].len() / 64;
        assert!(data.len() == 2 && data[1].len() / 64 == count);
        let mut h = [load_in::<M, S>(m, &a.h), load_in::<M, S>(m, &b.h)];
        for i in 0..count {
            let (block_a, block_b) = (data[0][64 * i..64 * i + 64].try_into().expect("64 bytes"), data[1][64 * i..64 * i + 64].try_into().expect("64 bytes"));
            let n = [load_in::<M, S>(m, &a.n), load_in::<M, S>(m, &b.n)];
            let msg = [load_in::<M, S>(m, block_a), load_in::<M, S>(m, block_b)];
            h = g::<M, P, S, 2>(m, h, n, msg);
            a.advance(block_a);
            b.advance(block_b);
        }
        store_out::<M, S>(m, h[0], &mut a.h);
        store_out::<M, S>(m, h[1], &mut b.h);
    }
}

/// [`Compress::g_many`] of two inputs side by side.
struct GPair<'a, M, P, S> {
    m: M,
    h: &'a mut [Block],
    n: &'a [Block],
    msg: &'a [Block],
    /// Both are a message's first compression, g_0(IV, `msg[i]`) of this
    /// digest length (`n` unread): by [`g_from_iv`].
    from_iv: Option<usize>,
    _p: PhantomData<fn() -> (P, S)>,
}

impl<M: Machine32, P: Products<M>, S: Core<M>> Job for GPair<'_, M, P, S> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let GPair { m, h, n, msg, from_iv, .. } = self;
        // Plain calls, no closure: a closure would be compiled without the
        // target's features and called, not inlined.
        let hv = [load_in::<M, S>(m, &h[0]), load_in::<M, S>(m, &h[1])];
        let mv = [load_in::<M, S>(m, &msg[0]), load_in::<M, S>(m, &msg[1])];
        let out = match from_iv {
            Some(digest_bytes) => {
                let keys = iv_keys_of::<M, S>(digest_bytes);
                g_from_iv::<M, P, S>(m, keys, hv, mv)
            }
            None => g::<M, P, S, 2>(m, hv, [load_in::<M, S>(m, &n[0]), load_in::<M, S>(m, &n[1])], mv),
        };
        store_out::<M, S>(m, out[0], &mut h[0]);
        store_out::<M, S>(m, out[1], &mut h[1]);
    }
}

impl<M: Machine32, P: Products<M>, S: Core<M>> Compress for PairedKernel<M, P, S> {
    one_message_methods!(0);
    fn lanes(&self) -> usize {
        2
    }
    fn g_many(&self, h: &mut [Block], n: &[Block], msg: &[Block]) {
        let m = self.0;
        for ((h, n), msg) in h.chunks_mut(2).zip(n.chunks(2)).zip(msg.chunks(2)) {
            if h.len() == 2 {
                m.vectorize(GPair::<M, P, S> { m, h, n, msg, from_iv: None, _p: PhantomData });
            } else {
                self.g(&mut h[0], &n[0], &msg[0]);
            }
        }
    }
    fn g_many_from_iv(&self, digest_bytes: usize, h: &mut [Block], msg: &[Block]) {
        let m = self.0;
        for (h, msg) in h.chunks_mut(2).zip(msg.chunks(2)) {
            if h.len() == 2 {
                m.vectorize(GPair::<M, P, S> { m, h, n: &[], msg, from_iv: Some(digest_bytes), _p: PhantomData });
            } else {
                self.chain_from_iv(digest_bytes, &mut h[0], &[[0; 64]], core::slice::from_ref(&msg[0]));
            }
        }
    }
    fn blocks_many(&self, states: &mut [&mut State], data: &[&[u8]]) {
        let m = self.0;
        for (states, data) in states.chunks_mut(2).zip(data.chunks(2)) {
            if states.len() == 2 {
                m.vectorize(BlocksPair::<M, P, S> { m, states, data, _p: PhantomData });
            } else {
                self.blocks(states[0], data[0]);
            }
        }
    }
}
