#!/usr/bin/env bash
# Builds the C library (crates/multiblock-c) and installs it under PREFIX:
#   PREFIX/include/multiblock.h
#   PREFIX/lib/libmultiblock.a
#   PREFIX/lib/libmultiblock.so.VERSION, .so.1 and .so (symlinks)
#   PREFIX/lib/pkgconfig/multiblock.pc      (with this PREFIX in it)
# Usage: scripts/install-c.sh PREFIX      (LIBDIR=... to put the libraries elsewhere)
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX (e.g. /usr/local or \$HOME/.local)" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$(mkdir -p "$1" && cd "$1" && pwd)"
libdir="${LIBDIR:-$prefix/lib}"
target="${CARGO_TARGET_DIR:-$root/target}/release"
crate="$root/crates/multiblock-c"

(cd "$root" && cargo build --release --locked -p multiblock-c)

version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n1)"
[ -n "$version" ] || { echo "install-c.sh: no version in Cargo.toml" >&2; exit 1; }
# What a static Rust library needs from the system on Linux/glibc (the
# list `rustc --print native-static-libs` gives for a staticlib).
libs_private="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"

install -d "$prefix/include" "$libdir/pkgconfig"
install -m 644 "$crate/include/multiblock.h" "$prefix/include/multiblock.h"
install -m 644 "$target/libmultiblock_c.a" "$libdir/libmultiblock.a"
install -m 755 "$target/libmultiblock_c.so" "$libdir/libmultiblock.so.$version"
ln -sf "libmultiblock.so.$version" "$libdir/libmultiblock.so.1"   # the SONAME (build.rs)
ln -sf "libmultiblock.so.1" "$libdir/libmultiblock.so"
sed -e "s|@PREFIX@|$prefix|" -e "s|@LIBDIR@|$libdir|" -e "s|@VERSION@|$version|" \
    -e "s|@LIBS_PRIVATE@|$libs_private|" "$crate/multiblock.pc.in" > "$libdir/pkgconfig/multiblock.pc"
echo "installed multiblock $version in $prefix (pkg-config: PKG_CONFIG_PATH=$libdir/pkgconfig)"
