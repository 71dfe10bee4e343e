//! The cost of the vector instructions the hash and cipher kernels are
//! built from, on this CPU: latency (one dependent chain) and reciprocal
//! throughput (eight independent chains), in core cycles; then the
//! instruction mix of a round of each hash kernel, issued with its
//! dependencies taken out, which is the floor of any schedule of it.
//!
//! The benchmark reports TSC ticks, which run at a fixed rate while the
//! core's clock may be higher (boost) or lower. The core clock is found as
//! the time of a chain of dependent 64-bit `add`s of two registers, one
//! core cycle each on every x86-64 core (an `add` of an immediate would
//! not do: Intel's Emerald Rapids folds chains of those at renaming, about
//! four a cycle), so a kernel's count in core cycles converts to the
//! benchmark's ticks with the ratio printed first.
//!
//! ```text
//! cargo run --release -p multiblock-bench --example op_costs
//! ```

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::asm;
    use core::arch::x86_64::*;
    use multiblock::hazmat::best_ticks;
    use std::hint::black_box;

    const ITERATIONS: u64 = 2_000_000;
    const REPEATS: usize = 7;

    /// Best of [`REPEATS`] runs of `f`, in ticks per operation (`ops` per run).
    fn best(ops: u64, f: &mut dyn FnMut()) -> f64 {
        best_ticks(REPEATS, f) as f64 / ops as f64
    }

    /// TSC ticks per core cycle: a chain of dependent register `add`s.
    pub fn ticks_per_cycle() -> f64 {
        best(8 * ITERATIONS, &mut || {
            let mut x = black_box(0u64);
            let y = black_box(1u64);
            for _ in 0..ITERATIONS {
                // SAFETY: register arithmetic only.
                unsafe {
                    asm!("add {x}, {y}", "add {x}, {y}", "add {x}, {y}", "add {x}, {y}",
                         "add {x}, {y}", "add {x}, {y}", "add {x}, {y}", "add {x}, {y}",
                         x = inout(reg) x, y = in(reg) y, options(nomem, nostack));
                }
            }
            black_box(x);
        })
    }

    /// `x` unchanged, but opaque to the compiler, so that a chain of
    /// operations it could combine (eight rotations, eight XORs with one
    /// value) is executed as written; no instruction is emitted.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn opaque512(mut x: __m512i) -> __m512i {
        // SAFETY: an empty template; the register is only named.
        unsafe { asm!("/* {0} */", inout(zmm_reg) x, options(pure, nomem, nostack)) };
        x
    }

    /// As [`opaque512`], for 32-byte registers.
    #[inline]
    #[target_feature(enable = "avx")]
    fn opaque256(mut x: __m256i) -> __m256i {
        // SAFETY: an empty template; the register is only named.
        unsafe { asm!("/* {0} */", inout(ymm_reg) x, options(pure, nomem, nostack)) };
        x
    }

    /// One row: `$op` applied to `$x` (with the constants `$a`, `$b`), as
    /// one chain and as eight, on `$v`-wide registers under `$features`.
    macro_rules! row {
        ($name:literal, $v:ty, $features:literal, $set:ident, $opaque:ident, |$x:ident, $a:ident, $b:ident| $op:expr) => {{
            #[target_feature(enable = $features)]
            fn chain(mut $x: $v, $a: $v, $b: $v) -> $v {
                for _ in 0..ITERATIONS {
                    for _ in 0..8 {
                        $x = $opaque($op);
                    }
                }
                $x
            }
            #[target_feature(enable = $features)]
            fn eight(seed: $v, $a: $v, $b: $v) -> [$v; 8] {
                let mut v = [seed; 8];
                for _ in 0..ITERATIONS {
                    for lane in 0..8 {
                        let $x = v[lane];
                        v[lane] = $opaque($op);
                    }
                }
                v
            }
            // SAFETY: called only where the CPU has `$features` (checked by the caller).
            let (seed, a, b) = unsafe { (black_box($set(0x3f)), black_box($set(0x5a)), black_box($set(0x11))) };
            // SAFETY: as above.
            let latency = best(8 * ITERATIONS, &mut || {
                black_box(unsafe { chain(seed, a, b) });
            });
            // SAFETY: as above.
            let throughput = best(8 * ITERATIONS, &mut || {
                black_box(unsafe { eight(seed, a, b) });
            });
            ($name, latency, throughput)
        }};
    }

    /// One instruction of a mix on a ymm chain `x` (constants `a`, `b`).
    macro_rules! ymm_op {
        (P, $x:expr, $a:expr, $b:expr) => { _mm256_shuffle_epi8($x, $a) };
        (B, $x:expr, $a:expr, $b:expr) => { _mm256_blendv_epi8($a, $x, $b) };
        (Q, $x:expr, $a:expr, $b:expr) => { _mm256_permute2x128_si256::<0x21>($x, $a) };
        (G, $x:expr, $a:expr, $b:expr) => { _mm256_gf2p8affine_epi64_epi8::<0>($x, $a) };
        (U, $x:expr, $a:expr, $b:expr) => { _mm256_unpacklo_epi8($x, $a) };
        (S, $x:expr, $a:expr, $b:expr) => { _mm256_srli_epi16::<4>($x) };
        (X, $x:expr, $a:expr, $b:expr) => { _mm256_xor_si256($x, $a) };
        (A, $x:expr, $a:expr, $b:expr) => { _mm256_add_epi8($x, $b) };
    }

    /// One instruction of a mix on a zmm chain.
    macro_rules! zmm_op {
        (I, $x:expr, $a:expr, $b:expr) => { _mm512_permutex2var_epi8($a, $x, $b) };
        (V, $x:expr, $a:expr, $b:expr) => { _mm512_permutexvar_epi8($a, $x) };
        (M, $x:expr, $a:expr, $b:expr) => { _mm512_mask_blend_epi8(_mm512_movepi8_mask($x), $a, $b) };
        (C, $x:expr, $a:expr, $b:expr) => { _mm512_mask_add_epi8($a, _mm512_cmplt_epu8_mask($x, $a), $x, $b) };
        (G, $x:expr, $a:expr, $b:expr) => { _mm512_gf2p8affine_epi64_epi8::<0>($x, $a) };
        (R, $x:expr, $a:expr, $b:expr) => { _mm512_rol_epi64::<8>($x) };
        (T, $x:expr, $a:expr, $b:expr) => { _mm512_ternarylogic_epi64::<0x96>($x, $a, $b) };
        (X, $x:expr, $a:expr, $b:expr) => { _mm512_xor_si512($x, $a) };
        (A, $x:expr, $a:expr, $b:expr) => { _mm512_add_epi8($x, $b) };
        (D, $x:expr, $a:expr, $b:expr) => { _mm512_shuffle_epi32::<0x4E>($x) };
        (K, $x:expr, $a:expr, $b:expr) => { _mm512_mask_permutexvar_epi8($x, _mm512_test_epi8_mask($x, $b), $x, $a) };
    }

    /// A kernel's instruction mix with its dependencies taken out: each
    /// instruction of the list, in order, on each of `$chains` independent
    /// registers (enough that no chain's latency binds, few enough to stay
    /// in registers beside the constants), repeated. It measures how fast
    /// the pipes issue that mix, the floor of any schedule of it. `$scale`
    /// copies of the list make one unit of the kernel (a round), and the
    /// row gives core cycles per unit. The lists spread each kind of
    /// instruction evenly over the unit.
    macro_rules! mix {
        ($name:literal, $v:ty, $chains:literal, $features:literal, $set:ident, $opaque:ident, $op:ident, $scale:literal, [$($ins:ident)*]) => {{
            const CHAINS: usize = $chains;
            #[target_feature(enable = $features)]
            fn run(seed: $v, a: $v, b: $v) -> [$v; CHAINS] {
                let mut v = [seed; CHAINS];
                for _ in 0..ITERATIONS / 16 {
                    $(
                        for c in 0..CHAINS {
                            v[c] = $opaque($op!($ins, v[c], a, b));
                        }
                    )*
                }
                v
            }
            // SAFETY: called only where the CPU has `$features` (checked by the caller).
            let (seed, a, b) = unsafe { (black_box($set(0x3f)), black_box($set(0x5a)), black_box($set(0x11))) };
            let units = (ITERATIONS / 16) * CHAINS as u64 / $scale;
            // SAFETY: as above.
            let per_unit = best(units, &mut || {
                black_box(unsafe { run(seed, a, b) });
            });
            let count = [$(stringify!($ins)),*].len() * $scale as usize;
            ($name, count, per_unit)
        }};
    }

    /// Instruction mixes of the hash kernels' rounds (counted in their
    /// module documentation), each scaled to one round.
    pub fn mixes() -> Vec<(&'static str, usize, f64)> {
        let mut rows = Vec::new();
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("gfni") {
            // Kupyna-256, a round of T⊕ and T+ on ymm (`ymm_staggered.rs`):
            // 72 `vpshufb`, 28 `vpblendvb`, 8 lane moves, 12 products, 104
            // XORs and additions; a quarter of it, four times.
            rows.push(mix!("Kupyna-256 ymm round (T⊕ and T+)", __m256i, 12, "avx2,gfni", _mm256_set1_epi8, opaque256, ymm_op, 4,
                [X P X B P X A P X G P X B P Q X X P X B P A X P X P X B G X P X P X A P B X P X P Q X B X P G X P A X P B X P X]));
            // The same without its 104 XORs and additions.
            rows.push(mix!("  the same, its shuffles and products only", __m256i, 12, "avx2,gfni", _mm256_set1_epi8, opaque256, ymm_op, 4,
                [P B P P G P B P Q P B P P P B G P P P B P P Q B P G P P B P]));
            // Kupyna-256, a round of T⊕ alone packed in 2 registers (the
            // output transformation, `ymm_rows.rs`): 39 `vpshufb` and
            // `vpshufd`, 14 blends, 2 lane moves, 6 products, 39 XORs and
            // additions.
            rows.push(mix!("Kupyna-256 ymm round of T⊕ alone (packed)", __m256i, 12, "avx2,gfni", _mm256_set1_epi8, opaque256, ymm_op, 1,
                [P X B P X P X G P A X B P X P X P B X P P X P B G Q X P X P A X P B X P X P B X P G P X P X B P X A P X P B X P X P G P X B P X P X B P X A P X P B G Q X P X P P X B P X P X P B X A P G X P X P B X P]));
            // Kupyna-384/512, a round of T⊕ and T+ on the 1024-bit state in
            // rows (`ymm_rows.rs`, `avx2-gfni`): 136 `vpshufb`, 64 blends,
            // 24 products, 200 XORs, additions and compares.
            rows.push(mix!("Kupyna-512 ymm round (T⊕ and T+)", __m256i, 12, "avx2,gfni", _mm256_set1_epi8, opaque256, ymm_op, 4,
                [X P B X P X A P X G B P X X P X B P X P X A B P X X G P X P B X P X X P B A X P X P B X G P X X P B X P A X P X B P X X P G X B P X P X A B P X X P X B P X G P X X P B A X P X P B X P X X P B G X P A X P X B P X]));
            // Streebog, one message on `avx2-gfni` (`split.rs`): a round of
            // both chains, 28 `vpshufb`, 4 blends, 16 lane moves, 4
            // unpacks, 40 products, 60 XORs and additions.
            rows.push(mix!("Streebog ymm round of two chains (split)", __m256i, 12, "avx2,gfni", _mm256_set1_epi8, opaque256, ymm_op, 4,
                [X G P X Q G X P X G X G P X Q X G B P U X G X Q X P G X G X P X G Q X P G X]));
            // Streebog, an LPS of the pair on `avx2-gfni` (`paired.rs`): 28
            // `vpshufb`, 4 blends, 8 lane moves, 40 products, 8 unpacks, 4
            // shifts, 64 XORs and additions.
            rows.push(mix!("Streebog ymm LPS of the pair (avx2-gfni)", __m256i, 12, "avx2,gfni", _mm256_set1_epi8, opaque256, ymm_op, 4,
                [X G P X G X P X G Q U X G P X X G A B P S X G X X P G X G Q U X P X G X P G X]));
        }
        if is_x86_feature_detected!("avx2") {
            // Streebog, an LPS of the pair on `avx2` (`paired.rs`): 92
            // `vpshufb` (L's 64 nibble lookups among them), 4 blends, 12
            // lane moves, 8 unpacks, 12 shifts, 112 XORs and ANDs.
            rows.push(mix!("Streebog ymm LPS of the pair (avx2)", __m256i, 12, "avx2", _mm256_set1_epi8, opaque256, ymm_op, 4,
                [X P X P X P X S X P X P X P Q U X P X X P X P S X P X P X B P X P X X P X Q P X P X P Q U X P X P X P X S X P X P X P X]));
        }
        if is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("avx512vbmi") && is_x86_feature_detected!("gfni") {
            // Kupyna-256, a round of 8 messages' T⊕ and T+ in rows
            // (`hash/kupyna/rows.rs`): 32 `vpermi2b`, 24 `vpmovb2m` and
            // blend pairs, 48 products, 14 rotations, 120 XORs, additions
            // and `vpternlogq`; half of it, twice.
            rows.push(mix!("Kupyna-256 zmm round of 8 messages (rows)", __m512i, 16, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, zmm_op, 2,
                [X G T I M X G A R T X I G X M T X G I X T G X M A R I T X G X G T I X M G X T I X G A R M T X G I X T G X M I X T G A R X G T X I M X G T X I G X M T A R G X I T X G M X I T G X G X T I A R M X G T X I G X M T X G I X T A R G X M I T G X]));
            // The same with T+'s carries rippling (`rows::Carries::Ripple`,
            // Intel's form): the lookahead's 48 instructions (7 `vpmovb2m`
            // and blend pairs) replaced by 22 (7 `vpcmpub` and merge-masked
            // `vpaddb` pairs, 8 `vpaddb`); a whole round.
            rows.push(mix!("  the same, T+'s carries rippling", __m512i, 16, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, zmm_op, 1,
                [G T I C X G A R X I G X M T X G I T G X M A R I X G X G T I X C G T I X G A R M T G I X T G X M I T G A R X G T I C X G T X I G M T A R G X I T G M X I T G X G X I A R M X G T I G X C T X G I X A R G X M I T G X G T I M X G A R X I G X C T X G I T G X M A R I X G X G T I X M G T I X G A R M T G I X T G X C I T G A R X G T I M X G T X I G M T A R G X I T G C X I T G X G X I A R M X G T I G X M T X G I X A R G X M I T G X]));
            // The same with the S-boxes by four `vpermb` over each table's
            // quarters (`rows::Lookup::Quarters`, Intel's form): each pair of
            // `vpermi2b` becomes four `vpermb`, one merge-masked under a
            // `vptestmb`.
            rows.push(mix!("  the same, S-boxes by 4 vpermb", __m512i, 16, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, zmm_op, 1,
                [G T V K C X G A R X V V G X M T X G V K T G X M A R V V X G X G T V K X C G T V V X G A R M T G V K X T G X M V V T G A R X G T V K C X G T X V V G M T A R G X V K T G M X V V T G X G X V K A R M X G T V V G X C T X G V K X A R G X M V V T G X G T V K M X G A R X V V G X C T X G V K T G X M A R V V X G X G T V K X M G T V V X G A R M T G V K X T G X C V V T G A R X G T V K M X G T X V V G M T A R G X V K T G C X V V T G X G X V K A R M X G T V V G X M T X G V K X A R G X M V V T G X]));
            // Streebog, one message (`affine.rs` with 8 `vpermb` spreads,
            // as on Zen 4): a round of the key's and the state's LPS, each
            // 2 `vpermi2b`, 8 `vpermb`, 9 products and 5 `vpternlogq`.
            rows.push(mix!("Streebog zmm round of one message", __m512i, 16, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, zmm_op, 2,
                [G V T G V I G T V G V G T V G V T G I V G T V G]));
            // The same with L's inputs by 4 `vpermb` and the products for the
            // other lane of each quarter moved by one `vpshufd` (`affine.rs`,
            // `Spread::MOVED`): per LPS 2 `vpermi2b`, 4 `vpermb`, a
            // `vpshufd`, 9 products, 4 `vpternlogq` and 2 XORs.
            rows.push(mix!("  the same, 4 vpermb and a vpshufd an LPS", __m512i, 16, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, zmm_op, 2,
                [G T V G I X G T V G D G G T V G I X G T V G]));
        }
        rows
    }

    /// The rows this CPU can run.
    pub fn rows() -> Vec<(&'static str, f64, f64)> {
        let mut rows = Vec::new();
        let zmm = is_x86_feature_detected!("avx512bw") && is_x86_feature_detected!("avx512vbmi") && is_x86_feature_detected!("gfni");
        let ymm_gfni = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("gfni");
        if zmm {
            rows.push(row!("zmm vgf2p8affineqb", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, _b| _mm512_gf2p8affine_epi64_epi8::<0>(x, a)));
            rows.push(row!("zmm vpermb", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, _b| _mm512_permutexvar_epi8(a, x)));
            rows.push(row!("zmm vpermi2b (index chained)", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_permutex2var_epi8(a, x, b)));
            rows.push(row!("zmm vpshufb", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, _b| _mm512_shuffle_epi8(x, a)));
            rows.push(row!("zmm vprolq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, _a, _b| _mm512_rol_epi64::<8>(x)));
            rows.push(row!("zmm vpternlogq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_ternarylogic_epi64::<0x96>(x, a, b)));
            rows.push(row!("zmm vpmovb2m + vpblendmb", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), a, b)));
            // Pairs, as for ymm below: which of the zmm instructions share
            // pipes. Then a 256-entry table lookup (Kupyna's S-boxes in
            // `hash/kupyna/rows.rs`) as two 128-entry lookups and a blend
            // on bit 7, or as one lookup and a zero-masked one of the
            // difference of the two halves.
            rows.push(row!("zmm vpermi2b + vgf2p8affineqb", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_permutex2var_epi8(a, x, b), a)));
            rows.push(row!("zmm vpermi2b + vprolq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_rol_epi64::<8>(_mm512_permutex2var_epi8(a, x, b))));
            rows.push(row!("zmm vgf2p8affineqb + vprolq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, _b| _mm512_rol_epi64::<8>(_mm512_gf2p8affine_epi64_epi8::<0>(x, a))));
            rows.push(row!("zmm vpermi2b + vpternlogq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_ternarylogic_epi64::<0x96>(_mm512_permutex2var_epi8(a, x, b), a, b)));
            rows.push(row!("zmm vgf2p8affineqb + vpternlogq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_ternarylogic_epi64::<0x96>(_mm512_gf2p8affine_epi64_epi8::<0>(x, a), a, b)));
            rows.push(row!("zmm vprolq + vpternlogq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_ternarylogic_epi64::<0x96>(_mm512_rol_epi64::<8>(x), a, b)));
            rows.push(row!("zmm vpmovb2m + vpblendmb + vpermi2b", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_permutex2var_epi8(a, _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), a, b), b)));
            rows.push(row!("zmm vpmovb2m + vpblendmb + vpternlogq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_ternarylogic_epi64::<0x96>(_mm512_mask_blend_epi8(_mm512_movepi8_mask(x), a, b), a, b)));
            rows.push(row!("zmm vgf2p8affineqb + vpxorq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, _b| _mm512_xor_si512(_mm512_gf2p8affine_epi64_epi8::<0>(x, a), a)));
            rows.push(row!("zmm vpermi2b + vpxorq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_xor_si512(_mm512_permutex2var_epi8(a, x, b), a)));
            rows.push(row!("zmm 2 vpermi2b, vpmovb2m, vpblendmb", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), _mm512_permutex2var_epi8(a, x, b), _mm512_permutex2var_epi8(b, x, a))));
            // The same 256-entry lookup by four 64-entry `vpermb`, the
            // second of each pair merge-masked by bit 6 (`vptestmb`); four
            // different tables, so that no lookup is shared.
            rows.push(row!("zmm 4 vpermb (2 under vptestmb), vpmovb2m, vpblendmb", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| {
                let bit6 = _mm512_test_epi8_mask(x, _mm512_set1_epi8(0x40));
                let (c, d) = (_mm512_xor_si512(a, b), _mm512_add_epi8(a, b));
                let lo = _mm512_mask_permutexvar_epi8(_mm512_permutexvar_epi8(x, a), bit6, x, b);
                let hi = _mm512_mask_permutexvar_epi8(_mm512_permutexvar_epi8(x, c), bit6, x, d);
                _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi)
            }));
            rows.push(row!("zmm vpermi2b, vpermi2b{k}{z}, vpxorq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_xor_si512(_mm512_permutex2var_epi8(a, x, b), _mm512_maskz_permutex2var_epi8(_mm512_movepi8_mask(x), b, x, a))));
            rows.push(row!("zmm 2 vpermi2b + vpxorq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, b| _mm512_xor_si512(_mm512_permutex2var_epi8(a, x, b), _mm512_permutex2var_epi8(b, x, a))));
            rows.push(row!("zmm vpblendmb (constant mask)", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, _b| _mm512_mask_blend_epi8(0x5555_5555_5555_5555, x, a)));
            rows.push(row!("zmm vpaddb", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, _b| _mm512_add_epi8(x, a)));
            rows.push(row!("zmm vpxorq", __m512i, "avx512f,avx512bw,avx512vbmi,gfni", _mm512_set1_epi8, opaque512, |x, a, _b| _mm512_xor_si512(x, a)));
        }
        if ymm_gfni {
            rows.push(row!("ymm vgf2p8affineqb", __m256i, "avx2,gfni", _mm256_set1_epi8, opaque256, |x, a, _b| _mm256_gf2p8affine_epi64_epi8::<0>(x, a)));
            // Pairs of instructions: a pair's throughput is the larger of
            // the two alone when they issue on different pipes, their sum
            // when they share them.
            rows.push(row!("ymm vpshufb + vgf2p8affineqb", __m256i, "avx2,gfni", _mm256_set1_epi8, opaque256, |x, a, _b| _mm256_gf2p8affine_epi64_epi8::<0>(_mm256_shuffle_epi8(x, a), a)));
            rows.push(row!("ymm vpblendvb + vgf2p8affineqb", __m256i, "avx2,gfni", _mm256_set1_epi8, opaque256, |x, a, b| _mm256_gf2p8affine_epi64_epi8::<0>(_mm256_blendv_epi8(a, b, x), a)));
        }
        if is_x86_feature_detected!("avx2") {
            rows.push(row!("ymm vpshufb", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, a, _b| _mm256_shuffle_epi8(x, a)));
            rows.push(row!("ymm vpermq", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, _a, _b| _mm256_permute4x64_epi64::<0x39>(x)));
            rows.push(row!("ymm vpxor", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, a, _b| _mm256_xor_si256(x, a)));
            rows.push(row!("ymm vpblendvb (mask chained)", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, a, b| _mm256_blendv_epi8(a, b, x)));
            rows.push(row!("ymm vpshufb + vpblendvb", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, a, b| _mm256_blendv_epi8(a, b, _mm256_shuffle_epi8(x, a))));
            rows.push(row!("ymm vpshufb + vperm2i128", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, a, _b| _mm256_permute2x128_si256::<0x21>(_mm256_shuffle_epi8(x, a), a)));
            rows.push(row!("ymm vpshufb + vpsrlw", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, a, _b| _mm256_srli_epi16::<4>(_mm256_shuffle_epi8(x, a))));
            rows.push(row!("ymm vpshufb + vpunpcklbw", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, a, _b| _mm256_unpacklo_epi8(_mm256_shuffle_epi8(x, a), a)));
            rows.push(row!("ymm vpshufb + vpxor", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, a, _b| _mm256_xor_si256(_mm256_shuffle_epi8(x, a), a)));
            rows.push(row!("ymm vpsrlw", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, _a, _b| _mm256_srli_epi16::<4>(x)));
            rows.push(row!("ymm vpunpcklbw", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, a, _b| _mm256_unpacklo_epi8(x, a)));
            rows.push(row!("ymm vpaddb", __m256i, "avx2", _mm256_set1_epi8, opaque256, |x, _a, _b| _mm256_add_epi8(x, x)));
        }
        rows
    }
}

#[cfg(target_arch = "x86_64")]
fn main() {
    let per_cycle = x86::ticks_per_cycle();
    println!("TSC ticks per core cycle: {per_cycle:.3} (core clock = {:.2} × the TSC rate)", 1.0 / per_cycle);
    println!("{:<40} {:>16} {:>24}", "instruction", "latency (cycles)", "throughput (cycles/op)");
    for (name, latency, throughput) in x86::rows() {
        println!("{name:<40} {:>16.2} {:>24.2}", latency / per_cycle, throughput / per_cycle);
    }
    println!();
    println!("{:<44} {:>12} {:>24}", "instruction mix, no dependencies", "µops", "cycles per round or LPS");
    for (name, count, per_unit) in x86::mixes() {
        println!("{name:<44} {count:>12} {:>24.1}", per_unit / per_cycle);
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("op_costs measures x86-64 vector instructions; this is not an x86-64 CPU");
}
