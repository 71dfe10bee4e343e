//! `hash --check LIST...`: reads `DIGEST  FILE` lines (as `hash` and
//! sha256sum print them; ` *` for the two spaces and sha256sum's `\`
//! escaping of names holding a newline or a backslash are understood) and
//! hashes every listed file, printing `FILE: OK`, `FILE: FAILED`, or
//! `FILE: FAILED open or read`, as sha256sum does.
//!
//! Exit status: 0 when every listed file matched; 1 when a digest differs
//! or a listed file cannot be read; 2 when a line is not a digest line of
//! this hash, a list cannot be read, or a list holds no digest line (bad
//! input outranks a mismatch). `--quiet` leaves out the `OK` lines,
//! `--status` every line on stdout and the final count.

use super::problems::Problems;
use crate::feed::inputs;
use crate::args::HashArgs;
use crate::feed::Feeder;
use crate::os_error::plain;
use crate::Failure;
use multiblock::hash::Hasher;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// A line longer than this is not a digest line (and is not held in memory).
const MAX_LINE: u64 = 64 << 10;

/// What the checks found.
#[derive(Default)]
struct Tally {
    checked: usize,
    mismatched: usize,
    unreadable: usize,
    /// Malformed lines, unreadable lists, lists without a digest line.
    bad_input: usize,
}

pub fn run(args: &HashArgs, hasher: &mut Hasher) -> Result<(), Failure> {
    let mut feeder = Feeder::new();
    let mut problems = Problems::default();
    let mut tally = Tally::default();
    for list in inputs(&args.files) {
        let mut reader = match open_list(&list, &mut feeder) {
            Ok(r) => r,
            Err(msg) => {
                tally.bad_input += 1;
                problems.report(msg);
                continue;
            }
        };
        let (mut digest_lines, mut malformed) = (0, 0);
        let mut unreadable = false;
        let mut number = 0;
        loop {
            number += 1;
            let line = match next_line(&mut reader) {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => {
                    unreadable = true;
                    tally.bad_input += 1;
                    problems.report(format!("cannot read {}: {}", list.display(), plain(&e)));
                    break;
                }
            };
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let Some((want, name)) = parse(&line, hasher.digest_bytes()) else {
                malformed += 1;
                tally.bad_input += 1;
                problems.report(format!(
                    "{}:{number}: not a digest line of {} (expected {} hex digits, two spaces and a file name)",
                    list.display(),
                    hasher.id(),
                    hasher.digest_bytes() * 2
                ));
                continue;
            };
            digest_lines += 1;
            tally.checked += 1;
            let verdict = match feeder.feed(&name, &mut |piece| hasher.update(piece)) {
                Ok(()) if hasher.finalize_reset() == want => "OK",
                Ok(()) => {
                    tally.mismatched += 1;
                    "FAILED"
                }
                Err(msg) => {
                    hasher.reset();
                    tally.unreadable += 1;
                    problems.report(msg);
                    "FAILED open or read"
                }
            };
            if !args.status && (verdict != "OK" || !args.quiet) {
                crate::out::text(&verdict_line(&name, verdict)).map_err(Failure::Input)?;
            }
        }
        // A list that could not be read has its one line already.
        if digest_lines == 0 && malformed == 0 && !unreadable {
            tally.bad_input += 1;
            problems.report(format!("{}: no digest lines of {} found", list.display(), hasher.id()));
        }
    }
    finish(tally, problems, args.status)
}

/// The exit status and its one final line.
fn finish(tally: Tally, mut problems: Problems, status_only: bool) -> Result<(), Failure> {
    let code = if tally.bad_input > 0 {
        2
    } else if tally.mismatched + tally.unreadable > 0 {
        1
    } else {
        return Ok(());
    };
    if status_only {
        problems.flush();
        return Err(Failure::Quiet(code));
    }
    let msg = if problems.count() == 1 && tally.mismatched == 0 {
        problems.summary(|_| String::new()).unwrap_or_default()
    } else {
        problems.flush();
        let mut parts = Vec::new();
        if tally.mismatched > 0 {
            parts.push(format!("{} of {} computed digests did NOT match", tally.mismatched, tally.checked));
        }
        if tally.unreadable > 0 {
            parts.push(format!("{} listed files could not be read", tally.unreadable));
        }
        if tally.bad_input > 0 {
            parts.push(format!(
                "{} bad lines or lists (lines that are not digest lines, lists that cannot be read or hold none)",
                tally.bad_input
            ));
        }
        parts.join("; ")
    };
    Err(if code == 2 { Failure::Input(msg) } else { Failure::Auth(msg) })
}

/// A reader of the list `path` (`-`: stdin, which a later `-` then finds at its end).
fn open_list(path: &Path, feeder: &mut Feeder) -> Result<Box<dyn BufRead>, String> {
    if path.as_os_str() == "-" {
        crate::std_fds::stdin_open()?;
        if feeder.take_stdin() {
            return Ok(Box::new(std::io::empty()));
        }
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    let file = File::open(path).map_err(|e| format!("cannot read {}: {}", path.display(), plain(&e)))?;
    Ok(Box::new(BufReader::new(file)))
}

/// The next line without its `\n` (and `\r`); a line longer than
/// [`MAX_LINE`] comes back cut short, the rest of it skipped.
fn next_line(reader: &mut Box<dyn BufRead>) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    if reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut line)? == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    } else if line.len() as u64 == MAX_LINE {
        let mut rest = Vec::new();
        while reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut rest)? > 0 && rest.last() != Some(&b'\n') {
            rest.clear();
        }
    }
    Ok(Some(line))
}

/// `DIGEST  NAME` (or `DIGEST *NAME`; a leading `\`: the name is escaped
/// with `\\` and `\n`) with a digest of `digest_bytes`; `None` for anything else.
fn parse(line: &[u8], digest_bytes: usize) -> Option<(Vec<u8>, PathBuf)> {
    let line = line.trim_ascii_start();
    let (escaped, line) = match line.strip_prefix(b"\\") {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let digits = digest_bytes * 2;
    if line.len() < digits + 3 || !(line[digits..].starts_with(b"  ") || line[digits..].starts_with(b" *")) {
        return None;
    }
    let text = std::str::from_utf8(&line[..digits]).ok()?;
    let digest = crate::hex::decode(text, "").ok().filter(|d| d.len() == digest_bytes)?;
    let name = &line[digits + 2..];
    let name = if escaped { unescape(name)? } else { name.to_vec() };
    Some((digest, PathBuf::from(OsStr::from_bytes(&name))))
}

/// sha256sum's escaping undone: `\\` is `\`, `\n` a newline, any other `\` an error.
fn unescape(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len());
    let mut bytes = name.iter();
    while let Some(&b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next() {
            Some(b'\\') => out.push(b'\\'),
            Some(b'n') => out.push(b'\n'),
            _ => return None,
        }
    }
    Some(out)
}

/// `NAME: VERDICT\n`, escaped as the digest lines are.
fn verdict_line(path: &Path, verdict: &str) -> String {
    let name = path.to_string_lossy();
    if name.contains(['\n', '\\']) {
        format!("\\{}: {verdict}\n", name.replace('\\', "\\\\").replace('\n', "\\n"))
    } else {
        format!("{name}: {verdict}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_lines_parse_and_others_do_not() {
        let d = "00ff".repeat(16);
        assert_eq!(parse(format!("{d}  a b").as_bytes(), 32), Some(([0u8, 0xff].repeat(16), PathBuf::from("a b"))));
        assert_eq!(parse(format!("{d} *bin").as_bytes(), 32).unwrap().1, PathBuf::from("bin"));
        assert_eq!(parse(format!("\\{d}  a\\nb\\\\c").as_bytes(), 32).unwrap().1, PathBuf::from("a\nb\\c"));
        for bad in [format!("{d} a"), format!("{d}  "), format!("{d}0  a"), format!("{}  a", &d[..62]), format!("\\{d}  a\\x")] {
            assert_eq!(parse(bad.as_bytes(), 32), None, "{bad}");
        }
        assert_eq!(parse(format!("{}zz  a", &d[..62]).as_bytes(), 32), None);
    }
}
