//! I/O errors as short phrases for the one-line messages.

/// An io::Error without the "(os error N)" suffix.
pub fn plain(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}
