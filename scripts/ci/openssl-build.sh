#!/usr/bin/env bash
# Builds and installs one OpenSSL release from the source that crates.io's
# openssl-src crate carries, for testing the provider on it, and prints the
# install directory as its last line. The install is kept under
# ${XDG_CACHE_HOME:-~/.cache}/multiblock/openssl-VERSION and reused while its
# bin/openssl answers VERSION, so a second run costs nothing.
# Usage: scripts/ci/openssl-build.sh 3.5|4.0    (or the crate's exact version,
#        e.g. 400.0.2+4.0.3)
# Configured no-tests no-docs no-shared no-legacy: a static bin/openssl that
# still loads provider modules (the crate's trimmed source lacks
# util/mkdef.pl, which shared libraries need, and the legacy provider's
# generated parts). Needs cc, make, perl
# and cargo (to fetch the crate), installing make and perl with apt-get
# when they are missing; MAKE_JOBS=N (default: the CPU count).
set -euo pipefail
# The openssl-src releases tested; newer ones: `cargo info openssl-src@400`.
case "${1:-}" in
    3.5) crate=300.5.5+3.5.5 ;;
    4.0) crate=400.0.2+4.0.3 ;;
    [0-9]*+[0-9]*) crate="$1" ;;
    *) echo "usage: $0 3.5|4.0|CRATE_VERSION (e.g. 400.0.2+4.0.3)" >&2; exit 2 ;;
esac
version="${crate#*+}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/multiblock"
dir="$cache/openssl-$version"

installed() { [ -x "$dir/bin/openssl" ] && [ "$("$dir/bin/openssl" version | cut -d' ' -f2)" = "$version" ]; }
if installed; then
    echo "openssl-build.sh: OpenSSL $version already in $dir" >&2
    echo "$dir"
    exit 0
fi
# make and perl from the distribution when they are missing (Debian).
need=()
command -v make >/dev/null || need+=(make)
command -v perl >/dev/null || need+=(perl)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
for tool in cc make perl cargo python3; do
    command -v "$tool" >/dev/null || { echo "openssl-build.sh: $tool not found (needed to build OpenSSL $version)" >&2; exit 1; }
done

# The crate's source through cargo: a throwaway manifest beside the cache
# that depends on exactly this release; cargo fetch downloads it and cargo
# metadata says where it was unpacked.
manifest="$cache/openssl-src-$crate"
mkdir -p "$manifest/src"
cat > "$manifest/Cargo.toml" <<EOF
[package]
name = "openssl-src-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
openssl-src = "=$crate"

[workspace]
EOF
: > "$manifest/src/lib.rs"
cargo fetch --quiet --manifest-path "$manifest/Cargo.toml"
src="$(cargo metadata --offline --format-version 1 --manifest-path "$manifest/Cargo.toml" |
    python3 -c 'import json, sys, os
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "openssl-src":
        print(os.path.join(os.path.dirname(p["manifest_path"]), "openssl"))')"
[ -x "$src/Configure" ] || { echo "openssl-build.sh: no OpenSSL source in openssl-src $crate ($src)" >&2; exit 1; }
grep -q "^MAJOR=${version%%.*}\$" "$src/VERSION.dat" || { echo "openssl-build.sh: $src is not OpenSSL $version" >&2; exit 1; }

# Out of the (shared) cargo source tree; installed into a staging tree
# first and moved into $dir whole, so an interrupted run leaves no half
# install that a later one would take for a build.
# What the provider's tests never reach, left out of the build (3.5 on two
# cores: 89 s against 122 s): the datagram protocols (DTLS, QUIC), the PKI
# message formats and the algorithms that neither the tests nor the
# provider use. The default provider keeps HMAC, CMAC, the SHA family,
# AES and the EC and RSA keys.
unused=(no-dgram no-srp no-psk no-cmp no-cms no-ts no-ocsp no-ct no-comp
        no-aria no-bf no-camellia no-cast no-idea no-rc2 no-rc4 no-seed
        no-sm2 no-sm3 no-sm4 no-whirlpool no-md4 no-rmd160 no-siphash no-ocb
        no-ec2m no-dsa no-scrypt no-ml-dsa no-ml-kem no-slh-dsa)
# ENGINEs are gone from 4.0 (its Configure takes the option with a note).
[ "${version%%.*}" -ge 4 ] || unused+=(no-engine)
build="$cache/build-openssl-$version"
stage="$cache/stage-openssl-$version"
rm -rf "$build" "$stage" "$dir"
mkdir -p "$build"
trap 'rm -rf "$build" "$stage"' EXIT
start=$SECONDS
(
    cd "$build"
    "$src/Configure" --prefix="$dir" --openssldir="$dir/ssl" --libdir=lib \
        no-tests no-docs no-shared no-legacy "${unused[@]}" > configure.log 2>&1 ||
        { tail -n 20 configure.log >&2; echo "openssl-build.sh: Configure of OpenSSL $version failed" >&2; exit 1; }
    make -j"${MAKE_JOBS:-$(nproc)}" > make.log 2>&1 ||
        { tail -n 30 make.log >&2; echo "openssl-build.sh: make of OpenSSL $version failed" >&2; exit 1; }
    make install_sw DESTDIR="$stage" > install.log 2>&1 ||
        { tail -n 20 install.log >&2; echo "openssl-build.sh: make install_sw of OpenSSL $version failed" >&2; exit 1; }
)
mv "$stage$dir" "$dir"
installed || { echo "openssl-build.sh: $dir/bin/openssl does not report OpenSSL $version" >&2; exit 1; }
[ -f "$dir/include/openssl/core_dispatch.h" ] || { echo "openssl-build.sh: no headers in $dir/include" >&2; exit 1; }
echo "openssl-build.sh: OpenSSL $version built into $dir in $((SECONDS - start)) s" >&2
echo "$dir"
