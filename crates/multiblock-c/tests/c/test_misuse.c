/*
 * The header's promises under misuse, called from C: a declared AEAD
 * text_len binds every mode, counts and lengths no memory holds are status
 * codes (never an abort or a crash), a size query or a short buffer at a
 * stream's final keeps its last output, many messages at once refuse
 * the AEAD modes and key wrap with the reason, the KDFs and TLSTREE take
 * only 32-byte keys, and HMAC takes the empty key.
 *
 * Usage: test_misuse   (no arguments; run it also under ASan/UBSan and
 * valgrind: scripts/ci/c.sh). Prints one line per failure and a closing
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

static void fill(uint8_t *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(seed * 131u + i * 7u + (i >> 8));
}

static int all_bytes(const uint8_t *p, size_t n, uint8_t value) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != value) return 0;
    return 1;
}

/* ---- a declared AEAD text_len binds every mode -------------------------- */

typedef struct {
    const char *cipher, *mode;
    size_t key_len, iv_len;
} aead_case;

static const aead_case AEAD[] = {
    {"kuznyechik", "mgm", 32, 16},
    {"magma", "mgm", 32, 8},
    {"kalyna-128-128", "gcm", 16, 16},
    {"kalyna-256-512", "gcm", 64, 32},
    {"kalyna-128-256", "ccm", 32, 16},
};

/* Encrypts (or decrypts, the tag in the input) `in_len` bytes of `in` in one
 * update after declaring 200; returns the update's status and, when it
 * passed, final's; *written = bytes written by both, *tag_len = the tag's. */
static int aead_with_length(const aead_case *c, int encrypt, const uint8_t *in, size_t in_len, int *update_rc,
                            size_t *written, size_t *tag_len) {
    uint8_t key[64], iv[64], out[512], last[64], tag[64];
    fill(key, c->key_len, 1);
    fill(iv, c->iv_len, 2);
    iv[0] &= 0x7f; /* MGM: the nonce's first bit is 0 */
    mb_aead_stream *s = NULL;
    int rc = mb_aead_stream_new(&s, encrypt, c->cipher, c->mode, key, c->key_len, iv, c->iv_len, NULL, 0, NULL, 200,
                                NULL, 0);
    check(rc == MB_OK, c->mode, "mb_aead_stream_new", rc);
    size_t out_len = sizeof out;
    *update_rc = mb_aead_stream_update(s, in, in_len, out, &out_len);
    *written = out_len;
    size_t last_len = sizeof last;
    *tag_len = encrypt ? sizeof tag : 0;
    rc = mb_aead_stream_final(s, last, &last_len, tag, tag_len);
    *written += last_len;
    if (rc != MB_OK) check(last_len == 0 && *tag_len == 0, c->mode, "a failed final writes nothing", rc);
    /* Spent either way. */
    size_t again_len = sizeof last, again_tag = sizeof tag;
    int again = mb_aead_stream_final(s, last, &again_len, tag, &again_tag);
    check(again == MB_ERR_PARAM, c->mode, "the handle is spent after final", again);
    mb_aead_stream_free(s);
    return rc;
}

static void test_aead_text_len(void) {
    uint8_t pt[300], sealed[300];
    fill(pt, sizeof pt, 3);
    for (size_t i = 0; i < sizeof AEAD / sizeof AEAD[0]; i++) {
        const aead_case *c = &AEAD[i];
        int urc, rc;
        size_t written, tag_len;
        char where[64];
        snprintf(where, sizeof where, "%s %s", c->cipher, c->mode);
        /* Exactly 200: fine. */
        rc = aead_with_length(c, 1, pt, 200, &urc, &written, &tag_len);
        check(urc == MB_OK && rc == MB_OK && written == 200, where, "200 bytes declared and fed", rc);
        /* 199: final refuses, no last bytes, no tag. */
        rc = aead_with_length(c, 1, pt, 199, &urc, &written, &tag_len);
        check(urc == MB_OK && rc == MB_ERR_PARAM && tag_len == 0, where, "199 bytes of 200 declared: final fails", rc);
        /* 201: the update refuses and writes nothing; final too. */
        rc = aead_with_length(c, 1, pt, 201, &urc, &written, &tag_len);
        check(urc == MB_ERR_PARAM && written == 0, where, "201 bytes of 200 declared: the update fails", urc);
        check(rc == MB_ERR_PARAM && tag_len == 0, where, "201 bytes of 200 declared: no tag", rc);

        /* Decryption, the tag in the input: 200 + tag bytes exactly. */
        uint8_t key[64], iv[64];
        fill(key, c->key_len, 1);
        fill(iv, c->iv_len, 2);
        iv[0] &= 0x7f;
        size_t sealed_len = sizeof sealed;
        rc = mb_encrypt(c->cipher, c->mode, key, c->key_len, iv, c->iv_len, NULL, 0, NULL, pt, 200, sealed,
                        &sealed_len);
        check(rc == MB_OK, where, "mb_encrypt", rc);
        rc = aead_with_length(c, 0, sealed, sealed_len, &urc, &written, &tag_len);
        check(urc == MB_OK && rc == MB_OK && written == 200, where, "decryption of the declared length", rc);
        rc = aead_with_length(c, 0, sealed, sealed_len - 1, &urc, &written, &tag_len);
        check(rc == MB_ERR_PARAM, where, "decryption one byte short: MB_ERR_PARAM", rc);
        sealed[sealed_len] = 0;
        rc = aead_with_length(c, 0, sealed, sealed_len + 1, &urc, &written, &tag_len);
        check(urc == MB_ERR_PARAM && written == 0 && rc == MB_ERR_PARAM, where, "decryption one byte over", urc);
    }
}

/* ---- counts and lengths no memory holds ------------------------------- */

static void test_impossible_sizes(void) {
    uint8_t key[32], iv[16], buf[64];
    fill(key, sizeof key, 4);
    fill(iv, sizeof iv, 5);
    const uint8_t *ptrs[1] = {buf};
    size_t lens[1] = {16}, out_lens[1];
    const size_t counts[] = {(size_t)1 << 40, (size_t)1 << 59, SIZE_MAX / 2 + 1, SIZE_MAX};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        memset(buf, 0xA5, sizeof buf);
        size_t out_len = 32;
        int rc = mb_mac_many("kuznyechik", "mac", key, 32, NULL, 0, NULL, counts[i], ptrs, lens, buf + 32, &out_len);
        check(rc == MB_ERR_PARAM && out_len == 0, "mb_mac_many", "a count no memory holds", rc);
        out_len = 32;
        rc = mb_encrypt_many("kuznyechik", "cbc", key, 32, iv, 16, NULL, counts[i], ptrs, lens, buf + 32, &out_len,
                             out_lens);
        check(rc == MB_ERR_PARAM && out_len == 0, "mb_encrypt_many", "a count no memory holds", rc);
        check(all_bytes(buf + 32, 32, 0xA5), "mb_encrypt_many", "nothing written", rc);
    }

    mb_cipher *c = NULL;
    int rc = mb_cipher_new(&c, "kuznyechik", key, 32, NULL, NULL);
    check(rc == MB_OK, "mb_cipher_new", "kuznyechik", rc);
    const size_t huge[] = {SIZE_MAX / 2 + 1, SIZE_MAX - 15, SIZE_MAX};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        memset(buf, 0x5A, sizeof buf);
        rc = mb_cipher_encrypt_blocks(c, buf, buf, huge[i]);
        check(rc == MB_ERR_PARAM, "mb_cipher_encrypt_blocks", "a length larger than any object", rc);
        rc = mb_cipher_decrypt_blocks(c, buf, buf, huge[i]);
        check(rc == MB_ERR_PARAM, "mb_cipher_decrypt_blocks", "a length larger than any object", rc);
        check(all_bytes(buf, sizeof buf, 0x5A), "mb_cipher_*_blocks", "nothing written", rc);
        size_t out_len = sizeof buf;
        rc = mb_encrypt("kuznyechik", "ecb", key, 32, NULL, 0, NULL, 0, NULL, buf, huge[i], buf, &out_len);
        check(rc == MB_ERR_PARAM && out_len == 0, "mb_encrypt", "a data_len larger than any object", rc);
        out_len = huge[i];
        rc = mb_encrypt("kuznyechik", "ecb", key, 32, NULL, 0, NULL, 0, NULL, buf, 16, buf, &out_len);
        check(rc == MB_ERR_PARAM && out_len == 0, "mb_encrypt", "an *out_len larger than any object", rc);
    }
    mb_cipher_free(c);
}

/* ---- a size query or a short buffer at final keeps the last output ---- */

static void test_stream_final_size_query(void) {
    uint8_t key[32], iv[16], data[40], want[64], got[64], last[64];
    fill(key, sizeof key, 6);
    fill(iv, sizeof iv, 7);
    fill(data, sizeof data, 8);
    mb_params p;
    memset(&p, 0, sizeof p);
    p.padding = MB_PADDING_PKCS7;
    size_t want_len = sizeof want;
    int rc = mb_encrypt("kuznyechik", "cbc", key, 32, iv, 16, NULL, 0, &p, data, sizeof data, want, &want_len);
    check(rc == MB_OK && want_len == 48, "mb_encrypt cbc", "40 bytes padded to 48", rc);

    mb_stream *s = NULL;
    rc = mb_stream_new(&s, 1, "kuznyechik", "cbc", key, 32, iv, 16, &p);
    check(rc == MB_OK, "mb_stream_new", "cbc", rc);
    size_t got_len = sizeof got;
    rc = mb_stream_update(s, data, sizeof data, got, &got_len);
    check(rc == MB_OK && got_len == 32, "mb_stream_update", "two whole blocks", rc);
    size_t len = 0;
    rc = mb_stream_final(s, NULL, &len);
    check(rc == MB_ERR_BUFFER_TOO_SMALL && len == 16, "mb_stream_final", "a size query gives the size", rc);
    memset(last, 0xA5, sizeof last);
    len = 15;
    rc = mb_stream_final(s, last, &len);
    check(rc == MB_ERR_BUFFER_TOO_SMALL && len == 16, "mb_stream_final", "a short buffer gives the size", rc);
    check(all_bytes(last, sizeof last, 0xA5), "mb_stream_final", "a short buffer is left alone", rc);
    len = sizeof last;
    rc = mb_stream_final(s, last, &len);
    check(rc == MB_OK && len == 16, "mb_stream_final", "then the last block", rc);
    memcpy(got + got_len, last, len);
    check(memcmp(got, want, want_len) == 0, "mb_stream_final", "the stream equals mb_encrypt", rc);
    len = sizeof last;
    rc = mb_stream_final(s, last, &len);
    check(rc == MB_ERR_PARAM, "mb_stream_final", "spent once the output is handed over", rc);
    mb_stream_free(s);

    uint8_t tag[64], mac[64];
    size_t mac_len = sizeof mac;
    rc = mb_mac("kuznyechik", "omac-acpkm", key, 32, NULL, 0, NULL, data, sizeof data, mac, &mac_len);
    check(rc == MB_OK, "mb_mac", "omac-acpkm", rc);
    mb_mac_stream *m = NULL;
    rc = mb_mac_stream_new(&m, "kuznyechik", "omac-acpkm", key, 32, NULL, 0, NULL);
    check(rc == MB_OK, "mb_mac_stream_new", "omac-acpkm", rc);
    rc = mb_mac_stream_update(m, data, sizeof data);
    check(rc == MB_OK, "mb_mac_stream_update", "40 bytes", rc);
    len = 0;
    rc = mb_mac_stream_final(m, NULL, &len);
    check(rc == MB_ERR_BUFFER_TOO_SMALL && len == mac_len, "mb_mac_stream_final", "a size query gives the size", rc);
    len = 1;
    rc = mb_mac_stream_final(m, tag, &len);
    check(rc == MB_ERR_BUFFER_TOO_SMALL && len == mac_len, "mb_mac_stream_final", "a short buffer gives the size", rc);
    len = sizeof tag;
    rc = mb_mac_stream_final(m, tag, &len);
    check(rc == MB_OK && len == mac_len && memcmp(tag, mac, mac_len) == 0, "mb_mac_stream_final", "then the tag",
          rc);
    mb_mac_stream_free(m);
}

/* ---- many messages at once refuse AEAD and key wrap ------------------- */

static void test_many_refuses_aead(void) {
    static const struct {
        const char *cipher, *mode;
        size_t key_len, iv_len;
    } cases[] = {
        {"kuznyechik", "mgm", 32, 16},
        {"kalyna-128-128", "gcm", 16, 16},
        {"kalyna-128-128", "ccm", 16, 16},
        {"kalyna-128-128", "kw", 16, 0},
    };
    uint8_t key[32], iv[16], data[32], out[256];
    fill(key, sizeof key, 9);
    fill(iv, sizeof iv, 10);
    fill(data, sizeof data, 11);
    const uint8_t *ptrs[2] = {data, data};
    size_t lens[2] = {32, 16}, out_lens[2];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t out_len = sizeof out;
        const uint8_t *ivp = cases[i].iv_len ? iv : NULL;
        int rc = mb_encrypt_many(cases[i].cipher, cases[i].mode, key, cases[i].key_len, ivp, cases[i].iv_len, NULL,
                                 2, ptrs, lens, out, &out_len, out_lens);
        check(rc == MB_ERR_PARAM && out_len == 0, cases[i].mode, "mb_encrypt_many refuses it", rc);
        char want[256];
        snprintf(want, sizeof want,
                 "%s is not available for many messages at once: each message needs its own nonce (AEAD) or "
                 "integrity check (KW); encrypt them one at a time",
                 cases[i].mode);
        check(strcmp(mb_last_error(), want) == 0, cases[i].mode, "and says why", rc);
    }
}

/* ---- key lengths of the KDFs, TLSTREE and HMAC --------------------------- */

static void test_kdf_key_lengths(void) {
    uint8_t key[64], out[64];
    fill(key, sizeof key, 12);
    static const size_t wrong[] = {0, 1, 5, 31, 33, 64};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        size_t n = 32;
        memset(out, 0xaa, sizeof out);
        int rc = mb_kdf(key, wrong[i], (const uint8_t *)"l", 1, (const uint8_t *)"s", 1, out, &n);
        check(rc == MB_ERR_KEY_LENGTH && n == 0, "mb_kdf", "a key other than 32 bytes", rc);
        rc = mb_kdf_tree(key, wrong[i], (const uint8_t *)"l", 1, (const uint8_t *)"s", 1, 1, out, 64);
        check(rc == MB_ERR_KEY_LENGTH, "mb_kdf_tree", "a key other than 32 bytes", rc);
        check(all_bytes(out, sizeof out, 0xaa), "mb_kdf, mb_kdf_tree", "write nothing then", rc);
        n = 32;
        rc = mb_tlstree("magma-mgm-s", key, wrong[i], 0, out, &n);
        check(rc == MB_ERR_KEY_LENGTH, "mb_tlstree", "a root other than 32 bytes", rc);
    }
    size_t n = 32;
    int rc = mb_kdf(key, 32, (const uint8_t *)"l", 1, (const uint8_t *)"s", 1, out, &n);
    check(rc == MB_OK && n == 32, "mb_kdf", "a 32-byte key", rc);
    /* RFC 2104 allows any key length, the empty one too. */
    n = sizeof out;
    rc = mb_hmac("streebog-256", NULL, 0, (const uint8_t *)"m", 1, out, &n);
    check(rc == MB_OK && n == 32, "mb_hmac", "the empty key", rc);
}

int main(void) {
    test_aead_text_len();
    test_impossible_sizes();
    test_stream_final_size_query();
    test_many_refuses_aead();
    test_kdf_key_lengths();
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
