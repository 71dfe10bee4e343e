//! Why a command failed, which decides the exit status.

#[derive(Debug)]
pub enum Failure {
    /// Bad input, bad arguments or an I/O failure: exit 2.
    Input(String),
    /// A wrong authentication tag, a digest that does not match: exit 1.
    Auth(String),
    /// An exit status alone, everything already said (`hash --check --status`).
    Quiet(u8),
}

impl Failure {
    pub fn input(e: impl std::fmt::Display) -> Failure {
        Failure::Input(e.to_string())
    }

    /// The library's error: a wrong tag is an authentication failure (exit
    /// 1), anything else bad input (exit 2).
    pub fn library(e: multiblock::Error) -> Failure {
        match e {
            multiblock::Error::Authentication => Failure::Auth(e.to_string()),
            other => Failure::Input(other.to_string()),
        }
    }
}

/// A count of bytes as a message says it: "1 byte", "16 bytes".
pub fn byte_count(n: usize) -> String {
    if n == 1 {
        "1 byte".to_string()
    } else {
        format!("{n} bytes")
    }
}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure::Input(s)
    }
}
