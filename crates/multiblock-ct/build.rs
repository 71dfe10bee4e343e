//! Compiles the Valgrind client-request shim (csrc/valgrind_shim.c) against
//! the system's valgrind/memcheck.h (Debian package `valgrind`). Cross
//! builds (the aarch64 build that `ct-emu` checks under QEMU) leave it out:
//! Valgrind does not run there, and src/secret.rs then marks nothing.

fn main() {
    println!("cargo:rerun-if-changed=csrc/valgrind_shim.c");
    println!("cargo::rustc-check-cfg=cfg(mbct_valgrind)");
    if std::env::var("TARGET").ok() != std::env::var("HOST").ok() {
        return;
    }
    cc::Build::new().file("csrc/valgrind_shim.c").warnings(true).compile("mbct_valgrind");
    println!("cargo:rustc-cfg=mbct_valgrind");
}
