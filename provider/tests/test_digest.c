/*
 * The provider's digests through EVP: the published examples of GOST R
 * 34.11-2012 (RFC 6986 section 10, M1 and M2) and DSTU 7564:2014 (Kupyna,
 * its Appendix examples as ePrint 2015/885 Appendix B prints them), each
 * in one piece and in random pieces, through a copy of the context taken
 * in the middle of the message and one taken after a first update of one
 * block (as HMAC keys it), and by every name and OID the algorithm
 * carries; the digest and block sizes; then RFC 7836 Appendix B's HMAC
 * examples through the default provider's HMAC over our Streebog (EVP_MAC
 * and EVP_PKEY HMAC signing, as `openssl dgst -hmac` does).
 *
 * Usage: test_digest   (OPENSSL_MODULES pointing at multiblock.so)
 * Prints one line per failure and "N passed, N failed".
 */
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

static size_t unhex(const char *s, unsigned char *out)
{
    size_t n = strlen(s) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned int b;
        sscanf(s + 2 * i, "%2x", &b);
        out[i] = (unsigned char)b;
    }
    return n;
}

/* RFC 6986 prints messages and digests most significant byte first; in
 * memory (and in OpenSSL's output) both are reversed. */
static void reverse(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n / 2; i++) {
        unsigned char t = p[i];
        p[i] = p[n - 1 - i];
        p[n - 1 - i] = t;
    }
}

static unsigned long rng = 0x5eed5eedUL;
static size_t rnd(size_t below)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return below ? (size_t)(rng % below) : 0;
}

/* md over msg in one piece, in random pieces, and finished through a copy
 * taken after a random prefix; each must give want. */
static void digest_checks(const char *name, const unsigned char *msg, size_t len, const unsigned char *want,
                          size_t want_len, const char *where)
{
    EVP_MD *md = EVP_MD_fetch(NULL, name, PROPQ);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new(), *copy = EVP_MD_CTX_new();
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int outl = 0;
    size_t done = 0, cut;
    int ok;
    char what[128];
    snprintf(what, sizeof(what), "%s: fetch", name);
    check(md != NULL, where, what);
    if (md == NULL)
        goto end;
    snprintf(what, sizeof(what), "%s: sizes", name);
    check((size_t)EVP_MD_get_size(md) == want_len, where, what);
    ok = EVP_DigestInit_ex2(ctx, md, NULL) && EVP_DigestUpdate(ctx, msg, len) && EVP_DigestFinal_ex(ctx, out, &outl);
    snprintf(what, sizeof(what), "%s: one piece", name);
    check(ok && outl == want_len && !memcmp(out, want, want_len), where, what);
    ok = EVP_DigestInit_ex2(ctx, md, NULL);
    while (ok && done < len) {
        size_t step = 1 + rnd(len - done);
        ok = EVP_DigestUpdate(ctx, msg + done, step);
        done += step;
    }
    ok = ok && EVP_DigestFinal_ex(ctx, out, &outl);
    snprintf(what, sizeof(what), "%s: random pieces", name);
    check(ok && outl == want_len && !memcmp(out, want, want_len), where, what);
    /* A copy in the middle finishes the message; the original, fed other
     * bytes afterwards, does not disturb it. */
    cut = rnd(len + 1);
    ok = EVP_DigestInit_ex2(ctx, md, NULL) && EVP_DigestUpdate(ctx, msg, cut) && EVP_MD_CTX_copy_ex(copy, ctx)
         && EVP_DigestUpdate(ctx, "x", 1) && EVP_DigestUpdate(copy, msg + cut, len - cut)
         && EVP_DigestFinal_ex(copy, out, &outl);
    snprintf(what, sizeof(what), "%s: copy after %zu bytes", name, cut);
    check(ok && outl == want_len && !memcmp(out, want, want_len), where, what);
    /* HMAC's pattern: a first update of one whole block, compressed at once
     * by the provider, then copies that finish the message. */
    cut = (size_t)EVP_MD_get_block_size(md);
    if (cut <= len) {
        ok = EVP_DigestInit_ex2(ctx, md, NULL) && EVP_DigestUpdate(ctx, msg, cut) && EVP_MD_CTX_copy_ex(copy, ctx)
             && EVP_DigestUpdate(copy, msg + cut, len - cut) && EVP_DigestFinal_ex(copy, out, &outl);
        snprintf(what, sizeof(what), "%s: copy after a first update of one block", name);
        check(ok && outl == want_len && !memcmp(out, want, want_len), where, what);
        ok = EVP_DigestUpdate(ctx, msg + cut, len - cut) && EVP_DigestFinal_ex(ctx, out, &outl);
        snprintf(what, sizeof(what), "%s: first update of one block", name);
        check(ok && outl == want_len && !memcmp(out, want, want_len), where, what);
    }
end:
    EVP_MD_CTX_free(ctx);
    EVP_MD_CTX_free(copy);
    EVP_MD_free(md);
}

/* GOST R 34.11-2012 Appendix A (RFC 6986 section 10.1 and 10.2): M1, M2 as
 * printed, and their 512- and 256-bit digests as printed. */
static const char *const STREEBOG[2][3] = {
    { "323130393837363534333231303938373635343332313039383736353433323130393837363534333231303938373635343332313039383736353433323130",
      "486f64c1917879417fef082b3381a4e211c324f074654c38823a7b76f830ad00fa1fbae42b1285c0352f227524bc9ab16254288dd6863dccd5b9f54a1ad0541b",
      "00557be5e584fd52a449b16b0251d05d27f94ab76cbaa6da890b59d8ef1e159d" },
    { "fbe2e5f0eee3c820fbeafaebef20fffbf0e1e0f0f520e0ed20e8ece0ebe5f0f2f120fff0eeec20f120faf2fee5e2202ce8f6f3ede220e8e6eee1e8f0f2d1202ce8f0f2e5e220e5d1",
      "28fbc9bada033b1460642bdcddb90c3fb3e56c497ccd0f62b8a2ad4935e85f037613966de4ee00531ae60f3b5a47f8dae06915d5f2f194996fcabf2622e6881e",
      "508f7e553c06501d749a66fc28c6cac0b005746d97537fa85d9e40904efed29d" },
};

/* DSTU 7564:2014's examples (ePrint 2015/885 Appendix B): the message is
 * the bytes 00 01 02 ... of the given length; the digests in memory order. */
static const struct {
    const char *name;
    size_t len;
    const char *digest;
} KUPYNA[] = {
    { "kupyna-256", 64, "08F4EE6F1BE6903B324C4E27990CB24EF69DD58DBE84813EE0A52F6631239875" },
    { "kupyna-256", 128, "0A9474E645A7D25E255E9E89FFF42EC7EB31349007059284F0B182E452BDA882" },
    { "kupyna-256", 256, "D305A32B963D149DC765F68594505D4077024F836C1BF03806E1624CE176C08F" },
    { "kupyna-256", 0, "CD5101D1CCDF0D1D1F4ADA56E888CD724CA1A0838A3521E7131D4FB78D0F5EB6" },
    { "kupyna-512", 64,
      "3813E2109118CDFB5A6D5E72F7208DCCC80A2DFB3AFDFB02F46992B5EDBE536B"
      "3560DD1D7E29C6F53978AF58B444E37BA685C0DD910533BA5D78EFFFC13DE62A" },
    { "kupyna-512", 128,
      "76ED1AC28B1D0143013FFA87213B4090B356441263C13E03FA060A8CADA32B97"
      "9635657F256B15D5FCA4A174DE029F0B1B4387C878FCC1C00E8705D783FD7FFE" },
    { "kupyna-512", 256,
      "0DD03D7350C409CB3C29C25893A0724F6B133FA8B9EB90A64D1A8FA93B565566"
      "11EB187D715A956B107E3BFC76482298133A9CE8CBC0BD5E1436A5B197284F7E" },
    { "kupyna-512", 0,
      "656B2F4CD71462388B64A37043EA55DBE445D452AECD46C3298343314EF04019"
      "BCFA3F04265A9857F91BE91FCE197096187CEDA78C9C1C021C294A0689198538" },
};

/* RFC 7836 Appendix B, examples 1 and 2: HMAC_GOSTR3411_2012_256 and _512
 * of 01 26 bd b8 78 00 af 21 43 41 45 65 63 78 01 00 under the key 00..1f. */
static const char *const HMAC_KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
static const char *const HMAC_MSG = "0126bdb87800af214341456563780100";
static const char *const HMAC_TAGS[2][2] = {
    { "md_gost12_256", "a1aa5f7de402d7b3d323f2991c8d4534013137010a83754fd0af6d7cd4922ed9" },
    { "md_gost12_512", "a59bab22ecae19c65fbde6e5f4e9f5d8549d31f037f9df9b905500e171923a77"
                       "3d5f1530f2ed7e964cb2eedc29e9ad2f3afe93b2814f79f5000ffc0366c251e6" },
};

static void hmac_checks(void)
{
    unsigned char key[32], msg[16], want[64], out[64];
    size_t klen = unhex(HMAC_KEY, key), mlen = unhex(HMAC_MSG, msg);
    for (int i = 0; i < 2; i++) {
        size_t wlen = unhex(HMAC_TAGS[i][1], want), outl = 0;
        const char *md = HMAC_TAGS[i][0];
        EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", "provider=default");
        EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
        OSSL_PARAM p[3] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)md, 0),
                            OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_PROPERTIES, PROPQ, 0),
                            OSSL_PARAM_construct_end() };
        int ok = ctx != NULL && EVP_MAC_init(ctx, key, klen, p) && EVP_MAC_update(ctx, msg, 5)
                 && EVP_MAC_update(ctx, msg + 5, mlen - 5) && EVP_MAC_final(ctx, out, &outl, sizeof(out));
        check(ok && outl == wlen && !memcmp(out, want, wlen), md, "RFC 7836 HMAC through EVP_MAC");
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(mac);
        {
            /* The EVP_PKEY HMAC signing path (`openssl dgst -hmac`); no property
             * query: HMAC signing is the default provider's, the digest ours. */
            EVP_PKEY *pkey = EVP_PKEY_new_raw_private_key_ex(NULL, "HMAC", NULL, key, klen);
            EVP_MD_CTX *mctx = EVP_MD_CTX_new();
            size_t sl = sizeof(out);
            ok = pkey != NULL && mctx != NULL && EVP_DigestSignInit_ex(mctx, NULL, md, NULL, NULL, pkey, NULL)
                 && EVP_DigestSignUpdate(mctx, msg, mlen) && EVP_DigestSignFinal(mctx, out, &sl);
            check(ok && sl == wlen && !memcmp(out, want, wlen), md, "RFC 7836 HMAC through EVP_DigestSign");
            EVP_MD_CTX_free(mctx);
            EVP_PKEY_free(pkey);
        }
    }
}

/* Every name and OID finds the same algorithm, with its sizes. */
static void names_checks(void)
{
    static const struct {
        const char *name;
        int size, block;
    } NAMES[] = {
        { "md_gost12_256", 32, 64 }, { "id-tc26-gost3411-12-256", 32, 64 }, { "streebog256", 32, 64 },
        { "1.2.643.7.1.1.2.2", 32, 64 }, { "md_gost12_512", 64, 64 }, { "id-tc26-gost3411-12-512", 64, 64 },
        { "streebog512", 64, 64 }, { "1.2.643.7.1.1.2.3", 64, 64 }, { "kupyna-256", 32, 64 },
        { "1.2.804.2.1.1.1.1.2.2.1", 32, 64 }, { "kupyna-384", 48, 128 }, { "1.2.804.2.1.1.1.1.2.2.2", 48, 128 },
        { "kupyna-512", 64, 128 }, { "1.2.804.2.1.1.1.1.2.2.3", 64, 128 },
    };
    for (size_t i = 0; i < sizeof(NAMES) / sizeof(NAMES[0]); i++) {
        EVP_MD *md = EVP_MD_fetch(NULL, NAMES[i].name, PROPQ);
        check(md != NULL && EVP_MD_get_size(md) == NAMES[i].size && EVP_MD_get_block_size(md) == NAMES[i].block,
              NAMES[i].name, "fetch by name, digest and block size");
        EVP_MD_free(md);
    }
}

int main(void)
{
    OSSL_PROVIDER *mb = OSSL_PROVIDER_load(NULL, "multiblock"), *def = OSSL_PROVIDER_load(NULL, "default");
    unsigned char msg[256], want[64];
    if (mb == NULL || def == NULL) {
        fprintf(stderr, "cannot load the multiblock provider (OPENSSL_MODULES?)\n");
        ERR_print_errors_fp(stderr);
        return 2;
    }
    for (int i = 0; i < 2; i++) {
        size_t len = unhex(STREEBOG[i][0], msg), wl;
        const char *where = i ? "RFC 6986 M2" : "RFC 6986 M1";
        reverse(msg, len);
        wl = unhex(STREEBOG[i][1], want);
        reverse(want, wl);
        digest_checks("md_gost12_512", msg, len, want, wl, where);
        digest_checks("1.2.643.7.1.1.2.3", msg, len, want, wl, where);
        wl = unhex(STREEBOG[i][2], want);
        reverse(want, wl);
        digest_checks("md_gost12_256", msg, len, want, wl, where);
        digest_checks("streebog256", msg, len, want, wl, where);
    }
    for (size_t i = 0; i < 256; i++)
        msg[i] = (unsigned char)i;
    for (size_t i = 0; i < sizeof(KUPYNA) / sizeof(KUPYNA[0]); i++) {
        size_t wl = unhex(KUPYNA[i].digest, want);
        char where[64];
        snprintf(where, sizeof(where), "DSTU 7564 %s, %zu bytes", KUPYNA[i].name, KUPYNA[i].len);
        digest_checks(KUPYNA[i].name, msg, KUPYNA[i].len, want, wl, where);
    }
    names_checks();
    hmac_checks();
    printf("%lu passed, %lu failed\n", passed, failed);
    OSSL_PROVIDER_unload(mb);
    OSSL_PROVIDER_unload(def);
    return failed ? 1 : 0;
}
