#!/usr/bin/env bash
# Builds the OpenSSL provider (provider/*.c over the C library) and prints
# the module's path as its last line. Needs cc and the headers of an
# OpenSSL 3.0 or later: the system's (Debian: libssl-dev), or those of the
# OpenSSL installed under OPENSSL_DIR (its include/ and bin/openssl).
# The library is linked in statically and the module links no libcrypto: it
# takes everything it needs from the core's dispatch table, so one module
# loads into a shared or a static libcrypto of the release it was built for;
# it exports only OSSL_provider_init.
# Usage: scripts/build-provider.sh
#          -> target/ossl-modules/multiblock.so (the system OpenSSL)
#        OPENSSL_DIR=DIR scripts/build-provider.sh
#          -> target/ossl-modules-VERSION/multiblock.so (VERSION: DIR/bin/openssl version)
#        CC=... CFLAGS=... to change the compiler; PROVIDER_OUT=path/multiblock.so
#        to write the module elsewhere, e.g. a sanitizer build:
#        CFLAGS="-fsanitize=address,undefined"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"

if [ -n "${OPENSSL_DIR:-}" ]; then
    [ -d "$OPENSSL_DIR" ] || { echo "build-provider.sh: OPENSSL_DIR=$OPENSSL_DIR is not a directory" >&2; exit 1; }
    OPENSSL_DIR="$(cd "$OPENSSL_DIR" && pwd)"
    [ -x "$OPENSSL_DIR/bin/openssl" ] || { echo "build-provider.sh: no bin/openssl in OPENSSL_DIR=$OPENSSL_DIR" >&2; exit 1; }
    [ -f "$OPENSSL_DIR/include/openssl/core_dispatch.h" ] ||
        { echo "build-provider.sh: no OpenSSL 3 headers (include/openssl/core_dispatch.h) in OPENSSL_DIR=$OPENSSL_DIR" >&2; exit 1; }
    version="$("$OPENSSL_DIR/bin/openssl" version | cut -d' ' -f2)"
    inc=(-I "$OPENSSL_DIR/include")
    default_out="$target/ossl-modules-$version/multiblock.so"
else
    [ -f /usr/include/openssl/core_dispatch.h ] || { echo "build-provider.sh: no OpenSSL 3 headers (apt-get install libssl-dev, or set OPENSSL_DIR)" >&2; exit 1; }
    inc=()
    default_out="$target/ossl-modules/multiblock.so"
fi

cargo build --release --locked -p multiblock-c >&2

out="${PROVIDER_OUT:-$default_out}"
mkdir -p "$(dirname "$out")"
script="$(mktemp)"
trap 'rm -f "$script"' EXIT
printf '{ global: OSSL_provider_init; local: *; };\n' > "$script"
# No -lcrypto, and -z defs: a libcrypto function called by mistake fails the link.
${CC:-cc} -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -fPIC -Wall -Wextra -Werror ${CFLAGS:-} \
    "${inc[@]}" -I crates/multiblock-c/include -shared provider/*.c \
    "$target/release/libmultiblock_c.a" \
    -Wl,--version-script="$script" -Wl,--gc-sections -Wl,-z,defs \
    -lpthread -ldl -lm \
    -o "$out"
echo "$out"
