#!/usr/bin/env bash
# Builds the OpenSSL 3 provider (provider/*.c over the C library) into
# target/ossl-modules/multiblock.so. Needs cc and the OpenSSL 3 headers
# (Debian: libssl-dev). The library is linked in statically, so the module
# needs nothing but libcrypto; it exports only OSSL_provider_init.
# Usage: scripts/build-provider.sh        (CC=... CFLAGS=... to change the compiler;
#        PROVIDER_OUT=path/multiblock.so to write the module elsewhere, e.g. a
#        sanitizer build: CFLAGS="-fsanitize=address,undefined")
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
[ -f /usr/include/openssl/core_dispatch.h ] || { echo "build-provider.sh: no OpenSSL 3 headers (apt-get install libssl-dev)" >&2; exit 1; }

cargo build --release --locked -p multiblock-c

out="${PROVIDER_OUT:-$target/ossl-modules/multiblock.so}"
mkdir -p "$(dirname "$out")"
script="$(mktemp)"
trap 'rm -f "$script"' EXIT
printf '{ global: OSSL_provider_init; local: *; };\n' > "$script"
${CC:-cc} -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -fPIC -Wall -Wextra -Werror ${CFLAGS:-} \
    -I crates/multiblock-c/include -shared provider/*.c \
    "$target/release/libmultiblock_c.a" \
    -Wl,--version-script="$script" -Wl,--gc-sections -Wl,-z,defs \
    -lcrypto -lpthread -ldl -lm \
    -o "$out"
echo "built $out"
