/*
 * kuznyechik-ctr-acpkm-omac and magma-ctr-acpkm-omac through EVP, on
 * random keys, IVs, seeds and messages of many lengths:
 *  - against their definition, computed from other algorithms: K_enc ||
 *    K_mac = KDF_TREE_GOSTR3411_2012_256(K, "kdf tree", seed, 1) (RFC 7836
 *    section 4.4: HMAC over md_gost12_256 by the default provider's HMAC),
 *    then the ctr-acpkm cipher under K_enc over P || OMAC_K_mac(P) (the
 *    provider's ctr-acpkm and mac): its first bytes are the ciphertext,
 *    the last block the tag;
 *  - decryption with the tag (in pieces), and a changed tag or text refused;
 *  - "alg_id_param" (SEQUENCE { OCTET STRING IV || seed }) read back and
 *    given to a decryption instead of the IV and seed;
 *  - with -engine: interoperation both ways with gost-engine's ENGINE
 *    (gost): it encrypts with its random seed, we decrypt after its CMS
 *    parameters (the same DER as alg_id_param); we encrypt, it decrypts
 *    after ours. Its tag leaves it only as a CMS attribute, so the text is
 *    compared that way and the tags against the definition. (gost-engine's
 *    provider, gostprov 3.0.1, cannot key these two ciphers: its init
 *    looks the OMAC up as a legacy digest, which a provider does not
 *    register, and fails, and an update after it crashes.)
 *
 * Usage: test_ctromac [-engine]   (OPENSSL_MODULES pointing at multiblock.so)
 * Prints one line per failure and "N passed, N failed".
 */
/* gost-engine is an ENGINE: its API is deprecated in OpenSSL 3. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/asn1.h>
#include <openssl/core_names.h>
#ifndef OPENSSL_NO_ENGINE
#include <openssl/engine.h>
#endif
#include <openssl/objects.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define PROPQ "provider=multiblock"
/* gostprov's algorithms carry no "provider" property: anything but ours. */
#define GOST_PROPQ "provider!=multiblock"

static unsigned long passed, failed;
#ifndef OPENSSL_NO_ENGINE
static ENGINE *engine; /* gost-engine, with -engine */

static const EVP_CIPHER *engine_cipher(const char *cipher)
{
    return ENGINE_get_cipher(engine, !strcmp(cipher, "magma") ? NID_magma_ctr_acpkm_omac : NID_kuznyechik_ctr_acpkm_omac);
}
#else
static void *engine; /* OpenSSL without ENGINEs: -engine is refused */
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

static unsigned long rng = 0x0ac0ffeeUL;
static unsigned char rnd8(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned char)(rng >> 11);
}

static void fill(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = rnd8();
}

/* KDF_TREE_GOSTR3411_2012_256 with R = 1 and L = 512: K(i) = HMAC(K, i || label || 00 || seed || 02 00). */
static int kdf_tree_64(const unsigned char key[32], const unsigned char seed[8], unsigned char out[64])
{
    for (int i = 1; i <= 2; i++) {
        unsigned char msg[1 + 8 + 1 + 8 + 2];
        size_t outl = 0;
        int ok;
        OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "md_gost12_256", 0),
                            OSSL_PARAM_construct_end() };
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", "provider=default");
        EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
        msg[0] = (unsigned char)i;
        memcpy(msg + 1, "kdf tree", 8);
        msg[9] = 0;
        memcpy(msg + 10, seed, 8);
        msg[18] = 2;
        msg[19] = 0;
        ok = ctx != NULL && EVP_MAC_init(ctx, key, 32, p) && EVP_MAC_update(ctx, msg, sizeof(msg))
             && EVP_MAC_final(ctx, out + 32 * (i - 1), &outl, 32) && outl == 32;
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(mac);
        if (!ok)
            return 0;
    }
    return 1;
}

/* The expected ciphertext || tag, from the definition (see the top). */
static int expected(const char *cipher, const unsigned char key[32], const unsigned char *iv, size_t ivlen,
                    const unsigned char seed[8], const unsigned char *pt, size_t len, size_t n, unsigned char *out)
{
    unsigned char keys[64], *buf = malloc(len + n);
    char name[48];
    size_t macl = 0;
    int ol = 0, ok;
    EVP_MAC *mac;
    EVP_MAC_CTX *mctx;
    EVP_CIPHER *c;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    (void)ivlen;
    snprintf(name, sizeof(name), "%s-mac", cipher);
    mac = EVP_MAC_fetch(NULL, name, PROPQ);
    mctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    snprintf(name, sizeof(name), "%s-ctr-acpkm", cipher);
    c = EVP_CIPHER_fetch(NULL, name, PROPQ);
    ok = buf != NULL && kdf_tree_64(key, seed, keys) && mctx != NULL && c != NULL
         && EVP_MAC_init(mctx, keys + 32, 32, NULL) && EVP_MAC_update(mctx, pt, len)
         && EVP_MAC_final(mctx, buf + len, &macl, n) && macl == n;
    if (ok) {
        memcpy(buf, pt, len);
        ok = EVP_EncryptInit_ex2(ctx, c, keys, iv, NULL) && EVP_EncryptUpdate(ctx, out, &ol, buf, (int)(len + n))
             && (size_t)ol == len + n;
    }
    free(buf);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    EVP_MAC_CTX_free(mctx);
    EVP_MAC_free(mac);
    return ok;
}

/* One message through a provider: encrypt (tag out) or decrypt (tag in,
 * when not NULL), the IV and seed either given (iv, seed) or through
 * alg_id_param (der); returns the final's result, -1 on an earlier failure. */
static int run(const char *name, const char *propq, int enc, const unsigned char *key, const unsigned char *iv,
               const unsigned char *seed, const unsigned char *der, size_t derlen, const unsigned char *in, size_t len,
               unsigned char *out, unsigned char *tag, size_t n, unsigned char *der_out, size_t *der_out_len)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, propq);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM p[3], *q = p;
    int ol = 0, fl = 0, ok, fin = -1;
    size_t done = 0;
    if (seed != NULL)
        *q++ = OSSL_PARAM_construct_octet_string("kdf-seed", (void *)seed, 8);
    if (der != NULL)
        *q++ = OSSL_PARAM_construct_octet_string("alg_id_param", (void *)der, derlen);
    *q = OSSL_PARAM_construct_end();
    /* Parameters before the key, as CMS gives them. */
    ok = c != NULL && EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL) && EVP_CIPHER_CTX_set_params(ctx, p)
         && EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL);
    if (ok && !enc && tag != NULL) {
        OSSL_PARAM t[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, n),
                            OSSL_PARAM_construct_end() };
        ok = EVP_CIPHER_CTX_set_params(ctx, t);
    }
    while (ok && done < len) {
        size_t step = 1 + rnd8() * (size_t)rnd8() % (len - done);
        ok = EVP_CipherUpdate(ctx, out + done, &ol, in + done, (int)step) && (size_t)ol == step;
        done += step;
    }
    if (ok && der_out != NULL) {
        OSSL_PARAM g[2] = { OSSL_PARAM_construct_octet_string("alg_id_param", der_out, *der_out_len),
                            OSSL_PARAM_construct_end() };
        ok = EVP_CIPHER_CTX_get_params(ctx, g);
        *der_out_len = g[0].return_size;
    }
    if (ok) {
        fin = EVP_CipherFinal_ex(ctx, out + len, &fl);
        if (fin && enc && tag != NULL) {
            OSSL_PARAM t[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, n),
                                OSSL_PARAM_construct_end() };
            fin = EVP_CIPHER_CTX_get_params(ctx, t);
        }
    }
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    return fin;
}

static void one(const char *cipher, size_t ivlen, size_t n, size_t len, int gost)
{
    char name[48], where[96];
    unsigned char key[32], iv[8], seed[8], *pt = malloc(len + 1), *ct = malloc(len + 64), *want = malloc(len + 64),
                                             *back = malloc(len + 64), tag[16], der[64];
    size_t derlen = sizeof(der);
    snprintf(name, sizeof(name), "%s-ctr-acpkm-omac", cipher);
    snprintf(where, sizeof(where), "%s, %zu bytes", name, len);
    fill(key, 32);
    fill(iv, ivlen);
    fill(seed, 8);
    fill(pt, len);
    check(expected(cipher, key, iv, ivlen, seed, pt, len, n, want), where, "the definition's bytes");
    check(run(name, PROPQ, 1, key, iv, seed, NULL, 0, pt, len, ct, tag, n, der, &derlen) == 1
              && !memcmp(ct, want, len) && !memcmp(tag, want + len, n),
          where, "ciphertext and tag as the definition");
    check(derlen == 4 + ivlen + 8 && der[0] == 0x30 && !memcmp(der + 4, iv, ivlen) && !memcmp(der + 4 + ivlen, seed, 8),
          where, "alg_id_param is SEQUENCE { OCTET STRING IV || seed }");
    check(run(name, PROPQ, 0, key, NULL, NULL, der, derlen, ct, len, back, tag, n, NULL, NULL) == 1
              && !memcmp(back, pt, len),
          where, "decrypted with alg_id_param and the tag");
    tag[n - 1] ^= 1;
    check(run(name, PROPQ, 0, key, iv, seed, NULL, 0, ct, len, back, tag, n, NULL, NULL) == 0, where,
          "a changed tag is accepted");
    tag[n - 1] ^= 1;
    if (len > 0) {
        ct[len / 2] ^= 0x20;
        check(run(name, PROPQ, 0, key, iv, seed, NULL, 0, ct, len, back, tag, n, NULL, NULL) == 0, where,
              "a changed ciphertext is accepted");
        ct[len / 2] ^= 0x20;
    }
    check(run(name, PROPQ, 0, key, iv, seed, NULL, 0, ct, len, back, NULL, n, NULL, NULL) == 0, where,
          "a decryption without a tag is accepted");
#ifndef OPENSSL_NO_ENGINE
    if (gost) {
        /* gost-engine encrypts (its random seed, read back as the CMS
         * parameters); we decrypt it, its tag checked by the definition. */
        unsigned char *g = malloc(len + 64), *gder = NULL, gtag[16];
        int glen = 0, ok;
        ASN1_TYPE *t = ASN1_TYPE_new();
        const unsigned char *q;
        EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new();
        ok = EVP_CipherInit_ex(e, engine_cipher(cipher), engine, key, iv, 1)
             && EVP_CipherUpdate(e, g, &glen, pt, (int)len) && (size_t)glen == len
             && EVP_CipherFinal_ex(e, g + len, &glen) && EVP_CIPHER_param_to_asn1(e, t) > 0
             && (glen = i2d_ASN1_TYPE(t, &gder)) == (int)(4 + ivlen + 8);
        check(ok, where, "gost-engine encrypts and gives its UKM");
        if (ok) {
            check(expected(cipher, key, iv, ivlen, gder + 4 + ivlen, pt, len, n, want) && !memcmp(g, want, len),
                  where, "gost-engine's ciphertext is the definition's under its seed");
            memcpy(gtag, want + len, n);
            check(run(name, PROPQ, 0, key, NULL, NULL, gder, (size_t)glen, g, len, back, gtag, n, NULL, NULL) == 1
                      && !memcmp(back, pt, len),
                  where, "we decrypt gost-engine's ciphertext (its UKM, the tag of the definition)");
        }
        OPENSSL_free(gder);
        ASN1_TYPE_free(t);
        EVP_CIPHER_CTX_free(e);
        /* We encrypt; gost-engine decrypts after our alg_id_param as its
         * CMS parameters (it takes the tag only from CMS attributes: its
         * final is not asked). */
        e = EVP_CIPHER_CTX_new();
        q = der;
        t = d2i_ASN1_TYPE(NULL, &q, (long)derlen);
        memset(back, 0, len);
        ok = t != NULL && EVP_CipherInit_ex(e, engine_cipher(cipher), engine, NULL, NULL, 0)
             && EVP_CIPHER_asn1_to_param(e, t) > 0 && EVP_CipherInit_ex(e, NULL, NULL, key, NULL, 0)
             && EVP_CipherUpdate(e, back, &glen, ct, (int)len) && (size_t)glen == len;
        check(ok && !memcmp(back, pt, len), where, "gost-engine decrypts our ciphertext");
        ERR_clear_error();
        ASN1_TYPE_free(t);
        EVP_CIPHER_CTX_free(e);
        free(g);
    }
#else
    (void)gost;
#endif
    free(pt);
    free(ct);
    free(want);
    free(back);
}

int main(int argc, char **argv)
{
    OSSL_PROVIDER *mb = OSSL_PROVIDER_load(NULL, "multiblock"), *def = OSSL_PROVIDER_load(NULL, "default");
    static const size_t lens[] = { 0, 1, 7, 8, 15, 16, 17, 100, 1023, 1024, 1025, 4095, 4096, 4097, 9000, 70000 };
    if (mb == NULL || def == NULL) {
        fprintf(stderr, "cannot load the multiblock provider (OPENSSL_MODULES?)\n");
        ERR_print_errors_fp(stderr);
        return 2;
    }
#ifndef OPENSSL_NO_ENGINE
    if (argc > 1 && (strcmp(argv[1], "-engine") || (engine = ENGINE_by_id("gost")) == NULL || !ENGINE_init(engine))) {
        fprintf(stderr, "usage: test_ctromac [-engine] (-engine: gost-engine's ENGINE \"gost\" loads)\n");
        ERR_print_errors_fp(stderr);
        return 2;
    }
    /* The engine's ciphers only where it is named (else EVP runs them in
     * place of the provider's of the same NIDs); its digests and key
     * methods registered: its ciphers key their OMAC through them. */
    if (engine != NULL) {
        ENGINE_unregister_ciphers(engine);
        ENGINE_register_digests(engine);
        ENGINE_register_pkey_meths(engine);
        ENGINE_register_pkey_asn1_meths(engine);
    }
#else
    (void)argv;
    if (argc > 1) {
        fprintf(stderr, "test_ctromac: this OpenSSL has no ENGINEs (-engine)\n");
        return 2;
    }
#endif
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        one("kuznyechik", 8, 16, lens[i], engine != NULL);
        one("magma", 4, 8, lens[i], engine != NULL);
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
