//! Hex text in and out, with errors that say where the text went wrong.

/// Decodes hex text, ignoring whitespace. `what` names the input in errors.
pub fn decode(text: &str, what: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    out.try_reserve_exact(text.len() / 2)
        .map_err(|_| format!("cannot allocate {} bytes for {what}: not enough memory", text.len() / 2))?;
    let mut high: Option<u8> = None;
    for (pos, c) in text.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        let v = c.to_digit(16).ok_or_else(|| {
            format!("{what} is not hex: character {c:?} at offset {pos} (expected 0-9, a-f)")
        })? as u8;
        match high.take() {
            None => high = Some(v),
            Some(h) => out.push(h << 4 | v),
        }
    }
    if high.is_some() {
        return Err(format!(
            "{what} has an odd number of hex digits ({}); expected two digits per byte",
            out.len() * 2 + 1
        ));
    }
    Ok(out)
}

/// Lowercase hex.
pub fn encode(bytes: &[u8]) -> String {
    let mut v = Vec::with_capacity(bytes.len() * 2);
    encode_into(bytes, &mut v);
    String::from_utf8(v).expect("hex digits are ASCII")
}

/// Appends the lowercase hex of `bytes` to `out` (the caller reserves).
pub fn encode_into(bytes: &[u8], out: &mut Vec<u8>) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize]);
        out.push(DIGITS[(b & 15) as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_whitespace() {
        assert_eq!(decode("00 ff\n1A", "x").unwrap(), vec![0, 255, 0x1a]);
        assert_eq!(encode(&[0, 255, 0x1a]), "00ff1a");
        assert_eq!(decode("", "x").unwrap(), Vec::<u8>::new());
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(decode("abc", "--key").unwrap_err().contains("odd number"));
        let e = decode("0g", "--key").unwrap_err();
        assert!(e.contains("not hex") && e.contains("offset 1"), "{e}");
    }
}
