#!/usr/bin/env bash
# The OpenSSL 3 provider end to end: install the OpenSSL headers and
# gost-engine's provider (gostprov, to interoperate with), build
# target/ossl-modules/multiblock.so (scripts/build-provider.sh), then
#  - provider/tests/test_evp.c: every public vector through EVP (ciphers,
#    AEAD with a wrong tag and a changed ciphertext, MACs), error cases;
#    also under valgrind when it is installed;
#  - provider/tests/test_misuse.c: every cipher and MAC of the provider's
#    list through EVP misuse (parameters after init, the CCM length
#    declaration, 0-byte updates, copies at every point, re-init, strings
#    without a NUL), also under valgrind;
#  - both programs again over a module built with AddressSanitizer and
#    UBSan (the provider's C files and the test programs; the Rust library
#    inside is not instrumented), in $tmp: the installed module stays as is;
#  - provider/tests/enc_and_cli.py: the vectors through `openssl enc`, bytes
#    equal to the CLI on random data (through `openssl enc`, or test_evp -e/-d
#    where enc cannot), and interoperation both ways with gostprov for every
#    cipher and MAC both offer.
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
[ -f /usr/include/openssl/core_dispatch.h ] || need+=(libssl-dev)
command -v openssl >/dev/null || need+=(openssl)
gostdir="$(dirname "$(dpkg -L libengine-gost-openssl 2>/dev/null | grep '/gostprov.so$' | head -n1)" 2>/dev/null || true)"
[ -n "$gostdir" ] && [ -f "$gostdir/gostprov.so" ] || need+=(libengine-gost-openssl)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    gostdir="$(dirname "$(dpkg -L libengine-gost-openssl | grep '/gostprov.so$' | head -n1)")"
fi
echo "== OpenSSL $(openssl version | cut -d' ' -f2), gostprov in $gostdir"

bash scripts/build-provider.sh
cargo build --release --locked -p multiblock-cli
target="${CARGO_TARGET_DIR:-$PWD/target}"
export OPENSSL_MODULES="$target/ossl-modules"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 crates/multiblock-c/tests/c/vectors_to_lines.py crates/multiblock/vectors > "$tmp/vectors.txt"
cflags=(-std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror)
cc "${cflags[@]}" -O2 provider/tests/test_evp.c -lcrypto -o "$tmp/test_evp"
cc "${cflags[@]}" -O2 provider/tests/test_misuse.c -lcrypto -o "$tmp/test_misuse"

echo "== provider: vectors and errors through EVP"
"$tmp/test_evp" "$tmp/vectors.txt" | grep -v '^skip' || exit 1
echo "== provider: EVP misuse of every algorithm"
"$tmp/test_misuse"
if command -v valgrind >/dev/null; then
    echo "== provider: the same under valgrind"
    valgrind -q --error-exitcode=3 "$tmp/test_evp" "$tmp/vectors.txt" | grep -v '^skip' || exit 1
    valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite "$tmp/test_misuse"
fi
echo "== provider: the same with AddressSanitizer and UBSan"
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
PROVIDER_OUT="$tmp/asan/multiblock.so" CFLAGS="${san[*]}" bash scripts/build-provider.sh
cc "${cflags[@]}" -O1 "${san[@]}" provider/tests/test_evp.c -lcrypto -o "$tmp/test_evp_asan"
cc "${cflags[@]}" -O1 "${san[@]}" provider/tests/test_misuse.c -lcrypto -o "$tmp/test_misuse_asan"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
OPENSSL_MODULES="$tmp/asan" "$tmp/test_evp_asan" "$tmp/vectors.txt" | grep -v '^skip' || exit 1
OPENSSL_MODULES="$tmp/asan" "$tmp/test_misuse_asan"
unset ASAN_OPTIONS UBSAN_OPTIONS
echo "== provider: openssl enc, the CLI and gostprov"
python3 provider/tests/enc_and_cli.py crates/multiblock/vectors "$target/release/multiblock" "$tmp/test_evp" --gostprov "$gostdir"
