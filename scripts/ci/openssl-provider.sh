#!/usr/bin/env bash
# The OpenSSL provider end to end on three OpenSSL releases: the system's
# 3.0 (Debian 12) and 3.5 and 4.0 built from source by
# scripts/ci/openssl-build.sh (cached under ~/.cache/multiblock). It
# installs the OpenSSL headers and gost-engine's provider (gostprov, to
# interoperate with), then on each release builds the module
# (scripts/build-provider.sh, with OPENSSL_DIR for a built one) and runs
#  - provider/tests/test_evp.c: every public vector through EVP (ciphers,
#    AEAD with a wrong tag and a changed ciphertext, MACs), error cases;
#  - provider/tests/test_digest.c: the digests (Streebog, Kupyna) through
#    EVP: the standards' examples in pieces and through copies, names and
#    OIDs, RFC 7836's HMAC examples over them with the default provider's HMAC;
#  - provider/tests/test_tlstree.c: TLSTREE ("tlstree", "tlstree_mode")
#    over a sequence of records on the MGM and CTR ciphers against the
#    record keys of RFC 9189 and RFC 9367;
#  - provider/tests/test_ctromac.c: kuznyechik- and magma-ctr-acpkm-omac
#    against their definition (KDF_TREE keys, CTR-ACPKM over the text and
#    its OMAC) on random data; on 3.0 also both ways with gost-engine's
#    ENGINE (gostprov cannot key these two ciphers);
#  - provider/tests/test_kexp15.c: kuznyechik- and magma-kexp15 (KExp15 /
#    KImp15): the recommendation's examples, the definition from ctr and
#    mac, round trips, changed exports and wrong keys or lengths refused;
#    on 3.0 also gost-engine's ENGINE importing our exports (its kexp15
#    ciphers import only; gostprov does not offer them);
#  - provider/tests/test_misuse.c: every cipher and MAC of the provider's
#    list through EVP misuse (parameters after init, the CCM length
#    declaration, 0-byte updates, copies at every point, re-init, strings
#    without a NUL);
#  - provider/tests/enc_and_cli.py: the vectors through that release's
#    `openssl enc`, bytes equal to the CLI on random data (through
#    `openssl enc`, or test_evp -e/-d where enc cannot), digests through
#    `openssl dgst` against the CLI's hash, HMAC through dgst and mac, the
#    kexp15 ciphers through enc; on 3.0 also interoperation both ways with
#    gostprov for every cipher, MAC and digest both offer, and the check
#    that it still offers no kexp15 (gostprov is packaged for the system
#    OpenSSL only).
# On one release, $SANITIZED_VERSION (4.0, the newest), both test programs
# also run under Valgrind (when installed) and, over a module built with
# AddressSanitizer and UBSan (the provider's C files and the test programs;
# the Rust library inside is not instrumented), under ASan.
# OPENSSL_VERSIONS="3.0 3.5 4.0" (the default) chooses the releases; 3.0 is
# the system's.
set -euo pipefail
cd "$(dirname "$0")/../.."
SANITIZED_VERSION=4.0

need=()
[ -f /usr/include/openssl/core_dispatch.h ] || need+=(libssl-dev)
command -v openssl >/dev/null || need+=(openssl)
gostdir="$(dirname "$(dpkg -L libengine-gost-openssl 2>/dev/null | grep '/gostprov.so$' | head -n1)" 2>/dev/null || true)"
[ -n "$gostdir" ] && [ -f "$gostdir/gostprov.so" ] || need+=(libengine-gost-openssl)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    gostdir="$(dirname "$(dpkg -L libengine-gost-openssl | grep '/gostprov.so$' | head -n1)")"
fi

cargo build --release --locked -p multiblock-cli
target="${CARGO_TARGET_DIR:-$PWD/target}"
tmp="$(mktemp -d)"
current=""
trap 'rc=$?; rm -rf "$tmp"; [ $rc = 0 ] || [ -z "$current" ] || echo "openssl-provider.sh: the provider fails on OpenSSL $current" >&2' EXIT
python3 crates/multiblock-c/tests/c/vectors_to_lines.py crates/multiblock/vectors > "$tmp/vectors.txt"
cflags=(-std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror)
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)

# One release: $1 = 3.0 (the system's) or a version openssl-build.sh builds.
run_release() {
    local want="$1" dir="" bin=openssl inc=() libs=(-lcrypto) label out mods w listing
    if [ "$want" != 3.0 ]; then
        dir="$(bash scripts/ci/openssl-build.sh "$want" | tail -n1)"
        bin="$dir/bin/openssl"
        inc=(-I "$dir/include")
        # The static libcrypto (lib/ or lib64/) and what it needs.
        libs=("$(ls "$dir"/lib*/libcrypto.a | head -n1)" -lpthread -ldl)
    fi
    label="OpenSSL $("$bin" version | cut -d' ' -f2)"
    case "$label" in "OpenSSL $want".*) ;; *) echo "openssl-provider.sh: wanted OpenSSL $want, $bin is $label" >&2; exit 1 ;; esac
    w="$tmp/$want"
    mkdir -p "$w"
    echo "== [$label] provider: build ($bin)"
    out="$(OPENSSL_DIR="$dir" bash scripts/build-provider.sh | tail -n1)"
    mods="$(dirname "$out")"
    # The module loads into this release's openssl and is active.
    listing="$(OPENSSL_MODULES="$mods" "$bin" list -providers -verbose -provider multiblock)"
    case "$listing" in
        *"  multiblock"*"status: active"*) ;;
        *) printf '%s\n' "$listing" >&2; echo "openssl-provider.sh: [$label] the module does not load" >&2; exit 1 ;;
    esac
    cc "${cflags[@]}" -O2 "${inc[@]}" provider/tests/test_evp.c "${libs[@]}" -o "$w/test_evp"
    cc "${cflags[@]}" -O2 "${inc[@]}" provider/tests/test_misuse.c "${libs[@]}" -o "$w/test_misuse"
    cc "${cflags[@]}" -O2 "${inc[@]}" provider/tests/test_digest.c "${libs[@]}" -o "$w/test_digest"
    cc "${cflags[@]}" -O2 "${inc[@]}" provider/tests/test_tlstree.c "${libs[@]}" -o "$w/test_tlstree"
    cc "${cflags[@]}" -O2 "${inc[@]}" provider/tests/test_ctromac.c "${libs[@]}" -o "$w/test_ctromac"
    cc "${cflags[@]}" -O2 "${inc[@]}" provider/tests/test_kexp15.c "${libs[@]}" -o "$w/test_kexp15"
    export OPENSSL_MODULES="$mods"

    echo "== [$label] provider: vectors and errors through EVP"
    "$w/test_evp" "$tmp/vectors.txt" | grep -v '^skip'
    echo "== [$label] provider: digests and HMAC over them through EVP"
    "$w/test_digest"
    echo "== [$label] provider: TLSTREE record keys through EVP"
    "$w/test_tlstree"
    echo "== [$label] provider: ctr-acpkm-omac through EVP"
    if [ "$want" = 3.0 ]; then "$w/test_ctromac" -engine; else "$w/test_ctromac"; fi
    echo "== [$label] provider: kexp15 through EVP"
    if [ "$want" = 3.0 ]; then "$w/test_kexp15" -engine; else "$w/test_kexp15"; fi
    echo "== [$label] provider: EVP misuse of every algorithm"
    "$w/test_misuse"
    if [ "$want" = "$SANITIZED_VERSION" ]; then
        if command -v valgrind >/dev/null; then
            echo "== [$label] provider: the same under valgrind"
            valgrind -q --error-exitcode=3 "$w/test_evp" "$tmp/vectors.txt" | grep -v '^skip'
            valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite "$w/test_misuse"
            valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite "$w/test_digest"
            valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite "$w/test_tlstree"
            valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite "$w/test_ctromac"
            valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite "$w/test_kexp15"
        fi
        echo "== [$label] provider: the same with AddressSanitizer and UBSan"
        PROVIDER_OUT="$w/asan/multiblock.so" CFLAGS="${san[*]}" OPENSSL_DIR="$dir" bash scripts/build-provider.sh >/dev/null
        cc "${cflags[@]}" -O1 "${san[@]}" "${inc[@]}" provider/tests/test_evp.c "${libs[@]}" -o "$w/test_evp_asan"
        cc "${cflags[@]}" -O1 "${san[@]}" "${inc[@]}" provider/tests/test_misuse.c "${libs[@]}" -o "$w/test_misuse_asan"
        cc "${cflags[@]}" -O1 "${san[@]}" "${inc[@]}" provider/tests/test_digest.c "${libs[@]}" -o "$w/test_digest_asan"
        cc "${cflags[@]}" -O1 "${san[@]}" "${inc[@]}" provider/tests/test_tlstree.c "${libs[@]}" -o "$w/test_tlstree_asan"
        cc "${cflags[@]}" -O1 "${san[@]}" "${inc[@]}" provider/tests/test_ctromac.c "${libs[@]}" -o "$w/test_ctromac_asan"
        cc "${cflags[@]}" -O1 "${san[@]}" "${inc[@]}" provider/tests/test_kexp15.c "${libs[@]}" -o "$w/test_kexp15_asan"
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 OPENSSL_MODULES="$w/asan" \
            "$w/test_evp_asan" "$tmp/vectors.txt" | grep -v '^skip'
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 OPENSSL_MODULES="$w/asan" \
            "$w/test_misuse_asan"
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 OPENSSL_MODULES="$w/asan" \
            "$w/test_digest_asan"
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 OPENSSL_MODULES="$w/asan" \
            "$w/test_tlstree_asan"
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 OPENSSL_MODULES="$w/asan" \
            "$w/test_ctromac_asan"
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 OPENSSL_MODULES="$w/asan" \
            "$w/test_kexp15_asan"
    fi
    if [ "$want" = 3.0 ]; then
        echo "== [$label] provider: openssl enc, the CLI and gostprov ($gostdir)"
        OPENSSL="$bin" python3 provider/tests/enc_and_cli.py crates/multiblock/vectors "$target/release/multiblock" \
            "$w/test_evp" --gostprov "$gostdir"
    else
        echo "== [$label] provider: openssl enc and the CLI"
        OPENSSL="$bin" python3 provider/tests/enc_and_cli.py crates/multiblock/vectors "$target/release/multiblock" \
            "$w/test_evp"
    fi
    unset OPENSSL_MODULES
}

# Not in an || list: set -e must stop at the first failure inside.
for v in ${OPENSSL_VERSIONS:-3.0 3.5 4.0}; do
    start=$SECONDS
    current="$v"
    run_release "$v"
    echo "== [OpenSSL $v] provider: passed in $((SECONDS - start)) s"
done
