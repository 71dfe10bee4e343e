//! Kuznyechik's π and π⁻¹ as small circuits, from the structure that
//! A. Biryukov, L. Perrin and A. Udovenko found in it ("Reverse-Engineering
//! the S-Box of Streebog, Kuznyechik and STRIBOBr1", EUROCRYPT 2016, §3):
//! with (l, r) the two nibbles of α(x),
//!
//!   l' = ν0(l) if r = 0, else ν1(l ⊙ r⁻¹);   r' = σ(r ⊙ φ(l'));
//!   π(x) = ω(l' ‖ r'),
//!
//! where ⊙ and ⁻¹ are GF(2^4) arithmetic modulo x^4 + x^3 + 1, α and ω are
//! GF(2)-linear and ν0, ν1, σ, φ are 4-bit S-boxes (their tables below are
//! the paper's). Each 4-bit S-box is its algebraic normal form (at most 11
//! ANDs shared per input nibble) with Paar's greedy on the XORs; ⊙ is the
//! schoolbook product (16 ANDs) and its reduction. About 250 operations
//! against ~600 for the generic two-nibble circuit of `build.rs`.
//!
//! The circuit is evaluated here on all 256 inputs and must equal the
//! standard's table, or the build fails.

use super::{anf, Circuit};

/// α and ω, the paper's matrices: entry k is the mask of the input bits
/// whose XOR is output bit 7 − k (bit 7 the most significant).
const ALPHA: [u8; 8] = [0x08, 0x41, 0x43, 0xef, 0x8a, 0x44, 0x1a, 0x20];
const OMEGA: [u8; 8] = [0x0a, 0x04, 0x20, 0x9a, 0x08, 0x44, 0x82, 0x01];
const NU0: [u8; 16] = [0x2, 0x5, 0x3, 0xb, 0x6, 0x9, 0xe, 0xa, 0x0, 0x4, 0xf, 0x1, 0x8, 0xd, 0xc, 0x7];
const NU1: [u8; 16] = [0x7, 0x6, 0xc, 0x9, 0x0, 0xf, 0x8, 0x1, 0x4, 0x5, 0xb, 0xe, 0xd, 0x2, 0x3, 0xa];
const SIGMA: [u8; 16] = [0xc, 0xd, 0x0, 0x4, 0x8, 0xb, 0xa, 0xe, 0x3, 0x9, 0x5, 0x2, 0xf, 0x1, 0x6, 0x7];
const PHI: [u8; 16] = [0xb, 0x2, 0xb, 0x8, 0xc, 0x4, 0x1, 0xc, 0x6, 0x3, 0x5, 0x8, 0xe, 0x3, 0x6, 0xb];

/// GF(2^4) modulo x^4 + x^3 + 1.
fn mul4(a: u8, b: u8) -> u8 {
    let mut p = 0u8;
    for i in 0..4 {
        if b >> i & 1 == 1 {
            p ^= a << i;
        }
    }
    for d in (4..7).rev() {
        if p >> d & 1 == 1 {
            p ^= 0x19 << (d - 4);
        }
    }
    p
}

fn inv4(a: u8) -> u8 {
    (0..16).find(|&b| mul4(a, b) == 1).unwrap_or(0)
}

/// The rows of a linear map as masks per output bit, least significant
/// first (the paper lists them most significant first).
fn rows_lsb_first(m: &[u8; 8]) -> [u8; 8] {
    core::array::from_fn(|k| m[7 - k])
}

fn apply(rows: &[u8; 8], x: u8) -> u8 {
    (0..8).map(|k| ((rows[k] & x).count_ones() as u8 & 1) << k).sum()
}

/// The rows of the inverse of a bijective linear map.
fn inverse_rows(rows: &[u8; 8]) -> [u8; 8] {
    let mut inv = [0u8; 256];
    for x in 0..=255u8 {
        inv[apply(rows, x) as usize] = x;
    }
    core::array::from_fn(|k| (0..8).map(|j| (inv[1 << j] >> k & 1) << j).sum())
}

fn table4(f: impl Fn(u8) -> u8) -> [u8; 16] {
    core::array::from_fn(|x| f(x as u8))
}

/// π from the structure, on one byte (the model the circuit must match).
fn model(x: u8) -> u8 {
    let y = apply(&rows_lsb_first(&ALPHA), x);
    let (l, r) = (y >> 4, y & 15);
    let l = if r == 0 { NU0[l as usize] } else { NU1[mul4(l, inv4(r)) as usize] };
    let r = SIGMA[mul4(r, PHI[l as usize]) as usize];
    apply(&rows_lsb_first(&OMEGA), l << 4 | r)
}

impl Circuit {
    /// A GF(2)-linear map of 8 variables (rows: input masks per output bit).
    fn linear8(&mut self, x: &[usize], rows: &[u8; 8]) -> Vec<usize> {
        let cols = (0..8).map(|j| (0..8).filter(|&k| rows[k] >> j & 1 == 1).map(|k| 1u128 << k).sum()).collect();
        self.paar_map(x, cols, 8)
    }

    /// A 4-bit S-box by its algebraic normal form: the monomials of `x`
    /// (shared with other S-boxes on the same nibble), then their XORs.
    fn sbox4(&mut self, x: [usize; 4], table: &[u8; 16]) -> [usize; 4] {
        let coef: [[u8; 16]; 4] = core::array::from_fn(|j| {
            let mut a: [u8; 16] = core::array::from_fn(|u| table[u] >> j & 1);
            anf(&mut a);
            a
        });
        let used: Vec<usize> = (1..16).filter(|&u| coef.iter().any(|a| a[u] == 1)).collect();
        let monos: Vec<usize> = used.iter().map(|&u| self.monomial(&x, u)).collect();
        let cols = used.iter().map(|&u| (0..4).filter(|&j| coef[j][u] == 1).map(|j| 1u128 << j).sum()).collect();
        let sums = self.paar_map(&monos, cols, 4);
        core::array::from_fn(|j| if coef[j][0] == 1 { self.not(sums[j]) } else { sums[j] })
    }

    /// a ⊙ b in GF(2^4)/x^4 + x^3 + 1: x^4 = x^3 + 1, x^5 = x^3 + x + 1,
    /// x^6 = x^3 + x^2 + x + 1.
    fn mul4(&mut self, a: [usize; 4], b: [usize; 4]) -> [usize; 4] {
        let p: Vec<usize> = (0..7)
            .map(|k| {
                let t: Vec<usize> = (0..4).filter(|&i| k >= i && k - i < 4).map(|i| self.and(a[i], b[k - i])).collect();
                self.xor_all(&t)
            })
            .collect();
        let hi = self.xor(p[5], p[6]);
        let c3 = self.xor_all(&[p[3], p[4], hi]);
        let c0 = self.xor_all(&[p[0], p[4], hi]);
        [c0, self.xor(p[1], hi), self.xor(p[2], p[6]), c3]
    }

    /// All ones where the nibble is zero.
    fn is_zero4(&mut self, x: [usize; 4]) -> usize {
        let a = self.or(x[0], x[1]);
        let b = self.or(x[2], x[3]);
        let any = self.or(a, b);
        self.not(any)
    }

    /// `a ⊕ (mask ∧ b)` per bit.
    fn xor_masked(&mut self, a: [usize; 4], mask: usize, b: [usize; 4]) -> [usize; 4] {
        core::array::from_fn(|i| {
            let t = self.and(mask, b[i]);
            self.xor(a[i], t)
        })
    }
}

fn nibbles(v: &[usize]) -> ([usize; 4], [usize; 4]) {
    (v[4..8].try_into().unwrap(), v[0..4].try_into().unwrap())
}

/// π: the forward structure.
fn forward() -> (Circuit, Vec<usize>) {
    let mut c = Circuit::new(8);
    let x: Vec<usize> = (0..8).collect();
    let y = c.linear8(&x, &rows_lsb_first(&ALPHA));
    let (l, r) = nibbles(&y);
    let zero = c.is_zero4(r);
    let r_inv = c.sbox4(r, &table4(inv4));
    let p = c.mul4(l, r_inv);
    let from_p = c.sbox4(p, &NU1);
    // r = 0 gives p = 0, so ν1(p) = ν1(0): add ν0(l) ⊕ ν1(0) there.
    let from_l = c.sbox4(l, &table4(|v| NU0[v as usize] ^ NU1[0]));
    let l2 = c.xor_masked(from_p, zero, from_l);
    let f = c.sbox4(l2, &PHI);
    let q = c.mul4(r, f);
    let r2 = c.sbox4(q, &SIGMA);
    let out = c.linear8(&[r2, l2].concat(), &rows_lsb_first(&OMEGA));
    (c, out)
}

/// π⁻¹: r = σ⁻¹(r') ⊙ φ(l')⁻¹ (φ has no zero), then l = ν1⁻¹(l') ⊙ r, or
/// ν0⁻¹(l') where r = 0 (the product is 0 there).
fn inverse() -> (Circuit, Vec<usize>) {
    let inv_table = |t: &[u8; 16]| {
        let mut i = [0u8; 16];
        for (x, &y) in t.iter().enumerate() {
            i[y as usize] = x as u8;
        }
        i
    };
    let mut c = Circuit::new(8);
    let x: Vec<usize> = (0..8).collect();
    let v = c.linear8(&x, &inverse_rows(&rows_lsb_first(&OMEGA)));
    let (l2, r2) = nibbles(&v);
    let t = c.sbox4(r2, &inv_table(&SIGMA));
    let g = c.sbox4(l2, &table4(|v| inv4(PHI[v as usize])));
    let r = c.mul4(t, g);
    let zero = c.is_zero4(r);
    let n1 = c.sbox4(l2, &inv_table(&NU1));
    let n0 = c.sbox4(l2, &inv_table(&NU0));
    let prod = c.mul4(n1, r);
    let l = c.xor_masked(prod, zero, n0);
    let out = c.linear8(&[r, l].concat(), &inverse_rows(&rows_lsb_first(&ALPHA)));
    (c, out)
}

/// Emits `kuznyechik_pi` and `kuznyechik_pi_inv`, each checked against
/// `table` (π) and its inverse on every input first.
pub(super) fn emit(out: &mut String, pi: &[u8; 256]) {
    for x in 0..=255u8 {
        assert_eq!(model(x), pi[x as usize], "the structure is not π at {x}");
    }
    let mut pi_inv = [0u8; 256];
    for (x, &y) in pi.iter().enumerate() {
        pi_inv[y as usize] = x as u8;
    }
    for (name, (c, outs), table) in [("kuznyechik_pi", forward(), pi), ("kuznyechik_pi_inv", inverse(), &pi_inv)] {
        c.check(&outs, table, name);
        c.emit(out, name, &outs, "The S-box on 8 bit planes from its structure (build/kuznyechik_sbox.rs)");
    }
}
