//! Sizes the user controls never abort the process: out of range is exit 2
//! and one line on stderr.

use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_multiblock-bench")).args(args).env_remove("MULTIBLOCK_BACKEND").stdin(Stdio::null()).output().unwrap()
}

/// An out-of-range `--bytes` is exit status 2 with one line on stderr that
/// names the option, never a panic or a failed allocation.
#[test]
fn bytes_is_bounded() {
    for v in ["18446744073709551615", "99999999999999", "1073741825", "0", "-5"] {
        let o = run(&["--bytes", v, "--cipher", "magma"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!((o.status.code(), err.trim_end().lines().count()), (Some(2), 1), "--bytes {v}: {err}");
        assert!(err.contains("--bytes") && !err.contains("panicked") && !err.contains("memory allocation"), "{v}: {err}");
    }
}
