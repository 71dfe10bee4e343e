//! Boolean circuits of 8-bit S-boxes with no structure to use (Kalyna's
//! π0..π3 and their inverses, DSTU 7624:2014 §5.4), for the portable
//! bitsliced backend.
//!
//! Each input bit b becomes a literal y_b = x_b ⊕ p_b (a NOT where the
//! polarity p has b). The literals split into a high set H of h bits and a
//! low set L of the other 8 − h. In the algebraic normal form over the
//! literals, output bit j is ⊕_S n_S · G_{S,j}: n_S runs over the 2^h
//! monomials of the high literals (n_0 = 1), and each G_{S,j} is a sum of
//! monomials of the low literals, maybe with the constant 1 (then
//! n_S · G = n_S ∧ ¬(the rest), one and-not). The 8·2^h sums are one linear
//! map of the low monomials, shortened by Paar's greedy ([`crate::paar`]).
//! Operations: 2^(8−h) − (8 − h) − 1 ANDs for the low monomials, at most
//! 2^h − h − 1 for the high ones, the NOTs of p, the sums, and an AND and
//! an XOR per nonzero term of each output bit.
//!
//! h = 3 is the cheapest for Kalyna's S-boxes: 505-510 operations, where
//! h = 4 (nibble against nibble, the method used before) took 545-555 and
//! h = 2 is about 525-536 without NOTs: fewer terms per output bit (8
//! instead of 16) outweigh the longer sums. The search (every split with h
//! high literals and every polarity, 56 · 256 circuits per S-box for h = 3)
//! is too slow for every build, so its results are kept in [`CHOSEN`];
//! `MULTIBLOCK_SBOX_SEARCH=h` runs it again on all CPUs and prints what it
//! finds as build warnings (h = 3: about 5 minutes of CPU time with
//! `[profile.release.build-override] opt-level = 3`, far longer without).
//! Whichever way it was chosen, the circuit is evaluated on all 256 inputs
//! against the table before it is emitted.

use crate::{anf, Circuit};

/// A split of the input bits and the literals' polarity.
#[derive(Clone, Copy, Debug)]
struct Split {
    /// The high literals' input bits (a mask).
    hi: u8,
    /// The input bits read negated (a mask).
    negate: u8,
}

/// The search's choice per S-box (`MULTIBLOCK_SBOX_SEARCH=3`).
const CHOSEN: [(&str, Split); 8] = [
    ("kalyna_pi0", Split { hi: 0x15, negate: 0x06 }),
    ("kalyna_pi0_inv", Split { hi: 0x51, negate: 0x9c }),
    ("kalyna_pi1", Split { hi: 0x32, negate: 0x74 }),
    ("kalyna_pi1_inv", Split { hi: 0x58, negate: 0xea }),
    ("kalyna_pi2", Split { hi: 0xa1, negate: 0x78 }),
    ("kalyna_pi2_inv", Split { hi: 0x29, negate: 0x4a }),
    ("kalyna_pi3", Split { hi: 0xa8, negate: 0x36 }),
    ("kalyna_pi3_inv", Split { hi: 0xc1, negate: 0x5a }),
];

/// The input bits set in `mask`, lowest first.
fn bits(mask: u8) -> Vec<usize> {
    (0..8).filter(|b| mask >> b & 1 == 1).collect()
}

/// Value `v` of the literals `set` as input bits.
fn spread(v: usize, set: &[usize]) -> usize {
    set.iter().enumerate().map(|(i, &b)| (v >> i & 1) << b).sum()
}

/// The circuit of `s` for `split`, and its 8 output variables.
fn build(s: &[u8; 256], split: Split) -> (Circuit, Vec<usize>) {
    let (hi, lo) = (bits(split.hi), bits(!split.hi));
    let (n_hi, n_lo) = (1usize << hi.len(), 1usize << lo.len());
    // feeds[m]: the rows 8·S + j whose G has low monomial m; one[r]: G_r
    // has the constant. The ANF over all 8 literals, indexed S·n_lo + m,
    // gives both (Möbius transform).
    let mut feeds = vec![0u128; n_lo];
    let mut one = vec![false; 8 * n_hi];
    for j in 0..8 {
        let mut a: Vec<bool> = (0..n_hi * n_lo)
            .map(|k| {
                let y = spread(k / n_lo, &hi) | spread(k % n_lo, &lo);
                s[y ^ split.negate as usize] >> j & 1 == 1
            })
            .collect();
        anf(&mut a);
        for k in (0..a.len()).filter(|&k| a[k]) {
            let (sh, m) = (k / n_lo, k % n_lo);
            if m == 0 {
                one[8 * sh + j] = true;
            } else {
                feeds[m] |= 1 << (8 * sh + j);
            }
        }
    }
    let mut c = Circuit::new(8);
    let lit: Vec<usize> = (0..8).map(|b| if split.negate >> b & 1 == 1 { c.not(b) } else { b }).collect();
    let (hi_lit, lo_lit): (Vec<usize>, Vec<usize>) = (hi.iter().map(|&b| lit[b]).collect(), lo.iter().map(|&b| lit[b]).collect());
    let used: Vec<usize> = (1..n_lo).filter(|&m| feeds[m] != 0).collect();
    let monos: Vec<usize> = used.iter().map(|&m| c.monomial(&lo_lit, m)).collect();
    let terms = c.paar_terms(&monos, used.iter().map(|&m| feeds[m]).collect(), 8 * n_hi);
    let outs = (0..8)
        .map(|j| {
            let (mut parts, mut flip) = (Vec::new(), false);
            for sh in 0..n_hi {
                let r = 8 * sh + j;
                let g = (!terms[r].is_empty()).then(|| c.xor_all(&terms[r]));
                match (sh, g, one[r]) {
                    (_, None, false) => {}
                    (0, None, true) => flip = !flip,
                    (0, Some(g), o) => {
                        parts.push(g);
                        flip ^= o;
                    }
                    (_, None, true) => parts.push(c.monomial(&hi_lit, sh)),
                    (_, Some(g), false) => {
                        let n = c.monomial(&hi_lit, sh);
                        parts.push(c.and(n, g));
                    }
                    (_, Some(g), true) => {
                        let n = c.monomial(&hi_lit, sh);
                        parts.push(c.and_not(n, g));
                    }
                }
            }
            // A bijective S-box has no constant output bit.
            let sum = c.xor_all(&parts);
            if flip {
                c.not(sum)
            } else {
                sum
            }
        })
        .collect();
    (c, outs)
}

/// Operations of the circuit of `s` for `split`.
fn ops(s: &[u8; 256], split: Split) -> usize {
    build(s, split).0.ops.len()
}

/// The cheapest split of `s` with `h` high literals, over every such split
/// and every polarity (ties to the smallest masks), on all CPUs.
fn search(s: &[u8; 256], h: u32) -> Split {
    let splits: Vec<Split> =
        (0..=255u8).filter(|m| m.count_ones() == h).flat_map(|hi| (0..=255u8).map(move |negate| Split { hi, negate })).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let best = std::thread::scope(|scope| {
        let workers: Vec<_> = splits
            .chunks(splits.len().div_ceil(threads))
            .map(|part| scope.spawn(move || part.iter().map(|&sp| (ops(s, sp), sp.hi, sp.negate)).min()))
            .collect();
        workers.into_iter().filter_map(|w| w.join().expect("search thread")).min()
    });
    let (_, hi, negate) = best.expect("a split");
    Split { hi, negate }
}

/// Emits `pub(crate) fn {name}<W: Word>(x: &[W; 8]) -> [W; 8]`, the S-box
/// `s` on 8 bit planes (plane b = bit b of every byte).
pub fn emit(code: &mut String, name: &str, s: &[u8; 256]) {
    let split = match std::env::var("MULTIBLOCK_SBOX_SEARCH").ok().and_then(|n| n.parse().ok()) {
        Some(h) => {
            let split = search(s, h);
            println!(
                "cargo:warning=(\"{name}\", Split {{ hi: {:#04x}, negate: {:#04x} }}), // {} operations",
                split.hi,
                split.negate,
                ops(s, split)
            );
            split
        }
        None => CHOSEN.iter().find(|c| c.0 == name).unwrap_or_else(|| panic!("{name}: no split chosen; run the search")).1,
    };
    let (c, outs) = build(s, split);
    c.check(&outs, s, name);
    let doc = format!("The S-box on 8 bit planes (build/sbox8.rs; high literals {:#04x}, negated inputs {:#04x})", split.hi, split.negate);
    c.emit(code, name, &outs, &doc);
}
