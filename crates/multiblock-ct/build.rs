//! Compiles the Valgrind client-request shim (csrc/valgrind_shim.c) against
//! the system's valgrind/memcheck.h (Debian package `valgrind`).

fn main() {
    println!("cargo:rerun-if-changed=csrc/valgrind_shim.c");
    cc::Build::new().file("csrc/valgrind_shim.c").warnings(true).compile("mbct_valgrind");
}
