//! Sizes the user controls never abort the process: out of range is exit 2
//! and one line on stderr.

use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_multiblock-bench")).args(args).env_remove("MULTIBLOCK_BACKEND").stdin(Stdio::null()).output().unwrap()
}

/// Exit status 2, one line on stderr containing `word`, no panic.
fn fails(o: &Output, word: &str, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: not one line: {err}");
    assert!(err.contains(word), "{what}: '{err}' lacks '{word}'");
    assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{what}: {err}");
}

#[test]
fn bytes_is_bounded() {
    for v in ["18446744073709551615", "99999999999999", "1073741825", "0", "-5"] {
        fails(&run(&["--bytes", v, "--cipher", "magma"]), "--bytes", v);
    }
}
