//! Reading the input and writing the output without ever leaving a partial
//! output file: `--out` is written to a temporary file beside it and renamed
//! into place only when everything succeeded.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, String> {
    let mut data = Vec::new();
    match path {
        Some(p) => {
            data = fs::read(p).map_err(|e| format!("cannot read --in {}: {}", p.display(), plain(&e)))?
        }
        None => {
            io::stdin().lock().read_to_end(&mut data).map_err(|e| format!("cannot read stdin: {}", plain(&e)))?;
        }
    }
    Ok(data)
}

/// Writes `data` to `path` atomically, or to stdout.
pub fn write_output(path: Option<&Path>, data: &[u8]) -> Result<(), String> {
    match path {
        None => {
            let mut out = io::stdout().lock();
            out.write_all(data).and_then(|_| out.flush()).map_err(|e| format!("cannot write stdout: {}", plain(&e)))
        }
        Some(p) => write_atomically(p, data),
    }
}

pub fn temp_path(p: &Path) -> PathBuf {
    let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    p.with_file_name(format!(".{name}.multiblock-{}.tmp", std::process::id()))
}

fn write_atomically(p: &Path, data: &[u8]) -> Result<(), String> {
    let tmp = temp_path(p);
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        fs::rename(&tmp, p)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("cannot write --out {}: {}", p.display(), plain(&e))
    })
}

/// An io::Error as a short phrase without the "(os error N)" suffix.
pub fn plain(e: &io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}
