/*
 * Runs every vector of crates/multiblock/vectors through include/multiblock.h, plus
 * random round trips, a cross-check against the `reference` backend, many
 * messages at once against one at a time, and
 * error cases (wrong key length, bad names, short buffers, a failed AEAD tag).
 *
 * Usage: test_vectors VECTORS.txt   (made by vectors_to_lines.py)
 * Prints one line per failure and a closing "N passed, N failed"; exits 1 on
 * any failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multiblock.h"

static unsigned long passed, failed;

/* One check; on failure, says where and what, with the library's message. */
static void check(int ok, const char *where, const char *what, int rc) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    fprintf(stderr, "FAIL %s: %s (status %d: %s; last error: %s)\n", where, what, rc, mb_strerror(rc),
            mb_last_error());
}

/* ---- a vector line ----------------------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t len;
    int given;
} bytes;

typedef struct {
    char cipher[32], mode[32], sbox[32], src[64];
    bytes key, iv, aad, pt, ct, tag;
    unsigned long iterations;
    mb_params params;
} vector;

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

static int parse_hex(const char *s, bytes *out) {
    size_t n = strlen(s);
    if (n % 2) return 0;
    out->p = xmalloc(n / 2);
    out->len = n / 2;
    out->given = 1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return 0;
        out->p[i] = (uint8_t)(hi << 4 | lo);
    }
    return 1;
}

static int copy_name(char *dst, size_t cap, const char *s) {
    if (strlen(s) >= cap) return 0;
    strcpy(dst, s);
    return 1;
}

/* Parses one line of vectors_to_lines.py; 0 on a malformed line. */
static int parse_line(char *line, vector *v) {
    memset(v, 0, sizeof *v);
    v->iterations = 1;
    for (char *tok = strtok(line, " \n"); tok; tok = strtok(NULL, " \n")) {
        char *eq = strchr(tok, '=');
        if (!eq) return 0;
        *eq = 0;
        const char *k = tok, *val = eq + 1;
        int ok = 1;
        if (!strcmp(k, "cipher")) ok = copy_name(v->cipher, sizeof v->cipher, val);
        else if (!strcmp(k, "mode")) ok = copy_name(v->mode, sizeof v->mode, val);
        else if (!strcmp(k, "sbox")) ok = copy_name(v->sbox, sizeof v->sbox, val);
        else if (!strcmp(k, "src")) ok = copy_name(v->src, sizeof v->src, val);
        else if (!strcmp(k, "key")) ok = parse_hex(val, &v->key);
        else if (!strcmp(k, "iv")) ok = parse_hex(val, &v->iv);
        else if (!strcmp(k, "aad")) ok = parse_hex(val, &v->aad);
        else if (!strcmp(k, "pt")) ok = parse_hex(val, &v->pt);
        else if (!strcmp(k, "ct")) ok = parse_hex(val, &v->ct);
        else if (!strcmp(k, "tag")) ok = parse_hex(val, &v->tag);
        else if (!strcmp(k, "iterations")) v->iterations = strtoul(val, NULL, 10);
        else if (!strcmp(k, "s")) v->params.s = strtoul(val, NULL, 10);
        else if (!strcmp(k, "m")) v->params.m = strtoul(val, NULL, 10);
        else if (!strcmp(k, "mac_bits")) v->params.mac_bits = strtoul(val, NULL, 10);
        else if (!strcmp(k, "tag_bits")) v->params.tag_bits = strtoul(val, NULL, 10);
        else if (!strcmp(k, "section_bytes")) v->params.section_bytes = strtoul(val, NULL, 10);
        else if (!strcmp(k, "key_section_bytes")) v->params.key_section_bytes = strtoul(val, NULL, 10);
        else if (!strcmp(k, "nb")) v->params.nb = strtoul(val, NULL, 10);
        else return 0;
        if (!ok) return 0;
    }
    if (v->sbox[0]) v->params.sbox = v->sbox;
    return v->cipher[0] && v->mode[0] && v->key.given && v->iterations > 0;
}

static void free_vector(vector *v) {
    bytes *all[] = {&v->key, &v->iv, &v->aad, &v->pt, &v->ct, &v->tag};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]->p);
}

/* ---- what a mode does (from the standards' mode lists) ---------------- */

enum kind { CIPHER, AEAD, MAC, KEYWRAP };

static enum kind kind_of(const char *mode) {
    const char *macs[] = {"mac", "omac-acpkm", "cmac", "gmac"};
    const char *aeads[] = {"mgm", "gcm", "ccm"};
    for (size_t i = 0; i < 4; i++)
        if (!strcmp(mode, macs[i])) return MAC;
    for (size_t i = 0; i < 3; i++)
        if (!strcmp(mode, aeads[i])) return AEAD;
    return strcmp(mode, "kw") ? CIPHER : KEYWRAP;
}

/* Modes that take any data length (the others: whole blocks). */
static int any_length(const char *mode) {
    const char *s[] = {"ctr", "ofb", "cfb", "cnt", "ctr-acpkm", "mgm", "gcm", "ccm", "xts"};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        if (!strcmp(mode, s[i])) return 1;
    return 0;
}

/* ---- calls through the header ----------------------------------------- */

#define CANARY 0xA5

/* mb_encrypt (enc = 1) or mb_decrypt (0) into a fresh buffer of `cap`
 * bytes filled with CANARY (cap 0: out = NULL, a size query); returns the
 * status and the buffer (caller frees). */
static int crypt(int enc, const vector *v, const bytes *key, const bytes *iv, const bytes *aad,
                 const mb_params *p, const uint8_t *data, size_t len, size_t cap, uint8_t **out,
                 size_t *out_len) {
    *out = xmalloc(cap);
    memset(*out, CANARY, cap);
    *out_len = cap;
    uint8_t *dst = cap ? *out : NULL;
    if (enc)
        return mb_encrypt(v->cipher, v->mode, key->p, key->len, iv->given ? iv->p : NULL, iv->len,
                          aad->p, aad->len, p, data, len, dst, out_len);
    return mb_decrypt(v->cipher, v->mode, key->p, key->len, iv->given ? iv->p : NULL, iv->len, aad->p,
                      aad->len, p, data, len, dst, out_len);
}

static int same(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

static int all_canary(const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != CANARY) return 0;
    return 1;
}

/* ---- vectors ------------------------------------------------------------ */

/* ECB through the handle (auto and reference backends, Monte-Carlo
 * iterations), and through the one-shot "ecb" mode. */
static void run_ecb(const vector *v) {
    const char *backends[] = {NULL, "reference"};
    for (int b = 0; b < 2; b++) {
        mb_cipher *c = NULL;
        int rc = mb_cipher_new(&c, v->cipher, v->key.p, v->key.len, v->sbox[0] ? v->sbox : NULL, backends[b]);
        check(rc == MB_OK && c, v->src, "mb_cipher_new", rc);
        if (!c) continue;
        uint8_t *buf = xmalloc(v->pt.len);
        rc = mb_cipher_encrypt_blocks(c, v->pt.p, buf, v->pt.len); /* out of place */
        for (unsigned long i = 1; rc == MB_OK && i < v->iterations; i++)
            rc = mb_cipher_encrypt_blocks(c, buf, buf, v->pt.len); /* in place */
        check(rc == MB_OK && same(buf, v->pt.len, v->ct.p, v->ct.len), v->src, b ? "ECB encrypt (reference)" : "ECB encrypt", rc);
        for (unsigned long i = 0; rc == MB_OK && i < v->iterations; i++)
            rc = mb_cipher_decrypt_blocks(c, buf, buf, v->pt.len);
        check(rc == MB_OK && same(buf, v->pt.len, v->pt.p, v->pt.len), v->src, b ? "ECB decrypt (reference)" : "ECB decrypt", rc);
        if (b) check(!strcmp(mb_cipher_backend(c), "reference"), v->src, "forced backend name", MB_OK);
        free(buf);
        mb_cipher_free(c);
    }
    if (v->iterations == 1) {
        uint8_t *out;
        size_t len;
        int rc = crypt(1, v, &v->key, &v->iv, &v->aad, &v->params, v->pt.p, v->pt.len, v->pt.len, &out, &len);
        check(rc == MB_OK && same(out, len, v->ct.p, v->ct.len), v->src, "one-shot ecb encrypt", rc);
        free(out);
        rc = crypt(0, v, &v->key, &v->iv, &v->aad, &v->params, v->ct.p, v->ct.len, v->ct.len, &out, &len);
        check(rc == MB_OK && same(out, len, v->pt.p, v->pt.len), v->src, "one-shot ecb decrypt", rc);
        free(out);
    }
}

/* Checks that opening the (altered) `sealed` fails with
 * MB_ERR_AUTHENTICATION, writes nothing and sets *out_len to 0. */
static void check_rejected(const vector *v, const uint8_t *sealed, size_t n, const bytes *aad, const char *what) {
    uint8_t *out;
    size_t len;
    int rc = crypt(0, v, &v->key, &v->iv, aad, &v->params, sealed, n, n + 64, &out, &len);
    check(rc == MB_ERR_AUTHENTICATION && len == 0 && all_canary(out, n + 64), v->src, what, rc);
    free(out);
}

static void run_mode(const vector *v) {
    enum kind k = kind_of(v->mode);
    uint8_t *out;
    size_t len;
    int rc;
    if (k == MAC) {
        uint8_t tag[MB_MAX_BLOCK_BYTES];
        len = sizeof tag;
        rc = mb_mac(v->cipher, v->mode, v->key.p, v->key.len, v->iv.given ? v->iv.p : NULL, v->iv.len,
                    &v->params, v->pt.p, v->pt.len, tag, &len);
        check(rc == MB_OK && same(tag, len, v->tag.p, v->tag.len), v->src, "mac", rc);
        rc = crypt(1, v, &v->key, &v->iv, &v->aad, &v->params, v->pt.p, v->pt.len, 256, &out, &len);
        check(rc == MB_ERR_PARAM, v->src, "a MAC mode refused by mb_encrypt", rc);
        free(out);
        return;
    }
    /* What encrypt must give: ct, or ct || tag. */
    size_t sealed_len = v->ct.len + (k == AEAD ? v->tag.len : 0);
    uint8_t *sealed = xmalloc(sealed_len);
    if (v->ct.len) memcpy(sealed, v->ct.p, v->ct.len);
    if (k == AEAD && v->tag.len) memcpy(sealed + v->ct.len, v->tag.p, v->tag.len);

    /* Size query first, then the real call with exactly that size. */
    rc = crypt(1, v, &v->key, &v->iv, &v->aad, &v->params, v->pt.p, v->pt.len, 0, &out, &len);
    check(rc == MB_ERR_BUFFER_TOO_SMALL && len == sealed_len, v->src, "size query", rc);
    free(out);
    rc = crypt(1, v, &v->key, &v->iv, &v->aad, &v->params, v->pt.p, v->pt.len, sealed_len, &out, &len);
    check(rc == MB_OK && same(out, len, sealed, sealed_len), v->src, "encrypt", rc);
    free(out);
    mb_params ref = v->params;
    ref.backend = "reference";
    rc = crypt(1, v, &v->key, &v->iv, &v->aad, &ref, v->pt.p, v->pt.len, sealed_len, &out, &len);
    check(rc == MB_OK && same(out, len, sealed, sealed_len), v->src, "encrypt (reference backend)", rc);
    free(out);
    rc = crypt(0, v, &v->key, &v->iv, &v->aad, &v->params, sealed, sealed_len, sealed_len, &out, &len);
    check(rc == MB_OK && same(out, len, v->pt.p, v->pt.len), v->src, "decrypt", rc);
    free(out);

    if (k == AEAD || k == KEYWRAP) {
        sealed[sealed_len - 1] ^= 0x01; /* the tag (AEAD) or the last wrapped block */
        check_rejected(v, sealed, sealed_len, &v->aad, "changed tag rejected");
        sealed[sealed_len - 1] ^= 0x01;
        sealed[0] ^= 0x80;
        check_rejected(v, sealed, sealed_len, &v->aad, "changed first byte rejected");
        sealed[0] ^= 0x80;
        if (k == AEAD && v->aad.len) {
            bytes aad = v->aad;
            aad.p = xmalloc(aad.len);
            memcpy(aad.p, v->aad.p, aad.len);
            aad.p[aad.len / 2] ^= 0x10;
            check_rejected(v, sealed, sealed_len, &aad, "changed aad rejected");
            free(aad.p);
        }
    }
    free(sealed);
}

/* ---- random round trips ------------------------------------------------ */

static uint64_t rng_state = 0x243F6A8885A308D3u;

static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static bytes random_like(const bytes *b) {
    bytes r = {xmalloc(b->len), b->len, b->given};
    for (size_t i = 0; i < b->len; i++) r.p[i] = (uint8_t)rng();
    return r;
}

/* With the vector's cipher, mode and parameters but random key, IV, aad and
 * data of several lengths: decrypt(encrypt(x)) == x, the output has the
 * size the mode gives, and the reference backend agrees. */
static void round_trips(const vector *v) {
    enum kind k = kind_of(v->mode);
    if (k == MAC) return;
    size_t n = 0;
    mb_cipher_sizes(v->cipher, &n, NULL);
    bytes key = random_like(&v->key), iv = random_like(&v->iv), aad = random_like(&v->aad);
    mb_params ref = v->params;
    ref.backend = "reference";
    for (size_t blocks = 1; blocks <= 5; blocks++) {
        size_t len = blocks * n + (any_length(v->mode) ? (size_t)(rng() % n) : 0);
        bytes data = {NULL, len, 1};
        data = random_like(&data);
        size_t expect = len + (k == AEAD ? v->tag.len : k == KEYWRAP ? n : 0);
        uint8_t *c1, *c2, *back;
        size_t l1, l2, lb;
        int rc = crypt(1, v, &key, &iv, &aad, &v->params, data.p, len, len + 2 * n, &c1, &l1);
        check(rc == MB_OK && l1 == expect, v->src, "random round trip: encrypt and its length", rc);
        int rc2 = crypt(1, v, &key, &iv, &aad, &ref, data.p, len, len + 2 * n, &c2, &l2);
        check(rc2 == MB_OK && rc == MB_OK && same(c1, l1, c2, l2), v->src, "random: reference backend agrees", rc2);
        rc = crypt(0, v, &key, &iv, &aad, &v->params, c1, l1, l1, &back, &lb);
        check(rc == MB_OK && same(back, lb, data.p, len), v->src, "random round trip: decrypt", rc);
        free(c1);
        free(c2);
        free(back);
        free(data.p);
    }
    free(key.p);
    free(iv.p);
    free(aad.p);
}

/* ECB and CBC with the reversible paddings, at every length up to 2 blocks. */
static void padding_round_trips(const vector *v) {
    if (strcmp(v->mode, "ecb") && strcmp(v->mode, "cbc")) return;
    if (v->iterations != 1) return;
    size_t n = 0;
    mb_cipher_sizes(v->cipher, &n, NULL);
    int paddings[] = {MB_PADDING_GOST2, MB_PADDING_PKCS7};
    for (int pi = 0; pi < 2; pi++) {
        mb_params p = v->params;
        p.padding = paddings[pi];
        int ok = 1, bad_rc = MB_OK;
        for (size_t len = 0; len <= 2 * n; len++) {
            bytes data = {NULL, len, 1};
            data = random_like(&data);
            uint8_t *c, *back;
            size_t lc, lb;
            int rc = crypt(1, v, &v->key, &v->iv, &v->aad, &p, data.p, len, len + 2 * n, &c, &lc);
            int rc2 = crypt(0, v, &v->key, &v->iv, &v->aad, &p, c, lc, lc, &back, &lb);
            if (rc != MB_OK || rc2 != MB_OK || lc != (len / n + 1) * n || !same(back, lb, data.p, len)) {
                ok = 0;
                bad_rc = rc != MB_OK ? rc : rc2;
            }
            free(c);
            free(back);
            free(data.p);
        }
        check(ok, v->src, pi ? "pkcs7 padding round trips" : "gost2 padding round trips", bad_rc);
    }
}

/* ---- many messages at once --------------------------------------------- */

/* The vector's message among random ones of related lengths (so a mode
 * that takes whole blocks still gets whole blocks) through mb_mac_many /
 * mb_encrypt_many: the vector's tag or ciphertext in its place, and every
 * other result equal to the one-message call. */
static void many_streams(const vector *v) {
    enum kind k = kind_of(v->mode);
    if ((k != MAC && k != CIPHER) || v->iterations != 1) return;
    size_t n = 0;
    mb_cipher_sizes(v->cipher, &n, NULL);
    enum { COUNT = 5, MINE = 2 };
    size_t lens[COUNT] = {v->pt.len, v->pt.len + n, 0, 3 * v->pt.len + 7 * n, v->pt.len + 2 * n};
    bytes msgs[COUNT];
    const uint8_t *ptrs[COUNT];
    size_t total = 0;
    for (int i = 0; i < COUNT; i++) {
        bytes b = {NULL, lens[i], 1};
        msgs[i] = i == MINE ? v->pt : random_like(&b);
        ptrs[i] = msgs[i].p;
        lens[i] = msgs[i].len;
        total += lens[i] + 2 * MB_MAX_BLOCK_BYTES;
    }
    const uint8_t *iv = v->iv.given ? v->iv.p : NULL;
    uint8_t *out = xmalloc(total), *one = xmalloc(total);
    size_t out_len = total, out_lens[COUNT] = {0};
    int rc = k == MAC ? mb_mac_many(v->cipher, v->mode, v->key.p, v->key.len, iv, v->iv.len, &v->params, COUNT,
                                    ptrs, lens, out, &out_len)
                      : mb_encrypt_many(v->cipher, v->mode, v->key.p, v->key.len, iv, v->iv.len, &v->params,
                                        COUNT, ptrs, lens, out, &out_len, out_lens);
    check(rc == MB_OK, v->src, "many streams", rc);
    size_t at = 0;
    for (int i = 0; rc == MB_OK && i < COUNT; i++) {
        size_t len = total;
        int rc1 = k == MAC ? mb_mac(v->cipher, v->mode, v->key.p, v->key.len, iv, v->iv.len, &v->params, ptrs[i],
                                    lens[i], one, &len)
                           : mb_encrypt(v->cipher, v->mode, v->key.p, v->key.len, iv, v->iv.len, NULL, 0,
                                        &v->params, ptrs[i], lens[i], one, &len);
        size_t got = k == MAC ? len : out_lens[i];
        int ok = rc1 == MB_OK && at + got <= out_len && same(out + at, got, one, len);
        if (i == MINE) {
            const bytes *want = k == MAC ? &v->tag : &v->ct;
            ok = ok && same(out + at, got, want->p, want->len);
        }
        check(ok, v->src, i == MINE ? "many streams: the vector's result" : "many streams: equals one message", rc1);
        at += got;
    }
    check(rc != MB_OK || at == out_len, v->src, "many streams: *out_len is the sum", rc);
    for (int i = 0; i < COUNT; i++)
        if (i != MINE) free(msgs[i].p);
    free(out);
    free(one);
}

/* ---- errors ------------------------------------------------------------- */

static void error_cases(void) {
    const char *ciphers[] = {"kalyna-128-128", "kalyna-256-512", "kalyna-512-512", "kuznyechik",
                             "magma", "gost89", "ublock-128-128", "ublock-256-256"};
    uint8_t key[65] = {0}, data[64] = {0}, out[256];
    char want[64];
    for (size_t i = 0; i < sizeof ciphers / sizeof ciphers[0]; i++) {
        size_t n = 0, kb = 0;
        int rc = mb_cipher_sizes(ciphers[i], &n, &kb);
        check(rc == MB_OK && n >= 8 && kb >= 16, ciphers[i], "mb_cipher_sizes", rc);
        snprintf(want, sizeof want, "needs a key of %zu bytes", kb);
        size_t wrong[] = {0, kb - 1, kb + 1};
        for (size_t w = 0; w < 3; w++) {
            mb_cipher *c = (mb_cipher *)1; /* must come back NULL */
            rc = mb_cipher_new(&c, ciphers[i], key, wrong[w], NULL, NULL);
            check(rc == MB_ERR_KEY_LENGTH && c == NULL && strstr(mb_last_error(), want), ciphers[i],
                  "wrong key length: mb_cipher_new", rc);
            size_t len = sizeof out;
            rc = mb_encrypt(ciphers[i], "ecb", key, wrong[w], NULL, 0, NULL, 0, NULL, data, n, out, &len);
            check(rc == MB_ERR_KEY_LENGTH && len == 0 && strstr(mb_last_error(), want), ciphers[i],
                  "wrong key length: mb_encrypt", rc);
        }
        size_t len = sizeof out;
        rc = mb_encrypt(ciphers[i], "ecb", key, kb, NULL, 0, NULL, 0, NULL, data, n - 1, out, &len);
        check(rc == MB_ERR_DATA_LENGTH, ciphers[i], "partial block in ECB", rc);
        len = sizeof out;
        rc = mb_encrypt(ciphers[i], "no-such-mode", key, kb, NULL, 0, NULL, 0, NULL, data, n, out, &len);
        check(rc == MB_ERR_UNKNOWN_MODE && strstr(mb_last_error(), "no-such-mode"), ciphers[i], "unknown mode", rc);
    }
    size_t len = sizeof out;
    int rc = mb_encrypt("rijndael", "ecb", key, 16, NULL, 0, NULL, 0, NULL, data, 16, out, &len);
    check(rc == MB_ERR_UNKNOWN_CIPHER && strstr(mb_last_error(), "kuznyechik"), "errors", "unknown cipher lists the known ones", rc);
    rc = mb_encrypt("kuznyechik", "ecb", key, 32, NULL, 0, NULL, 0, NULL, data, 16, out, NULL);
    check(rc == MB_ERR_NULL_POINTER, "errors", "NULL out_len", rc);
    check(strcmp(mb_strerror(MB_ERR_AUTHENTICATION), mb_strerror(MB_ERR_PARAM)) != 0, "errors",
          "distinct messages", MB_OK);
    mb_cipher *c = NULL;
    rc = mb_cipher_new(&c, "magma", key, 32, "cryptopro-a", NULL);
    check(rc == MB_ERR_SBOX_NOT_APPLICABLE && c == NULL, "errors", "magma takes only tc26-z", rc);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s VECTORS.txt (from vectors_to_lines.py)\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    static char line[1 << 16];
    unsigned long count = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strchr(line, '\n')) {
            fprintf(stderr, "line %lu is too long\n", count + 1);
            return 2;
        }
        vector v;
        if (!parse_line(line, &v)) {
            fprintf(stderr, "line %lu is malformed\n", count + 1);
            return 2;
        }
        count++;
        if (!strcmp(v.mode, "ecb")) run_ecb(&v);
        else run_mode(&v);
        round_trips(&v);
        padding_round_trips(&v);
        many_streams(&v);
        free_vector(&v);
    }
    fclose(f);
    error_cases();
    printf("%lu vectors from %s (library %s)\n", count, argv[1], mb_version());
    if (count == 0) {
        fprintf(stderr, "FAIL: no vectors\n");
        failed++;
    }
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
