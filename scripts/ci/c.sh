#!/usr/bin/env bash
# The C library end to end: build and install it (scripts/install-c.sh) into a
# temporary prefix, compile the example, the vector test, the misuse test and
# the hash test with the system cc against the header, once with the static
# and once with the shared library, and run them (the vector test runs every
# vector of crates/multiblock/vectors; the misuse test the header's promises
# under misuse; the hash test Streebog, Kupyna, HMAC and Kupyna's MAC
# against RFC 6986, RFC 7836 and DSTU 7564:2014). Then
# both tests again built with -fsanitize=address,undefined against the
# static library, and under valgrind.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v pkg-config >/dev/null; then
    # Debian 12 CI image: gcc is there, pkg-config may not be.
    apt-get update -qq && apt-get install -y -qq --no-install-recommends pkgconf >/dev/null
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bash scripts/install-c.sh "$tmp/prefix"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
libdir="$(pkg-config --variable=libdir multiblock)"
read -ra cflags <<< "$(pkg-config --cflags multiblock) -std=c99 -O2 -Wall -Wextra -Werror -pedantic"
read -ra shared_libs <<< "$(pkg-config --libs multiblock)"
# Static: the archive itself, then what it needs (Libs.private without -lmultiblock).
static_libs=("$libdir/libmultiblock.a")
for l in $(pkg-config --static --libs-only-l multiblock); do
    [ "$l" = -lmultiblock ] || static_libs+=("$l")
done

src=crates/multiblock-c
python3 "$src/tests/c/vectors_to_lines.py" crates/multiblock/vectors > "$tmp/vectors.txt"
for kind in static shared; do
    libs_var="${kind}_libs[@]"
    cc "${cflags[@]}" "$src/examples/example.c" "${!libs_var}" -o "$tmp/example-$kind"
    cc "${cflags[@]}" "$src/tests/c/test_vectors.c" "${!libs_var}" -o "$tmp/test-$kind"
    cc "${cflags[@]}" "$src/tests/c/test_misuse.c" "${!libs_var}" -o "$tmp/misuse-$kind"
    cc "${cflags[@]}" "$src/tests/c/test_hash.c" "${!libs_var}" -o "$tmp/hash-$kind"
    cc "${cflags[@]}" "$src/tests/c/test_wrap.c" "${!libs_var}" -o "$tmp/wrap-$kind"
done
# The static programs must not need the shared library, the shared ones must.
for prog in example test; do
    ! readelf -d "$tmp/$prog-static" | grep -q 'libmultiblock' || { echo "$prog-static needs libmultiblock.so" >&2; exit 1; }
    readelf -d "$tmp/$prog-shared" | grep -q 'NEEDED.*libmultiblock.so.1' || { echo "$prog-shared lacks libmultiblock.so.1" >&2; exit 1; }
done

for kind in static shared; do
    echo "== C example ($kind)"
    LD_LIBRARY_PATH="$libdir" "$tmp/example-$kind" | tee "$tmp/example.out"
    grep -q '^ECB: *7f679d90bebc24305a468d42b9d4edcd$' "$tmp/example.out"   # RFC 7801 A.1
    echo "== C vector test ($kind)"
    LD_LIBRARY_PATH="$libdir" "$tmp/test-$kind" "$tmp/vectors.txt"
    echo "== C misuse test ($kind)"
    LD_LIBRARY_PATH="$libdir" "$tmp/misuse-$kind"
    echo "== C hash test ($kind)"
    LD_LIBRARY_PATH="$libdir" "$tmp/hash-$kind"
    echo "== C key-wrap test ($kind)"
    LD_LIBRARY_PATH="$libdir" "$tmp/wrap-$kind"
done

# AddressSanitizer and UndefinedBehaviorSanitizer on the C side, the static
# library linked in (its allocations go through ASan's malloc, so an
# overrun or leak of a buffer the library returns or frees shows too).
# allocator_may_return_null: a huge allocation fails as glibc's does (the
# misuse test asks the library for counts no memory holds) instead of
# ASan's report-and-abort.
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
for t in test_vectors test_misuse test_hash test_wrap; do
    cc "${cflags[@]}" "${san[@]}" "$src/tests/c/$t.c" "${static_libs[@]}" -o "$tmp/$t-asan"
done
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:abort_on_error=0:exitcode=3
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
echo "== C vector test (static) under ASan/UBSan"
"$tmp/test_vectors-asan" "$tmp/vectors.txt"
echo "== C misuse test (static) under ASan/UBSan"
"$tmp/test_misuse-asan"
echo "== C hash test (static) under ASan/UBSan"
"$tmp/test_hash-asan"
echo "== C key-wrap test (static) under ASan/UBSan"
"$tmp/test_wrap-asan"
unset ASAN_OPTIONS UBSAN_OPTIONS

# Memory errors on either side of the ABI (the CI image has valgrind).
if command -v valgrind >/dev/null; then
    echo "== C vector test (static) under valgrind"
    valgrind -q --error-exitcode=3 "$tmp/test-static" "$tmp/vectors.txt"
    echo "== C misuse test (static) under valgrind"
    valgrind -q --error-exitcode=3 "$tmp/misuse-static"
    echo "== C hash test (static) under valgrind"
    valgrind -q --error-exitcode=3 "$tmp/hash-static"
else
    echo "valgrind not installed: skipped the valgrind run" >&2
fi
