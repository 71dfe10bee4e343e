//! Padding procedures: GOST R 34.13-2015 §4.1.1–4.1.3 and PKCS#7.

use crate::error::{Error, Result};

/// How ECB and CBC fill the last block (`--padding`).
///
/// ```
/// use multiblock::modes::Padding;
/// // GOST R 34.13-2015 procedure 2: a 1 bit, then zeros to the block's end.
/// assert_eq!(Padding::Gost2.pad(b"abc", 8), b"abc\x80\0\0\0\0");
/// // PKCS#7 adds a whole block to a whole block.
/// assert_eq!(Padding::Pkcs7.padded_len(16, 16), 32);
/// for padding in [Padding::Gost2, Padding::Pkcs7] {
///     for len in 0..40 {
///         let data: Vec<u8> = (0..len as u8).collect();
///         assert_eq!(padding.unpad(padding.pad(&data, 16), 16)?, data);
///     }
/// }
/// assert!(Padding::Pkcs7.unpad(vec![1, 2, 3, 0], 4).is_err());
/// # Ok::<(), multiblock::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Padding {
    /// No padding: the input must already fit the mode.
    #[default]
    None,
    /// GOST R 34.13 procedure 1: zero bytes up to a whole block (not
    /// reversible: the receiver must know the length).
    Gost1,
    /// GOST R 34.13 procedure 2: a 1 bit (0x80) then zeros, always added.
    Gost2,
    /// GOST R 34.13 procedure 3: as procedure 2, but only when the last
    /// block is incomplete (not reversible on its own).
    Gost3,
    /// PKCS#7: n bytes of value n, always added.
    Pkcs7,
}

impl Padding {
    /// Every padding, in the order the CLI lists them.
    pub const ALL: [Padding; 5] = [Padding::None, Padding::Gost1, Padding::Gost2, Padding::Gost3, Padding::Pkcs7];

    /// The padding's name in the CLI contract (`"gost2"`).
    pub const fn name(self) -> &'static str {
        match self {
            Padding::None => "none",
            Padding::Gost1 => "gost1",
            Padding::Gost2 => "gost2",
            Padding::Gost3 => "gost3",
            Padding::Pkcs7 => "pkcs7",
        }
    }

    /// Parses a CLI name; an unknown one is a one-line error listing them.
    pub fn from_name(name: &str) -> Result<Padding> {
        Padding::ALL.iter().copied().find(|p| p.name() == name).ok_or_else(|| {
            Error::Param(format!(
                "unknown padding '{}' (expected one of: {})",
                name.escape_debug(),
                Padding::ALL.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
            ))
        })
    }

    /// `data` padded to a multiple of `n` bytes (unchanged for `None`).
    pub fn pad(self, data: &[u8], n: usize) -> Vec<u8> {
        let mut out = vec![0; self.padded_len(data.len(), n)];
        self.pad_into(data, n, &mut out);
        out
    }

    /// The length of `len` bytes padded for an `n`-byte block ([`Padding::pad`]'s).
    pub fn padded_len(self, len: usize, n: usize) -> usize {
        let rem = len % n;
        match self {
            Padding::None => len,
            Padding::Gost1 => len + (n - rem) % n,
            Padding::Gost3 if rem == 0 => len,
            Padding::Gost2 | Padding::Gost3 | Padding::Pkcs7 => len + n - rem,
        }
    }

    /// Writes [`Padding::pad`] of `data` to `out`, which holds exactly
    /// [`Padding::padded_len`] bytes.
    pub fn pad_into(self, data: &[u8], n: usize, out: &mut [u8]) {
        assert_eq!(out.len(), self.padded_len(data.len(), n), "pad_into: the output is not the padded length");
        let (head, tail) = out.split_at_mut(data.len());
        head.copy_from_slice(data);
        let fill = match self {
            Padding::Pkcs7 => tail.len() as u8,
            _ => 0,
        };
        tail.fill(fill);
        if matches!(self, Padding::Gost2 | Padding::Gost3) && !tail.is_empty() {
            tail[0] = 0x80;
        }
    }

    /// Removes the padding that [`Padding::pad`] added, where that can be
    /// told from the data (procedures 1 and 3 cannot: they are kept).
    pub fn unpad(self, mut data: Vec<u8>, n: usize) -> Result<Vec<u8>> {
        let bad = |what: &str| Err(Error::Param(format!("bad {} padding: {what}", self.name())));
        match self {
            Padding::None | Padding::Gost1 | Padding::Gost3 => Ok(data),
            Padding::Gost2 => {
                let tail = data.len().saturating_sub(n);
                match data[tail..].iter().rposition(|&b| b != 0) {
                    Some(i) if data[tail + i] == 0x80 => {
                        data.truncate(tail + i);
                        Ok(data)
                    }
                    _ => bad("expected 0x80 then zero bytes at the end of the last block"),
                }
            }
            Padding::Pkcs7 => {
                let Some(&last) = data.last() else { return bad("empty input") };
                let k = last as usize;
                if k == 0 || k > n || k > data.len() || data[data.len() - k..].iter().any(|&b| b != last) {
                    return bad("the last block does not end in k bytes of value k");
                }
                data.truncate(data.len() - k);
                Ok(data)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reversible_paddings_round_trip_at_every_length() {
        for p in [Padding::Gost2, Padding::Pkcs7] {
            for n in [8, 16, 32, 64] {
                for len in 0..3 * n {
                    let data: Vec<u8> = (0..len as u8).collect();
                    let padded = p.pad(&data, n);
                    assert_eq!(padded.len() % n, 0);
                    assert!(padded.len() > data.len());
                    assert_eq!(p.unpad(padded, n).unwrap(), data, "{p:?} n={n} len={len}");
                }
            }
        }
    }

    #[test]
    fn procedures_1_and_3_pad_only_incomplete_blocks() {
        assert_eq!(Padding::Gost1.pad(&[1, 2, 3], 8), vec![1, 2, 3, 0, 0, 0, 0, 0]);
        assert_eq!(Padding::Gost3.pad(&[1, 2, 3], 8), vec![1, 2, 3, 0x80, 0, 0, 0, 0]);
        assert_eq!(Padding::Gost3.pad(&[1; 8], 8), vec![1; 8]);
        assert_eq!(Padding::Gost2.pad(&[1; 8], 8).len(), 16);
    }

    /// Each padding's bytes by its definition (GOST R 34.13-2015 §4.1.1-4.1.3,
    /// RFC 5652 §6.3), at every length around a few block sizes.
    #[test]
    fn padded_bytes_follow_each_definition() {
        for n in [8, 16, 32, 64] {
            for len in 0..3 * n {
                let data: Vec<u8> = (1..=len).map(|i| i as u8 | 1).collect();
                let rem = len % n;
                for p in Padding::ALL {
                    let mut want = data.clone();
                    match p {
                        Padding::None => {}
                        Padding::Gost1 => want.extend(std::iter::repeat_n(0, (n - rem) % n)),
                        Padding::Gost3 if rem == 0 => {}
                        Padding::Gost2 | Padding::Gost3 => {
                            want.push(0x80);
                            want.extend(std::iter::repeat_n(0, n - rem - 1));
                        }
                        Padding::Pkcs7 => want.extend(std::iter::repeat_n((n - rem) as u8, n - rem)),
                    }
                    assert_eq!(p.padded_len(len, n), want.len(), "{p:?} n={n} len={len}");
                    assert_eq!(p.pad(&data, n), want, "{p:?} n={n} len={len}");
                }
            }
        }
    }

    #[test]
    fn unknown_padding_names_stay_on_one_line() {
        let msg = Padding::from_name("pkcs7\nx").unwrap_err().to_string();
        assert!(!msg.contains('\n') && msg.contains("'pkcs7\\nx'"), "{msg:?}");
    }

    #[test]
    fn bad_padding_is_an_error() {
        assert!(Padding::Pkcs7.unpad(vec![1, 2, 3, 0], 4).is_err());
        assert!(Padding::Pkcs7.unpad(vec![], 4).is_err());
        assert!(Padding::Gost2.unpad(vec![0; 8], 8).is_err());
        assert!(Padding::Gost2.unpad(vec![1, 0x80, 0, 1], 4).is_err());
    }
}
