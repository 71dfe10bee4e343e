//! Boolean circuits of arbitrary 8-bit S-boxes (Kalyna's π0..π3 and their
//! inverses, DSTU 7624:2014 §5.4), for the portable bitsliced backend.
//!
//! Split the 8 input bits into a low nibble l and a high nibble h. Output
//! bit j is ⊕_S b_S(h) · G_{S,j}(l) for a basis b_0..b_15 of the functions
//! of the high nibble, and each G_{S,j} is a sum (⊕) of a basis of the
//! functions of the low nibble, maybe complemented. The 128 sums are a
//! linear map, shortened by Paar's greedy ([`crate::paar`]). Two bases are
//! tried on each side:
//! - minterms ([l = v] for the 16 values v): 30 operations for the 16;
//! - monomials of the bits, each bit maybe negated first (polarity p):
//!   Π_{i∈S} (x_i ⊕ p_i), 11 ANDs (and the NOTs) for the 15 non-constant
//!   ones; the constant monomial needs no AND on the high side and becomes
//!   the complement of a sum on the low side.
//!
//! The sums G change with the basis, and so does their cost: monomials on
//! both sides take about 7% fewer operations than minterms on both (the
//! method used before) for Kalyna's S-boxes. The search (every split with
//! polarity 0, then every polarity of the n best splits and kinds) is too
//! slow for every build (a build script is compiled unoptimized), so its
//! results are kept in [`CHOSEN`]; `MULTIBLOCK_SBOX_SEARCH=n` runs it again
//! and prints what it finds as build warnings (n = 12: about two minutes
//! with `[profile.release.build-override] opt-level = 3`). The circuit is evaluated on all
//! 256 inputs against the table before it is emitted, whichever way it was
//! chosen.

use crate::{cost, need, paar, xor_of};
use std::fmt::Write as _;

/// The 16 functions of one nibble a circuit combines.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Basis {
    /// [nibble = v], v = 0..15.
    Minterms,
    /// Π_{i∈S} (bit i ⊕ bit i of `polarity`), S = 0..15 (S = 0: the constant 1).
    Monomials { polarity: u8 },
}

impl Basis {
    /// Operations to compute the 16 functions from the 4 bit planes.
    fn ops(self) -> usize {
        match self {
            // 4 pair minterms per half (1, 2, 2 and 2 operations: a·b, a·¬b,
            // ¬a·b, ¬(a ∨ b)), then 16 ANDs.
            Basis::Minterms => 2 * 7 + 16,
            // The negated bits, 2 pair products, 9 products of pairs.
            Basis::Monomials { polarity } => polarity.count_ones() as usize + 11,
        }
    }

    /// Coordinates in this basis of the function with truth table `t` (bit
    /// v = its value on nibble v): bit S set if function S is in the sum.
    fn coordinates(self, t: u16) -> u16 {
        match self {
            Basis::Minterms => t,
            Basis::Monomials { polarity } => {
                // g(y) = t(y ⊕ p), then its algebraic normal form (Möbius).
                let mut a: [u8; 16] = std::array::from_fn(|y| (t >> (y ^ polarity as usize) & 1) as u8);
                for i in 0..4 {
                    for y in 0..16 {
                        if y >> i & 1 == 1 {
                            a[y] ^= a[y ^ (1 << i)];
                        }
                    }
                }
                (0..16).map(|s| (a[s] as u16) << s).sum()
            }
        }
    }

    /// The value of function `s` on nibble `v`.
    fn value(self, s: usize, v: usize) -> bool {
        match self {
            Basis::Minterms => v == s,
            Basis::Monomials { polarity } => (v ^ polarity as usize) & s == s,
        }
    }

    /// Whether function `s` is the constant 1 (no variable of its own).
    fn is_one(self, s: usize) -> bool {
        matches!(self, Basis::Monomials { .. }) && s == 0
    }
}

/// The search's choice per S-box (`MULTIBLOCK_SBOX_SEARCH=12`): low
/// nibble's bits, low basis, high basis.
const CHOSEN: [(&str, [usize; 4], Basis, Basis); 8] = [
    ("kalyna_pi0", [0, 1, 2, 6], Basis::Monomials { polarity: 7 }, Basis::Monomials { polarity: 10 }),
    ("kalyna_pi0_inv", [0, 1, 2, 6], Basis::Monomials { polarity: 12 }, Basis::Monomials { polarity: 9 }),
    ("kalyna_pi1", [1, 4, 5, 6], Basis::Monomials { polarity: 2 }, Basis::Monomials { polarity: 0 }),
    ("kalyna_pi1_inv", [0, 1, 3, 7], Basis::Monomials { polarity: 2 }, Basis::Monomials { polarity: 8 }),
    ("kalyna_pi2", [1, 2, 3, 4], Basis::Monomials { polarity: 1 }, Basis::Monomials { polarity: 12 }),
    ("kalyna_pi2_inv", [2, 4, 5, 6], Basis::Monomials { polarity: 4 }, Basis::Monomials { polarity: 0 }),
    ("kalyna_pi3", [1, 3, 4, 6], Basis::Monomials { polarity: 0 }, Basis::Monomials { polarity: 0 }),
    ("kalyna_pi3_inv", [2, 3, 4, 7], Basis::Monomials { polarity: 6 }, Basis::Monomials { polarity: 8 }),
];

/// One candidate circuit of an S-box.
struct Plan {
    lo: [usize; 4],
    hi: [usize; 4],
    lo_basis: Basis,
    hi_basis: Basis,
    /// Paar's result over the 16 low functions (variables 0..16 = m0..m15).
    gates: Vec<(usize, usize)>,
    /// Row 8·S + j: the terms of G_{S,j}.
    terms: Vec<Vec<usize>>,
    /// Row 8·S + j: G_{S,j} is 1 ⊕ its terms.
    complement: Vec<bool>,
}

impl Plan {
    fn new(s: &[u8; 256], lo: [usize; 4], lo_basis: Basis, hi_basis: Basis) -> Plan {
        let hi: [usize; 4] = (0..8).filter(|b| !lo.contains(b)).collect::<Vec<_>>().try_into().unwrap();
        let input = |l: usize, h: usize| (0..4).map(|i| ((l >> i & 1) << lo[i]) | ((h >> i & 1) << hi[i])).sum::<usize>();
        // F[h][j]: output bit j as a function of l, for high nibble h.
        let f: Vec<[u16; 8]> =
            (0..16).map(|h| std::array::from_fn(|j| (0..16).map(|l| ((s[input(l, h)] >> j & 1) as u16) << l).sum())).collect();
        // [h' = h] = ⊕_S c_{S,h} b_S(h'), so G_{S,j} = ⊕_h c_{S,h} F[h][j].
        let indicator = |h: usize| hi_basis.coordinates(1 << h);
        let mut cols = vec![0u128; 16];
        let mut complement = vec![false; 128];
        for s_ in 0..16 {
            for j in 0..8 {
                let g = (0..16).filter(|&h| indicator(h) >> s_ & 1 == 1).fold(0u16, |acc, h| acc ^ f[h][j]);
                let mut c = lo_basis.coordinates(g);
                let row = 8 * s_ + j;
                complement[row] = match lo_basis {
                    // ⊕ of all 16 minterms is 1: the shorter side.
                    Basis::Minterms if c.count_ones() > 8 => {
                        c = !c;
                        true
                    }
                    Basis::Minterms => false,
                    Basis::Monomials { .. } => {
                        let one = c & 1 == 1;
                        c &= !1;
                        one
                    }
                };
                for (l, col) in cols.iter_mut().enumerate() {
                    if c >> l & 1 == 1 {
                        *col |= 1 << row;
                    }
                }
            }
        }
        let (gates, terms) = paar(cols, 128);
        Plan { lo, hi, lo_basis, hi_basis, gates, terms, complement }
    }

    /// Whether row `r` contributes nothing (G is 0).
    fn is_zero(&self, r: usize) -> bool {
        self.terms[r].is_empty() && !self.complement[r]
    }

    /// Operations of the whole circuit.
    fn ops(&self) -> usize {
        let mut ops = self.lo_basis.ops() + self.hi_basis.ops() + cost(&self.gates, &self.terms);
        for j in 0..8 {
            let rows: Vec<usize> = (0..16).map(|s_| 8 * s_ + j).filter(|&r| !self.is_zero(r)).collect();
            ops += rows.len().saturating_sub(1);
            for &r in &rows {
                // b_S · G (G complemented: and-not), or for b_S = 1, G (complemented: a NOT).
                if self.hi_basis.is_one(r / 8) {
                    ops += self.complement[r] as usize;
                } else {
                    ops += !self.terms[r].is_empty() as usize;
                }
            }
        }
        ops
    }

    /// The circuit's output on input `x`, evaluated from the plan.
    fn eval(&self, x: usize) -> u8 {
        let l = (0..4).map(|i| (x >> self.lo[i] & 1) << i).sum::<usize>();
        let h = (0..4).map(|i| (x >> self.hi[i] & 1) << i).sum::<usize>();
        let mut v: Vec<bool> = (0..16).map(|s_| self.lo_basis.value(s_, l)).collect();
        for &(a, b) in &self.gates {
            v.push(v[a] ^ v[b]);
        }
        (0..8)
            .map(|j| {
                let bit = (0..16).fold(false, |acc, s_| {
                    let r = 8 * s_ + j;
                    let g = self.terms[r].iter().fold(self.complement[r], |g, &t| g ^ v[t]);
                    acc ^ (self.hi_basis.value(s_, h) & g)
                });
                (bit as u8) << j
            })
            .sum()
    }
}

/// The cheapest plan found for `s`, over every polarity of the `kinds_kept`
/// best (split, kind of basis) pairs.
fn search(s: &[u8; 256], kinds_kept: usize) -> Plan {
    let splits: Vec<[usize; 4]> = (0u32..256)
        .filter(|m| m.count_ones() == 4)
        .map(|m| (0..8).filter(|b| m >> b & 1 == 1).collect::<Vec<_>>().try_into().unwrap())
        .collect();
    let kinds = [(false, false), (false, true), (true, false), (true, true)];
    let basis = |monomials: bool, polarity: u8| if monomials { Basis::Monomials { polarity } } else { Basis::Minterms };
    // Every split and kind of basis with polarity 0 (minterms on both sides
    // have the two halves' roles symmetric: each split once).
    let mut first: Vec<(usize, [usize; 4], (bool, bool))> = Vec::new();
    for &lo in &splits {
        for &(lo_mon, hi_mon) in &kinds {
            if !lo_mon && !hi_mon && !lo.contains(&0) {
                continue;
            }
            let p = Plan::new(s, lo, basis(lo_mon, 0), basis(hi_mon, 0));
            first.push((p.ops(), lo, (lo_mon, hi_mon)));
        }
    }
    first.sort_by_key(|c| c.0);
    // Every polarity of the best.
    let mut best: Option<Plan> = None;
    for &(_, lo, (lo_mon, hi_mon)) in first.iter().take(kinds_kept) {
        for lp in 0..if lo_mon { 16 } else { 1 } {
            for hp in 0..if hi_mon { 16 } else { 1 } {
                let p = Plan::new(s, lo, basis(lo_mon, lp), basis(hi_mon, hp));
                if best.as_ref().is_none_or(|b| p.ops() < b.ops()) {
                    best = Some(p);
                }
            }
        }
    }
    best.unwrap()
}

/// Emits `let {name}{s} = …;` for the 16 basis functions of `bits`.
fn emit_basis(out: &mut String, name: &str, basis: Basis, bits: [usize; 4]) {
    match basis {
        Basis::Minterms => {
            let [a, b, c, d] = bits;
            for (pair, u, v) in [("a", a, b), ("b", c, d)] {
                writeln!(out, "    let {name}{pair}3 = x[{u}] & x[{v}];").unwrap();
                writeln!(out, "    let {name}{pair}1 = x[{u}] & !x[{v}];").unwrap();
                writeln!(out, "    let {name}{pair}2 = !x[{u}] & x[{v}];").unwrap();
                writeln!(out, "    let {name}{pair}0 = !(x[{u}] | x[{v}]);").unwrap();
            }
            for s_ in 0..16 {
                writeln!(out, "    let {name}{s_} = {name}a{} & {name}b{};", s_ & 3, s_ >> 2).unwrap();
            }
        }
        Basis::Monomials { polarity } => {
            // Literals y_i, then y0·y1 and y2·y3, then products of the two halves.
            for (i, &b) in bits.iter().enumerate() {
                let not = if polarity >> i & 1 == 1 { "!" } else { "" };
                writeln!(out, "    let {name}y{i} = {not}x[{b}];").unwrap();
            }
            let half = |lowest: usize, part: usize| match part {
                1 => format!("{name}y{lowest}"),
                2 => format!("{name}y{}", lowest + 1),
                _ => format!("{name}p{lowest}"),
            };
            writeln!(out, "    let {name}p0 = {name}y0 & {name}y1;").unwrap();
            writeln!(out, "    let {name}p2 = {name}y2 & {name}y3;").unwrap();
            for s_ in 1..16 {
                let (a, b) = (s_ & 3, s_ >> 2);
                let expr = match (a, b) {
                    (0, b) => half(2, b),
                    (a, 0) => half(0, a),
                    (a, b) => format!("{} & {}", half(0, a), half(2, b)),
                };
                writeln!(out, "    let {name}{s_} = {expr};").unwrap();
            }
        }
    }
}

/// Emits `pub(crate) fn {name}<W: Word>(x: &[W; 8]) -> [W; 8]`, the S-box
/// `s` on 8 bit planes (plane b = bit b of every byte).
pub fn emit(code: &mut String, name: &str, s: &[u8; 256]) {
    let p = match std::env::var("MULTIBLOCK_SBOX_SEARCH").ok().and_then(|n| n.parse().ok()) {
        Some(kinds_kept) => {
            let p = search(s, kinds_kept);
            println!("cargo:warning=(\"{name}\", {:?}, Basis::{:?}, Basis::{:?}), // {} operations", p.lo, p.lo_basis, p.hi_basis, p.ops());
            p
        }
        None => {
            let &(_, lo, lo_basis, hi_basis) =
                CHOSEN.iter().find(|c| c.0 == name).unwrap_or_else(|| panic!("{name}: no circuit chosen; run the search"));
            Plan::new(s, lo, lo_basis, hi_basis)
        }
    };
    for x in 0..256 {
        assert_eq!(p.eval(x), s[x], "{name}: the circuit differs from the table at {x:#04x}");
    }
    writeln!(
        code,
        "/// The S-box on 8 bit planes: {} operations (low nibble: bits {:?}, {:?}; high: {:?}).",
        p.ops(),
        p.lo,
        p.lo_basis,
        p.hi_basis
    )
    .unwrap();
    writeln!(code, "#[allow(clippy::all)]\n#[inline(always)]\npub(crate) fn {name}<W: Word>(x: &[W; 8]) -> [W; 8] {{").unwrap();
    let mut out = String::new();
    emit_basis(&mut out, "m", p.lo_basis, p.lo);
    emit_basis(&mut out, "n", p.hi_basis, p.hi);
    let mut done = vec![false; p.gates.len()];
    for j in 0..8 {
        let mut parts = Vec::new();
        for s_ in 0..16 {
            let r = 8 * s_ + j;
            if p.is_zero(r) {
                continue;
            }
            for &v in &p.terms[r] {
                need(&mut out, "m", 16, &p.gates, &mut done, v);
            }
            let g = xor_of("m", &p.terms[r]);
            let empty = p.terms[r].is_empty();
            parts.push(match (p.hi_basis.is_one(s_), p.complement[r], empty) {
                (true, false, _) => format!("({g})"),
                (true, true, true) => "!W::ZERO".to_string(),
                (true, true, false) => format!("!({g})"),
                (false, false, _) => format!("(n{s_} & ({g}))"),
                (false, true, true) => format!("n{s_}"),
                (false, true, false) => format!("(n{s_} & !({g}))"),
            });
        }
        let o = if parts.is_empty() { "W::ZERO".to_string() } else { parts.join(" ^ ") };
        writeln!(out, "    let o{j} = {o};").unwrap();
    }
    writeln!(out, "    [o0, o1, o2, o3, o4, o5, o6, o7]\n}}\n").unwrap();
    code.push_str(&out);
}
