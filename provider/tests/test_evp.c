/*
 * Runs the public vectors (crates/multiblock/vectors, as lines from
 * crates/multiblock-c/tests/c/vectors_to_lines.py) through EVP with the
 * multiblock provider: every cipher and AEAD vector the provider can
 * express, encrypting and decrypting in one piece and in random pieces,
 * every MAC vector through EVP_MAC in pieces; then the error cases: a
 * wrong AEAD tag (must fail and leave the output untouched), wrong key and
 * IV lengths, use before a key.
 *
 * Usage: test_evp VECTORS.txt   (OPENSSL_MODULES pointing at multiblock.so)
 *        test_evp -e|-d NAME KEYHEX IVHEX   (stdin to stdout through EVP in
 *        random pieces, PKCS#7 on ECB/CBC: for the ciphers `openssl enc`
 *        cannot run, compared with the CLI by enc_and_cli.py)
 * Prints one line per failure or skip and "N passed, N failed, N skipped".
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

static unsigned long passed, failed, skipped;

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

static void skip(const char *where, const char *why)
{
    skipped++;
    printf("skip %s: %s\n", where, why);
}

typedef struct {
    unsigned char *p;
    size_t len;
    int given;
} bytes;

typedef struct {
    char cipher[32], mode[32], sbox[32], src[64];
    bytes key, iv, aad, pt, ct, tag;
    unsigned long iterations, s, m, mac_bits, tag_bits, section_bytes, key_section_bytes, nb;
} vector;

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int parse_hex(const char *s, bytes *out)
{
    size_t n = strlen(s);
    if (n % 2)
        return 0;
    out->p = malloc(n / 2 + 1);
    out->len = n / 2;
    out->given = 1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 0;
        out->p[i] = (unsigned char)(hi << 4 | lo);
    }
    return 1;
}

static int name(char *dst, size_t cap, const char *s)
{
    if (strlen(s) >= cap)
        return 0;
    strcpy(dst, s);
    return 1;
}

static int parse_line(char *line, vector *v)
{
    memset(v, 0, sizeof(*v));
    v->iterations = 1;
    for (char *tok = strtok(line, " \n"); tok; tok = strtok(NULL, " \n")) {
        char *eq = strchr(tok, '=');
        const char *k = tok, *val;
        int ok = 1;
        if (!eq)
            return 0;
        *eq = 0;
        val = eq + 1;
        if (!strcmp(k, "cipher")) ok = name(v->cipher, sizeof(v->cipher), val);
        else if (!strcmp(k, "mode")) ok = name(v->mode, sizeof(v->mode), val);
        else if (!strcmp(k, "sbox")) ok = name(v->sbox, sizeof(v->sbox), val);
        else if (!strcmp(k, "src")) ok = name(v->src, sizeof(v->src), val);
        else if (!strcmp(k, "key")) ok = parse_hex(val, &v->key);
        else if (!strcmp(k, "iv")) ok = parse_hex(val, &v->iv);
        else if (!strcmp(k, "aad")) ok = parse_hex(val, &v->aad);
        else if (!strcmp(k, "pt")) ok = parse_hex(val, &v->pt);
        else if (!strcmp(k, "ct")) ok = parse_hex(val, &v->ct);
        else if (!strcmp(k, "tag")) ok = parse_hex(val, &v->tag);
        else if (!strcmp(k, "iterations")) v->iterations = strtoul(val, NULL, 10);
        else if (!strcmp(k, "s")) v->s = strtoul(val, NULL, 10);
        else if (!strcmp(k, "m")) v->m = strtoul(val, NULL, 10);
        else if (!strcmp(k, "mac_bits")) v->mac_bits = strtoul(val, NULL, 10);
        else if (!strcmp(k, "tag_bits")) v->tag_bits = strtoul(val, NULL, 10);
        else if (!strcmp(k, "section_bytes")) v->section_bytes = strtoul(val, NULL, 10);
        else if (!strcmp(k, "key_section_bytes")) v->key_section_bytes = strtoul(val, NULL, 10);
        else if (!strcmp(k, "nb")) v->nb = strtoul(val, NULL, 10);
        else return 0;
        if (!ok)
            return 0;
    }
    return v->cipher[0] && v->mode[0] && v->key.given;
}

static void free_vector(vector *v)
{
    bytes *all[] = { &v->key, &v->iv, &v->aad, &v->pt, &v->ct, &v->tag };
    for (size_t i = 0; i < 6; i++)
        free(all[i]->p);
}

static unsigned long rng = 88172645463325252UL;
static size_t rnd(size_t below)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return below ? (size_t)(rng % below) : 0;
}

/* ---- ciphers ----------------------------------------------------------- */

/* The EVP name of a vector's cipher and mode, or NULL (with why). */
static const char *evp_name(const vector *v, char *buf, size_t cap, const char **why)
{
    const char *m = v->mode;
    *why = NULL;
    if (!strcmp(v->cipher, "gost89")) {
        if (!strcmp(m, "cfb"))
            return "gost89";
        if (!strcmp(m, "cnt"))
            return "gost89-cnt";
        *why = "the provider has no gost89 ecb (gostprov neither)";
        return NULL;
    }
    if (!strcmp(m, "kw")) {
        *why = "key wrap is not an EVP cipher of the provider";
        return NULL;
    }
    snprintf(buf, cap, "%s-%s", v->cipher, m);
    return buf;
}

/* Sets the vector's parameters on a context before init. */
static int set_params(EVP_CIPHER_CTX *ctx, const vector *v, int enc)
{
    OSSL_PARAM p[8], *q = p;
    unsigned int zero = 0;
    size_t ivlen = v->iv.len, section = v->section_bytes, nb = v->nb;
    q = p;
    *q++ = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &zero);
    if (v->iv.given && ivlen != (size_t)EVP_CIPHER_CTX_get_iv_length(ctx))
        *q++ = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen);
    if (v->sbox[0])
        *q++ = OSSL_PARAM_construct_utf8_string("sbox", (char *)v->sbox, 0);
    if (!strcmp(v->cipher, "gost89"))
        *q++ = OSSL_PARAM_construct_uint("key-meshing", &zero); /* the vectors have none */
    if (section)
        *q++ = OSSL_PARAM_construct_size_t("section-bytes", &section);
    if (nb)
        *q++ = OSSL_PARAM_construct_size_t("nb", &nb);
    if (v->tag.given && enc)
        *q++ = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, v->tag.len);
    if (v->tag.given && !enc)
        *q++ = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, v->tag.p, v->tag.len);
    *q = OSSL_PARAM_construct_end();
    return EVP_CIPHER_CTX_set_params(ctx, p);
}

/* Runs one direction; pieces: split the text at random. Returns the output
 * length or -1. For AEAD, tag_out receives the tag of an encryption. */
static long run(EVP_CIPHER *c, const vector *v, int enc, const unsigned char *in, size_t len, unsigned char *out,
                int pieces, unsigned char *tag_out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int aead = EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER;
    int outl, xts = EVP_CIPHER_get_mode(c) == EVP_CIPH_XTS_MODE;
    long total = -1;
    size_t done = 0;
    if (!EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL) || !set_params(ctx, v, enc)
        || !EVP_CipherInit_ex2(ctx, NULL, v->key.p, v->iv.given ? v->iv.p : NULL, enc, NULL))
        goto end;
    if (aead && v->aad.len) {
        /* AAD in pieces too. */
        size_t a = 0;
        while (a < v->aad.len) {
            size_t step = pieces ? 1 + rnd(v->aad.len - a) : v->aad.len - a;
            if (!EVP_CipherUpdate(ctx, NULL, &outl, v->aad.p + a, (int)step))
                goto end;
            a += step;
        }
    }
    total = 0;
    /* AEAD and XTS take the whole text in one update. */
    if (aead || xts)
        pieces = 0;
    while (done < len || (done == 0 && len == 0 && (aead || xts) && 0)) {
        size_t step = pieces ? 1 + rnd(len - done < 40 ? len - done : 40 + rnd(len - done)) : len - done;
        if (step > len - done)
            step = len - done;
        if (!EVP_CipherUpdate(ctx, out + total, &outl, in + done, (int)step)) {
            total = -1;
            goto end;
        }
        total += outl;
        done += step;
    }
    if ((aead || xts) && len > 0 && done == 0)
        goto end;
    if (!EVP_CipherFinal_ex(ctx, out + total, &outl)) {
        total = -1;
        goto end;
    }
    total += outl;
    if (aead && enc && tag_out != NULL) {
        OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag_out, v->tag.len),
                            OSSL_PARAM_construct_end() };
        if (!EVP_CIPHER_CTX_get_params(ctx, p))
            total = -1;
    }
end:
    EVP_CIPHER_CTX_free(ctx);
    return total;
}

static void cipher_vector(const vector *v)
{
    char buf[64];
    const char *why, *nm = evp_name(v, buf, sizeof(buf), &why);
    EVP_CIPHER *c;
    unsigned char *out, tag[64];
    size_t n;
    if (nm == NULL) {
        skip(v->src, why);
        return;
    }
    if (v->iterations != 1) {
        skip(v->src, "an iterated ECB vector (the C API test runs it)");
        return;
    }
    c = EVP_CIPHER_fetch(NULL, nm, PROPQ);
    if (c == NULL) {
        check(0, v->src, "cipher not found");
        return;
    }
    n = (size_t)EVP_CIPHER_get_block_size(c);
    /* s other than a whole block is not an EVP parameter of the provider. */
    if (v->s && v->s != 8 * (strcmp(v->cipher, "kuznyechik") == 0 ? 16 : strncmp(v->cipher, "kalyna-128", 10) == 0 ? 16
                                                  : strncmp(v->cipher, "kalyna-256", 10) == 0 ? 32
                                                  : strncmp(v->cipher, "kalyna-512", 10) == 0 ? 64 : 8)) {
        skip(v->src, "s smaller than the block (the provider runs s = n)");
        EVP_CIPHER_free(c);
        return;
    }
    (void)n;
    out = malloc(v->pt.len + v->ct.len + 128);
    for (int pieces = 0; pieces < 3; pieces++) {
        long got = run(c, v, 1, v->pt.p, v->pt.len, out, pieces, tag);
        check(got == (long)v->ct.len && !memcmp(out, v->ct.p, v->ct.len), v->src,
              pieces ? "encrypt in pieces" : "encrypt");
        if (v->tag.given)
            check(got >= 0 && !memcmp(tag, v->tag.p, v->tag.len), v->src, "tag");
        got = run(c, v, 0, v->ct.p, v->ct.len, out, pieces, NULL);
        check(got == (long)v->pt.len && !memcmp(out, v->pt.p, v->pt.len), v->src,
              pieces ? "decrypt in pieces" : "decrypt");
    }
    if (v->tag.given) {
        /* A wrong tag (and a wrong ciphertext bit): failure, output untouched. */
        vector bad = *v;
        unsigned char badtag[64];
        memcpy(badtag, v->tag.p, v->tag.len);
        badtag[v->tag.len - 1] ^= 1;
        bad.tag.p = badtag;
        memset(out, 0xA5, v->ct.len + 16);
        check(run(c, &bad, 0, v->ct.p, v->ct.len, out, 0, NULL) < 0, v->src, "a wrong tag is accepted");
        for (size_t i = 0; i < v->ct.len + 16; i++)
            if (out[i] != 0xA5) {
                check(0, v->src, "plaintext released under a wrong tag");
                break;
            }
        if (v->ct.len) {
            unsigned char *ct = malloc(v->ct.len);
            memcpy(ct, v->ct.p, v->ct.len);
            ct[0] ^= 0x80;
            memset(out, 0xA5, v->ct.len);
            check(run(c, v, 0, ct, v->ct.len, out, 0, NULL) < 0, v->src, "a changed ciphertext is accepted");
            for (size_t i = 0; i < v->ct.len; i++)
                if (out[i] != 0xA5) {
                    check(0, v->src, "plaintext released for a changed ciphertext");
                    break;
                }
            free(ct);
        }
    }
    free(out);
    EVP_CIPHER_free(c);
}

/* ---- MACs -------------------------------------------------------------- */

static void mac_vector(const vector *v)
{
    char nm[64];
    EVP_MAC *mac;
    EVP_MAC_CTX *ctx;
    OSSL_PARAM p[8], *q = p;
    size_t size = (v->mac_bits ? v->mac_bits : v->tag_bits) / 8, section = v->section_bytes,
           ksection = v->key_section_bytes, outl = 0;
    unsigned char out[64];
    if (!strcmp(v->cipher, "gost89"))
        snprintf(nm, sizeof(nm), "gost-mac");
    else if (!strcmp(v->mode, "mac"))
        snprintf(nm, sizeof(nm), "%s-mac", v->cipher);
    else if (!strcmp(v->mode, "omac-acpkm"))
        snprintf(nm, sizeof(nm), "%s-omac-acpkm", v->cipher);
    else
        snprintf(nm, sizeof(nm), "%s-%s", v->cipher, v->mode);
    mac = EVP_MAC_fetch(NULL, nm, PROPQ);
    if (mac == NULL) {
        check(0, v->src, "MAC not found");
        return;
    }
    ctx = EVP_MAC_CTX_new(mac);
    if (size)
        *q++ = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size);
    if (v->sbox[0])
        *q++ = OSSL_PARAM_construct_utf8_string("sbox", (char *)v->sbox, 0);
    if (section)
        *q++ = OSSL_PARAM_construct_size_t("section-bytes", &section);
    if (ksection)
        *q++ = OSSL_PARAM_construct_size_t("key-section-bytes", &ksection);
    if (v->iv.given)
        *q++ = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, v->iv.p, v->iv.len);
    *q = OSSL_PARAM_construct_end();
    for (int pieces = 0; pieces < 2; pieces++) {
        size_t done = 0;
        int ok = EVP_MAC_init(ctx, v->key.p, v->key.len, p);
        while (ok && done < v->pt.len) {
            size_t step = pieces ? 1 + rnd(v->pt.len - done) : v->pt.len - done;
            ok = EVP_MAC_update(ctx, v->pt.p + done, step);
            done += step;
        }
        ok = ok && EVP_MAC_final(ctx, out, &outl, sizeof(out));
        check(ok && outl == v->tag.len && !memcmp(out, v->tag.p, v->tag.len), v->src, pieces ? "MAC in pieces" : "MAC");
    }
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
}

/* ---- errors ------------------------------------------------------------ */

static void error_cases(void)
{
    unsigned char key[64] = { 0 }, iv[64] = { 0 }, buf[64];
    int outl;
    size_t bad, badiv = 7;
    const char *names[] = { "kuznyechik-ctr", "magma-cbc", "kuznyechik-mgm", "kalyna-128-128-gcm", "gost89-cnt",
                            "ublock-128-128-cbc", "kalyna-256-512-xts" };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, names[i], PROPQ);
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        OSSL_PARAM kp[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &bad), OSSL_PARAM_construct_end() };
        OSSL_PARAM ip[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &badiv), OSSL_PARAM_construct_end() };
        check(c != NULL, names[i], "fetch");
        if (c == NULL)
            continue;
        bad = (size_t)EVP_CIPHER_get_key_length(c) + 1;
        check(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL), names[i], "init without key");
        /* An update before any key is an error, not a crash. */
        check(!EVP_EncryptUpdate(ctx, buf, &outl, iv, 16), names[i], "update without a key succeeds");
        check(!EVP_CIPHER_CTX_set_params(ctx, kp), names[i], "a 16-byte key length is accepted");
        check(!EVP_CIPHER_CTX_set_params(ctx, ip), names[i], "a 7-byte IV length is accepted");
        check(!EVP_EncryptInit_ex2(ctx, NULL, key, iv, kp), names[i], "init with a wrong key length succeeds");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
    }
    {
        /* A keyed context copied before its first update encrypts as the
         * original; a copy in the middle of a message is refused. */
        EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, "kuznyechik-ctr", PROPQ);
        EVP_CIPHER_CTX *a = EVP_CIPHER_CTX_new(), *b = EVP_CIPHER_CTX_new();
        unsigned char x[40], y[40];
        int xl = 0, yl = 0;
        check(EVP_EncryptInit_ex2(a, c, key, iv, NULL) && EVP_CIPHER_CTX_copy(b, a), "copy", "copy after init");
        check(EVP_EncryptUpdate(a, x, &xl, iv, 40) && EVP_EncryptUpdate(b, y, &yl, iv, 40) && xl == 40 && yl == 40
                  && !memcmp(x, y, 40),
              "copy", "the copy encrypts differently");
        check(!EVP_CIPHER_CTX_copy(b, a), "copy", "a context in the middle of a message was copied");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(a);
        EVP_CIPHER_CTX_free(b);
        EVP_CIPHER_free(c);
    }
    {
        /* A decryption without the tag set fails and writes nothing. */
        EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, "kuznyechik-mgm", PROPQ);
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        memset(buf, 0xA5, sizeof(buf));
        check(EVP_DecryptInit_ex2(ctx, c, key, iv, NULL), "mgm", "init");
        check(!EVP_DecryptUpdate(ctx, buf, &outl, iv, 32), "mgm", "decrypting without a tag succeeds");
        check(buf[0] == 0xA5 && buf[31] == 0xA5, "mgm", "output written without a tag");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
    }
}

/* -e/-d NAME KEY IV: stdin through EVP to stdout; 0 on success. */
static int crypt_stdin(int enc, const char *nm, const char *keyhex, const char *ivhex)
{
    bytes key = { 0 }, iv = { 0 };
    unsigned char *in = NULL, *out;
    size_t len = 0, cap = 0, done = 0, n;
    long total = 0;
    int outl, ok;
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, nm, PROPQ);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int whole = EVP_CIPHER_get_mode(c) == EVP_CIPH_XTS_MODE;
    if (c == NULL || !parse_hex(keyhex, &key) || !parse_hex(ivhex, &iv))
        return 2;
    do {
        if (len == cap)
            in = realloc(in, cap = 2 * cap + 65536);
        n = fread(in + len, 1, cap - len, stdin);
        len += n;
    } while (n > 0);
    out = malloc(len + 256);
    ok = EVP_CipherInit_ex2(ctx, c, key.p, iv.len ? iv.p : NULL, enc, NULL);
    while (ok && done < len) {
        size_t step = whole ? len : 1 + rnd(rnd(2) ? 64 : 5000);
        if (step > len - done)
            step = len - done;
        ok = EVP_CipherUpdate(ctx, out + total, &outl, in + done, (int)step);
        total += outl;
        done += step;
    }
    ok = ok && EVP_CipherFinal_ex(ctx, out + total, &outl);
    total += outl;
    if (ok)
        fwrite(out, 1, (size_t)total, stdout);
    else
        ERR_print_errors_fp(stderr);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    free(in);
    free(out);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    FILE *f;
    char line[1 << 16];
    OSSL_PROVIDER *mb, *def;
    if (argc != 2 && !(argc == 5 && (!strcmp(argv[1], "-e") || !strcmp(argv[1], "-d")))) {
        fprintf(stderr, "usage: %s VECTORS.txt | -e|-d NAME KEYHEX IVHEX\n", argv[0]);
        return 2;
    }
    mb = OSSL_PROVIDER_load(NULL, "multiblock");
    def = OSSL_PROVIDER_load(NULL, "default");
    if (mb == NULL || def == NULL) {
        fprintf(stderr, "cannot load the multiblock provider (OPENSSL_MODULES?)\n");
        ERR_print_errors_fp(stderr);
        return 2;
    }
    if (argc == 5)
        return crypt_stdin(argv[1][1] == 'e', argv[2], argv[3], argv[4]);
    f = fopen(argv[1], "r");
    if (f == NULL) {
        perror(argv[1]);
        return 2;
    }
    while (fgets(line, sizeof(line), f)) {
        vector v;
        if (!parse_line(line, &v)) {
            check(0, "?", "malformed vector line");
            continue;
        }
        if (!strcmp(v.mode, "mac") || !strcmp(v.mode, "omac-acpkm") || !strcmp(v.mode, "cmac")
            || !strcmp(v.mode, "gmac"))
            mac_vector(&v);
        else
            cipher_vector(&v);
        free_vector(&v);
    }
    fclose(f);
    error_cases();
    printf("%lu passed, %lu failed, %lu skipped\n", passed, failed, skipped);
    OSSL_PROVIDER_unload(mb);
    OSSL_PROVIDER_unload(def);
    return failed ? 1 : 0;
}
