/*
 * kuznyechik-kexp15 and magma-kexp15 (KExp15 / KImp15 of R 1323565.1.017-2018)
 * through EVP:
 *  - the recommendation's examples (both ciphers): the export
 *    of K under K_mac || K_enc and the IV, and its import;
 *  - the algorithm's properties: names and OIDs, key 64 bytes, IV n/2,
 *    block size n, EVP_CIPH_WRAP_MODE;
 *  - on random keys, K_mac || K_enc and IVs: the export against the
 *    definition computed with other algorithms of the provider (the ctr
 *    cipher under K_enc over K || the mac of IV || K under K_mac), and
 *    export then import back to K;
 *  - every byte of an export changed, and a changed K_mac, K_enc or IV:
 *    the import's update fails with an error and writes nothing;
 *  - wrong lengths refused: key length and IV length parameters, inputs
 *    of other lengths than K (32 bytes) or an export (32 + n), a second
 *    update, final without an update;
 *  - with -engine: gost-engine's ENGINE ("gost", whose kexp15 ciphers
 *    import only) imports our exports of random keys and releases nothing
 *    of a changed one; its export is checked to still write nothing (when
 *    it learns to export, its export is compared with ours).
 *
 * Usage: test_kexp15 [-engine]   (OPENSSL_MODULES pointing at multiblock.so)
 * Prints one line per failure and "N passed, N failed".
 */
/* gost-engine is an ENGINE: its API is deprecated in OpenSSL 3. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <stdio.h>
#include <string.h>
#include <openssl/core_names.h>
#ifndef OPENSSL_NO_ENGINE
#include <openssl/engine.h>
#endif
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#define PROPQ "provider=multiblock"

static unsigned long passed, failed;
#ifndef OPENSSL_NO_ENGINE
static ENGINE *engine; /* gost-engine, with -engine */
#endif

static void check(int ok, const char *where, const char *what)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    fprintf(stderr, "FAIL %s: %s\n", where, what);
    ERR_print_errors_fp(stderr);
}

static size_t unhex(const char *h, unsigned char *out)
{
    size_t n = 0;
    unsigned v;
    for (; h[0] && h[1]; h += 2) {
        if (sscanf(h, "%2x", &v) != 1)
            break;
        out[n++] = (unsigned char)v;
    }
    return n;
}

/* One cipher's facts. */
typedef struct {
    const char *name, *oid, *cipher; /* cipher: the block cipher's prefix of our other algorithms */
    size_t n, ivlen;
    const char *iv, *export;          /* the recommendation's example */
    int nid;
} kexp;

/* R 1323565.1.017-2018, its examples: K, and K_mac || K_enc, the same for both ciphers. */
static const char *EX_K = "8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef";
static const char *EX_KEK = "08090a0b0c0d0e0f0001020304050607101112131415161718191a1b1c1d1e1f"
                            "202122232425262728292a2b2c2d2e2f38393a3b3c3d3e3f3031323334353637";

static kexp algs[2] = {
    { "kuznyechik-kexp15", "1.2.643.7.1.1.7.2.1", "kuznyechik", 16, 8, "0909472dd9f26be8",
      "e36184e84e8d736ff36cc2e5ae065dc656b23c20f549b02fdff88e1f3f30d8c29a53f3ca554dbad80de152b9a4625b32", 0 },
    { "magma-kexp15", "1.2.643.7.1.1.7.1.1", "magma", 8, 4, "67bed654",
      "cfd5a12d5b81b6e1e99c916d07900c6ac12703fb3abded55567bf3742c899c755dafe7b42e3a8bd9", 0 },
};

/* One export (enc) or import through EVP: init, one update, final.
 * Returns 1 when all succeed; *outl is the bytes written (update + final). */
static int run(const EVP_CIPHER *c, int enc, const unsigned char *kek, const unsigned char *iv,
               const unsigned char *in, size_t inl, unsigned char *out, int *outl)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ul = 0, fl = 0, ok;
    ok = ctx != NULL && EVP_CipherInit_ex2(ctx, c, kek, iv, enc, NULL)
         && EVP_CipherUpdate(ctx, out, &ul, in, (int)inl) && EVP_CipherFinal_ex(ctx, out + ul, &fl);
    *outl = ul + fl;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/* The definition: CTR_K_enc(IV, K || OMAC_K_mac(IV || K)), from our ctr
 * cipher and mac MAC. */
static int definition(const kexp *a, const unsigned char *kek, const unsigned char *iv, const unsigned char *k,
                      unsigned char *out)
{
    char name[48];
    unsigned char msg[8 + 32], buf[32 + 16];
    size_t macl = 0;
    int ol = 0, ok;
    EVP_MAC *mac;
    EVP_MAC_CTX *m;
    EVP_CIPHER *ctr;
    snprintf(name, sizeof(name), "%s-mac", a->cipher);
    mac = EVP_MAC_fetch(NULL, name, PROPQ);
    m = mac ? EVP_MAC_CTX_new(mac) : NULL;
    snprintf(name, sizeof(name), "%s-ctr", a->cipher);
    ctr = EVP_CIPHER_fetch(NULL, name, PROPQ);
    memcpy(msg, iv, a->ivlen);
    memcpy(msg + a->ivlen, k, 32);
    memcpy(buf, k, 32);
    ok = m != NULL && ctr != NULL && EVP_MAC_init(m, kek, 32, NULL) && EVP_MAC_update(m, msg, a->ivlen + 32)
         && EVP_MAC_final(m, buf + 32, &macl, a->n) && macl == a->n;
    if (ok) {
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        ok = EVP_EncryptInit_ex2(x, ctr, kek + 32, iv, NULL) && EVP_EncryptUpdate(x, out, &ol, buf, (int)(32 + a->n))
             && (size_t)ol == 32 + a->n;
        EVP_CIPHER_CTX_free(x);
    }
    EVP_CIPHER_free(ctr);
    EVP_MAC_CTX_free(m);
    EVP_MAC_free(mac);
    return ok;
}

static void properties(const kexp *a, const EVP_CIPHER *c)
{
    EVP_CIPHER *byoid = EVP_CIPHER_fetch(NULL, a->oid, PROPQ);
    check(byoid != NULL && EVP_CIPHER_is_a(byoid, a->name), a->name, "fetched by its OID");
    EVP_CIPHER_free(byoid);
    check(EVP_CIPHER_get_key_length(c) == 64, a->name, "key length 64 (K_mac || K_enc)");
    check((size_t)EVP_CIPHER_get_iv_length(c) == a->ivlen, a->name, "IV length n/2");
    check((size_t)EVP_CIPHER_get_block_size(c) == a->n, a->name, "block size n");
    check(EVP_CIPHER_get_mode(c) == EVP_CIPH_WRAP_MODE, a->name, "wrap mode");
}

static void examples(const kexp *a, const EVP_CIPHER *c)
{
    unsigned char kek[64], iv[8], k[32], want[48], out[128];
    int outl = 0;
    unhex(EX_KEK, kek);
    unhex(EX_K, k);
    unhex(a->iv, iv);
    unhex(a->export, want);
    check(run(c, 1, kek, iv, k, 32, out, &outl) && (size_t)outl == 32 + a->n && !memcmp(out, want, 32 + a->n),
          a->name, "the recommendation's export");
    check(run(c, 0, kek, iv, want, 32 + a->n, out, &outl) && outl == 32 && !memcmp(out, k, 32), a->name,
          "the recommendation's export imported");
    check(definition(a, kek, iv, k, out) && !memcmp(out, want, 32 + a->n), a->name,
          "the definition from ctr and mac gives the recommendation's export");
}

/* An import that must fail: the update refused with an error, nothing written. */
static void refused(const kexp *a, const EVP_CIPHER *c, const unsigned char *kek, const unsigned char *iv,
                    const unsigned char *in, const char *what)
{
    unsigned char out[128], keep[128];
    int ul = 12345, ok;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    memset(out, 0xa5, sizeof(out));
    memcpy(keep, out, sizeof(out));
    ERR_clear_error();
    ok = EVP_DecryptInit_ex2(ctx, c, kek, iv, NULL) && !EVP_DecryptUpdate(ctx, out, &ul, in, (int)(32 + a->n))
         && ERR_peek_error() != 0 && !memcmp(out, keep, sizeof(out)) && !EVP_DecryptFinal_ex(ctx, out, &ul);
    check(ok, a->name, what);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
}

static void random_keys(const kexp *a, const EVP_CIPHER *c)
{
    for (int t = 0; t < 200; t++) {
        unsigned char kek[64], iv[8], k[32], exp[48], want[48], back[128], bad[64];
        int el = 0, bl = 0;
        char where[80];
        snprintf(where, sizeof(where), "%s, random key %d", a->name, t);
        if (RAND_bytes(kek, 64) != 1 || RAND_bytes(iv, 8) != 1 || RAND_bytes(k, 32) != 1) {
            check(0, where, "RAND_bytes");
            return;
        }
        check(run(c, 1, kek, iv, k, 32, exp, &el) && (size_t)el == 32 + a->n, where, "export");
        check(definition(a, kek, iv, k, want) && !memcmp(exp, want, 32 + a->n), where, "export as the definition");
        check(run(c, 0, kek, iv, exp, 32 + a->n, back, &bl) && bl == 32 && !memcmp(back, k, 32), where,
              "imported back");
        if (t < 8) {
            /* Every byte of the export, one bit each. */
            for (size_t i = 0; i < 32 + a->n; i++) {
                exp[i] ^= (unsigned char)(1u << (i % 8));
                refused(a, c, kek, iv, exp, "a changed export is imported");
                exp[i] ^= (unsigned char)(1u << (i % 8));
            }
        }
        memcpy(bad, kek, 64);
        bad[t % 32] ^= 0x80; /* K_mac */
        refused(a, c, bad, iv, exp, "imported under a wrong MAC key");
        bad[t % 32] ^= 0x80;
        bad[32 + t % 32] ^= 0x01; /* K_enc */
        refused(a, c, bad, iv, exp, "imported under a wrong encryption key");
        iv[t % a->ivlen] ^= 0x10;
        refused(a, c, kek, iv, exp, "imported with a wrong IV");
    }
}

static void lengths(const kexp *a, const EVP_CIPHER *c)
{
    unsigned char kek[64] = { 1 }, iv[8] = { 2 }, k[64] = { 3 }, out[256];
    int ul = 0;
    size_t sz;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
    /* Key length: only 64. */
    check(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL) && !EVP_CIPHER_CTX_set_key_length(ctx, 32), a->name,
          "a key length of 32 is accepted");
    ERR_clear_error();
    /* IV length: only n/2. */
    for (sz = 0; sz <= 16; sz += 4) {
        if (sz == a->ivlen)
            continue;
        p[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &sz);
        check(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL) && !EVP_CIPHER_CTX_set_params(ctx, p), a->name,
              "another IV length is accepted");
        ERR_clear_error();
    }
    /* No IV: no export. */
    check(EVP_EncryptInit_ex2(ctx, c, kek, NULL, NULL) && !EVP_EncryptUpdate(ctx, out, &ul, k, 32), a->name,
          "an export without an IV");
    ERR_clear_error();
    /* K of 32 bytes only; an export of 32 + n only. */
    for (size_t len = 1; len <= 64; len++) {
        if (len != 32) {
            check(EVP_EncryptInit_ex2(ctx, c, kek, iv, NULL) && !EVP_EncryptUpdate(ctx, out, &ul, k, (int)len),
                  a->name, "a key of another length than 32 bytes is exported");
            ERR_clear_error();
        }
        if (len != 32 + a->n) {
            check(EVP_DecryptInit_ex2(ctx, c, kek, iv, NULL) && !EVP_DecryptUpdate(ctx, out, &ul, k, (int)len),
                  a->name, "an export of another length than 32 + n is imported");
            ERR_clear_error();
        }
    }
    /* One key per message; final needs it. */
    check(EVP_EncryptInit_ex2(ctx, c, kek, iv, NULL) && EVP_EncryptUpdate(ctx, out, &ul, k, 32)
              && !EVP_EncryptUpdate(ctx, out, &ul, k, 32),
          a->name, "a second key in one message");
    ERR_clear_error();
    check(EVP_EncryptInit_ex2(ctx, c, kek, iv, NULL) && !EVP_EncryptFinal_ex(ctx, out, &ul), a->name,
          "final without a key");
    check(EVP_DecryptInit_ex2(ctx, c, kek, iv, NULL) && !EVP_DecryptFinal_ex(ctx, out, &ul), a->name,
          "final without an export");
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
}

#ifndef OPENSSL_NO_ENGINE
/* gost-engine's ENGINE imports our exports; its own export writes nothing
 * (gost-engine 3.0 has no KExp15 behind its cipher) or, once it has one,
 * the same bytes as ours. */
static void with_engine(const kexp *a, const EVP_CIPHER *c)
{
    const EVP_CIPHER *g = ENGINE_get_cipher(engine, a->nid);
    check(g != NULL && EVP_CIPHER_get_key_length(g) == 64 && (size_t)EVP_CIPHER_get_iv_length(g) == a->ivlen,
          a->name, "gost-engine has the cipher with our key and IV lengths");
    if (g == NULL)
        return;
    for (int t = 0; t < 100; t++) {
        unsigned char kek[64], iv[8], k[32], exp[48], back[96], theirs[96];
        int el = 0, bl = 0, tl = 0, fl = 0;
        char where[80];
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        snprintf(where, sizeof(where), "%s, gost-engine, random key %d", a->name, t);
        RAND_bytes(kek, 64);
        RAND_bytes(iv, 8);
        RAND_bytes(k, 32);
        check(run(c, 1, kek, iv, k, 32, exp, &el), where, "our export");
        memset(back, 0, sizeof(back));
        check(EVP_CipherInit_ex(x, g, engine, kek, iv, 0) && EVP_CipherUpdate(x, back, &bl, exp, (int)(32 + a->n))
                  && bl == 32 && !memcmp(back, k, 32),
              where, "gost-engine imports our export");
        ERR_clear_error();
        /* A changed export: it writes nothing (its update succeeds with
         * no output and a "bad mac" error queued, or fails). */
        exp[t % (32 + a->n)] ^= 0x04;
        memset(back, 0, sizeof(back));
        bl = 0;
        check((!EVP_CipherInit_ex(x, g, engine, kek, iv, 0) || !EVP_CipherUpdate(x, back, &bl, exp, (int)(32 + a->n))
               || bl == 0)
                  && memcmp(back, k, 32),
              where, "gost-engine imports a changed export");
        exp[t % (32 + a->n)] ^= 0x04;
        ERR_clear_error();
        if (t < 4) {
            memset(theirs, 0, sizeof(theirs));
            check(EVP_CipherInit_ex(x, g, engine, kek, iv, 1) && EVP_CipherUpdate(x, theirs, &tl, k, 32)
                      && EVP_CipherFinal_ex(x, theirs + tl, &fl)
                      && (tl + fl == 0 || (tl + fl == el && !memcmp(theirs, exp, (size_t)el))),
                  where, "gost-engine's export is neither empty nor ours");
            ERR_clear_error();
        }
        EVP_CIPHER_CTX_free(x);
    }
}
#endif

int main(int argc, char **argv)
{
    OSSL_PROVIDER *mb = OSSL_PROVIDER_load(NULL, "multiblock"), *def = OSSL_PROVIDER_load(NULL, "default");
    if (mb == NULL || def == NULL) {
        fprintf(stderr, "cannot load the multiblock provider (OPENSSL_MODULES?)\n");
        ERR_print_errors_fp(stderr);
        return 2;
    }
    algs[0].nid = OBJ_txt2nid("1.2.643.7.1.1.7.2.1");
    algs[1].nid = OBJ_txt2nid("1.2.643.7.1.1.7.1.1");
#ifndef OPENSSL_NO_ENGINE
    if (argc > 1 && (strcmp(argv[1], "-engine") || (engine = ENGINE_by_id("gost")) == NULL || !ENGINE_init(engine))) {
        fprintf(stderr, "usage: test_kexp15 [-engine] (-engine: gost-engine's ENGINE \"gost\" loads)\n");
        ERR_print_errors_fp(stderr);
        return 2;
    }
    /* The engine's ciphers only where it is named; its MACs registered
     * (its KImp15 computes the OMAC through them). */
    if (engine != NULL) {
        ENGINE_unregister_ciphers(engine);
        ENGINE_register_digests(engine);
        ENGINE_register_pkey_meths(engine);
        ENGINE_register_pkey_asn1_meths(engine);
    }
#else
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "test_kexp15: this OpenSSL has no ENGINEs (-engine)\n");
        return 2;
    }
#endif
    for (size_t i = 0; i < 2; i++) {
        const kexp *a = &algs[i];
        EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, a->name, PROPQ);
        check(c != NULL, a->name, "fetched");
        if (c == NULL)
            continue;
        properties(a, c);
        examples(a, c);
        random_keys(a, c);
        lengths(a, c);
#ifndef OPENSSL_NO_ENGINE
        if (engine != NULL)
            with_engine(a, c);
#endif
        EVP_CIPHER_free(c);
    }
    printf("%lu passed, %lu failed\n", passed, failed);
#ifndef OPENSSL_NO_ENGINE
    if (engine != NULL) {
        ENGINE_finish(engine);
        ENGINE_free(engine);
    }
#endif
    OSSL_PROVIDER_unload(mb);
    OSSL_PROVIDER_unload(def);
    return failed ? 1 : 0;
}
