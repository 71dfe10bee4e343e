#!/usr/bin/env bash
# emu-avx512.sh: run x86-64 binaries under an emulated Tiger Lake CPU
# (AVX-512 F/CD/DQ/BW/VL/IFMA/VBMI/VBMI2/VNNI/BITALG/VPOPCNTDQ, GFNI, VAES,
# VPCLMULQDQ), so that the AVX-512 and GFNI code paths of multiblock can be
# tested on a machine whose CPU lacks them (here an AMD EPYC Zen 3).
#
# How: Bochs 2.7 (Debian's `bochs`, `cpu: model=tigerlake`) boots Debian's
# cloud kernel (linux-image-*-cloud-amd64, LZ4-compressed, so it unpacks
# fast in the emulator) from a tiny ISOLINUX ISO with an uncompressed
# initramfs: busybox-static, the binaries to run (and the host's shared
# libraries they load) and an /init that prints the
# guest's CPU flags, runs the commands, prints their exit codes after the
# sentinel line 'EMU-AVX512-DONE' and powers off. The serial console (COM1)
# goes to a file, which this script watches.
#
# Usage:
#   scripts/emu-avx512.sh                       # = -- multiblock selftest -- emu-probe
#   scripts/emu-avx512.sh -- multiblock selftest
#   scripts/emu-avx512.sh -- multiblock selftest -- emu-probe -- cat /proc/cpuinfo
#   scripts/emu-avx512.sh --test ecb_vectors -- ecb_vectors --test-threads=1
#   scripts/emu-avx512.sh -- /abs/or/relative/path/to/static-binary ARGS...
# Each '--' starts one command; its first word is one of
#   multiblock   the CLI, built here static (crt-static, gnu target);
#   emu-probe    scripts/emu-probe/emu-probe.c, built here with cc -static:
#                runs vpermb, vgf2p8affineqb, vgf2p8mulb, vpcompressb,
#                vpclmulqdq zmm, vaesenc zmm and a masked VL/BW op on known
#                and random inputs and compares each with a scalar computation;
#   NAME         of a --test NAME given before: that integration test of the
#                workspace (crates/*/tests/NAME.rs), built static; each
#                crate's vectors/ folder is copied to the same absolute path in
#                the guest, so the vectors the test reads are found;
#   a path       to any executable (copied to the same absolute path; a
#                dynamic one with the loader and libraries `ldd` lists);
#   else         a busybox applet (cat, ls, grep, ...).
# Options (before the first '--'):
#   --test NAME  build and include the integration test NAME (repeatable)
#   --add PATH   copy a host file or folder to the same path in the guest
# The guest starts each command in the repository root (same path as here),
# with /tmp on tmpfs (unless the repository is under /tmp) and stdin from
# /dev/null.
# Exit status: 0 only if the guest booted, showed avx512f/bw/vl/vbmi/vbmi2,
# gfni, vaes and vpclmulqdq in /proc/cpuinfo, and every command exited 0.
#
# Environment: EMU_TIMEOUT (seconds for boot + commands, default 600),
# EMU_MEGS (guest RAM, default 256), EMU_IPS (Bochs ips, default 50000000),
# EMU_VERBOSE=1 (kernel boot messages shown, whole serial log printed),
# EMU_KEEP=1 (keep the work folder), EMU_KERNEL=/path/to/bzImage (skip the
# download), EMU_CACHE (kernel cache, default ~/.cache/multiblock-emu-avx512),
# EMU_APPEND (extra kernel arguments).
#
# Installs if missing (apt-get, as root or via sudo): bochs bochsbios
# bochs-term vgabios busybox-static isolinux syslinux-common xorriso cpio binutils, and
# gcc/libc6-dev for the probe. The kernel package is fetched once with
# `apt-get download` and only its vmlinuz is kept in the cache (no install).
#
# Time on this machine: see TIMING at the end of this header.
#
# Workarounds that this setup needs (all found the hard way, keep them):
# * Debian's bochs has neither the 'nogui' display library nor a working
#   'rfb' one (and its sound mixer thread aborts with a fortify error), so it
#   runs with the curses 'term' display inside `script` (a pty), speaker off.
# * Debian's bochs is built with its debugger, which waits at a prompt:
#   an -rc file with 'c' lets it run.
# * Kernel argument clearcpuid=pku,ospke,xsaves,xsavec: Bochs 2.7 announces
#   the PKRU state in CPUID.(0xD,0) but reports no size/offset for it
#   (CPUID.(0xD,9) is empty), and its CPUID.(0xD,1).EBX gives the standard
#   rather than the compacted XSAVE size. Linux 6.1 then finds its xstate
#   size check failing and turns XSAVE off altogether, and with it AVX and
#   AVX-512. Without PKU and without compacted XSAVE it uses the standard
#   format, whose sizes Bochs does report correctly (xstate 0xe7, 2688 bytes).
# * clearcpuid=fsrm: Bochs leaves the fast-strings bit of MISC_ENABLE clear,
#   so Linux drops ERMS but keeps FSRM; its memmove then skips the length
#   check for short copies and corrupts memory: the boot hangs early.
# * cryptomgr.notests: the crypto self-tests cost ~25 s of emulation.
# * Bochs 2.7's (V)GF2P8AFFINEQB/(V)GF2P8AFFINEINVQB return the complement of
#   the right bytes (even- instead of odd-parity table). The script runs a
#   copy of bochs-bin with that constant fixed (see "bochs fix" below).
#   Without it multiblock's kuznyechik avx512-gfni backend fails its vectors
#   in the guest; with it `selftest` passes on every backend.
#
# TIMING (the last line of each run reports its own numbers)
#   Default run (multiblock selftest + emu-probe), measured on this machine,
#   a shared 2-vCPU AMD EPYC that ran other builds at the same time (load
#   average 7-14): 43-145 s wall from bochs start to the sentinel, of which
#   the boot to /init is 40-137 s and selftest + probe 3-8 s. Bochs itself
#   used only 17-32 s of CPU in those runs (it runs the guest at ~40-60
#   MIPS), so on an idle machine expect well under a minute.
#   Before that: the static build (~2.5 min from scratch, seconds when
#   cached), and once, the 27 MB kernel package download (~2 s).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET=x86_64-unknown-linux-gnu
TIMEOUT=${EMU_TIMEOUT:-600}
MEGS=${EMU_MEGS:-256}
IPS=${EMU_IPS:-50000000}
VERBOSE=${EMU_VERBOSE:-0}
KEEP=${EMU_KEEP:-0}
CACHE=${EMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/multiblock-emu-avx512}
OUT=$REPO/target/emu-avx512          # built probe lives here (target/ is ignored)
NEEDED_FLAGS="avx512f avx512bw avx512vl avx512vbmi avx512_vbmi2 gfni vaes vpclmulqdq"

say() { printf 'emu-avx512: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 2; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else die "need root (or sudo) for: $*"; fi
}

# ---------------------------------------------------------------- arguments
tests=() adds=()
while [ $# -gt 0 ]; do
    case $1 in
        --test) [ $# -ge 2 ] || die "--test needs a name"; tests+=("$2"); shift 2 ;;
        --add) [ $# -ge 2 ] || die "--add needs a path"; adds+=("$(realpath "$2")"); shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --) break ;;
        *) die "unknown option '$1' (commands go after --; see --help)" ;;
    esac
done
# commands: split the rest on '--'; each command is kept as one line of
# NUL-free, tab-separated words (words may not contain tabs or newlines)
cmds=()
if [ $# -eq 0 ]; then
    cmds=($'multiblock\tselftest' 'emu-probe')
else
    cur=
    shift # the first --
    while [ $# -gt 0 ]; do
        if [ "$1" = -- ]; then
            [ -n "$cur" ] && cmds+=("$cur"); cur=
        else
            case $1 in *$'\t'*|*$'\n'*) die "argument with a tab or newline: '$1'" ;; esac
            if [ -z "$cur" ]; then cur=$1; else cur+=$'\t'$1; fi
        fi
        shift
    done
    [ -n "$cur" ] && cmds+=("$cur")
    [ ${#cmds[@]} -gt 0 ] || die "no command after --"
fi

# ---------------------------------------------------------------- packages
pkgs=(bochs bochsbios bochs-term vgabios busybox-static isolinux syslinux-common xorriso cpio binutils)
need_probe=0
for c in "${cmds[@]}"; do [ "${c%%$'\t'*}" = emu-probe ] && need_probe=1; done
[ $need_probe = 1 ] && pkgs+=(gcc libc6-dev)
missing=()
for p in "${pkgs[@]}"; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [ "$st" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
        { as_root apt-get update -q >&2 &&
          as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; }
fi
bochs_help=$(bochs-bin --help cpu 2>&1 || true)
grep -qx tigerlake <<<"$bochs_help" || die "this bochs has no 'tigerlake' CPU model"

# ---------------------------------------------------------------- bochs fix
# Bochs 2.7 computes the bits of (V)GF2P8AFFINEQB / (V)GF2P8AFFINEINVQB with
# an even-parity nibble table (0x9669) where the instruction needs odd parity
# (0x6996): every result byte comes out complemented (fixed in later Bochs).
# GFNI code would then fail in the guest for no fault of its own, so we run a
# copy of bochs-bin (kept in the cache; the installed one is not touched) in
# which that one constant is corrected inside those four functions only.
# The probe's vgf2p8affine(inv)qb checks show whether the fix is in effect.
BOCHS=$(command -v bochs-bin)
mkdir -p "$CACHE"
sum=$(sha256sum "$BOCHS" | cut -c1-16)
fixed=$CACHE/bochs-bin.$sum.gfni-fixed
if [ ! -x "$fixed" ]; then
    syms=$(nm -D --defined-only "$BOCHS" 2>/dev/null | sort || true)
    ranges=()
    for f in GF2P8AFFINEQB_VdqWdqIbR GF2P8AFFINEINVQB_VdqWdqIbR \
             VGF2P8AFFINEQB_VdqHdqWdqIbR VGF2P8AFFINEINVQB_VdqHdqWdqIbR; do
        start=$(awk -v f="C[0-9]*${f}E" '$3 ~ f {print $1; exit}' <<<"$syms")
        [ -n "$start" ] || { ranges=(); break; }
        end=$(awk -v s="$start" '$1 > s {print $1; exit}' <<<"$syms")
        ranges+=("$start:$end")
    done
    # file offset of the executable segment relative to its address
    seg=$(readelf -lW "$BOCHS" | awk '$1 == "LOAD" && / R E / {print $2, $3; exit}')
    if [ ${#ranges[@]} = 4 ] && [ -n "$seg" ] &&
        perl -e '
            my ($in, $out, $seg, @r) = @ARGV;
            my ($off, $va) = map { hex } split / /, $seg;
            open my $fh, "<:raw", $in or die; local $/; my $d = <$fh>; close $fh;
            for (@r) {
                my ($s, $e) = map { hex($_) - $va + $off } split /:/;
                my $c = substr($d, $s, $e - $s);
                my $n = ($c =~ s/([\xb8-\xbf])\x69\x96\x00\x00/$1\x96\x69\x00\x00/g);
                $n == 1 or die "found $n parity constants in $_\n";
                substr($d, $s, $e - $s) = $c;
            }
            open my $o, ">:raw", "$out.tmp" or die; print $o $d; close $o or die;
            chmod 0755, "$out.tmp"; rename "$out.tmp", $out or die;
        ' "$BOCHS" "$fixed" "$seg" "${ranges[@]}"; then
        say "made $fixed (bochs-bin with the GF2P8AFFINE parity fix)"
    else
        say "warning: could not patch $BOCHS; GF2P8AFFINE(INV)QB results will be complemented"
        fixed=$BOCHS
    fi
fi
BOCHS=$fixed

# ---------------------------------------------------------------- kernel
kernel=${EMU_KERNEL:-}
if [ -z "$kernel" ]; then
    mkdir -p "$CACHE"
    kernel=$(ls -1 "$CACHE"/vmlinuz-* 2>/dev/null | sort -V | tail -n1 || true)
    if [ -z "$kernel" ]; then
        kpkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
        if [ -z "$kpkg" ]; then
            as_root apt-get update -q >&2
            kpkg=$(apt-cache depends linux-image-cloud-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
        fi
        [ -n "$kpkg" ] || die "cannot resolve linux-image-cloud-amd64"
        say "downloading $kpkg (vmlinuz only is kept in $CACHE)"
        dl=$(mktemp -d)
        chmod 755 "$dl"   # apt-get download drops to user _apt when it can
        (cd "$dl" && apt-get download -q "$kpkg" >&2)
        deb=$(ls "$dl"/*.deb)
        dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dl" --wildcards './boot/vmlinuz-*'
        v=$(ls "$dl"/boot/vmlinuz-*)
        cp "$v" "$CACHE/${v##*/}.tmp" && mv "$CACHE/${v##*/}.tmp" "$CACHE/${v##*/}"
        kernel=$CACHE/${v##*/}
        rm -rf "$dl"
    fi
fi
[ -r "$kernel" ] || die "no kernel image at $kernel"

# ---------------------------------------------------------------- builds
static_cargo() { # cargo SUBCOMMAND ARGS...: release build for the gnu target, libc linked in
    (cd "$REPO" && RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static" \
        cargo "$@" --release --locked --target "$TARGET")
}
is_static() { # no program interpreter = static (or static-pie)
    local h
    h=$(readelf -lW "$1" 2>/dev/null) || return 1
    ! grep -q 'Requesting program interpreter' <<<"$h"
}

declare -A bin_of=()   # command word -> host path of the executable
need_mb=0
for c in "${cmds[@]}"; do [ "${c%%$'\t'*}" = multiblock ] && need_mb=1; done
for t in "${tests[@]}"; do [[ $t == *cli* ]] && need_mb=1; done
if [ $need_mb = 1 ]; then
    say "building multiblock (static)"
    static_cargo build -p multiblock-cli >&2
    bin_of[multiblock]=$REPO/target/$TARGET/release/multiblock
fi
if [ $need_probe = 1 ]; then
    mkdir -p "$OUT"
    cc -static -O2 -Wall -o "$OUT/emu-probe" "$REPO/scripts/emu-probe/emu-probe.c"
    bin_of[emu-probe]=$OUT/emu-probe
fi
for t in "${tests[@]}"; do
    f=$(ls "$REPO"/crates/*/tests/"$t".rs 2>/dev/null | head -n1 || true)
    [ -n "$f" ] || die "--test $t: no crates/*/tests/$t.rs"
    crate_dir=${f%/tests/*}
    pkg=$(sed -n 's/^name *= *"\(.*\)"/\1/p' "$crate_dir/Cargo.toml" | head -n1)
    say "building test $t of $pkg (static)"
    exe=$(static_cargo test -p "$pkg" --test "$t" --no-run --message-format=json 2>/dev/null |
          grep '"kind":\["test"\]' | grep "\"name\":\"$t\"" |
          sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n1)
    [ -n "$exe" ] && [ -x "$exe" ] || die "--test $t: build failed (run: cargo test -p $pkg --test $t)"
    bin_of[$t]=$exe
done

# ---------------------------------------------------------------- initramfs
WORK=$(mktemp -d "${TMPDIR:-/tmp}/emu-avx512.XXXXXX")
bochs_pid=
stop_bochs() { # SIGTERM, and SIGKILL if it sits in its debugger
    [ -n "$bochs_pid" ] || return 0
    kill "$bochs_pid" 2>/dev/null || return 0
    for _ in 1 2 3 4 5 6; do kill -0 "$bochs_pid" 2>/dev/null || return 0; sleep 0.5; done
    kill -9 "$bochs_pid" 2>/dev/null || true
}
cleanup() {
    stop_bochs
    if [ -n "${script_pid:-}" ] && kill -0 "$script_pid" 2>/dev/null; then kill "$script_pid" 2>/dev/null || true; fi
    if [ "$KEEP" = 1 ]; then say "work folder kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ROOT=$WORK/root
mkdir -p "$ROOT"/{bin,sbin,dev,proc,sys,tmp,root,etc}
cp /bin/busybox "$ROOT/bin/busybox"
is_static "$ROOT/bin/busybox" || die "/bin/busybox is not static (busybox-static package?)"
ln -s busybox "$ROOT/bin/sh"

mirror() { # copy host path $1 to the same absolute path in the guest
    mkdir -p "$ROOT$(dirname "$1")"
    cp -a "$1" "$ROOT$1"
}
mkdir -p "$ROOT$REPO"
# The tests read their vector files by absolute path
# (CARGO_MANIFEST_DIR/vectors): the same paths in the guest.
if [ ${#tests[@]} -gt 0 ]; then
    for d in "$REPO"/crates/*/; do
        mkdir -p "$ROOT$d"
        if [ -d "${d}vectors" ]; then mirror "${d}vectors"; fi
    done
fi
for a in "${adds[@]}"; do mirror "$a"; done

q() { printf "'%s'" "${1//\'/\'\\\'\'}"; } # single-quote for the guest shell
runlines=
for c in "${cmds[@]}"; do
    IFS=$'\t' read -r -a w <<<"$c"
    exe=${w[0]}
    if [ -n "${bin_of[$exe]:-}" ]; then
        exe=${bin_of[$exe]}
    elif [[ $exe == */* ]]; then
        [ -f "$exe" ] && [ -x "$exe" ] || die "not an executable file: $exe"
        exe=$(realpath "$exe")
    fi
    if [[ $exe == /* ]]; then
        [ -e "$ROOT$exe" ] || mirror "$exe"
        # A dynamic executable takes its loader and libraries from the
        # host, at the same paths (the files, not their symbolic links).
        if ! is_static "$exe"; then
            libs=$(ldd "$exe" | grep -o '/[^ ]*') || die "ldd cannot list the libraries of $exe"
            for lib in $libs; do
                [ -e "$ROOT$lib" ] && continue
                mkdir -p "$ROOT$(dirname "$lib")"
                cp -L "$lib" "$ROOT$lib"
            done
        fi
    fi
    line="run $(q "$exe")"
    for ((i = 1; i < ${#w[@]}; i++)); do line+=" $(q "${w[i]}")"; done
    runlines+="$line"$'\n'
done

# A checkout under /tmp is copied to the same path in the guest, so /tmp
# gets no tmpfs over it then (the initramfs root is writable as it is).
case $REPO in
    /tmp | /tmp/*) tmp_mount=": # /tmp holds the repository copy: no tmpfs over it" ;;
    *) tmp_mount="mount -t tmpfs tmp /tmp" ;;
esac
cat >"$ROOT/init" <<EOF
#!/bin/sh
export PATH=/bin:/sbin HOME=/root TERM=dumb
/bin/busybox --install -s /bin 2>/dev/null
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
$tmp_mount
exec </dev/null
echo "EMU-GUEST: Linux \$(uname -r), \$(grep -c ^processor /proc/cpuinfo) CPU:\$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "EMU-GUEST: \$(grep -m1 '^flags' /proc/cpuinfo)"
cd $(q "$REPO") 2>/dev/null || cd /
rcs=
n=0
run() {
    n=\$((n + 1))
    echo "EMU-CMD[\$n]: \$*"
    "\$@"
    rc=\$?
    echo "EMU-RC[\$n]=\$rc"
    rcs="\$rcs \$rc"
}
$runlines
echo "EMU-AVX512-DONE rc:\$rcs"
sync
poweroff -f
EOF
chmod 755 "$ROOT/init"

ISO=$WORK/iso
mkdir -p "$ISO/isolinux"
(cd "$ROOT" && find . -print0 | cpio --null -o -H newc --quiet) >"$ISO/isolinux/initrd.img"
cp "$kernel" "$ISO/isolinux/vmlinuz"
cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 "$ISO/isolinux/"
kargs="console=ttyS0,115200 mitigations=off nokaslr tsc=reliable cryptomgr.notests init_on_alloc=0"
kargs+=" clearcpuid=pku,ospke,xsaves,xsavec,fsrm"
[ "$VERBOSE" = 1 ] || kargs+=" quiet loglevel=3"
kargs+=" ${EMU_APPEND:-}"
cat >"$ISO/isolinux/isolinux.cfg" <<EOF
DEFAULT linux
PROMPT 0
TIMEOUT 0
LABEL linux
  KERNEL vmlinuz
  APPEND initrd=initrd.img $kargs
EOF
xorriso -as mkisofs -quiet -o "$WORK/boot.iso" -b isolinux/isolinux.bin -c isolinux/boot.cat \
    -no-emul-boot -boot-load-size 4 -boot-info-table "$ISO" 2>/dev/null

# ---------------------------------------------------------------- bochs
vgarom=/usr/share/bochs/VGABIOS-lgpl-latest
[ -e "$vgarom" ] || vgarom=/usr/share/vgabios/vgabios.bin
cat >"$WORK/bochsrc" <<EOF
megs: $MEGS
cpu: model=tigerlake, count=1, ips=$IPS, reset_on_triple_fault=0
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=$vgarom
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-master: type=cdrom, path=$WORK/boot.iso, status=inserted
boot: cdrom
display_library: term
speaker: enabled=0
sound: driver=dummy
mouse: enabled=0
com1: enabled=1, mode=file, dev=$WORK/serial.log
clock: sync=none, time0=utc
log: $WORK/bochs.log
panic: action=fatal
error: action=report
info: action=ignore
debug: action=ignore
EOF
echo c >"$WORK/debugger.rc"
rcopt=
bochs_help=$("$BOCHS" --help 2>&1 || true)
grep -q -- '-rc ' <<<"$bochs_help" && rcopt="-rc $WORK/debugger.rc"
: >"$WORK/serial.log"

say "booting $(basename "$kernel") on bochs tigerlake (${MEGS} MB, ips=$IPS, timeout ${TIMEOUT}s)"
t0=$(date +%s)
# 'term' needs a terminal: script(1) gives it a pty and throws the screen away
TERM=xterm script -qfec "echo \$\$ >$WORK/bochs.pid; exec $BOCHS -q -f $WORK/bochsrc $rcopt" /dev/null \
    </dev/null >"$WORK/term.log" 2>&1 &
script_pid=$!
t_boot= status= cpu=? drain_pid=
while :; do
    sleep 1
    [ -z "$bochs_pid" ] && [ -s "$WORK/bochs.pid" ] && bochs_pid=$(cat "$WORK/bochs.pid")
    # The term display opens a second pty ("connected to screen /dev/pts/N")
    # and keeps writing cursor updates into it; with no reader its buffer
    # fills after some minutes and bochs blocks in write(): drain it.
    if [ -z "$drain_pid" ]; then
        screen_pty=$(sed -n 's/.*connected to screen "\(\/dev\/pts\/[0-9]*\)".*/\1/p' "$WORK/term.log" | head -n 1)
        if [ -n "$screen_pty" ]; then cat "$screen_pty" >/dev/null 2>&1 & drain_pid=$!; fi
    fi
    [ -n "$bochs_pid" ] && cpu=$(awk '{printf "%.0f", ($14 + $15) / 100}' "/proc/$bochs_pid/stat" 2>/dev/null || echo "$cpu")
    now=$(date +%s)
    if [ -z "$t_boot" ] && grep -q '^EMU-GUEST: flags' "$WORK/serial.log"; then t_boot=$((now - t0)); fi
    if grep -q '^EMU-AVX512-DONE' "$WORK/serial.log"; then status=done; break; fi
    if grep -q 'Kernel panic' "$WORK/serial.log"; then status=panic; sleep 2; break; fi
    if ! kill -0 "$script_pid" 2>/dev/null; then status=exited; break; fi
    if [ $((now - t0)) -ge "$TIMEOUT" ]; then status=timeout; break; fi
done
t_end=$(date +%s)
# give the guest a moment to power off by itself, then stop bochs
for _ in 1 2 3 4 5; do kill -0 "$script_pid" 2>/dev/null || break; sleep 1; done
stop_bochs
wait "$script_pid" 2>/dev/null || true
[ -n "$drain_pid" ] && { kill "$drain_pid" 2>/dev/null; wait "$drain_pid" 2>/dev/null; } || true

tr -d '\r' <"$WORK/serial.log" >"$WORK/serial.txt"
if [ "$VERBOSE" = 1 ]; then
    cat "$WORK/serial.txt"
else
    sed -n '/^EMU-GUEST:/,/^EMU-AVX512-DONE/p' "$WORK/serial.txt"
fi
if [ "$status" != done ]; then
    say "FAILED: $status after $((t_end - t0))s; last serial lines:"
    [ "$VERBOSE" = 1 ] || tail -n 40 "$WORK/serial.txt" >&2
    say "bochs log ($WORK/bochs.log) tail:"
    grep -v 'RDMSR: Unknown register 0xe[78]' "$WORK/bochs.log" | tail -n 15 >&2 || true
    KEEP=1
    exit 1
fi

fail=0
flags=$(sed -n 's/^EMU-GUEST: flags[^:]*: //p' "$WORK/serial.txt")
for f in $NEEDED_FLAGS; do
    case " $flags " in *" $f "*) ;; *) say "guest CPU flags lack $f"; fail=1 ;; esac
done
rcs=$(sed -n 's/^EMU-AVX512-DONE rc://p' "$WORK/serial.txt")
set -- $rcs
[ $# -eq ${#cmds[@]} ] || { say "expected ${#cmds[@]} exit codes, got '$rcs'"; fail=1; }
for rc in "$@"; do [ "$rc" = 0 ] || fail=1; done
say "boot to /init: ${t_boot:-?}s, commands: $((t_end - t0 - ${t_boot:-0}))s, total: $((t_end - t0))s wall" \
    "(bochs CPU ~${cpu}s, load $(cut -d' ' -f1 /proc/loadavg)); exit codes:$rcs"
if [ $fail = 0 ]; then say "OK"; else say "FAILED"; fi
exit $fail
