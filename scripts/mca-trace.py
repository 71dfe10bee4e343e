#!/usr/bin/env python3
"""The straight-line instruction trace of one kernel call, for llvm-mca.

Reads an objdump disassembly (aarch64-linux-gnu-objdump -d --no-show-raw-insn)
and prints the instructions from address LO to HI, with every loop given as
START:END:COUNT (END is its back-branch) repeated COUNT times; loops nest.
Branches and calls are left out. llvm-mca then estimates the whole call, not
one loop body: e.g. one bitsliced Kuznyechik batch, whose round loop holds a
key-addition loop and an S-box loop (README, "NEON speed").

Usage: scripts/mca-trace.py ASM LO HI [START:END:COUNT ...] > trace.s
  llvm-mca-16 -mtriple=aarch64-linux-gnu -mcpu=neoverse-n2 -iterations=2 trace.s
"""
import re
import sys

BRANCH = re.compile(r"^(b|bl|b\.\w+|cbn?z|tbn?z|ret)\b")


def main():
    asm, lo, hi = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
    loops = {}
    for spec in sys.argv[4:]:
        start, end, count = spec.split(":")
        loops[int(start, 16)] = (int(end, 16), int(count))
    code = []
    for line in open(asm):
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)", line)
        if m:
            text = re.sub(r"\s*(//.*|<.*?>)", "", m.group(2)).strip()
            code.append((int(m.group(1), 16), text))
    index = {address: i for i, (address, _) in enumerate(code)}

    def emit(start, end, inside=None):
        out, i = [], index[start]
        while i < len(code) and code[i][0] <= end:
            address, text = code[i]
            if address in loops and address != inside:
                loop_end, count = loops[address]
                out += emit(address, loop_end, address) * count
                i = index[loop_end] + 1
                continue
            if not BRANCH.match(text):
                out.append(text)
            i += 1
        return out

    print("\n".join(emit(lo, hi)))


if __name__ == "__main__":
    main()
