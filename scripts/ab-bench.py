#!/usr/bin/env python3
"""A/B benchmark of two `multiblock-bench` binaries on the same machine, alternated.

Runs `--json` of binary A and binary B in turn, ROUNDS times each, for
the same cipher/backend selection, keeps each row's best (lowest) TSC
cycles/byte per binary, and prints B/A per row. Alternating the two and
taking the best of several runs lets a busy VM weigh on both alike.

Each run is a new process, and some rows are bimodal across processes
(placement in memory differs from run to run): the same binary against a
copy of itself showed up to 25% on Magma/Kuznyechik CTR-ACPKM and MGM
with 5 rounds on the Zen 4 VM. So the order alternates every round, and a
difference in such a row means something only when it holds over many
rounds and is absent from an A-against-A control run.

Usage: scripts/ab-bench.py A B ROUNDS -- BENCH-ARGS...
  e.g. scripts/ab-bench.py ./base ./head 5 -- --cipher magma --backend avx2 --bytes 1048576
"""
import json
import subprocess
import sys


def run(binary, args):
    out = subprocess.run([binary, "--json", *args], check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if r.get("section") is None or r.get("cycles_per_byte") is None:
            continue
        cipher = r["cipher"] + (" " + r["mode"] if r.get("mode") else "")
        key = (r["section"], cipher, r["backend"], r["direction"], r["bytes"], r.get("message"), r.get("ways"), r.get("keys"))
        rows[key] = r["cycles_per_byte"]
    return rows


def main():
    sep = sys.argv.index("--")
    a, b, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    args = sys.argv[sep + 1:]
    best = ({}, {})
    for r in range(rounds):
        order = [(0, a), (1, b)] if r % 2 == 0 else [(1, b), (0, a)]
        for i, binary in order:
            for k, v in run(binary, args).items():
                best[i][k] = min(v, best[i].get(k, v))
    print(f"{'section':8} {'cipher':22} {'backend':12} {'dir':8} {'bytes':>8} {'ways':>5} {'A':>9} {'B':>9} {'B/A':>6}")
    for k in sorted(set(best[0]) & set(best[1])):
        va, vb = best[0][k], best[1][k]
        flag = "  <-- slower" if vb > 1.03 * va else ""
        print(f"{k[0]:8} {k[1]:22} {k[2]:12} {k[3]:8} {k[4]:>8} {str(k[6]):>5} {va:9.3f} {vb:9.3f} {vb / va:6.3f}{flag}")


if __name__ == "__main__":
    main()
