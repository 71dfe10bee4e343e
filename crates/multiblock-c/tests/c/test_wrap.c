/*
 * Key export and key wrap of include/multiblock.h from C: KExp15/KImp15 on
 * the examples of R 1323565.1.017-2018 Appendix B (Magma, Kuznyechik) and
 * Dstu7624Wrap on UAPKI's self-test vector; size queries; a random-IV
 * wrap and back; a changed byte refused with nothing written.
 *
 * Usage: test_wrap. Prints one line per failure and a closing
 * "N passed, N failed"; exits 1 on any failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "multiblock.h"

static unsigned long passed, failed;

static void check(int ok, const char *where, const char *what, int rc) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    fprintf(stderr, "FAIL %s: %s (status %d: %s; last error: %s)\n", where, what, rc, mb_strerror(rc),
            mb_last_error());
}

static size_t unhex(const char *s, uint8_t *out) {
    size_t n = strlen(s) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(s + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
    return n;
}

static const char *KEY = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
static const char *KEK_MAC = "08090a0b0c0d0e0f0001020304050607101112131415161718191a1b1c1d1e1f";
static const char *KEK_ENC = "202122232425262728292a2b2c2d2e2f38393a3b3c3d3e3f3031323334353637";

static void kexp15_example(const char *cipher, const char *iv_hex, const char *export_hex) {
    uint8_t key[32], enc[32], mac[32], iv[8], want[48], out[64];
    unhex(KEY, key);
    unhex(KEK_ENC, enc);
    unhex(KEK_MAC, mac);
    size_t iv_len = unhex(iv_hex, iv), want_len = unhex(export_hex, want);

    size_t len = 0;
    int rc = mb_kexp15(cipher, key, 32, enc, 32, mac, 32, iv, iv_len, NULL, &len);
    check(rc == MB_ERR_BUFFER_TOO_SMALL && len == want_len, cipher, "size query of the export", rc);
    len = sizeof out;
    rc = mb_kexp15(cipher, key, 32, enc, 32, mac, 32, iv, iv_len, out, &len);
    check(rc == MB_OK && len == want_len && memcmp(out, want, len) == 0, cipher, "the published export", rc);
    len = sizeof out;
    rc = mb_kimp15(cipher, want, want_len, enc, 32, mac, 32, iv, iv_len, out, &len);
    check(rc == MB_OK && len == 32 && memcmp(out, key, 32) == 0, cipher, "import of the published export", rc);

    want[want_len - 1] ^= 1;
    memset(out, 0xee, sizeof out);
    len = sizeof out;
    rc = mb_kimp15(cipher, want, want_len, enc, 32, mac, 32, iv, iv_len, out, &len);
    check(rc == MB_ERR_AUTHENTICATION && len == 0 && out[0] == 0xee, cipher, "a changed byte is refused", rc);
}

static void dstu7624_example(void) {
    uint8_t kek[32], iv[32], key[32], want[96], out[96], back[32];
    unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", kek);
    unhex("202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f", iv);
    unhex("1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100", key);
    unhex("7b74fcbf080464f81bf8eaf10621b624a4f053446128396cc2f529bd3e2078da"
          "d6bc0b4c5aaf47711d1be5cdc0d4849ec50dc4484f7cf393bc7f5f3e8a8728ca"
          "13ddaee30c297d6c82c8751e533a3e7591e7d400b89ae64237f692ec892333cd", want);

    size_t len = sizeof out;
    int rc = mb_dstu7624_wrap(kek, 32, key, 32, iv, 32, out, &len);
    check(rc == MB_OK && len == MB_DSTU7624_WRAPPED_BYTES && memcmp(out, want, 96) == 0, "dstu7624", "the self-test vector", rc);
    len = sizeof out;
    rc = mb_dstu7624_wrap(kek, 32, key, 32, NULL, 0, out, &len);
    check(rc == MB_OK && len == 96 && memcmp(out, want, 96) != 0, "dstu7624", "a random IV", rc);
    len = sizeof back;
    rc = mb_dstu7624_unwrap(kek, 32, out, 96, back, &len);
    check(rc == MB_OK && len == 32 && memcmp(back, key, 32) == 0, "dstu7624", "unwrap of a random-IV wrap", rc);
    out[40] ^= 4;
    len = sizeof back;
    rc = mb_dstu7624_unwrap(kek, 32, out, 96, back, &len);
    check(rc == MB_ERR_AUTHENTICATION && len == 0, "dstu7624", "a changed byte is refused", rc);
    len = sizeof back;
    rc = mb_dstu7624_unwrap(kek, 32, want, 95, back, &len);
    check(rc == MB_ERR_PARAM, "dstu7624", "a wrapped key of 95 bytes", rc);
}

/* UAPKI's GOST 28147-89 key wrap self-test (S-box dstu4145, the NULL default). */
static void gost28147_example(void) {
    uint8_t kek[32], iv[8], key[32], want[44], out[44], back[32];
    unhex("01000000010000000100000001000000ffffffffffffffffffffffffffffffff", kek);
    unhex("f477da7aa6424a88", iv);
    unhex("01020304010203040102030401020304f1f2f3f4f5f6f7f8f1f2f3f4f5f6f7f8", key);
    unhex("52a513f1b4172ca6b5f1b8a03ca9a4e0acb6e00e11e5e9bcdd446222eb97238dc3e4e24d2ec03e05a568ec51", want);

    size_t len = sizeof out;
    int rc = mb_gost28147_wrap(NULL, kek, 32, key, 32, iv, 8, out, &len);
    check(rc == MB_OK && len == MB_GOST28147_WRAPPED_BYTES && memcmp(out, want, 44) == 0, "gost28147", "the self-test vector", rc);
    len = sizeof out;
    rc = mb_gost28147_wrap("dstu4145", kek, 32, key, 32, NULL, 0, out, &len);
    check(rc == MB_OK && len == 44 && memcmp(out, want, 44) != 0, "gost28147", "a random IV", rc);
    len = sizeof back;
    rc = mb_gost28147_unwrap(NULL, kek, 32, out, 44, back, &len);
    check(rc == MB_OK && len == 32 && memcmp(back, key, 32) == 0, "gost28147", "unwrap of a random-IV wrap", rc);
    out[20] ^= 4;
    len = sizeof back;
    rc = mb_gost28147_unwrap(NULL, kek, 32, out, 44, back, &len);
    check(rc == MB_ERR_AUTHENTICATION && len == 0, "gost28147", "a changed byte is refused", rc);
    len = sizeof back;
    rc = mb_gost28147_unwrap(NULL, kek, 32, want, 43, back, &len);
    check(rc == MB_ERR_PARAM, "gost28147", "a wrapped key of 43 bytes", rc);
}

int main(void) {
    kexp15_example("magma", "67bed654",
                   "cfd5a12d5b81b6e1e99c916d07900c6ac12703fb3abded55567bf3742c899c755dafe7b42e3a8bd9");
    kexp15_example("kuznyechik", "0909472dd9f26be8",
                   "e36184e84e8d736ff36cc2e5ae065dc656b23c20f549b02fdff88e1f3f30d8c29a53f3ca554dbad80de152b9a4625b32");
    dstu7624_example();
    gost28147_example();
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
