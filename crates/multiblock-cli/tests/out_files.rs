//! `--out` as a careful Unix tool writes it: no
//! symlink planted at the temporary name is ever followed, special files
//! are written in place and not replaced, the mode and owner of the file
//! replaced are kept (0600 for a new one), and a signal mid-stream leaves
//! neither the temporary file nor the output.

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const K32: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const BIN: &str = env!("CARGO_BIN_EXE_multiblock");
const CTR: [&str; 8] = ["--cipher", "kuznyechik", "--mode", "ctr", "--key", K32, "--iv", "0011223344556677"];

fn cmd(verb: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.arg(verb).args(CTR).args(extra).env_remove("MULTIBLOCK_BACKEND").env("MULTIBLOCK_BUFFER_BYTES", "4096");
    c
}

/// CTR of `data` to stdout: what every `--out` below must hold.
fn expected(data: &[u8]) -> Vec<u8> {
    let mut c = cmd("encrypt", &[]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    c.stdin.take().unwrap().write_all(data).unwrap();
    let o = c.wait_with_output().unwrap();
    assert!(o.status.success());
    o.stdout
}

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + 7) as u8).collect()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

fn spawn_with_stdin(verb: &str, out: &Path) -> Child {
    cmd(verb, &["--out", out.to_str().unwrap()]).stdin(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

// -- a symlink at the temporary name -------------------------------------

/// A symlink planted at a predictable temporary name (`.NAME.multiblock-PID.tmp`,
/// right after the spawn, before the input arrives) is neither used nor
/// followed: the temporary name is random and opened with O_EXCL, so the
/// link's target keeps its bytes.
#[test]
fn a_symlink_planted_at_the_temporary_name_is_not_followed() {
    for round in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, b"precious").unwrap();
        let out = dir.path().join("x.out");
        let mut child = spawn_with_stdin("encrypt", &out);
        let planted = dir.path().join(format!(".x.out.multiblock-{}.tmp", child.id()));
        match std::os::unix::fs::symlink(&victim, &planted) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let _ = child.kill();
                panic!("round {round}: the temporary file has the predictable name {}", planted.display());
            }
            Err(e) => panic!("{e}"),
        }
        let input = data(50_000);
        child.stdin.take().unwrap().write_all(&input).unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(fs::read(&victim).unwrap(), b"precious", "round {round}: the link's target was overwritten");
        let meta = fs::symlink_metadata(&out).unwrap();
        assert!(meta.file_type().is_file(), "round {round}: --out is not a regular file");
        assert_eq!(fs::read(&out).unwrap(), expected(&input));
        // Nothing else left: the planted link, the victim, the output.
        assert_eq!(names(dir.path()).len(), 3, "{:?}", names(dir.path()));
    }
}

// -- special files and symlinks as --out ---------------------------------

#[test]
fn a_fifo_out_is_written_in_place_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut got = Vec::new();
            fs::File::open(&fifo).unwrap().read_to_end(&mut got).unwrap();
            got
        })
    };
    let input = data(20_000);
    let mut child = spawn_with_stdin("encrypt", &fifo);
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Checked first: a replaced FIFO would leave the reader waiting forever.
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
    assert_eq!(reader.join().unwrap(), expected(&input), "the FIFO's reader got the output");
    assert_eq!(names(dir.path()), ["pipe"]);
}

#[test]
fn a_symlink_out_writes_its_target_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    fs::write(&real, b"old").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink("real", &link).unwrap();
    let input = data(9_000);
    let mut child = spawn_with_stdin("encrypt", &link);
    child.stdin.take().unwrap().write_all(&input).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the symlink was replaced");
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("real"));
    assert_eq!(fs::read(&real).unwrap(), expected(&input));
    assert_eq!(fs::metadata(&real).unwrap().mode() & 0o777, 0o640);
    assert_eq!(names(dir.path()), ["link", "real"]);
}

#[test]
fn a_character_device_out_is_written_in_place() {
    // /dev/null itself must stay a device whatever the user running us.
    let before = fs::metadata("/dev/null").unwrap();
    let o = cmd("encrypt", &["--out", "/dev/null"]).stdin(Stdio::null()).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after = fs::metadata("/dev/null").unwrap();
    assert!(after.file_type().is_char_device());
    assert_eq!((before.ino(), before.rdev()), (after.ino(), after.rdev()));
}

// -- the mode and owner of the replaced file -----------------------------

fn decrypt_into(out: &Path, input: &[u8]) {
    let mut child = spawn_with_stdin("decrypt", out);
    child.stdin.take().unwrap().write_all(input).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn the_mode_of_the_replaced_file_is_kept_and_a_new_one_is_0600() {
    let dir = tempfile::tempdir().unwrap();
    // SAFETY: umask only sets the process mask (022: files would be 644).
    unsafe { libc::umask(0o022) };
    for mode in [0o600, 0o640, 0o604, 0o700] {
        let out = dir.path().join(format!("secret-{mode:o}"));
        fs::write(&out, b"old").unwrap();
        fs::set_permissions(&out, fs::Permissions::from_mode(mode)).unwrap();
        decrypt_into(&out, &data(5000));
        assert_eq!(fs::metadata(&out).unwrap().mode() & 0o7777, mode, "mode {mode:o} not kept");
    }
    for verb in ["decrypt", "encrypt"] {
        let out = dir.path().join(format!("new-{verb}"));
        let mut child = spawn_with_stdin(verb, &out);
        child.stdin.take().unwrap().write_all(b"plain text").unwrap();
        assert!(child.wait().unwrap().success());
        assert_eq!(fs::metadata(&out).unwrap().mode() & 0o777, 0o600, "{verb}: a new --out is 0600");
    }
}

#[test]
fn the_owner_of_the_replaced_file_is_kept_where_permitted() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: only root may give a file to another owner");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("theirs");
    fs::write(&out, b"old").unwrap();
    std::os::unix::fs::chown(&out, Some(4321), Some(4322)).unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o600)).unwrap();
    decrypt_into(&out, &data(3000));
    let m = fs::metadata(&out).unwrap();
    assert_eq!((m.uid(), m.gid(), m.mode() & 0o777), (4321, 4322, 0o600));
}

// -- signals -------------------------------------------------------------

#[test]
fn a_signal_mid_stream_removes_the_temporary_file() {
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("x.out");
        let mut child = spawn_with_stdin("encrypt", &out);
        let mut stdin = child.stdin.take().unwrap();
        // Output is flowing, and more input is on its way (stdin stays open).
        stdin.write_all(&data(64 << 10)).unwrap();
        let start = Instant::now();
        while names(dir.path()).is_empty() {
            assert!(start.elapsed() < Duration::from_secs(20), "no temporary file appeared");
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(50));
        // SAFETY: kill(2) of our own child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
        let status = child.wait().unwrap();
        drop(stdin);
        assert!(!status.success(), "signal {sig}: exit 0");
        assert_eq!(status.signal(), Some(sig), "signal {sig}: not ended by the signal: {status:?}");
        assert_eq!(names(dir.path()), Vec::<String>::new(), "signal {sig}: left behind");
    }
}
