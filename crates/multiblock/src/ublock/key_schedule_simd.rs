//! The uBlock key schedule (Wu et al. 2019, §1.5, Algorithm 3;
//! key_schedule.rs is the reference) in registers, for the keys of all
//! slots of a group at once (the "parallel key expansion" of Gao et al.
//! 2024, §2.6.1), on any machine.
//!
//! The k-bit register is nibble-spread like a block (groups.rs), one key
//! per slot, so RK^t comes out in the blocks' register form: the multi-key
//! path (avx2_multi.rs) puts one key per slot; a single key runs in plain
//! form in one slot of an xmm ([`schedule`]), packed afterwards for the
//! packed kernels. PK is one `pshufb`; S and T
//! (×2 in GF(2⁴)) are [`NibbleMap`]s; RC_i is pre-spread. Constant time:
//! no table in memory is indexed by key bits.

use super::groups::Batch;
use super::layouts::TRACKED;
use super::masks::{pk16, rc_nibbles};
use super::rounds::{Groups, KeyRegs, NibbleMap};
use super::constants::{S, T};
use super::variant::{Keys, Variant};
use crate::simd::{Job, Simd};
use zeroize::Zeroize;

/// RC_i on the nibbles of K0: plain, and in both nibbles of a byte.
static RC: [[[u8; 16]; 24]; 2] = [rc_nibbles(1), rc_nibbles(0x11)];
static PK: [[u8; 16]; 3] = [pk16(Variant::U128_128), pk16(Variant::U128_256), pk16(Variant::U256_256)];

/// Receives register `reg` of RK^i.
pub(crate) trait KeySink<M: Simd> {
    fn put(&mut self, m: M, i: usize, reg: usize, x: M::V);
}

/// Algorithm 3 on the keys in `key_buf` (one per slot of group 0, each
/// `v.key_bytes()` long, one after another): every register of RK^0..RK^r
/// into `sink`, [X0, X1] or [X0a, X0b, X1a, X1b].
#[inline(always)]
pub(crate) fn expand<M: Simd, const PACKED: bool>(m: M, v: Variant, key_buf: &mut [u8], sink: &mut impl KeySink<M>) {
    let low = m.splat8(0x0f);
    let s = NibbleMap::<M, PACKED>::new(m, &S);
    let t = NibbleMap::<M, PACKED>::new(m, &T);
    let pk = m.splat128(&PK[v as usize]);
    let rc = &RC[usize::from(PACKED)];
    let n_regs = v.block_bytes() / 8; // registers per round key: 2 or 4
    if v.key_bytes() == 16 {
        // Register (A, B) = (K0‖K1, K2‖K3), 8 nibbles each quarter.
        let k = Batch::<1, PACKED> { data: key_buf }.load(m, 0, low);
        let (mut a, mut b) = (k[0], k[1]);
        sink.put(m, 0, 0, a);
        sink.put(m, 0, 1, b);
        for i in 1..=v.rounds() {
            let a1 = m.shuffle8(a, pk); // K0'‖K1' = PK1(K0‖K1)
            let x = m.xor(a1, m.splat128(&rc[i - 1])); // RC only on K0'
            // K2 ^= S(K0' ⊕ RC) (words 0, 1), K3 ^= T(K1') (words 2, 3).
            let u = m.blend32::<0b1100>(s.apply(m, x), t.apply(m, x));
            a = m.xor(b, u); // K2‖K3
            b = m.shuffle32::<0x4e>(a1); // K1'‖K0'
            sink.put(m, i, 0, a);
            sink.put(m, i, 1, b);
        }
    } else {
        // Registers K0..K3, 16 nibbles each.
        let mut k = Batch::<2, PACKED> { data: key_buf }.load(m, 0, low);
        for (reg, &x) in k.iter().enumerate().take(n_regs) {
            sink.put(m, 0, reg, x);
        }
        for i in 1..=v.rounds() {
            let k0 = m.shuffle8(k[0], pk); // PK on K0
            let k1 = m.shuffle32::<0x4e>(k[1]); // PK on K1: swap its 8-nibble halves
            let k2 = m.xor(k[2], s.apply(m, m.xor(k0, m.splat128(&rc[i - 1]))));
            let k3 = m.xor(k[3], t.apply(m, k1));
            k = [k2, k3, k1, k0];
            for (reg, &x) in k.iter().enumerate().take(n_regs) {
                sink.put(m, i, reg, x);
            }
        }
    }
}

/// Round-key registers of both directions ([`KeyRegs`] each), S bytes
/// apart and 64-byte aligned, wiped on drop.
pub(crate) struct DirKeys<const S: usize> {
    store: Box<[u8]>,
    /// Where the aligned part starts.
    base: usize,
    /// Bytes per direction.
    per_dir: usize,
    regs: usize,
    rounds: usize,
}

impl<const S: usize> DirKeys<S> {
    /// All zero: `regs` registers per round key.
    pub(crate) fn zeroed(rounds: usize, regs: usize) -> Self {
        let per_dir = (rounds + 1) * regs * S;
        let store = vec![0u8; 2 * per_dir + 63].into_boxed_slice();
        let base = (64 - store.as_ptr() as usize % 64) % 64;
        DirKeys { store, base, per_dir, regs, rounds }
    }

    /// Encryption's (`enc`) or decryption's keys.
    #[inline(always)]
    pub(crate) fn get(&self, enc: bool) -> KeyRegs<'_, S> {
        let at = self.base + usize::from(!enc) * self.per_dir;
        KeyRegs { bytes: &self.store[at..at + self.per_dir], regs: self.regs, count: self.rounds + 1 }
    }

    /// Register i of RK^t (execution order) of a direction, to write.
    #[inline(always)]
    pub(crate) fn reg_mut(&mut self, enc: bool, t: usize, i: usize) -> &mut [u8] {
        let at = self.base + usize::from(!enc) * self.per_dir + (t * self.regs + i) * S;
        &mut self.store[at..at + S]
    }

    /// A [`Schedule`] that fills both directions.
    pub(crate) fn schedule(&mut self, tracked: bool, pack: bool) -> Schedule<'_, S> {
        let (regs, rounds) = (self.regs, self.rounds);
        let both = &mut self.store[self.base..self.base + 2 * self.per_dir];
        let (enc, dec) = both.split_at_mut(self.per_dir);
        Schedule { enc: Some(enc), dec: Some(dec), regs, rounds, tracked, pack }
    }

    pub(crate) fn rounds(&self) -> usize {
        self.rounds
    }
}

impl<const S: usize> Drop for DirKeys<S> {
    /// One memset (`zeroize` on a byte slice writes byte by byte, 30 times
    /// slower at 12 KiB); `black_box` makes the wiped bytes observed, so the
    /// stores cannot be dropped as dead.
    fn drop(&mut self) {
        self.store.fill(0);
        core::hint::black_box(&mut self.store);
    }
}

/// Writes the registers of RK^i into [`DirKeys`] in execution order for
/// encryption and/or decryption, as the rounds read them: for packed
/// n = 128 gathered into the tracked coordinates of the round that uses
/// them (masks.rs `tracked_masks`). A register narrower than S bytes is
/// stored in every M::BYTES of the S (a single key's plain schedule on
/// xmm serving ymm and zmm).
pub(crate) struct Schedule<'a, const S: usize> {
    /// [`KeyRegs`] bytes of each direction.
    pub(crate) enc: Option<&'a mut [u8]>,
    pub(crate) dec: Option<&'a mut [u8]>,
    pub(crate) regs: usize,
    pub(crate) rounds: usize,
    pub(crate) tracked: bool,
    /// The registers come in plain form and are stored packed: x | x << 4
    /// (a plain register's high nibbles are zero, so nothing crosses bytes).
    pub(crate) pack: bool,
}

impl<'a, const S: usize> Schedule<'a, S> {
    /// Register `x` at byte `at` of each copy.
    #[inline(always)]
    fn store<M: Simd>(m: M, x: M::V, out: &mut [u8], at: usize) {
        for q in (0..S).step_by(M::BYTES) {
            m.store(x, &mut out[at + q..]);
        }
    }
}

impl<M: Simd, const S: usize> KeySink<M> for Schedule<'_, S> {
    #[inline(always)]
    fn put(&mut self, m: M, i: usize, reg: usize, x: M::V) {
        let (r, regs) = (self.rounds, self.regs);
        let x = if self.pack { m.or(x, m.shl16::<4>(x)) } else { x };
        if let Some(enc) = self.enc.as_deref_mut() {
            let y = if self.tracked { m.shuffle8(x, m.load(&TRACKED[0].pinv[i].0)) } else { x };
            Self::store(m, y, enc, (i * regs + reg) * S);
        }
        if let Some(dec) = self.dec.as_deref_mut() {
            let y = if self.tracked { m.shuffle8(x, m.load(&TRACKED[1].pinv[r - i].0)) } else { x };
            Self::store(m, y, dec, ((r - i) * regs + reg) * S);
        }
    }
}

/// The key schedule of one key for both directions in plain form on a
/// 16-byte machine, run inside its instruction set.
struct KeyJob<'a, X, const PACKED: bool, const S: usize> {
    x: X,
    v: Variant,
    key_buf: &'a mut [u8],
    out: &'a mut DirKeys<S>,
}

impl<X: Simd, const PACKED: bool, const S: usize> Job for KeyJob<'_, X, PACKED, S> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let KeyJob { x, v, key_buf, out } = self;
        let tracked = PACKED && v.block_bytes() == 16;
        expand::<X, false>(x, v, key_buf, &mut out.schedule(tracked, PACKED));
    }
}

/// Both directions' round keys of `keys`, packed (the key in both nibbles
/// of every lane of S bytes; tracked coordinates for n = 128) or plain
/// (S = 16). The schedule runs once in plain form on 16-byte machine `x`
/// (the same level's xmm for the wide backends): one slot is all a single
/// key needs, and the plain S-box is one `pshufb` where the packed one is
/// five, on a chain of dependent rounds (measured on Zen 4, a 64-byte
/// uBlock-128/128 message with key setup on avx2: 767 → ~680 cycles).
pub(crate) fn schedule<X: Simd, const PACKED: bool, const S: usize>(x: X, keys: &Keys) -> DirKeys<S> {
    assert!(X::BYTES == 16 && S.is_multiple_of(16));
    let v = keys.variant;
    let mut out = DirKeys::zeroed(v.rounds(), v.block_bytes() / 8);
    let mut key_buf = [0u8; 32];
    let key_buf = &mut key_buf[..v.key_bytes()];
    key_buf.copy_from_slice(keys.key());
    x.vectorize(KeyJob::<X, PACKED, S> { x, v, key_buf: &mut *key_buf, out: &mut out });
    key_buf.zeroize();
    out
}

#[cfg(test)]
mod tests {
    use super::super::key_schedule;
    use super::super::masks::spread;
    use super::*;
    use crate::simd::emu::Emu;
    use crate::test_rng::Rng;

    /// Nibble `j` of the key of `slot` in register `x` (LANES lanes), read
    /// back from the packed or plain form.
    fn slot_nibble(x: &[u8], lanes: usize, slot: usize, j: usize, packed: bool) -> u8 {
        let (lane, shift) = (slot % lanes, 4 * (slot / lanes));
        let b = x[16 * lane + j];
        if packed {
            (b >> shift) & 0xf
        } else {
            b
        }
    }

    /// The register key schedule equals the reference one in every slot, at
    /// every width, packed and plain (plain: no tracked gather).
    fn check<const N: usize, const PACKED: bool>() {
        let mut rng = Rng(0x0b1c_4e75 + N as u64);
        let lanes = N / 16;
        let slots = if PACKED { 2 * lanes } else { lanes };
        for v in [Variant::U128_128, Variant::U128_256, Variant::U256_256] {
            for _ in 0..10 {
                let kb = v.key_bytes();
                let mut keys = vec![0u8; slots * 32];
                keys.iter_mut().for_each(|b| *b = rng.next() as u8);
                let mut buf = keys.clone();
                let mut out = DirKeys::<N>::zeroed(v.rounds(), v.block_bytes() / 8);
                let mut sink = out.schedule(false, false);
                expand::<Emu<N>, PACKED>(Emu, v, &mut buf[..slots * kb], &mut sink);
                let out = out.get(true);
                for slot in 0..slots {
                    let want = key_schedule::expand(v, &keys[slot * kb..(slot + 1) * kb]);
                    for t in 0..=v.rounds() {
                        let mut n = [0u8; 64];
                        spread(&want[t][..v.block_bytes()], &mut n);
                        for (reg, nib) in n[..2 * v.block_bytes()].chunks_exact(16).enumerate() {
                            for (j, &w) in nib.iter().enumerate() {
                                let got = slot_nibble(out.reg(t, reg), lanes, slot, j, PACKED);
                                assert_eq!(got, w, "{v:?} N {N} slot {slot} RK{t} reg {reg} nibble {j}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn register_key_schedule_equals_reference() {
        check::<16, true>();
        check::<32, true>();
        check::<64, true>();
        check::<16, false>();
    }

    /// One key's schedule in plain form on 16 bytes, packed and repeated
    /// per lane ([`schedule`]), equals the register schedule run in packed
    /// form with the key in every slot of the full width, both directions,
    /// tracked as the kernels read them.
    fn single_key_equals_all_slots<const N: usize>() {
        let mut rng = Rng(0x0b1c_5e70 + N as u64);
        for v in [Variant::U128_128, Variant::U128_256, Variant::U256_256] {
            let keys = Keys::new(v, &rng.bytes(v.key_bytes()));
            let mut want = DirKeys::<N>::zeroed(v.rounds(), v.block_bytes() / 8);
            let mut buf: Vec<u8> = (0..2 * N / 16).flat_map(|_| keys.key().to_vec()).collect();
            expand::<Emu<N>, true>(Emu, v, &mut buf, &mut want.schedule(v.block_bytes() == 16, false));
            let got = schedule::<Emu<16>, true, N>(Emu, &keys);
            for enc in [true, false] {
                assert_eq!(got.get(enc).bytes, want.get(enc).bytes, "{v:?} N {N} enc {enc}");
            }
        }
    }

    #[test]
    fn single_key_schedule_equals_all_slots() {
        single_key_equals_all_slots::<16>();
        single_key_equals_all_slots::<32>();
        single_key_equals_all_slots::<64>();
    }
}
