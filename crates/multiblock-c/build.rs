//! Gives the shared library the SONAME it is installed under
//! (scripts/install-c.sh), so programs linked with -lmultiblock record
//! libmultiblock.so.1 and not a build-tree path.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmultiblock.so.1");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
