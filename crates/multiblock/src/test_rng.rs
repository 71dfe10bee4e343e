//! The unit tests' deterministic generator (xorshift64), so that a failure
//! reproduces from its seed. (Integration tests have their own in
//! tests/common.)

pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Random pieces of `data` (empty ones included, and one at the end),
/// short and long, for the streaming tests.
pub(crate) fn split<'d>(rng: &mut Rng, data: &'d [u8]) -> Vec<&'d [u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let step = match rng.below(4) {
            0 => 0,
            1 => rng.below(40),
            2 => rng.below(1000),
            _ => rng.below(data.len() - at + 1),
        };
        let end = (at + step).min(data.len());
        out.push(&data[at..end]);
        at = end;
    }
    out.push(&data[data.len()..]);
    out
}
