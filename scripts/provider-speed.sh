#!/usr/bin/env bash
# Prints the README's provider speed table (Markdown): `openssl speed -evp`
# at 16 KiB for kuznyechik-ctr, magma-ctr, kuznyechik-mgm and the digest
# md_gost12_256 (Streebog-256) with our provider and with gost-engine's
# gostprov in the same run, beside `multiblock-bench --modes` for the same
# cipher and mode at 16 KiB, and ours again on the OpenSSL releases of
# OTHER_OPENSSL (default "3.5 4.0", built and cached by
# scripts/ci/openssl-build.sh; "" for none).
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
    speed_with "$ossl" "$@"
}
speed_with() { # openssl module-dir provider alg [extra args]
    local bin="$1" dir="$2" prov="$3" alg="$4" pq=()
    shift 4
    # Ours by property; gostprov's algorithms carry no provider=gostprov property.
    [ "$prov" = multiblock ] && pq=(-propquery provider=multiblock)
    [ -n "$dir" ] || return 0
    { OPENSSL_MODULES="$dir" "$bin" speed -provider "$prov" -provider default "${pq[@]}" \
        -seconds "$secs" -bytes 16384 "$@" -evp "$alg" 2>/dev/null || true; } |
        awk -v a="$alg" '$1 == a { sub(/k$/, "", $2); printf "%.0f", $2 / 1000 }'
}

bench="$("$target/release/multiblock-bench" --text --rounds 1 --cipher kuznyechik --cipher magma --modes --bytes 16384 --reps 3 --ways 16)"
bench_mbs() { # cipher mode
    awk -v c="$1" -v m="$2" '$1 == c && $2 == m && $4 == "encrypt" { print int($5); exit }' <<< "$bench"
}

# Ours on the other releases: "version openssl-binary module-dir" lines.
others=()
if [ -z "${OPENSSL_DIR:-}" ]; then
    for v in ${OTHER_OPENSSL-3.5 4.0}; do
        d="$(bash scripts/ci/openssl-build.sh "$v" | tail -n1)"
        m="$(dirname "$(OPENSSL_DIR="$d" bash scripts/build-provider.sh | tail -n1)")"
        others+=("$v $d/bin/openssl $m")
    done
fi

cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "OpenSSL $("$ossl" version | cut -d' ' -f2), $cpu, 16 KiB messages, MB/s = 10^6 B/s, encryption"
echo
head="| algorithm | ours (openssl speed) | gostprov (openssl speed) | ours ÷ gostprov | multiblock-bench --modes | ours ÷ bench |"
rule="|---|---:|---:|---:|---:|---:|"
for o in "${others[@]}"; do
    read -r v _ _ <<< "$o"
    head+=" ours on OpenSSL $v |"
    rule+="---:|"
done
echo "$head"
echo "$rule"
none="– (not offered)"
[ -n "$gostdir" ] || none="– (not packaged for this OpenSSL)"
for row in "kuznyechik-ctr kuznyechik ctr" "magma-ctr magma ctr" "kuznyechik-mgm kuznyechik mgm" \
    "md_gost12_256 streebog-256 hash"; do
    read -r alg cipher mode <<< "$row"
    extra=()
    [ "$mode" = mgm ] && extra=(-aead)   # init, AAD, text, final per message (TLS-like)
    ours="$(speed "$mods" multiblock "$alg" "${extra[@]}")"
    theirs="$(speed "$gostdir" gostprov "$alg" "${extra[@]}")"
    b="$(bench_mbs "$cipher" "$mode")"
    ratio=–; [ -n "$theirs" ] && [ "$theirs" != 0 ] && ratio="$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.1f×", a / b }')"
    vsb=–; [ -n "$b" ] && vsb="$(awk -v a="$ours" -v b="$b" 'BEGIN { printf "%.0f %%", 100 * a / b }')"
    line="| $alg | ${ours:-–} | ${theirs:-$none} | $ratio | ${b:-–} | $vsb |"
    for o in "${others[@]}"; do
        read -r _ bin m <<< "$o"
        x="$(speed_with "$bin" "$m" multiblock "$alg" "${extra[@]}")"
        line+=" ${x:-–} |"
    done
    echo "$line"
done
