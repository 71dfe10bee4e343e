//! Where the key comes from: `--key HEX` (visible to every user in `ps`
//! and kept in shell history), or, recommended, `--key-file PATH`,
//! `--key-env NAME` or `--key-fd N`. A file or descriptor holding exactly
//! the cipher's key length is the raw key; anything else is read as hex
//! text with whitespace ignored (so `xxd -p` output and a trailing newline
//! work). Every copy of the key is wiped when dropped.

use crate::args::{CryptArgs, KeyArgs};
use crate::hex;
use crate::os_error::plain;
use std::fs::File;
use std::io::Read;
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use zeroize::Zeroizing;

/// More than any key in hex with generous whitespace: a longer source is
/// refused rather than read without end (`--key-file /dev/zero`).
const MAX_SOURCE_BYTES: u64 = 4096;

/// When a key file or descriptor holds the raw key rather than hex text.
#[derive(Clone, Copy)]
pub enum Raw {
    /// When it is exactly this many bytes long (a cipher's key).
    Exactly(usize),
    /// Unless it is hex text (hex digits in pairs, whitespace): the keys of
    /// any length of the MACs over a hash, where a length cannot tell.
    UnlessHex,
}

/// The key of `args`, for a cipher whose key is `key_bytes` long (the
/// cipher checks the length itself; this only decides raw or hex).
pub fn load(args: &CryptArgs, key_bytes: usize) -> Result<Zeroizing<Vec<u8>>, String> {
    load_as(args, Raw::Exactly(key_bytes))
}

/// The key of `args` for a command whose data comes from stdin unless
/// `--in` is given (so `--key-fd 0` needs `--in`).
pub fn load_as(args: &CryptArgs, raw: Raw) -> Result<Zeroizing<Vec<u8>>, String> {
    load_from(&args.keys, raw, args.input.is_none())
}

/// The key of `args`, a file's or descriptor's bytes read as `raw` says;
/// `stdin_is_input`: stdin carries the data, so it cannot carry the key.
pub fn load_from(args: &KeyArgs, raw: Raw, stdin_is_input: bool) -> Result<Zeroizing<Vec<u8>>, String> {
    if let Some(text) = &args.key {
        return hex::decode(text, "--key").map(Zeroizing::new);
    }
    if let Some(name) = &args.key_env {
        let what = format!("--key-env {name}");
        let value = std::env::var_os(name).ok_or_else(|| format!("{what}: no such environment variable"))?;
        let value = Zeroizing::new(value.into_string().map_err(|_| format!("{what} is not hex text"))?);
        return hex::decode(&value, &what).map(Zeroizing::new);
    }
    if let Some(path) = &args.key_file {
        let what = format!("--key-file {}", path.display());
        let mut file = File::open(path).map_err(|e| format!("cannot read {what}: {}", plain(&e)))?;
        return from_source(&mut file, raw, &what);
    }
    if let Some(fd) = args.key_fd {
        let what = format!("--key-fd {fd}");
        if fd < 0 {
            return Err(format!("{what} is not a file descriptor"));
        }
        if fd == 0 && stdin_is_input {
            return Err(format!("{what} is stdin, which is also the input: give the input with --in"));
        }
        if fd <= 2 && fd != 0 {
            return Err(format!("{what} is an output stream (use a descriptor of 3 or more, e.g. 3<keyfile)"));
        }
        // SAFETY: `fcntl(F_GETFD)` first proves the descriptor is open. It
        // is read, never closed (ManuallyDrop): closing 0 would let a file
        // opened later take stdin's number (see std_fds).
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
            return Err(format!("{what} is not an open file descriptor"));
        }
        let mut file = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
        return from_source(&mut file, raw, &what);
    }
    Err("no key: give it with --key-file PATH, --key-env NAME, --key-fd N or --key HEX".to_string())
}

/// Raw bytes or hex text, as `raw` says.
fn from_source(file: &mut File, raw_when: Raw, what: &str) -> Result<Zeroizing<Vec<u8>>, String> {
    let mut raw = Zeroizing::new(Vec::new());
    file.take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut raw)
        .map_err(|e| format!("cannot read {what}: {}", plain(&e)))?;
    if raw.len() as u64 > MAX_SOURCE_BYTES {
        return Err(format!("{what} is longer than {MAX_SOURCE_BYTES} bytes: not a key"));
    }
    let key_bytes = match raw_when {
        Raw::Exactly(n) if raw.len() == n => return Ok(raw),
        Raw::Exactly(n) => n,
        Raw::UnlessHex => {
            let digits = raw.iter().filter(|b| b.is_ascii_hexdigit()).count();
            let hex = raw.iter().all(|b| b.is_ascii_hexdigit() || b.is_ascii_whitespace()) && digits > 0 && digits % 2 == 0;
            if !hex {
                return Ok(raw);
            }
            0
        }
    };
    let text = std::str::from_utf8(&raw).map_err(|_| {
        format!("{what} is neither the {key_bytes}-byte raw key nor hex text ({} bytes)", raw.len())
    })?;
    hex::decode(text, what).map(Zeroizing::new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn from_bytes(b: &[u8], key_bytes: usize) -> Result<Vec<u8>, String> {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(b).unwrap();
        use std::io::Seek;
        f.rewind().unwrap();
        from_source(&mut f, Raw::Exactly(key_bytes), "--key-file k").map(|k| k.to_vec())
    }

    #[test]
    fn raw_when_exactly_the_key_length_else_hex() {
        assert_eq!(from_bytes(b"0123456789abcdef", 16).unwrap(), b"0123456789abcdef");
        assert_eq!(from_bytes(b"0011 2233\n", 4).unwrap(), vec![0, 0x11, 0x22, 0x33]);
        assert!(from_bytes(b"\xff\xfe", 16).unwrap_err().contains("neither"));
        assert!(from_bytes(b"zz\n", 16).unwrap_err().contains("not hex"));
        assert!(from_bytes(&[b'0'; 5000], 16).unwrap_err().contains("longer than"));
    }

    #[test]
    fn any_length_keys_are_hex_only_when_they_are_hex_text() {
        let read = |b: &[u8]| {
            let mut f = tempfile::tempfile().unwrap();
            f.write_all(b).unwrap();
            use std::io::Seek;
            f.rewind().unwrap();
            from_source(&mut f, Raw::UnlessHex, "--key-file k").map(|k| k.to_vec())
        };
        let hex64 = "00".repeat(64);
        assert_eq!(read(hex64.as_bytes()).unwrap(), vec![0; 64]);
        assert_eq!(read(b"0011 2233\n").unwrap(), vec![0, 0x11, 0x22, 0x33]);
        assert_eq!(read(b"abc").unwrap(), b"abc");
        assert_eq!(read(b"a secret key\n").unwrap(), b"a secret key\n");
        assert_eq!(read(b"\xff\x00").unwrap(), vec![0xff, 0]);
        assert_eq!(read(b"").unwrap(), Vec::<u8>::new());
    }
}
