/*
 * The hash and HMAC functions of include/multiblock.h from C: RFC 6986 §10's
 * first example (M1) for Streebog-256 and -512, one-shot, incremental in
 * every split, cloned and many at once; RFC 7836 §A.1's HMAC examples
 * one-shot, incremental and verified; DSTU 7564:2014's MAC examples
 * (Kupyna's own MAC) one-shot, in every split, verified and on named
 * backends, and random keys and messages one-shot against incremental;
 * every named hash one-shot against its own incremental and many-message
 * forms on varied lengths; size queries; misuse as status codes.
 *
 * Usage: test_hash. Prints one line per failure and a closing
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

/* RFC 6986 §10.1: M1, and H(M1) of §10.1.1 (512) and §10.1.2 (256). */
static const char M1[] = "012345678901234567890123456789012345678901234567890123456789012";
static const char *const M1_512 =
    "1b54d01a4af5b9d5cc3d86d68d285462b19abc2475222f35c085122be4ba1ffa"
    "00ad30f8767b3a82384c6574f024c311e2a481332b08ef7f41797891c1646f48";
static const char *const M1_256 = "9d151eefd8590b89daa6ba6cb74af9275dd051026bb149a452fd84e5e57b5500";

/* RFC 7836 §A.1.1 and §A.1.2. */
static const char *const HMAC_KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
static const char *const HMAC_MSG = "0126bdb87800af214341456563780100";
static const char *const HMAC_256 = "a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9";
static const char *const HMAC_512 =
    "a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a77"
    "3d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6";

/* DSTU 7564:2014's MAC examples: the key is the bytes d - 1, d - 2, ..., 0
 * (d = tag bytes), the message the 31 bytes 00 01 ... 1E. */
static const char *const KMAC_256 = "b60594d56fa79ba210314c72c2495087ccd0a99fc04acfe2a39ef669925d98ee";
static const char *const KMAC_384 =
    "bebfd8d730336f043abacb41829e79a4d320aeddd8d14024d5b805da70c396fa"
    "295c281a38b30ae728a304b3f5ae490e";
static const char *const KMAC_512 =
    "f270043c06a5c37e65d9d791c5fbfb966e5ee709f8f54019c9a55b76ca40b701"
    "00579f269cec24e347a9d864614cf3abbf6610742e4db3bd2abc000387c49d24";

static void rfc_6986(const char *algo, const char *want_hex) {
    uint8_t want[64], out[64];
    size_t want_len = unhex(want_hex, want), len = sizeof out;
    const uint8_t *m = (const uint8_t *)M1;
    size_t m_len = strlen(M1);
    int rc = mb_hash(algo, m, m_len, out, &len);
    check(rc == MB_OK && len == want_len && memcmp(out, want, len) == 0, algo, "mb_hash(M1)", rc);

    len = 0;
    rc = mb_hash(algo, m, m_len, NULL, &len);
    check(rc == MB_ERR_BUFFER_TOO_SMALL && len == want_len, algo, "size query", rc);

    mb_hash_ctx *h = NULL;
    rc = mb_hash_new(&h, algo, NULL);
    check(rc == MB_OK && h != NULL && mb_hash_digest_size(h) == want_len, algo, "mb_hash_new", rc);
    if (!h) return;
    for (size_t split = 0; split <= m_len; split++) {
        mb_hash_update(h, m, split);
        mb_hash_update(h, m + split, m_len - split);
        /* A clone finishes the same message. */
        mb_hash_ctx *copy = NULL;
        rc = mb_hash_clone(&copy, h);
        check(rc == MB_OK, algo, "mb_hash_clone", rc);
        len = sizeof out;
        rc = mb_hash_final(h, out, &len);
        check(rc == MB_OK && len == want_len && memcmp(out, want, len) == 0, algo, "incremental M1", rc);
        len = sizeof out;
        rc = mb_hash_final(copy, out, &len);
        check(rc == MB_OK && len == want_len && memcmp(out, want, len) == 0, algo, "cloned M1", rc);
        mb_hash_free(copy);
    }
    check(mb_hash_backend(h) != NULL && mb_hash_backend(h)[0] != '\0', algo, "mb_hash_backend", 0);
    mb_hash_free(h);
}

static void rfc_7836(const char *algo, const char *want_hex, const char *backend) {
    uint8_t key[32], msg[16], want[64], out[64];
    size_t key_len = unhex(HMAC_KEY, key), msg_len = unhex(HMAC_MSG, msg), want_len = unhex(want_hex, want);
    size_t len = sizeof out;
    int rc = mb_hmac(algo, key, key_len, msg, msg_len, out, &len);
    check(rc == MB_OK && len == want_len && memcmp(out, want, len) == 0, algo, "mb_hmac", rc);

    mb_hmac_ctx *h = NULL;
    rc = mb_hmac_new(&h, algo, key, key_len, backend);
    check(rc == MB_OK && h != NULL && mb_hmac_tag_size(h) == want_len, algo, backend ? backend : "mb_hmac_new", rc);
    if (!h) return;
    for (int round = 0; round < 2; round++) { /* final starts over under the same key */
        mb_hmac_update(h, msg, 3);
        mb_hmac_update(h, msg + 3, msg_len - 3);
        len = 0;
        rc = mb_hmac_final(h, NULL, &len);
        check(rc == MB_ERR_BUFFER_TOO_SMALL && len == want_len, algo, "mb_hmac_final size query", rc);
        len = sizeof out;
        rc = mb_hmac_final(h, out, &len);
        check(rc == MB_OK && len == want_len && memcmp(out, want, len) == 0, algo, "mb_hmac_final", rc);
    }
    mb_hmac_update(h, msg, msg_len);
    rc = mb_hmac_verify(h, want, want_len);
    check(rc == MB_OK, algo, "mb_hmac_verify of the right tag", rc);
    want[want_len - 1] ^= 1;
    mb_hmac_update(h, msg, msg_len);
    rc = mb_hmac_verify(h, want, want_len);
    check(rc == MB_ERR_AUTHENTICATION, algo, "mb_hmac_verify of a changed tag", rc);
    mb_hmac_free(h);
}

static void dstu_7564_mac(size_t bits, const char *want_hex, const char *backend) {
    char where[64];
    snprintf(where, sizeof where, "kupyna-mac-%u%s%s", (unsigned)bits, backend ? " on " : "", backend ? backend : "");
    uint8_t key[64], msg[31], want[64], out[64];
    size_t key_len = bits / 8, want_len = unhex(want_hex, want), len = sizeof out;
    for (size_t i = 0; i < key_len; i++) key[i] = (uint8_t)(key_len - 1 - i);
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)i;
    int rc = mb_kupyna_mac(bits, key, key_len, msg, sizeof msg, out, &len);
    check(rc == MB_OK && len == want_len && memcmp(out, want, len) == 0, where, "mb_kupyna_mac", rc);
    len = 0;
    rc = mb_kupyna_mac(bits, key, key_len, msg, sizeof msg, NULL, &len);
    check(rc == MB_ERR_BUFFER_TOO_SMALL && len == want_len, where, "mb_kupyna_mac size query", rc);

    mb_kupyna_mac_ctx *h = NULL;
    rc = mb_kupyna_mac_new(&h, bits, key, key_len, backend);
    check(rc == MB_OK && h != NULL && mb_kupyna_mac_tag_size(h) == want_len, where, "mb_kupyna_mac_new", rc);
    if (!h) return;
    /* Every split; final starts over under the same key. */
    for (size_t split = 0; split <= sizeof msg; split++) {
        mb_kupyna_mac_update(h, msg, split);
        mb_kupyna_mac_update(h, msg + split, sizeof msg - split);
        if (split == 9) {
            len = 0;
            rc = mb_kupyna_mac_final(h, NULL, &len);
            check(rc == MB_ERR_BUFFER_TOO_SMALL && len == want_len, where, "mb_kupyna_mac_final size query", rc);
        }
        len = sizeof out;
        rc = mb_kupyna_mac_final(h, out, &len);
        check(rc == MB_OK && len == want_len && memcmp(out, want, len) == 0, where, "incremental", rc);
    }
    mb_kupyna_mac_update(h, msg, sizeof msg);
    rc = mb_kupyna_mac_verify(h, want, want_len);
    check(rc == MB_OK, where, "mb_kupyna_mac_verify of the right tag", rc);
    /* A wrong length leaves the message going on. */
    mb_kupyna_mac_update(h, msg, sizeof msg);
    rc = mb_kupyna_mac_verify(h, want, want_len - 1);
    check(rc == MB_ERR_PARAM, where, "mb_kupyna_mac_verify of a short tag", rc);
    rc = mb_kupyna_mac_verify(h, want, want_len);
    check(rc == MB_OK, where, "mb_kupyna_mac_verify after a short tag", rc);
    want[want_len / 2] ^= 0x10;
    mb_kupyna_mac_update(h, msg, sizeof msg);
    rc = mb_kupyna_mac_verify(h, want, want_len);
    check(rc == MB_ERR_AUTHENTICATION, where, "mb_kupyna_mac_verify of a changed tag", rc);
    mb_kupyna_mac_free(h);
}

/* Kupyna's MAC on generated keys and messages around the block sizes:
 * one-shot equals incremental in pieces of 1, 7 and 64 bytes. */
static void kupyna_mac_forms_agree(size_t bits) {
    static uint8_t data[1100];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 29 + bits);
    uint8_t key[64];
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)(i * 77 + 3);
    static const size_t lens[] = {0, 1, 63, 64, 65, 127, 128, 129, 1100};
    static const size_t pieces[] = {1, 7, 64};
    mb_kupyna_mac_ctx *h = NULL;
    int rc = mb_kupyna_mac_new(&h, bits, key, bits / 8, NULL);
    check(rc == MB_OK, "kupyna-mac forms", "mb_kupyna_mac_new", rc);
    if (!h) return;
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        uint8_t whole[64], out[64];
        size_t whole_len = sizeof whole;
        rc = mb_kupyna_mac(bits, key, bits / 8, data, lens[k], whole, &whole_len);
        check(rc == MB_OK && whole_len == bits / 8, "kupyna-mac forms", "mb_kupyna_mac", rc);
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
            for (size_t at = 0; at < lens[k]; at += pieces[p])
                mb_kupyna_mac_update(h, data + at, lens[k] - at < pieces[p] ? lens[k] - at : pieces[p]);
            size_t len = sizeof out;
            rc = mb_kupyna_mac_final(h, out, &len);
            check(rc == MB_OK && len == whole_len && memcmp(out, whole, len) == 0, "kupyna-mac forms",
                  "pieces == one-shot", rc);
        }
    }
    mb_kupyna_mac_free(h);
}

/* Every named hash: one-shot equals incremental (in 5-byte pieces) and
 * mb_hash_many, on lengths around the blocks. */
static void forms_agree(const char *algo) {
    static uint8_t data[1100];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 131 + 7);
    static const size_t lens[] = {0, 1, 63, 64, 65, 127, 128, 129, 1100};
    enum { N = sizeof lens / sizeof lens[0] };
    const uint8_t *ptrs[N];
    uint8_t each[N][64], many[N * 64];
    size_t digest = 0, block = 0;
    int rc = mb_hash_sizes(algo, &digest, &block);
    check(rc == MB_OK && digest >= 32 && (block == 64 || block == 128), algo, "mb_hash_sizes", rc);
    mb_hash_ctx *h = NULL;
    rc = mb_hash_new(&h, algo, NULL);
    check(rc == MB_OK, algo, "mb_hash_new", rc);
    if (!h) return;
    for (size_t k = 0; k < N; k++) {
        ptrs[k] = data;
        size_t len = sizeof each[k];
        rc = mb_hash(algo, data, lens[k], each[k], &len);
        check(rc == MB_OK && len == digest, algo, "mb_hash", rc);
        for (size_t at = 0; at < lens[k]; at += 5) mb_hash_update(h, data + at, lens[k] - at < 5 ? lens[k] - at : 5);
        uint8_t out[64];
        len = sizeof out;
        rc = mb_hash_final(h, out, &len);
        check(rc == MB_OK && len == digest && memcmp(out, each[k], digest) == 0, algo, "pieces == one-shot", rc);
    }
    mb_hash_free(h);
    size_t len = sizeof many;
    rc = mb_hash_many(algo, N, ptrs, lens, many, &len);
    check(rc == MB_OK && len == N * digest, algo, "mb_hash_many", rc);
    for (size_t k = 0; rc == MB_OK && k < N; k++)
        check(memcmp(many + k * digest, each[k], digest) == 0, algo, "mb_hash_many == mb_hash", rc);
}

static void misuse(void) {
    mb_hash_ctx *h = (mb_hash_ctx *)&h; /* set to NULL on error */
    uint8_t out[64];
    size_t len = sizeof out;
    int rc = mb_hash_new(&h, "sha256", NULL);
    check(rc == MB_ERR_UNKNOWN_HASH && h == NULL, "misuse", "unknown hash", rc);
    rc = mb_hash_new(&h, NULL, NULL);
    check(rc == MB_ERR_NULL_POINTER, "misuse", "NULL algo", rc);
    rc = mb_hash_new(&h, "streebog-256", "no-such-backend");
    check(rc == MB_ERR_UNKNOWN_BACKEND && h == NULL, "misuse", "unknown backend", rc);
    rc = mb_hash_update(NULL, out, 1);
    check(rc == MB_ERR_NULL_POINTER, "misuse", "update of NULL", rc);
    rc = mb_hash_final(NULL, out, &len);
    check(rc == MB_ERR_NULL_POINTER, "misuse", "final of NULL", rc);
    rc = mb_hash("kupyna-256", NULL, 5, out, &len);
    check(rc == MB_ERR_NULL_POINTER && len == 0, "misuse", "NULL data with a length", rc);
    len = sizeof out;
    rc = mb_hmac("kupyna-160", out, 16, out, 0, out, &len);
    check(rc == MB_ERR_PARAM, "misuse", "HMAC over kupyna-160", rc);
    check(mb_hash_digest_size(NULL) == 0 && mb_hash_backend(NULL) == NULL && mb_hmac_tag_size(NULL) == 0, "misuse",
          "NULL handle queries", 0);
    mb_hash_free(NULL);
    mb_hmac_free(NULL);

    /* Kupyna's MAC: tag bits, key length, NULL pointers. */
    uint8_t key[64] = {0};
    mb_kupyna_mac_ctx *m = (mb_kupyna_mac_ctx *)&m; /* set to NULL on error */
    len = sizeof out;
    rc = mb_kupyna_mac(128, key, 16, out, 0, out, &len);
    check(rc == MB_ERR_PARAM && len == 0, "misuse", "Kupyna MAC of 128 bits", rc);
    rc = mb_kupyna_mac_new(&m, 0, key, 0, NULL);
    check(rc == MB_ERR_PARAM && m == NULL, "misuse", "Kupyna MAC of 0 bits", rc);
    len = sizeof out;
    rc = mb_kupyna_mac(256, key, 48, out, 0, out, &len);
    check(rc == MB_ERR_KEY_LENGTH && len == 0, "misuse", "Kupyna MAC-256 with a 48-byte key", rc);
    m = (mb_kupyna_mac_ctx *)&m;
    rc = mb_kupyna_mac_new(&m, 512, key, 32, NULL);
    check(rc == MB_ERR_KEY_LENGTH && m == NULL, "misuse", "Kupyna MAC-512 with a 32-byte key", rc);
    len = sizeof out;
    rc = mb_kupyna_mac(256, NULL, 32, out, 0, out, &len);
    check(rc == MB_ERR_NULL_POINTER, "misuse", "Kupyna MAC with a NULL key", rc);
    rc = mb_kupyna_mac_new(NULL, 256, key, 32, NULL);
    check(rc == MB_ERR_NULL_POINTER, "misuse", "mb_kupyna_mac_new into NULL", rc);
    m = (mb_kupyna_mac_ctx *)&m;
    rc = mb_kupyna_mac_new(&m, 256, key, 32, "no-such-backend");
    check(rc == MB_ERR_UNKNOWN_BACKEND && m == NULL, "misuse", "Kupyna MAC on an unknown backend", rc);
    rc = mb_kupyna_mac_update(NULL, out, 1);
    check(rc == MB_ERR_NULL_POINTER, "misuse", "Kupyna MAC update of NULL", rc);
    len = sizeof out;
    rc = mb_kupyna_mac_final(NULL, out, &len);
    check(rc == MB_ERR_NULL_POINTER && len == 0, "misuse", "Kupyna MAC final of NULL", rc);
    rc = mb_kupyna_mac_verify(NULL, out, 32);
    check(rc == MB_ERR_NULL_POINTER, "misuse", "Kupyna MAC verify of NULL", rc);
    check(mb_kupyna_mac_tag_size(NULL) == 0, "misuse", "Kupyna MAC tag size of NULL", 0);
    rc = mb_kupyna_mac_new(&m, 256, key, 32, NULL);
    check(rc == MB_OK, "misuse", "mb_kupyna_mac_new", rc);
    if (rc == MB_OK) {
        rc = mb_kupyna_mac_update(m, NULL, 1);
        check(rc == MB_ERR_NULL_POINTER, "misuse", "Kupyna MAC update of NULL data", rc);
        rc = mb_kupyna_mac_verify(m, NULL, 32);
        check(rc == MB_ERR_NULL_POINTER, "misuse", "Kupyna MAC verify of a NULL tag", rc);
        len = 5;
        rc = mb_kupyna_mac_final(m, NULL, &len);
        check(rc == MB_ERR_NULL_POINTER && len == 0, "misuse", "Kupyna MAC final into NULL with room", rc);
        mb_kupyna_mac_free(m);
    }
    mb_kupyna_mac_free(NULL);
}

int main(void) {
    rfc_6986("streebog-256", M1_256);
    rfc_6986("streebog-512", M1_512);
    /* The default backend, then two named ones (every CPU runs them). */
    static const char *hmac_backends[] = {NULL, "portable", "reference"};
    for (size_t b = 0; b < sizeof hmac_backends / sizeof hmac_backends[0]; b++) {
        rfc_7836("streebog-256", HMAC_256, hmac_backends[b]);
        rfc_7836("streebog-512", HMAC_512, hmac_backends[b]);
    }
    {
        mb_hmac_ctx *bad = NULL;
        uint8_t k[1] = {0};
        int rc = mb_hmac_new(&bad, "streebog-256", k, 1, "no-such-backend");
        check(rc == MB_ERR_UNKNOWN_BACKEND && bad == NULL, "streebog-256", "mb_hmac_new of an unknown backend", rc);
    }
    /* Kupyna's MAC on the default backend, then two named ones. */
    static const char *kmac_backends[] = {NULL, "portable", "reference"};
    for (size_t b = 0; b < sizeof kmac_backends / sizeof kmac_backends[0]; b++) {
        dstu_7564_mac(256, KMAC_256, kmac_backends[b]);
        dstu_7564_mac(384, KMAC_384, kmac_backends[b]);
        dstu_7564_mac(512, KMAC_512, kmac_backends[b]);
    }
    kupyna_mac_forms_agree(256);
    kupyna_mac_forms_agree(384);
    kupyna_mac_forms_agree(512);
    const char *named[] = {"streebog-256", "streebog-512", "kupyna-256", "kupyna-384", "kupyna-512"};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) forms_agree(named[i]);
    misuse();
    printf("hash: %lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
