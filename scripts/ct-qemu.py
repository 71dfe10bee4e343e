#!/usr/bin/env python3
"""The constant-time check of the aarch64 build under QEMU (README, "Security").

`ct-trace` steps x86-64 code with the trap flag; the aarch64 build (the `neon`
backends, and `portable` as aarch64 compiles it) runs here only under
qemu-user. So its cases run under QEMU with a TCG plugin
(crates/multiblock-ct/qemu/ct_trace_plugin.c) that records every instruction
address and every memory address between the marks of `ct-emu`
(crates/multiblock-ct/src/bin/ct-emu.rs), once per secret fill (random,
all-zero, all-ones).

  ct-qemu.py ct    EXE [--all-modes] [--filter TEXT] [--jobs N] [--quiet]
      every constant-time case: the recordings of every fill must agree;
  ct-qemu.py leaky EXE [--filter TEXT] [--jobs N] [--quiet]
      every table/reference case: each must differ (the check can fail).

EXE is the aarch64 `ct-emu`. Where recordings part, the first difference is
named (instruction, function through aarch64-linux-gnu-addr2line). Exit status
0 when every case is as required, 1 otherwise, 2 on usage.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLUGIN_SRC = ROOT / "crates/multiblock-ct/qemu/ct_trace_plugin.c"
QEMU = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]
FILLS = ["random", "zeros", "ones"]
INSN = 1 << 63
# What the guest sees of the environment: MULTIBLOCK_DISABLE, to check the
# code paths of CPUs without a feature QEMU's CPU has (SHA3's EOR3/BCAX).
GUEST_ENV = {k: v for k, v in os.environ.items() if k == "MULTIBLOCK_DISABLE"}


def build_plugin(out_dir: Path) -> Path:
    so = out_dir / "ct_trace_plugin.so"
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-fvisibility=hidden",
                    "-o", str(so), str(PLUGIN_SRC)], check=True)
    return so


def run(exe, plugin, selection, index, fill, summary, events=None):
    """One recorded run; returns the summary as a dict."""
    args = f"{plugin},out={summary}" + (f",events={events}" if events else "")
    # The same environment (MULTIBLOCK_DISABLE only) and same-length
    # arguments for every fill: the guest's stack, and every address computed
    # from it, must not move.
    proc = subprocess.run(QEMU + ["-plugin", args, exe, "run", selection, str(index), str(fill)],
                          env=GUEST_ENV, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"fill {FILLS[fill]} exited {proc.returncode}: {proc.stderr.strip()}")
    fields = dict(line.split(" ", 1) for line in Path(summary).read_text().splitlines())
    return fields


def symbol(exe, ip, base):
    """`function (file:line)` of a guest address, or '' without binutils."""
    tool = shutil.which("aarch64-linux-gnu-addr2line")
    if not tool:
        return ""
    out = subprocess.run([tool, "-f", "-C", "-e", exe, hex(ip - base)], capture_output=True, text=True)
    lines = out.stdout.splitlines()
    if out.returncode != 0 or len(lines) < 2:
        return ""
    return f"in {lines[0]} ({lines[1].rsplit('/src/', 1)[-1]})"


def load_base(exe, enter):
    """Where QEMU loaded the (position-independent) executable."""
    tool = shutil.which("aarch64-linux-gnu-nm")
    if not tool:
        return 0
    out = subprocess.run([tool, exe], capture_output=True, text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == "multiblock_ct_mark_enter":
            return enter - int(parts[0], 16)
    return 0


def first_difference(exe, a_path, b_path, base):
    """Where two event files part, described for a person."""
    a = memoryview(Path(a_path).read_bytes()).cast("Q")
    b = memoryview(Path(b_path).read_bytes()).cast("Q")
    n = min(len(a), len(b))
    # Find the first differing 8-byte event: chunks first, then within.
    at, chunk = n, 1 << 16
    for start in range(0, n, chunk):
        if a[start:start + chunk] != b[start:start + chunk]:
            at = next(i for i in range(start, min(start + chunk, n)) if a[i] != b[i])
            break
    if at == n and len(a) == len(b):
        return "the event files agree (a hash collision?)"
    # The instruction the difference belongs to: for an address, the one
    # before it; for a different next instruction, the one before (the branch).
    last = at - 1 if at < len(a) and a[at] & INSN else at
    last = min(last, len(a) - 1)
    insn_at = next((i for i in range(last, -1, -1) if a[i] & INSN), 0)
    step = sum(1 for i in range(insn_at) if a[i] & INSN)
    ip = a[insn_at] & ~INSN
    if at < n and a[at] & INSN and b[at] & INSN:
        what = f"next instruction {a[at] & ~INSN:#x} vs {b[at] & ~INSN:#x} (a branch)"
    elif at < n:
        what = f"memory address {a[at]:#x} vs {b[at]:#x}"
    else:
        what = f"one recording ends first ({len(a)} vs {len(b)} events)"
    return f"step {step}, after the instruction at {ip:#x} {symbol(exe, ip, base)}: {what}"


def check(exe, plugin, selection, index, label, tmp):
    """(passed, line) for one case."""
    start = time.time()
    prefix = Path(tmp) / f"case{index}"
    try:
        sums = [run(exe, plugin, selection, index, f, f"{prefix}.{f}.sum") for f in range(len(FILLS))]
    except RuntimeError as e:
        return False, f"FAIL ({e}): {label}"
    if int(sums[0]["regions"]) == 0:
        return False, f"FAIL (no marked region was recorded): {label}"
    differing = [f for f in range(1, len(FILLS)) if sums[f] != sums[0]]
    stats = f"{sums[0]['steps']} instructions, {time.time() - start:.1f} s"
    if selection == "ct" and not differing:
        return True, f"ok ({stats}, {len(FILLS)} fills identical): {label}"
    if selection == "leaky" and not differing:
        return False, f"FAIL (not flagged: the check missed a leak; {stats}): {label}"
    # Record the first differing pair in full to say where they part.
    other = differing[0]
    try:
        for f in (0, other):
            run(exe, plugin, selection, index, f, f"{prefix}.{f}.sum", events=f"{prefix}.{f}.ev")
        where = first_difference(exe, f"{prefix}.0.ev", f"{prefix}.{other}.ev",
                                 load_base(exe, int(sums[0]["enter"], 16)))
    except RuntimeError as e:
        where = f"(not located: {e})"
    finally:
        for f in (0, other):
            Path(f"{prefix}.{f}.ev").unlink(missing_ok=True)
    detail = f"{FILLS[0]} vs {FILLS[other]}: {where}"
    if selection == "ct":
        return False, f"FAIL (secret-dependent trace; {stats}): {label}\n    {detail}"
    return True, f"ok (flagged as expected; {stats}): {label}\n    {detail}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("selection", choices=["ct", "leaky"])
    parser.add_argument("exe", help="the aarch64 ct-emu binary")
    parser.add_argument("--all-modes", action="store_true", help="the modes on every backend, not only the default")
    parser.add_argument("--filter", default="", help="only cases whose label contains TEXT")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    opts = parser.parse_args()
    exe = str(Path(opts.exe).resolve())
    listing = subprocess.run(QEMU + [exe, "list", opts.selection] + (["--all-modes"] if opts.all_modes else []),
                             env=GUEST_ENV, capture_output=True, text=True)
    if listing.returncode != 0:
        sys.exit(f"ct-qemu: {exe} list failed: {listing.stderr.strip()}")
    cases = [line.split("\t") for line in listing.stdout.splitlines()]
    cases = [(int(i), label) for i, _backend, label in cases if opts.filter in label]
    if not cases:
        sys.exit("ct-qemu: no case matches")
    start = time.time()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="ct-qemu.") as tmp:
        plugin = build_plugin(Path(tmp))
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            futures = [pool.submit(check, exe, plugin, opts.selection, i, label, tmp) for i, label in cases]
            for fut in futures:
                passed, line = fut.result()
                failed += not passed
                if not (passed and opts.quiet):
                    print(line, flush=True)
    print(f"ct-qemu {opts.selection} ({time.time() - start:.0f} s): {len(cases) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
