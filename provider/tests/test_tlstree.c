/*
 * TLSTREE through EVP: a sequence of records through one context, the
 * record's sequence number set as "tlstree" before each, and each record
 * compared with the same cipher keyed directly with the record key the
 * RFCs print for that sequence number:
 *  - kuznyechik-mgm ("strong") and magma-mgm ("light"): RFC 9367 Appendix
 *    A.1.2 and A.2.2 (the key of each record; the nonce is the caller's),
 *    encrypting and decrypting, the tag checked;
 *  - kuznyechik-ctr and magma-ctr: RFC 9189 Appendix A.1.1.2 and A.1.1.1,
 *    each record under its key from IV + seqnum (RFC 9189 section 8.2);
 * the ctrl's form of the parameter (8 bytes behind a data_size of 0 or 1),
 * and the errors: no mode, a wrong length, a cipher without TLSTREE.
 *
 * Usage: test_tlstree   (OPENSSL_MODULES pointing at multiblock.so)
 * Prints one line per failure and "N passed, N failed".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#define PROPQ "provider=multiblock"

static unsigned long passed, failed;

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

static void unhex(const char *s, unsigned char *out)
{
    for (size_t i = 0; s[2 * i]; i++) {
        unsigned int b;
        sscanf(s + 2 * i, "%2x", &b);
        out[i] = (unsigned char)b;
    }
}

static unsigned long rng = 0x71ee5eedUL;
static unsigned char rnd8(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned char)(rng >> 11);
}

static void be64(uint64_t v, unsigned char out[8])
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        out[i] = (unsigned char)v;
}

/* One record's published key. */
typedef struct {
    uint64_t first, last; /* the sequence numbers sharing the key, as the suite's C_3 groups them */
    const char *key;
} record_key;

/* The records [first, last] of every entry, in order. */
typedef struct {
    const char *cipher, *mode, *root, *where;
    const record_key *keys;
    size_t n;
} tree_case;

/* RFC 9367 Appendix A.1.2, server_write_key_ap (Kuznyechik MGM_S, C_3 =
 * 0x...fff8: records 0-7 share a key, 8-15 the next). */
static const record_key KUZ_MGM_S[] = {
    { 0, 7, "c8fc93d7c586f2b0a3101baa6a979e4e3886706551e81187e97880409c7e8ee9" },
    { 8, 15, "d3cd87d5687407823978344c06b928a85898b739a31d3de5ff2b788ef39196ed" },
};
/* RFC 9367 Appendix A.2.2, server_write_key_ap (Magma MGM_L, C_3 = 0x...ff80). */
static const record_key MAG_MGM_L[] = {
    { 0, 127, "7bb881553598def534fcaf9b77a3355bc3bca3874d6740f6cbf5c1b6d35c65ed" },
    { 128, 131, "93d5d6e1036fdfb3efbf31e6da5eece685171c977ff9cd6c3a3f67c0224ab6eb" },
};
/* RFC 9189 Appendix A.1.1.2 (Kuznyechik CTR_OMAC, C_3 = 0x...ffc0). */
static const record_key KUZ_CTR[] = {
    { 0, 66, NULL }, /* filled below: 0-63 one key, 64-127 the next */
    { 524286, 524289, NULL },
    { 4294967295u, 4294967296u, NULL },
};
/* RFC 9189 Appendix A.1.1.1 (Magma CTR_OMAC, C_3 = 0x...f000). */
static const record_key MAG_CTR[] = {
    { 4094, 4097, NULL },
    { 33554431, 33554432, NULL },
};

/* The published key of record seq (CTR cases: RFC 9189's tables). */
static const char *ctr_key(const char *cipher, uint64_t seq)
{
    static const struct {
        const char *cipher;
        uint64_t from;
        const char *key;
    } T[] = {
        { "kuznyechik", 0, "19a76ed30f4d6d1f5b7263ec491ad83817c0b57d8a0356127140fb4f7425494d" },
        { "kuznyechik", 64, "aebe1ef418713bf044b9fcd9e572d437fb38b5d829567a6f7918396d9f4e096b" },
        { "kuznyechik", 524224, "6f18d4003ea2cb30f5fec193a234f07d7c4394987f50758de22b220d8a105106" },
        { "kuznyechik", 524288, "e54b16415b3b663e780b062d24f736c4495463c3a891e1fa46f7ae99fff9f378" },
        { "kuznyechik", 4294967232u, "cf600904c71e7b88a49ac8e245774b3dbeedfb81de9a0e2f4e46c35607bc2f04" },
        { "kuznyechik", 4294967296u, "16180b24645400b836143837d86aac93952ae3eb8244d5ec2ab02cff30781138" },
        { "magma", 0, "19a76ed30f4d6d1f5b7263ec491ad83817c0b57d8a0356127140fb4f7425494d" },
        { "magma", 4096, "fb30ee53cfcf89d748fc0c72ef160b8b53cbbbfd031282b026214ab2e07758ff" },
        { "magma", 33550336, "b85b36dc2282326bc035c572dc93f18d83aa0174f394209a513bb374dc0935ae" },
        { "magma", 33554432, "0fd7c09efdf8e81573eeccf86e4b95e3af7f34dab1177cfd7db97b6da906408a" },
    };
    const char *k = NULL;
    for (size_t i = 0; i < sizeof(T) / sizeof(T[0]); i++)
        if (!strcmp(T[i].cipher, cipher) && seq >= T[i].from)
            k = T[i].key;
    /* Only inside a published key's C_3 group. */
    if ((!strcmp(cipher, "kuznyechik") && seq >= 128 && seq < 524224)
        || (!strcmp(cipher, "magma") && seq >= 8192 && seq < 33550336))
        return NULL;
    return k;
}

/* in (len bytes) under key and iv through a fresh context; the tag of an AEAD in tag. */
/* An AEAD (aead = 1) takes the AAD "hdr" first, as the records below. */
static int direct(const char *name, int aead, const unsigned char *key, const unsigned char *iv,
                  const unsigned char *in, int len, unsigned char *out, unsigned char *tag, size_t taglen)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, PROPQ);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ol = 0, fl = 0, ok = c != NULL && EVP_EncryptInit_ex2(ctx, c, key, iv, NULL)
                                 && (!aead || EVP_EncryptUpdate(ctx, NULL, &ol, (const unsigned char *)"hdr", 3))
                                 && EVP_EncryptUpdate(ctx, out, &ol, in, len) && EVP_EncryptFinal_ex(ctx, out + ol, &fl);
    if (ok && tag != NULL) {
        OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, taglen),
                            OSSL_PARAM_construct_end() };
        ok = EVP_CIPHER_CTX_get_params(ctx, p);
    }
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    return ok && ol + fl == len;
}

static int set_seq(EVP_CIPHER_CTX *ctx, uint64_t seq, size_t data_size)
{
    unsigned char s[8];
    OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string("tlstree", s, data_size), OSSL_PARAM_construct_end() };
    be64(seq, s);
    return EVP_CIPHER_CTX_set_params(ctx, p);
}

/* MGM: one context over the records, a fresh nonce each; ours against a
 * context keyed with the record's key; then decryption through a second
 * tree context, the tag checked. */
static void mgm_case(const tree_case *t, const char *mode)
{
    char name[32], where[96];
    EVP_CIPHER *c;
    EVP_CIPHER_CTX *enc = EVP_CIPHER_CTX_new(), *dec = EVP_CIPHER_CTX_new();
    unsigned char root[32], key[32], nonce[16], pt[300], ct[300], want[300], tag[16], wtag[16], back[300];
    size_t n = !strcmp(t->cipher, "magma") ? 8 : 16;
    OSSL_PARAM mp[2] = { OSSL_PARAM_construct_utf8_string("tlstree_mode", (char *)mode, 0),
                         OSSL_PARAM_construct_end() };
    snprintf(name, sizeof(name), "%s-mgm", t->cipher);
    c = EVP_CIPHER_fetch(NULL, name, PROPQ);
    unhex(t->root, root);
    check(c != NULL && EVP_EncryptInit_ex2(enc, c, root, NULL, mp) && EVP_DecryptInit_ex2(dec, c, root, NULL, mp),
          t->where, "init with the root key and the mode");
    for (size_t i = 0; i < t->n; i++) {
        unhex(t->keys[i].key, key);
        for (uint64_t seq = t->keys[i].first; seq <= t->keys[i].last; seq++) {
            int len = 1 + (int)(rnd8() % 200), ol = 0, fl = 0, ok;
            OSSL_PARAM tp[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, n),
                                 OSSL_PARAM_construct_end() };
            for (int j = 0; j < len; j++)
                pt[j] = rnd8();
            for (size_t j = 0; j < n; j++)
                nonce[j] = rnd8();
            nonce[0] &= 0x7f; /* MGM's nonce has its top bit clear */
            snprintf(where, sizeof(where), "%s seqnum %llu", t->where, (unsigned long long)seq);
            /* As the TLS 1.3 record layer: the seqnum, then the nonce. */
            ok = set_seq(enc, seq, 8) && EVP_EncryptInit_ex2(enc, NULL, NULL, nonce, NULL)
                 && EVP_EncryptUpdate(enc, NULL, &ol, (const unsigned char *)"hdr", 3)
                 && EVP_EncryptUpdate(enc, ct, &ol, pt, len) && EVP_EncryptFinal_ex(enc, ct + ol, &fl)
                 && EVP_CIPHER_CTX_get_params(enc, tp);
            check(ok && direct(name, 1, key, nonce, pt, len, want, wtag, n) && !memcmp(ct, want, (size_t)len)
                      && !memcmp(tag, wtag, n),
                  where, "encrypted as under the RFC's record key");
            /* Decryption, with the seqnum given in init's parameters. */
            {
                unsigned char s[8];
                OSSL_PARAM dp[3] = { OSSL_PARAM_construct_octet_string("tlstree", s, 8),
                                     OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, wtag, n),
                                     OSSL_PARAM_construct_end() };
                be64(seq, s);
                ok = EVP_DecryptInit_ex2(dec, NULL, NULL, nonce, dp)
                     && EVP_DecryptUpdate(dec, NULL, &ol, (const unsigned char *)"hdr", 3)
                     && EVP_DecryptUpdate(dec, back, &ol, want, len) && EVP_DecryptFinal_ex(dec, back + ol, &fl);
                check(ok && !memcmp(back, pt, (size_t)len), where, "decrypted and the tag checked");
            }
        }
    }
    /* The ctrl's form: data_size 0 over the 8 bytes (the last key's first seqnum again). */
    {
        unsigned char s[8], a[16], b[16];
        int ol = 0;
        OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string("tlstree", s, 0), OSSL_PARAM_construct_end() };
        be64(t->keys[t->n - 1].first, s);
        memset(nonce, 1, sizeof(nonce));
        memset(pt, 2, 16);
        check(EVP_CIPHER_CTX_set_params(enc, p) && EVP_EncryptInit_ex2(enc, NULL, NULL, nonce, NULL)
                  && EVP_EncryptUpdate(enc, NULL, &ol, (const unsigned char *)"hdr", 3)
                  && EVP_EncryptUpdate(enc, a, &ol, pt, 16) && direct(name, 1, key, nonce, pt, 16, b, NULL, 0)
                  && !memcmp(a, b, 16),
              t->where, "the seqnum given as the ctrl gives it (data_size 0)");
    }
    EVP_CIPHER_CTX_free(enc);
    EVP_CIPHER_CTX_free(dec);
    EVP_CIPHER_free(c);
}

/* CTR: one context keyed once with the root and the IV; each record after
 * its seqnum, against the cipher keyed with the record key and IV + seqnum. */
static void ctr_case(const tree_case *t)
{
    char name[32], where[96];
    EVP_CIPHER *c;
    EVP_CIPHER_CTX *enc = EVP_CIPHER_CTX_new();
    unsigned char root[32], key[32], iv[8], ivs[8], pt[300], ct[300], want[300];
    size_t ivlen = !strcmp(t->cipher, "magma") ? 4 : 8;
    snprintf(name, sizeof(name), "%s-ctr", t->cipher);
    c = EVP_CIPHER_fetch(NULL, name, PROPQ);
    unhex(t->root, root);
    for (size_t j = 0; j < ivlen; j++)
        iv[j] = rnd8();
    iv[0] = 0xff; /* IV + seqnum carries out of the low bytes */
    check(c != NULL && EVP_EncryptInit_ex2(enc, c, root, iv, NULL), t->where, "init with the root key and IV");
    for (size_t i = 0; i < t->n; i++) {
        for (uint64_t seq = t->keys[i].first; seq <= t->keys[i].last; seq++) {
            const char *k = ctr_key(t->cipher, seq);
            int len = 1 + (int)(rnd8() % 250), ol = 0, fl = 0, ok;
            uint64_t carry = seq;
            unsigned sum = 0;
            if (k == NULL)
                continue;
            unhex(k, key);
            for (int j = 0; j < len; j++)
                pt[j] = rnd8();
            for (size_t j = ivlen; j-- > 0;) {
                sum = iv[j] + (unsigned)(carry & 0xff) + (sum >> 8);
                ivs[j] = (unsigned char)sum;
                carry >>= 8;
            }
            snprintf(where, sizeof(where), "%s seqnum %llu", t->where, (unsigned long long)seq);
            /* Half of the records in two updates: the next record starts anyway from its own IV. */
            ok = set_seq(enc, seq, 8) && EVP_EncryptUpdate(enc, ct, &ol, pt, len / 2)
                 && EVP_EncryptUpdate(enc, ct + ol, &fl, pt + len / 2, len - len / 2);
            check(ok && ol + fl == len && direct(name, 0, key, ivs, pt, len, want, NULL, 0)
                      && !memcmp(ct, want, (size_t)len),
                  where, "encrypted as under the RFC's record key and IV + seqnum");
        }
    }
    {
        /* data_size 1 (the ctrl's "decrement"): the record before. */
        uint64_t seq = t->keys[0].first + 1;
        int ol = 0, ol2 = 0;
        unsigned char a[32], b[32];
        memset(pt, 3, 32);
        check(set_seq(enc, seq - 1, 8) && EVP_EncryptUpdate(enc, a, &ol, pt, 32) && set_seq(enc, seq, 1)
                  && EVP_EncryptUpdate(enc, b, &ol2, pt, 32) && !memcmp(a, b, 32),
              t->where, "data_size 1 means the record before");
    }
    EVP_CIPHER_CTX_free(enc);
    EVP_CIPHER_free(c);
}

static void error_cases(void)
{
    unsigned char key[32] = { 0 }, iv[16] = { 0 };
    EVP_CIPHER *mgm = EVP_CIPHER_fetch(NULL, "kuznyechik-mgm", PROPQ);
    EVP_CIPHER *cbc = EVP_CIPHER_fetch(NULL, "kuznyechik-cbc", PROPQ);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    OSSL_PARAM bad[2] = { OSSL_PARAM_construct_utf8_string("tlstree_mode", "medium", 0), OSSL_PARAM_construct_end() };
    check(EVP_EncryptInit_ex2(ctx, mgm, key, iv, NULL) && !set_seq(ctx, 1, 8), "mgm", "a seqnum without a mode");
    check(!EVP_CIPHER_CTX_set_params(ctx, bad), "mgm", "mode \"medium\" accepted");
    check(!set_seq(ctx, 1, 7), "mgm", "a 7-byte seqnum accepted");
    ERR_clear_error();
    check(EVP_EncryptInit_ex2(ctx, cbc, key, iv, NULL) && !set_seq(ctx, 1, 8), "cbc", "tlstree on kuznyechik-cbc");
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(mgm);
    EVP_CIPHER_free(cbc);
}

int main(void)
{
    OSSL_PROVIDER *mb = OSSL_PROVIDER_load(NULL, "multiblock");
    static const tree_case MGM[] = {
        { "kuznyechik", "mgm", "475e4c514cc6318c3a5f000f1265bd1ab5f0de1af357ed0079ec5ff0afbd030c",
          "RFC 9367 A.1.2 kuznyechik-mgm strong", KUZ_MGM_S, 2 },
        { "magma", "mgm", "15d92c5147b21310ededf55b3d7ab776817d6fe2fcf230d7e3f29275f6e241ec",
          "RFC 9367 A.2.2 magma-mgm light", MAG_MGM_L, 2 },
    };
    static const tree_case CTR[] = {
        { "kuznyechik", "ctr", "00112233445566778899aabbcceeff0a112233445566778899aabbcceeff0a00",
          "RFC 9189 A.1.1.2 kuznyechik-ctr", KUZ_CTR, 3 },
        { "magma", "ctr", "00112233445566778899aabbcceeff0a112233445566778899aabbcceeff0a00",
          "RFC 9189 A.1.1.1 magma-ctr", MAG_CTR, 2 },
    };
    if (mb == NULL) {
        fprintf(stderr, "cannot load the multiblock provider (OPENSSL_MODULES?)\n");
        ERR_print_errors_fp(stderr);
        return 2;
    }
    mgm_case(&MGM[0], "strong");
    mgm_case(&MGM[1], "light");
    ctr_case(&CTR[0]);
    ctr_case(&CTR[1]);
    error_cases();
    printf("%lu passed, %lu failed\n", passed, failed);
    OSSL_PROVIDER_unload(mb);
    return failed ? 1 : 0;
}
