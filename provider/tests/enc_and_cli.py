#!/usr/bin/env python3
"""The provider through `openssl enc` and `openssl mac`:

1. every public vector (crates/multiblock/vectors/*.json) that `openssl enc` can express
   (no AEAD, a whole-block s, the default IV length or a GOST register
   given as the IV): ciphertext equal, and back;
2. bytes equal to the multiblock CLI on random data of many lengths for
   every non-AEAD cipher algorithm of the provider, both directions: through
   `openssl enc`, or where it cannot (XTS, IVs over 16 bytes) through EVP
   with test_evp's -e/-d mode;
3. the MACs through `openssl mac`: tags equal to the CLI's `mac` on random
   data and keys;
4. the digests through `openssl dgst -NAME`: equal to the CLI's `hash`
   on random files of many lengths; HMAC over them (the default
   provider's HMAC over our digest) through `openssl dgst -mac HMAC`,
   `openssl dgst -hmac` and `openssl mac HMAC` agree;
5. kuznyechik-kexp15 and magma-kexp15 through `openssl enc`: the examples of
   R 1323565.1.017-2018 exported and imported, random keys there and back,
   a changed export refused with no output;
6. with --gostprov: interoperation both ways with gost-engine's provider
   for every cipher, MAC and digest both offer, on random data and keys
   (the digests, and HMAC over them through both `openssl dgst` ways); for
   the kexp15 ciphers, which gostprov 3.0.1 does not offer (its fetch
   fails: "unsupported"), that failure is checked, and were it to offer
   them, its import of our exports and ours of its.

Usage: enc_and_cli.py VECTOR_DIR MULTIBLOCK_CLI TEST_EVP [--gostprov GOST_MODULE_DIR]
(OPENSSL_MODULES must point at the directory of multiblock.so; OPENSSL=path
runs that `openssl` binary instead of the one on PATH.)
Prints failures and a summary; exits 1 on any failure.
"""

import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile

OPENSSL = os.environ.get("OPENSSL", "openssl")
OURS = ["-provider", "multiblock", "-provider", "default"]
# `openssl enc` (3.0) holds the IV in a buffer of EVP_MAX_IV_LENGTH = 16
# bytes and refuses XTS: the ciphers with 32- and 64-byte IVs (Kalyna-256
# and -512, uBlock-256 but their ECB) and XTS are tested through EVP only
# (test_evp.c).
ENC_MAX_IV = 16
failures = []
checks = 0


def fail(msg):
    failures.append(msg)
    print("FAIL", msg, file=sys.stderr)


def enc(args, data, env=None, decrypt=False):
    cmd = [OPENSSL, "enc"] + (["-d"] if decrypt else []) + args
    r = subprocess.run(cmd, input=data, capture_output=True, env=env)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace").strip().splitlines()[:1]


def block_of(cipher):
    if cipher in ("magma", "gost89"):
        return 8
    if cipher.startswith("kalyna-512") or cipher == "x":
        return 64
    if cipher.startswith("kalyna-256") or cipher == "ublock-256-256":
        return 32
    return 16


def evp_name(v):
    c, m = v["cipher"], v["mode"]
    if c == "gost89":
        return None  # gost89 cfb/cnt take a non-default S-box or meshing: the EVP test covers them
    if m in ("mgm", "gcm", "ccm", "kw", "mac", "omac-acpkm", "cmac", "gmac"):
        return None
    return f"{c}-{m}"


def vectors(vdir):
    global checks
    for path in sorted(pathlib.Path(vdir).glob("*.json")):
        for i, v in enumerate(json.loads(path.read_text())["vectors"]):
            name = evp_name(v)
            p = v.get("params", {})
            n = block_of(v["cipher"])
            if name is None or v.get("iterations", 1) != 1 or p.get("s", 8 * n) != 8 * n or set(p) - {"s", "m"}:
                continue
            iv = "".join(v.get("iv", "").split())
            # openssl enc takes the cipher's IV length; a GOST register of
            # m = 2n is not expressible there (the EVP test sets "ivlen").
            default_iv = {"ecb": 0, "ctr": n // 2 if not v["cipher"].startswith("kalyna") else n}.get(v["mode"], n)
            if len(iv) // 2 != default_iv or len(iv) // 2 > ENC_MAX_IV or v["mode"] == "xts":
                continue
            args = OURS + [f"-{name}", "-nopad", "-K", "".join(v["key"].split())] + (["-iv", iv] if iv else [])
            pt = bytes.fromhex("".join(v["plaintext"].split()))
            ct = bytes.fromhex("".join(v["ciphertext"].split()))
            rc, out, err = enc(args, pt)
            checks += 1
            if rc != 0 or out != ct:
                fail(f"{path.name}#{i} {name}: openssl enc gives {out.hex()[:32]}.. {err}")
            rc, out, err = enc(args, ct, decrypt=True)
            checks += 1
            if rc != 0 or out != pt:
                fail(f"{path.name}#{i} {name}: openssl enc -d {err}")


# (evp name, cli cipher, cli mode, iv bytes, extra cli args)
def algorithms():
    out = []
    for c, n in (("kuznyechik", 16), ("magma", 8)):
        out += [(f"{c}-ecb", c, "ecb", 0, ["--padding", "pkcs7"]), (f"{c}-cbc", c, "cbc", n, ["--padding", "pkcs7"]),
                (f"{c}-cfb", c, "cfb", n, []), (f"{c}-ofb", c, "ofb", n, []), (f"{c}-ctr", c, "ctr", n // 2, []),
                (f"{c}-ctr-acpkm", c, "ctr-acpkm", n // 2, [])]
    out += [("gost89", "gost89", "cfb", 8, ["--sbox", "tc26-z", "--key-meshing"]),
            ("gost89-cnt", "gost89", "cnt", 8, ["--sbox", "cryptopro-a", "--key-meshing"]),
            ("gost89-cnt-12", "gost89", "cnt", 8, ["--sbox", "tc26-z", "--key-meshing"])]
    for c in ("kalyna-128-128", "kalyna-128-256", "kalyna-256-256", "kalyna-256-512", "kalyna-512-512"):
        n = block_of(c)
        out += [(f"{c}-ecb", c, "ecb", 0, ["--padding", "pkcs7"]), (f"{c}-cbc", c, "cbc", n, ["--padding", "pkcs7"]),
                (f"{c}-cfb", c, "cfb", n, []), (f"{c}-ofb", c, "ofb", n, []), (f"{c}-ctr", c, "ctr", n, []),
                (f"{c}-xts", c, "xts", n, [])]
    for c in ("ublock-128-128", "ublock-128-256", "ublock-256-256"):
        n = block_of(c)
        out += [(f"{c}-ecb", c, "ecb", 0, ["--padding", "pkcs7"]), (f"{c}-cbc", c, "cbc", n, ["--padding", "pkcs7"])]
    return out


KEYS = {"kalyna-128-128": 16, "ublock-128-128": 16, "kalyna-256-512": 64, "kalyna-512-512": 64}


def evp_tool(tool, name, key, iv, data, decrypt=False):
    """test_evp -e/-d: the same through EVP in random pieces."""
    r = subprocess.run([tool, "-d" if decrypt else "-e", name, key, iv], input=data, capture_output=True)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace").strip().splitlines()[:1]


def equal_to_cli(cli, rng, tool):
    global checks
    for name, c, mode, ivl, extra in algorithms():
        via_enc = ivl <= ENC_MAX_IV and mode != "xts"
        n = block_of(c)
        lengths = [0, 1, n - 1, n, n + 1, 3 * n + 5, 1000, 4096, 4097, 65536 + 3] + [rng.randrange(1, 20000) for _ in range(3)]
        for length in lengths:
            if mode == "xts" and length < n:
                continue
            key = rng.randbytes(KEYS.get(c, 32)).hex()
            iv = rng.randbytes(ivl).hex()
            data = rng.randbytes(length)
            cmd = [cli, "encrypt", "--cipher", c, "--mode", mode, "--key", key] + (["--iv", iv] if ivl else []) + extra
            r = subprocess.run(cmd, input=data, capture_output=True)
            args = OURS + [f"-{name}", "-K", key] + (["-iv", iv] if ivl else [])
            rc, out, err = enc(args, data) if via_enc else evp_tool(tool, name, key, iv, data)
            checks += 1
            if r.returncode != 0 or rc != 0 or out != r.stdout:
                fail(f"{name} len {length}: the provider differs from the CLI ({err} / {r.stderr[:80]!r})")
                continue
            rc, back, err = enc(args, out, decrypt=True) if via_enc else evp_tool(tool, name, key, iv, out, True)
            checks += 1
            if rc != 0 or back != data:
                fail(f"{name} len {length}: openssl enc -d does not give the data back {err}")


# (openssl mac name, cli cipher, cli mode, key bytes, extra cli args): gost-mac-12's
# defaults are gostprov's, TC26 Z with CryptoPro key meshing.
MACS = [("kuznyechik-mac", "kuznyechik", "mac", 32, []), ("magma-mac", "magma", "mac", 32, []),
        ("gost-mac-12", "gost89", "mac", 32, ["--sbox", "tc26-z", "--key-meshing"]),
        ("kuznyechik-omac-acpkm", "kuznyechik", "omac-acpkm", 32, []),
        ("magma-omac-acpkm", "magma", "omac-acpkm", 32, []), ("kalyna-128-128-cmac", "kalyna-128-128", "cmac", 16, []),
        ("kalyna-256-512-cmac", "kalyna-256-512", "cmac", 64, []),
        ("kalyna-512-512-cmac", "kalyna-512-512", "cmac", 64, [])]


def macs_equal_to_cli(cli, rng):
    global checks
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "m")
        for name, c, mode, keyl, extra in MACS:
            for length in [1, 7, 8, 16, 17, 64, 1000, 4097] + [rng.randrange(1, 20000)]:
                key, data = rng.randbytes(keyl).hex(), rng.randbytes(length)
                pathlib.Path(f).write_bytes(data)
                a = subprocess.run([OPENSSL, "mac"] + OURS + ["-macopt", f"hexkey:{key}", "-in", f, name],
                                   capture_output=True)
                b = subprocess.run([cli, "mac", "--cipher", c, "--mode", mode, "--key", key, "--hex"] + extra,
                                   input=data.hex().encode(), capture_output=True)
                checks += 1
                tag_a, tag_b = a.stdout.strip().lower(), b.stdout.strip().lower()
                if a.returncode or b.returncode or tag_a != tag_b or len(tag_a) < 8:
                    fail(f"MAC {name} len {length}: openssl mac {tag_a!r} {a.stderr[:80]!r}, the CLI {tag_b!r}")


# (provider name, the CLI's --algo)
DIGESTS = [("md_gost12_256", "streebog-256"), ("md_gost12_512", "streebog-512"), ("streebog256", "streebog-256"),
           ("kupyna-256", "kupyna-256"), ("kupyna-384", "kupyna-384"), ("kupyna-512", "kupyna-512")]
DIGEST_LENGTHS = [0, 1, 63, 64, 65, 127, 128, 129, 1000, 4096, 65537]


def dgst(providers, name, f, env=None, key=None, how="hmac"):
    """The lowercase hex digest of file f through `openssl dgst -NAME`, or
    with a key (hex) its HMAC: how = "hmac" (-hmac, the EVP_PKEY signing
    path; the key is given as text, its hex digits) or "mac" (-mac HMAC
    -macopt hexkey:, EVP_MAC). None on failure."""
    keyed = []
    if key is not None:
        keyed = ["-hmac", key] if how == "hmac" else ["-mac", "HMAC", "-macopt", f"hexkey:{key}"]
    r = subprocess.run([OPENSSL, "dgst"] + providers + [f"-{name}"] + keyed + ["-r", f], capture_output=True, env=env)
    if r.returncode or not r.stdout:
        return None
    return r.stdout.split()[0].decode().lower()


def digests_equal_to_cli(cli, rng):
    global checks
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "m")
        for length in DIGEST_LENGTHS + [rng.randrange(1, 200000)]:
            pathlib.Path(f).write_bytes(rng.randbytes(length))
            for name, algo in DIGESTS:
                b = subprocess.run([cli, "hash", "--algo", algo, f], capture_output=True)
                want = b.stdout.split()[0].decode().lower() if b.returncode == 0 and b.stdout else None
                got = dgst(OURS, name, f)
                checks += 1
                if got is None or got != want:
                    fail(f"openssl dgst -{name} len {length}: {got} against the CLI's {want}")
            # HMAC over our digest: `openssl dgst -mac HMAC`, `openssl dgst
            # -hmac` (the key's text) and `openssl mac HMAC` agree.
            key = rng.randbytes(rng.randrange(1, 100)).hex()
            for name in ("md_gost12_256", "md_gost12_512", "kupyna-512"):
                a = dgst(OURS, name, f, key=key, how="mac")
                t = dgst(OURS, name, f, key=key.encode().hex(), how="mac")
                h = dgst(OURS, name, f, key=key, how="hmac")
                m = subprocess.run([OPENSSL, "mac"] + OURS + ["-digest", name, "-macopt", f"hexkey:{key}", "-in", f,
                                                              "HMAC"], capture_output=True)
                checks += 1
                if a is None or m.returncode or m.stdout.strip().decode().lower() != a or h is None or h != t:
                    fail(f"HMAC {name} len {length}: dgst -mac {a}, mac {m.stdout.strip()!r} {m.stderr[:80]!r}, "
                         f"dgst -hmac {h} against {t}")


GOST_CIPHERS = [("kuznyechik-ecb", 0), ("kuznyechik-cbc", 16), ("kuznyechik-cfb", 16), ("kuznyechik-ofb", 16),
                ("kuznyechik-ctr", 8), ("kuznyechik-ctr-acpkm", 8), ("magma-cbc", 8), ("magma-ctr", 4),
                ("magma-ctr-acpkm", 4), ("gost89", 8), ("gost89-cnt", 8), ("gost89-cnt-12", 8), ("gost89-cbc", 8)]
GOST_MACS = ["gost-mac", "gost-mac-12", "magma-mac", "kuznyechik-mac", "kuznyechik-ctr-acpkm-omac"]


def gostprov(gdir, rng):
    global checks
    genv = dict(os.environ, OPENSSL_MODULES=gdir)
    theirs = ["-provider", "gostprov", "-provider", "default"]
    kexp15_gostprov(genv, theirs, rng)
    for name, ivl in GOST_CIPHERS:
        for length in [0, 1, 7, 8, 15, 16, 17, 1023, 1024, 1025, 4096, 4097, 70000] + [rng.randrange(1, 9000) for _ in range(2)]:
            key, iv, data = rng.randbytes(32).hex(), rng.randbytes(ivl).hex(), rng.randbytes(length)
            tail = [f"-{name}", "-K", key] + (["-iv", iv] if ivl else [])
            rc1, a, e1 = enc(OURS + tail, data)
            rc2, b, e2 = enc(theirs + tail, data, env=genv)
            checks += 1
            if rc1 or rc2 or a != b:
                fail(f"{name} len {length}: ours and gostprov differ ({e1} / {e2})")
                continue
            # Each decrypts the other's ciphertext.
            rc1, x, e1 = enc(OURS + tail, b, decrypt=True)
            rc2, y, e2 = enc(theirs + tail, a, env=genv, decrypt=True)
            checks += 1
            if rc1 or rc2 or x != data or y != data:
                fail(f"{name} len {length}: decrypting the other's ciphertext fails ({e1} / {e2})")
    with tempfile.TemporaryDirectory() as d:
        for mac in GOST_MACS:
            for length in [0, 1, 8, 16, 17, 1024, 1025, 5000]:
                f = os.path.join(d, "m")
                pathlib.Path(f).write_bytes(rng.randbytes(length))
                key = rng.randbytes(32).hex()
                cmd = [OPENSSL, "mac", "-macopt", f"hexkey:{key}", "-in", f, mac]
                a = subprocess.run(cmd[:2] + OURS + cmd[2:], capture_output=True)
                b = subprocess.run(cmd[:2] + theirs + cmd[2:], capture_output=True, env=genv)
                checks += 1
                if length == 0 and mac.startswith("gost-mac"):
                    # GOST 28147-89 MAC of nothing: gostprov returns the zero
                    # start state (00000000 for every key, a forgeable tag);
                    # we refuse it, as the CLI and the library do.
                    if a.returncode == 0 or b.stdout.strip() != b"00000000":
                        fail(f"MAC {mac} of the empty message: ours {a.stdout!r} (must be refused), gostprov {b.stdout!r}")
                    continue
                if a.returncode or b.returncode or a.stdout != b.stdout or len(a.stdout) < 8:
                    fail(f"MAC {mac} len {length}: ours {a.stdout!r} gostprov {b.stdout!r}")
        # Digests, and HMAC over them, both `openssl dgst` ways.
        f = os.path.join(d, "m")
        for length in DIGEST_LENGTHS + [rng.randrange(1, 200000) for _ in range(2)]:
            pathlib.Path(f).write_bytes(rng.randbytes(length))
            key = rng.randbytes(rng.randrange(1, 100)).hex()
            for name in ("md_gost12_256", "md_gost12_512"):
                for k, how in ((None, ""), (key, "hmac"), (key, "mac")):
                    a = dgst(OURS, name, f, key=k, how=how)
                    b = dgst(theirs, name, f, env=genv, key=k, how=how)
                    checks += 1
                    if a is None or a != b:
                        fail(f"{name} {how} len {length}: ours {a}, gostprov {b}")


# R 1323565.1.017-2018, its examples: K, K_mac || K_enc, and per cipher (IV, export).
KEXP_K = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef"
KEXP_KEK = ("08090a0b0c0d0e0f0001020304050607101112131415161718191a1b1c1d1e1f"
            "202122232425262728292a2b2c2d2e2f38393a3b3c3d3e3f3031323334353637")
KEXP = {"kuznyechik-kexp15": ("0909472dd9f26be8", "e36184e84e8d736ff36cc2e5ae065dc656b23c20f549b02f"
                              "dff88e1f3f30d8c29a53f3ca554dbad80de152b9a4625b32"),
        "magma-kexp15": ("67bed654", "cfd5a12d5b81b6e1e99c916d07900c6ac12703fb3abded55567bf3742c899c755dafe7b42e3a8bd9")}


def enc_file(args, data, env=None, decrypt=False):
    """`openssl enc -in FILE`: from 3.5 on, enc takes a wrap-mode cipher
    (kexp15) only from a file ("Unstreamable cipher mode" on stdin)."""
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "in")
        pathlib.Path(f).write_bytes(data)
        cmd = [OPENSSL, "enc"] + (["-d"] if decrypt else []) + args + ["-in", f]
        return subprocess.run(cmd, capture_output=True, env=env)


def run_enc(args, data, env=None, decrypt=False):
    r = enc_file(args, data, env, decrypt)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace").strip().splitlines()[:1]


def kexp15_through_enc(rng):
    global checks
    for name, (ex_iv, ex_export) in KEXP.items():
        tail = [f"-{name}", "-K", KEXP_KEK, "-iv", ex_iv]
        rc1, out, e1 = run_enc(OURS + tail, bytes.fromhex(KEXP_K))
        rc2, back, e2 = run_enc(OURS + tail, bytes.fromhex(ex_export), decrypt=True)
        checks += 1
        if rc1 or rc2 or out.hex() != ex_export or back.hex() != KEXP_K:
            fail(f"{name}: the recommendation's example through openssl enc ({e1} / {e2})")
        for _ in range(20):
            kek, iv, k = rng.randbytes(64).hex(), rng.randbytes(len(ex_iv) // 2).hex(), rng.randbytes(32)
            tail = [f"-{name}", "-K", kek, "-iv", iv]
            rc1, out, e1 = run_enc(OURS + tail, k)
            rc2, back, e2 = run_enc(OURS + tail, out, decrypt=True)
            checks += 1
            if rc1 or rc2 or len(out) != len(ex_export) // 2 or back != k:
                fail(f"{name}: a random key there and back through openssl enc ({e1} / {e2})")
                continue
            bad = bytearray(out)
            bad[rng.randrange(len(bad))] ^= 1 << rng.randrange(8)
            rc, back, err = run_enc(OURS + tail, bytes(bad), decrypt=True)
            checks += 1
            if rc == 0 or back:
                fail(f"{name}: a changed export imported through openssl enc ({back.hex()})")


def kexp15_gostprov(genv, theirs, rng):
    """gostprov 3.0.1 registers no kexp15 cipher (its fetch fails); where
    one does, each imports the other's exports."""
    global checks
    for name, (ex_iv, _) in KEXP.items():
        kek, iv, k = rng.randbytes(64).hex(), rng.randbytes(len(ex_iv) // 2).hex(), rng.randbytes(32)
        tail = [f"-{name}", "-K", kek, "-iv", iv]
        r = enc_file(theirs + tail, k, env=genv)
        theirs_out = r.stdout
        checks += 1
        if r.returncode != 0:
            # The failure must be the fetch's: the cipher is not offered.
            why = r.stderr.decode(errors="replace")
            if "inner_evp_generic_fetch:unsupported" not in why or "Unknown" not in why:
                fail(f"{name}: gostprov fails otherwise than by not offering it: {why[:300]!r}")
            else:
                print(f"note: gostprov does not offer {name}: " + " | ".join(why.strip().splitlines()[::2]))
            continue
        rc1, ours_out, e1 = run_enc(OURS + tail, k)
        rc2, back, e2 = run_enc(theirs + tail, ours_out, env=genv, decrypt=True)
        checks += 1
        if rc1 or rc2 or back != k:
            fail(f"{name}: gostprov does not import our export ({e1} / {e2})")
        if theirs_out:
            rc, back, err = run_enc(OURS + tail, theirs_out, decrypt=True)
            checks += 1
            if rc or back != k:
                fail(f"{name}: we do not import gostprov's export {err}")


def main():
    if len(sys.argv) not in (4, 6):
        sys.exit(__doc__)
    rng = random.Random(int.from_bytes(os.urandom(8), "little"))
    vectors(sys.argv[1])
    equal_to_cli(sys.argv[2], rng, sys.argv[3])
    macs_equal_to_cli(sys.argv[2], rng)
    digests_equal_to_cli(sys.argv[2], rng)
    kexp15_through_enc(rng)
    if len(sys.argv) == 6:
        gostprov(sys.argv[5], rng)
    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
