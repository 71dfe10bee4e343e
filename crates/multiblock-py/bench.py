"""MB/s from Python: multiblock's Kuznyechik-CTR and Kalyna-128-CTR on
1 MiB against the pure-Python `gostcrypto` package's Kuznyechik CTR, and
multiblock's Streebog and Kupyna against gostcrypto's Streebog, in one run
on one machine (compare the ratios; absolute numbers move with load).

    pip install ./crates/multiblock-py gostcrypto
    python crates/multiblock-py/bench.py [--bytes N] [--gost-bytes N] [--repeat N]

gostcrypto runs at kilobytes per second, so it gets a shorter message
(--gost-bytes, 16 KiB by default); MB/s does not depend on the length there.
"""

import argparse
import os
import time

import multiblock


def best_seconds(fn, repeat):
    """The shortest of `repeat` timed calls of fn()."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bytes", type=int, default=1 << 20, help="message length for multiblock (1 MiB)")
    ap.add_argument("--gost-bytes", type=int, default=16 << 10, help="message length for gostcrypto (16 KiB)")
    ap.add_argument("--repeat", type=int, default=5, help="repetitions; the best counts")
    args = ap.parse_args()

    key32, key16 = os.urandom(32), os.urandom(16)
    iv8, iv16 = os.urandom(8), os.urandom(16)
    data = os.urandom(args.bytes)
    rows = []

    def ours(label, cipher, key, iv):
        backend = multiblock.Cipher(cipher, key).backend
        s = best_seconds(lambda: multiblock.encrypt(cipher, "ctr", key, data, iv=iv), args.repeat)
        rows.append((f"multiblock {label} ({backend})", args.bytes, args.bytes / s / 1e6))

    ours("kuznyechik ctr", "kuznyechik", key32, iv8)
    ours("kalyna-128-128 ctr", "kalyna-128-128", key16, iv16)

    try:
        from gostcrypto import gostcipher
    except ImportError:
        gostcipher = None
        print("gostcrypto is not installed (pip install gostcrypto): no comparison")
    if gostcipher is not None:
        small = data[: args.gost_bytes]

        def theirs():
            c = gostcipher.new("kuznechik", bytearray(key32), gostcipher.MODE_CTR, init_vect=bytearray(iv8))
            return bytes(c.encrypt(bytearray(small)))

        # Same algorithm, same bytes: check it before timing it. (gostcrypto's
        # counter does not carry past its last byte, so only the first 256
        # blocks follow the standard.)
        n = min(len(small), 256 * 16)
        assert theirs()[:n] == multiblock.encrypt("kuznyechik", "ctr", key32, small[:n], iv=iv8)
        s = best_seconds(theirs, max(1, args.repeat // 2))
        rows.append(("gostcrypto kuznyechik ctr (pure Python)", len(small), len(small) / s / 1e6))

    table(rows, gostcipher is not None)

    rows = []
    for name in ("streebog-256", "streebog-512", "kupyna-256", "kupyna-512"):
        backend = multiblock.new(name).backend
        s = best_seconds(lambda: multiblock.hash(name, data), args.repeat)
        rows.append((f"multiblock {name} ({backend})", args.bytes, args.bytes / s / 1e6))
    if gostcipher is not None:
        from gostcrypto import gosthash

        small = data[: args.gost_bytes]
        assert bytes(gosthash.new("streebog256", data=bytearray(small)).digest()) == multiblock.hash("streebog-256", small)
        s = best_seconds(lambda: gosthash.new("streebog256", data=bytearray(small)).digest(), max(1, args.repeat // 2))
        rows.append(("gostcrypto streebog-256 (pure Python)", len(small), len(small) / s / 1e6))
    print()
    table(rows, gostcipher is not None)


def table(rows, last_is_base):
    """A Markdown table of (label, bytes, MB/s); the last row is the base
    of the ratio column when `last_is_base`."""
    base = rows[-1][2] if last_is_base else None
    print("| implementation | bytes | MB/s | x gostcrypto |")
    print("|---|---:|---:|---:|")
    for label, nbytes, mbs in rows:
        ratio = f"{mbs / base:,.0f}" if base else "-"
        print(f"| {label} | {nbytes} | {mbs:,.3f} | {ratio} |")


if __name__ == "__main__":
    main()
