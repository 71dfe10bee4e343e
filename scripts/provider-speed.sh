#!/usr/bin/env bash
# Prints the README's provider speed table (Markdown): `openssl speed -evp`
# at 16 KiB for kuznyechik-ctr, magma-ctr and kuznyechik-mgm with our
# provider and with gost-engine's gostprov, beside `multiblock-bench
# --modes` for the same cipher and mode at 16 KiB.
# Builds the provider (scripts/build-provider.sh) and needs
# libengine-gost-openssl installed. SECONDS_PER_RUN=N (default 3).
# OPENSSL_DIR=DIR measures with the OpenSSL installed there (its bin/openssl,
# a module built for it); gostprov is packaged for the system OpenSSL only,
# so its column is empty then.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-$PWD/target}"
secs="${SECONDS_PER_RUN:-3}"
if [ -n "${OPENSSL_DIR:-}" ]; then
    ossl="$OPENSSL_DIR/bin/openssl"
    gostdir=""
else
    ossl=openssl
    gostdir="$(dirname "$(dpkg -L libengine-gost-openssl | grep '/gostprov.so$' | head -n1)")"
fi
mods="$(dirname "$(bash scripts/build-provider.sh | tail -n1)")"
cargo build --release --locked -p multiblock-bench >&2

# MB/s (10^6 B/s) of one `openssl speed` run: its last line, in 1000s of B/s.
speed() { # module-dir provider alg [extra args]
    local dir="$1" prov="$2" alg="$3" pq=()
    shift 3
    # Ours by property; gostprov's algorithms carry no provider=gostprov property.
    [ "$prov" = multiblock ] && pq=(-propquery provider=multiblock)
    [ -n "$dir" ] || return 0
    { OPENSSL_MODULES="$dir" "$ossl" speed -provider "$prov" -provider default "${pq[@]}" \
        -seconds "$secs" -bytes 16384 "$@" -evp "$alg" 2>/dev/null || true; } |
        awk -v a="$alg" '$1 == a { sub(/k$/, "", $2); printf "%.0f", $2 / 1000 }'
}

bench="$("$target/release/multiblock-bench" --text --rounds 1 --cipher kuznyechik --cipher magma --modes --bytes 16384 --reps 3 --ways 16)"
bench_mbs() { # cipher mode
    awk -v c="$1" -v m="$2" '$1 == c && $2 == m && $4 == "encrypt" { print int($5); exit }' <<< "$bench"
}

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "OpenSSL $("$ossl" version | cut -d' ' -f2), $cpu, 16 KiB messages, MB/s = 10^6 B/s, encryption"
echo
echo "| cipher | ours (openssl speed) | gostprov (openssl speed) | ours ÷ gostprov | multiblock-bench --modes | ours ÷ bench |"
echo "|---|---:|---:|---:|---:|---:|"
none="– (not offered)"
[ -n "$gostdir" ] || none="– (not packaged for this OpenSSL)"
for row in "kuznyechik-ctr kuznyechik ctr" "magma-ctr magma ctr" "kuznyechik-mgm kuznyechik mgm"; do
    read -r alg cipher mode <<< "$row"
    extra=()
    [ "$mode" = mgm ] && extra=(-aead)   # init, AAD, text, final per message (TLS-like)
    ours="$(speed "$mods" multiblock "$alg" "${extra[@]}")"
    theirs="$(speed "$gostdir" gostprov "$alg" "${extra[@]}")"
    b="$(bench_mbs "$cipher" "$mode")"
    ratio=–; [ -n "$theirs" ] && [ "$theirs" != 0 ] && ratio="$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.1f×", a / b }')"
    vsb=–; [ -n "$b" ] && vsb="$(awk -v a="$ours" -v b="$b" 'BEGIN { printf "%.0f %%", 100 * a / b }')"
    echo "| $alg | ${ours:-–} | ${theirs:-$none} | $ratio | ${b:-–} | $vsb |"
done
