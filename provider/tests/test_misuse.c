/*
 * EVP misuse of the multiblock provider: every cipher and MAC it offers
 * (taken from the provider's own algorithm list) through the calls an
 * application may make in an unexpected order, each compared with the
 * plain use of the same algorithm:
 *  - every settable parameter set after a keyed init (before any data:
 *    the same output as set before init, or refused when that fails too;
 *    after data: the same output as set before init, or refused with an
 *    error and the message unchanged);
 *  - the CCM text length declaration (update with in == out == NULL);
 *  - 0-byte updates;
 *  - EVP_CIPHER_CTX_copy before init, after init, in the middle of a
 *    message and after final, continuing on both source and target (a
 *    refused copy leaves a target on which every call fails cleanly);
 *  - re-init with a new key, a new IV, a new direction, a NULL key;
 *  - string parameters without a terminating NUL;
 *  - the same for EVP_MAC: parameters after init, 0-byte updates, dup,
 *    re-init.
 * Then the named cases behind them (padding after init, the length
 * declaration, a refused copy's target, an AEAD's 0-byte update, CBC's
 * updated IV, a re-initialised AEAD decryption's tag, AEAD_TAG as text,
 * an unterminated "sbox"), and the provider's own OSSL_PARAM reads and
 * writes at every integer width.
 *
 * Usage: test_misuse [GROUP]   (OPENSSL_MODULES pointing at multiblock.so)
 *   GROUP: one of the names printed with -l; all when none.
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
#define TEXT 1088  /* bytes of text: whole blocks of every block size (8 to 64), past the 1 KB of key meshing */
#define FIRST 64   /* the first piece of a text given in two */
#define OUTCAP 2048
#define WRAP_TEXT 32 /* the key a wrap cipher (kexp15) takes */

static unsigned long passed, failed;
static OSSL_PROVIDER *mb;
static unsigned char K1[64], K2[64], IV1[256], IV2[256], PT[TEXT], AAD[7];

static void check(int ok, const char *alg, const char *what)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    fprintf(stderr, "FAIL %s: %s\n", alg, what);
    ERR_print_errors_fp(stderr);
}

/* Whether an error is queued (a clean refusal); clears the queue. */
static int error_queued(void)
{
    int e = ERR_peek_error() != 0;
    ERR_clear_error();
    return e;
}

/* ---- the provider's algorithms ---------------------------------------- */

typedef struct {
    EVP_CIPHER *c;
    const char *name;
    int aead, xts, pads;
    int mac; /* a cipher with a MAC (ctr-acpkm-omac): a tag as an AEAD's, no AAD */
    int wrap; /* a key wrap (kexp15): the text is one key of WRAP_TEXT bytes, in one update */
    size_t keylen, ivlen, bs;
} alg;

static alg algs[256];
static size_t nalgs;
static EVP_MAC *macs[128];
static size_t nmacs;

static int ours(const OSSL_PROVIDER *p)
{
    return p != NULL && !strcmp(OSSL_PROVIDER_get0_name(p), "multiblock");
}

static void add_cipher(EVP_CIPHER *c, void *arg)
{
    alg *a;
    int mode;
    (void)arg;
    if (!ours(EVP_CIPHER_get0_provider(c)) || nalgs == sizeof(algs) / sizeof(algs[0]))
        return;
    if (!EVP_CIPHER_up_ref(c))
        return;
    a = &algs[nalgs++];
    mode = EVP_CIPHER_get_mode(c);
    a->c = c;
    a->name = EVP_CIPHER_get0_name(c);
    a->aead = (EVP_CIPHER_get_flags(c) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0;
    a->xts = mode == EVP_CIPH_XTS_MODE;
    a->mac = strstr(a->name, "-omac") != NULL;
    a->wrap = mode == EVP_CIPH_WRAP_MODE;
    a->pads = mode == EVP_CIPH_ECB_MODE || mode == EVP_CIPH_CBC_MODE;
    a->keylen = (size_t)EVP_CIPHER_get_key_length(c);
    a->ivlen = (size_t)EVP_CIPHER_get_iv_length(c);
    a->bs = (size_t)EVP_CIPHER_get_block_size(c);
}

static void add_mac(EVP_MAC *m, void *arg)
{
    (void)arg;
    if (!ours(EVP_MAC_get0_provider(m)) || nmacs == sizeof(macs) / sizeof(macs[0]))
        return;
    if (EVP_MAC_up_ref(m))
        macs[nmacs++] = m;
}

/* ---- one message --------------------------------------------------------- */

typedef struct {
    int ok;
    unsigned char out[OUTCAP];
    size_t len;
    unsigned char tag[64];
    size_t taglen;
} res;

static int same(const res *a, const res *b)
{
    return a->ok == b->ok
           && (!a->ok
               || (a->len == b->len && !memcmp(a->out, b->out, a->len) && a->taglen == b->taglen
                   && !memcmp(a->tag, b->tag, a->taglen)));
}

/* Init with the cipher, the parameters `before`, then the key and IV. */
static int keyed(EVP_CIPHER_CTX *ctx, const alg *a, int enc, const OSSL_PARAM *before, const unsigned char *key,
                 const unsigned char *iv)
{
    return EVP_CipherInit_ex2(ctx, a->c, NULL, NULL, enc, NULL)
           && (before == NULL || EVP_CIPHER_CTX_set_params(ctx, before))
           && EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL);
}

/* The stages of a message on a keyed context, from..upto:
 * 0: AAD (AEAD), and the tag to check of a decryption (when tag != NULL);
 * 1: the text, or its first FIRST bytes (AEAD, XTS and wrap: all of it);
 * 2: the rest of the text, final, the tag of an AEAD encryption.
 * r collects the output; r->ok is cleared at the first failure. */
static void stages(EVP_CIPHER_CTX *ctx, const alg *a, int enc, const unsigned char *in, size_t len,
                   const unsigned char *tag, size_t taglen, int from, int upto, res *r)
{
    int outl = 0;
    size_t first = a->aead || a->xts || a->wrap ? len : FIRST;
    if (from == 0)
        memset(r, 0, sizeof(*r)), r->ok = 1;
    if (!r->ok)
        return;
    if (from <= 0 && upto >= 0 && (a->aead || a->mac)) {
        if (a->aead && !EVP_CipherUpdate(ctx, NULL, &outl, AAD, (int)sizeof(AAD)))
            goto fail;
        if (!enc && tag != NULL) {
            OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, (void *)tag, taglen),
                                OSSL_PARAM_construct_end() };
            if (!EVP_CIPHER_CTX_set_params(ctx, p))
                goto fail;
        }
    }
    if (from <= 1 && upto >= 1) {
        if (!EVP_CipherUpdate(ctx, r->out + r->len, &outl, in, (int)first))
            goto fail;
        r->len += (size_t)outl;
    }
    if (from <= 2 && upto >= 2) {
        if (first < len) {
            if (!EVP_CipherUpdate(ctx, r->out + r->len, &outl, in + first, (int)(len - first)))
                goto fail;
            r->len += (size_t)outl;
        }
        if (!EVP_CipherFinal_ex(ctx, r->out + r->len, &outl))
            goto fail;
        r->len += (size_t)outl;
        if ((a->aead || a->mac) && enc) {
            OSSL_PARAM q[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &r->taglen),
                                OSSL_PARAM_construct_end() };
            OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
            if (!EVP_CIPHER_CTX_get_params(ctx, q) || r->taglen == 0 || r->taglen > sizeof(r->tag))
                goto fail;
            p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, r->tag, r->taglen);
            if (!EVP_CIPHER_CTX_get_params(ctx, p))
                goto fail;
        }
    }
    return;
fail:
    r->ok = 0;
    ERR_clear_error();
}

static void text(EVP_CIPHER_CTX *ctx, const alg *a, int enc, const unsigned char *in, size_t len,
                 const unsigned char *tag, size_t taglen, res *r)
{
    stages(ctx, a, enc, in, len, tag, taglen, 0, 2, r);
}

/* A whole message on a new context: parameters before the key, then text. */
static void fresh(const alg *a, int enc, const OSSL_PARAM *before, const unsigned char *key, const unsigned char *iv,
                  const unsigned char *in, size_t len, const unsigned char *tag, size_t taglen, res *r)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    memset(r, 0, sizeof(*r));
    if (keyed(ctx, a, enc, before, key, iv))
        text(ctx, a, enc, in, len, tag, taglen, r);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
}

/* The plain messages of an algorithm: X encrypts PT (default settings),
 * Y decrypts X's output with X's tag. */
typedef struct {
    const alg *a;
    res X, Y;
} plain;

/* The plain text's length: a wrap cipher's is one key. */
static size_t text_len(const alg *a)
{
    return a->wrap ? WRAP_TEXT : TEXT;
}

static int make_plain(const alg *a, plain *pl)
{
    pl->a = a;
    fresh(a, 1, NULL, K1, IV1, PT, text_len(a), NULL, 0, &pl->X);
    fresh(a, 0, NULL, K1, IV1, pl->X.out, pl->X.len, pl->X.tag, pl->X.taglen, &pl->Y);
    check(pl->X.ok && pl->Y.ok && pl->Y.len == text_len(a) && !memcmp(pl->Y.out, PT, text_len(a)), a->name,
          "the plain message does not round-trip");
    return pl->X.ok && pl->Y.ok;
}

/* A direction's input, tag and plain result. */
static const unsigned char *dir_in(const plain *pl, int enc, size_t *len)
{
    *len = enc ? text_len(pl->a) : pl->X.len;
    return enc ? PT : pl->X.out;
}

static const res *dir_plain(const plain *pl, int enc)
{
    return enc ? &pl->X : &pl->Y;
}

/* ---- parameters after init ---------------------------------------------- */

typedef struct {
    OSSL_PARAM p[2];
    unsigned int u;
    size_t sz;
    char str[64];
    unsigned char oct[64];
} value;

/* A value of each settable parameter, different from the default where the
 * algorithm allows one; 0 when the test has none for this name. */
static int param_value(const alg *a, const OSSL_PARAM *def, int enc, const plain *pl, value *v)
{
    const char *k = def->key;
    EVP_CIPHER_CTX *probe;
    memset(v, 0, sizeof(*v));
    v->p[1] = OSSL_PARAM_construct_end();
    if (!strcmp(k, OSSL_CIPHER_PARAM_PADDING)) {
        v->u = 0;
        v->p[0] = OSSL_PARAM_construct_uint(k, &v->u);
    } else if (!strcmp(k, OSSL_CIPHER_PARAM_KEYLEN)) {
        v->sz = a->keylen;
        v->p[0] = OSSL_PARAM_construct_size_t(k, &v->sz);
    } else if (!strcmp(k, OSSL_CIPHER_PARAM_IVLEN)) {
        /* Two blocks' register where the cipher takes one, else the same. */
        OSSL_PARAM q[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
        v->sz = 2 * a->ivlen;
        q[0] = OSSL_PARAM_construct_size_t(k, &v->sz);
        probe = EVP_CIPHER_CTX_new();
        if (!EVP_CipherInit_ex2(probe, a->c, NULL, NULL, enc, NULL) || !EVP_CIPHER_CTX_set_params(probe, q))
            v->sz = a->ivlen;
        ERR_clear_error();
        EVP_CIPHER_CTX_free(probe);
        v->p[0] = OSSL_PARAM_construct_size_t(k, &v->sz);
    } else if (!strcmp(k, OSSL_CIPHER_PARAM_AEAD_TAG)) {
        /* Half a tag: its length (encrypting) or its bytes (decrypting). */
        size_t half = pl->X.taglen ? pl->X.taglen / 2 : 4;
        memcpy(v->oct, pl->X.tag, half);
        v->p[0] = OSSL_PARAM_construct_octet_string(k, enc ? NULL : v->oct, half);
    } else if (!strcmp(k, "sbox")) {
        strcpy(v->str, "cryptopro-b");
        v->p[0] = OSSL_PARAM_construct_utf8_string(k, v->str, 0);
    } else if (!strcmp(k, "key-meshing")) {
        OSSL_PARAM q[2] = { OSSL_PARAM_construct_uint(k, &v->u), OSSL_PARAM_END };
        probe = EVP_CIPHER_CTX_new();
        v->u = 0;
        if (EVP_CipherInit_ex2(probe, a->c, NULL, NULL, enc, NULL))
            EVP_CIPHER_CTX_get_params(probe, q);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(probe);
        v->u = !v->u;
        v->p[0] = OSSL_PARAM_construct_uint(k, &v->u);
    } else if (!strcmp(k, "section-bytes")) {
        v->sz = 128;
        v->p[0] = OSSL_PARAM_construct_size_t(k, &v->sz);
    } else if (!strcmp(k, "nb")) {
        v->sz = 8;
        v->p[0] = OSSL_PARAM_construct_size_t(k, &v->sz);
    } else if (!strcmp(k, "kdf-seed")) {
        /* ctr-acpkm-omac's KDF seed; refused by the rest. */
        memcpy(v->oct, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
        v->p[0] = OSSL_PARAM_construct_octet_string(k, v->oct, 8);
    } else if (!strcmp(k, "alg_id_param")) {
        /* ctr-acpkm-omac's UKM: SEQUENCE { OCTET STRING IV || seed }, the
         * IV the tests give at init (an IV given at init replaces the UKM's)
         * and a new seed (an IV of at most 16 bytes: the other ciphers refuse it). */
        size_t ivl = a->ivlen < 16 ? a->ivlen : 16, ukm = ivl + 8;
        v->oct[0] = 0x30;
        v->oct[1] = (unsigned char)(ukm + 2);
        v->oct[2] = 0x04;
        v->oct[3] = (unsigned char)ukm;
        memcpy(v->oct + 4, IV1, ivl);
        memset(v->oct + 4 + ivl, 0x5a, 8);
        v->p[0] = OSSL_PARAM_construct_octet_string(k, v->oct, ukm + 4);
    } else if (!strcmp(k, "tlstree")) {
        /* A record's sequence number: re-keys the ciphers with TLSTREE (the
         * MGM ones refuse it without a mode), refused by the rest. */
        memcpy(v->oct, "\0\0\0\0\0\x01\x23\x45", 8);
        v->p[0] = OSSL_PARAM_construct_octet_string(k, v->oct, 8);
    } else if (!strcmp(k, "tlstree_mode")) {
        strcpy(v->str, "light");
        v->p[0] = OSSL_PARAM_construct_utf8_string(k, v->str, 0);
    } else {
        return 0;
    }
    return 1;
}

static unsigned long took_effect, refused_both;

static void params_after_init(const plain *pl)
{
    const alg *a = pl->a;
    const OSSL_PARAM *list = EVP_CIPHER_settable_ctx_params(a->c);
    char what[160];
    check(list != NULL, a->name, "no settable parameters");
    for (const OSSL_PARAM *def = list; def != NULL && def->key != NULL; def++) {
        for (int enc = 1; enc >= 0; enc--) {
            value v;
            res R, L, M;
            size_t len, taglen = pl->X.taglen;
            const unsigned char *in = dir_in(pl, enc, &len), *tag = enc ? NULL : pl->X.tag;
            int is_tag = !strcmp(def->key, OSSL_CIPHER_PARAM_AEAD_TAG), set_ok, mid_ok, new_ivlen;
            EVP_CIPHER_CTX *ctx;
            if (!param_value(a, def, enc, pl, &v)) {
                snprintf(what, sizeof(what), "no test value for the settable parameter \"%s\"", def->key);
                check(0, a->name, what);
                continue;
            }
            new_ivlen = !strcmp(def->key, OSSL_CIPHER_PARAM_IVLEN) && v.sz != a->ivlen;
            /* Set before the key. */
            fresh(a, enc, v.p, K1, IV1, in, len, is_tag ? NULL : tag, taglen, &R);
            /* Set after a keyed init, before any data. */
            ctx = EVP_CIPHER_CTX_new();
            memset(&L, 0, sizeof(L));
            set_ok = 0;
            if (keyed(ctx, a, enc, NULL, K1, IV1)) {
                set_ok = EVP_CIPHER_CTX_set_params(ctx, v.p);
                if (!set_ok)
                    check(error_queued(), a->name, "a parameter refused without an error");
                /* A new IV length needs an IV of that length (the key stays). */
                if (set_ok && !strcmp(def->key, OSSL_CIPHER_PARAM_IVLEN))
                    set_ok = EVP_CipherInit_ex2(ctx, NULL, NULL, IV1, enc, NULL);
                if (set_ok)
                    text(ctx, a, enc, in, len, is_tag ? NULL : tag, taglen, &L);
            }
            ERR_clear_error();
            EVP_CIPHER_CTX_free(ctx);
            snprintf(what, sizeof(what), "%s: \"%s\" set after init %s", enc ? "encrypt" : "decrypt", def->key,
                     R.ok ? "does not act as set before init" : "succeeds where set before init fails");
            check(R.ok ? set_ok && same(&R, &L) : !L.ok, a->name, what);
            if (R.ok && !same(&R, dir_plain(pl, enc)))
                took_effect++;
            if (!R.ok)
                refused_both++;
            if (getenv("MBP_VERBOSE"))
                printf("%s %s %s: %s\n", a->name, enc ? "enc" : "dec", def->key,
                       !R.ok ? "refused" : same(&R, dir_plain(pl, enc)) ? "no effect" : "effect");
            /* Set in the middle of the message: the same as before init, or
             * refused with an error and the message as if never set. */
            ctx = EVP_CIPHER_CTX_new();
            memset(&M, 0, sizeof(M));
            mid_ok = -2;
            if (keyed(ctx, a, enc, NULL, K1, IV1)) {
                stages(ctx, a, enc, in, len, tag, taglen, 0, 1, &M);
                if (M.ok) {
                    mid_ok = EVP_CIPHER_CTX_set_params(ctx, v.p);
                    if (!mid_ok)
                        check(error_queued(), a->name, "a parameter refused in a message without an error");
                    stages(ctx, a, enc, in, len, tag, taglen, 2, 2, &M);
                }
            }
            ERR_clear_error();
            EVP_CIPHER_CTX_free(ctx);
            if (mid_ok == 1 && new_ivlen) {
                /* A new IV length ends the message: the rest fails. */
                snprintf(what, sizeof(what), "%s: the message goes on after a new IV length", enc ? "encrypt" : "decrypt");
                check(!M.ok, a->name, what);
            } else if (mid_ok == 1 && !strcmp(def->key, "tlstree") && !a->aead) {
                /* A stream cipher's seqnum starts the next TLS record (whose
                 * bytes test_tlstree.c checks): the rest runs as one. */
                snprintf(what, sizeof(what), "%s: the next record fails after \"tlstree\"", enc ? "encrypt" : "decrypt");
                check(M.ok, a->name, what);
            } else {
                snprintf(what, sizeof(what), "%s: \"%s\" set in a message %s", enc ? "encrypt" : "decrypt",
                         def->key,
                         mid_ok == 1 ? "is accepted but does not act as set before init"
                                     : "is refused but the message changed");
                check(mid_ok == 1 ? R.ok && same(&R, &M) : same(dir_plain(pl, enc), &M), a->name, what);
            }
            /* Given with a new init in the middle of a message (NULL key:
             * the key stays; EVP sets the lengths before the init): as set
             * before the first init. */
            ctx = EVP_CIPHER_CTX_new();
            memset(&M, 0, sizeof(M));
            if (keyed(ctx, a, enc, NULL, K1, IV1)) {
                stages(ctx, a, enc, in, len, tag, taglen, 0, 1, &M);
                memset(&M, 0, sizeof(M));
                if (EVP_CipherInit_ex2(ctx, NULL, NULL, IV1, enc, v.p))
                    text(ctx, a, enc, in, len, is_tag ? NULL : tag, taglen, &M);
            }
            ERR_clear_error();
            EVP_CIPHER_CTX_free(ctx);
            snprintf(what, sizeof(what), "%s: \"%s\" given to an init in a message %s", enc ? "encrypt" : "decrypt",
                     def->key, R.ok ? "does not act as set before init" : "succeeds where set before init fails");
            check(R.ok ? same(&R, &M) : !M.ok, a->name, what);
        }
    }
}

/* ---- the length declaration and 0-byte updates ----------------------- */

static void declaration_and_empty(const plain *pl)
{
    const alg *a = pl->a;
    for (int enc = 1; enc >= 0; enc--) {
        size_t len;
        const unsigned char *in = dir_in(pl, enc, &len);
        const res *P = dir_plain(pl, enc);
        res r;
        int outl = 0, ok;
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        const char *dir = enc ? "encrypt" : "decrypt";
        char what[128];

        /* The declaration: an AEAD takes it; the others refuse it cleanly
         * and go on unchanged. */
        check(keyed(ctx, a, enc, NULL, K1, IV1), a->name, "init");
        ok = EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)len);
        snprintf(what, sizeof(what), "%s: the text length declaration %s", dir,
                 a->aead ? "is refused" : "is accepted by a cipher without one");
        check(a->aead ? ok : !ok && error_queued(), a->name, what);
        text(ctx, a, enc, in, len, pl->X.tag, pl->X.taglen, &r);
        snprintf(what, sizeof(what), "%s: a message after the length declaration differs", dir);
        check(same(P, &r), a->name, what);
        if (a->aead) {
            /* A declaration the text does not match fails cleanly. */
            check(keyed(ctx, a, enc, NULL, K1, IV1), a->name, "init");
            check(EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)len - 1), a->name, "a second declaration");
            text(ctx, a, enc, in, len, pl->X.tag, pl->X.taglen, &r);
            check(!r.ok, a->name, "a text of another length than declared is accepted");
            /* Declared after the text: refused. */
            check(keyed(ctx, a, enc, NULL, K1, IV1), a->name, "init");
            stages(ctx, a, enc, in, len, pl->X.tag, pl->X.taglen, 0, 1, &r);
            check(r.ok && !EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)len) && error_queued(), a->name,
                  "a length declared after the text is accepted");
        }

        /* 0-byte updates anywhere: no effect. */
        check(keyed(ctx, a, enc, NULL, K1, IV1), a->name, "init");
        memset(&r, 0, sizeof(r));
        r.ok = 1;
        ok = EVP_CipherUpdate(ctx, r.out, &outl, in, 0) && outl == 0
             && EVP_CipherUpdate(ctx, r.out, &outl, NULL, 0) && outl == 0;
        if (a->aead)
            ok = ok && EVP_CipherUpdate(ctx, NULL, &outl, AAD, 0);
        snprintf(what, sizeof(what), "%s: a 0-byte update before the text fails", dir);
        check(ok, a->name, what);
        stages(ctx, a, enc, in, len, pl->X.tag, pl->X.taglen, 0, 1, &r);
        ok = EVP_CipherUpdate(ctx, r.out + r.len, &outl, in, 0) && outl == 0;
        snprintf(what, sizeof(what), "%s: a 0-byte update after the first text fails", dir);
        check(ok, a->name, what);
        stages(ctx, a, enc, in, len, pl->X.tag, pl->X.taglen, 2, 2, &r);
        snprintf(what, sizeof(what), "%s: 0-byte updates change the message", dir);
        check(same(P, &r), a->name, what);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
    }
}

/* ---- copies --------------------------------------------------------------- */

/* Every call on a context whose copy was refused fails with an error, and
 * a new init makes it whole. */
static void dead_target(const plain *pl, EVP_CIPHER_CTX *dst, int enc)
{
    const alg *a = pl->a;
    unsigned char buf[OUTCAP], ivb[256];
    int outl;
    size_t len;
    const unsigned char *in = dir_in(pl, enc, &len);
    unsigned int pad = 0;
    OSSL_PARAM sp[2] = { OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad), OSSL_PARAM_END };
    size_t ivlen = 0;
    OSSL_PARAM gp[2] = { OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen), OSSL_PARAM_END };
    res r;
    ERR_clear_error();
    check(!EVP_CipherUpdate(dst, buf, &outl, in, FIRST) && error_queued(), a->name,
          "update on the target of a refused copy");
    check(!EVP_CipherFinal_ex(dst, buf, &outl) && error_queued(), a->name, "final on the target of a refused copy");
    check(!EVP_CIPHER_CTX_set_params(dst, sp) && error_queued(), a->name,
          "set_params on the target of a refused copy");
    check(!EVP_CIPHER_CTX_get_params(dst, gp) && error_queued(), a->name,
          "get_params on the target of a refused copy");
    check(!EVP_CIPHER_CTX_set_padding(dst, 0) && error_queued(), a->name,
          "set_padding on the target of a refused copy");
    check(!EVP_CIPHER_CTX_get_updated_iv(dst, ivb, sizeof(ivb)) && error_queued(), a->name,
          "get_updated_iv on the target of a refused copy");
    (void)EVP_CIPHER_CTX_get_iv_length(dst);
    ERR_clear_error();
    /* EVP makes a new context for it at the next init (same cipher). */
    check(EVP_CipherInit_ex2(dst, NULL, K1, IV1, enc, NULL), a->name, "init of the target of a refused copy");
    EVP_CIPHER_CTX_set_padding(dst, 1);
    text(dst, a, enc, in, len, pl->X.tag, pl->X.taglen, &r);
    check(same(dir_plain(pl, enc), &r), a->name, "the target of a refused copy, initialised again, differs");
}

static void copies(const plain *pl)
{
    const alg *a = pl->a;
    char what[160];
    for (int enc = 1; enc >= 0; enc--) {
        size_t len;
        const unsigned char *in = dir_in(pl, enc, &len);
        const res *P = dir_plain(pl, enc);
        /* A context never initialised: EVP refuses. */
        EVP_CIPHER_CTX *src = EVP_CIPHER_CTX_new(), *dst = EVP_CIPHER_CTX_new();
        check(!EVP_CIPHER_CTX_copy(dst, src) && error_queued(), a->name, "a context without a cipher is copied");
        EVP_CIPHER_CTX_free(src);
        EVP_CIPHER_CTX_free(dst);
        /* point 0: cipher only; 1: keyed; 2: after stage 0 (AAD);
         * 3: after stage 1 (data); 4: after final. */
        for (int point = 0; point <= 4; point++) {
            static const char *names[] = { "before the key", "after init", "after the AAD", "in the middle of a message",
                                           "after final" };
            res rs, rd;
            int ok;
            src = EVP_CIPHER_CTX_new();
            dst = EVP_CIPHER_CTX_new();
            memset(&rs, 0, sizeof(rs));
            ok = point == 0 ? EVP_CipherInit_ex2(src, a->c, NULL, NULL, enc, NULL) : keyed(src, a, enc, NULL, K1, IV1);
            check(ok, a->name, "init");
            if (point >= 2)
                stages(src, a, enc, in, len, pl->X.tag, pl->X.taglen, 0, point >= 4 ? 2 : point - 2, &rs);
            check(point < 2 || rs.ok, a->name, "the message before the copy");
            rd = rs;
            ok = EVP_CIPHER_CTX_copy(dst, src);
            if (!ok) {
                snprintf(what, sizeof(what), "%s: a copy %s is refused without an error", enc ? "encrypt" : "decrypt",
                         names[point]);
                check(error_queued(), a->name, what);
                /* Only a library stream that took data has no copy. */
                snprintf(what, sizeof(what), "%s: a copy %s is refused", enc ? "encrypt" : "decrypt", names[point]);
                check(point == 3 && !a->aead && !a->xts, a->name, what);
            }
            /* Both go on: the rest of the message (point 4: a further update
             * fails, then a new message with the same key and IV). */
            for (int side = 0; side < 2; side++) {
                EVP_CIPHER_CTX *ctx = side ? dst : src;
                res *r = side ? &rd : &rs;
                if (side && !ok) {
                    dead_target(pl, dst, enc);
                    break;
                }
                if (point == 0) {
                    check(EVP_CipherInit_ex2(ctx, NULL, K1, IV1, enc, NULL), a->name, "init after a copy");
                    text(ctx, a, enc, in, len, pl->X.tag, pl->X.taglen, r);
                } else if (point == 1) {
                    text(ctx, a, enc, in, len, pl->X.tag, pl->X.taglen, r);
                } else if (point < 4) {
                    stages(ctx, a, enc, in, len, pl->X.tag, pl->X.taglen, point - 1, 2, r);
                } else {
                    unsigned char buf[OUTCAP];
                    int outl;
                    check(!EVP_CipherUpdate(ctx, buf, &outl, in, FIRST) && error_queued(), a->name,
                          "an update after final is accepted");
                    check(EVP_CipherInit_ex2(ctx, NULL, NULL, NULL, enc, NULL), a->name, "init again after final");
                    text(ctx, a, enc, in, len, pl->X.tag, pl->X.taglen, r);
                }
                snprintf(what, sizeof(what), "%s: the %s of a copy %s differs", enc ? "encrypt" : "decrypt",
                         side ? "target" : "source", names[point]);
                check(same(P, r), a->name, what);
            }
            ERR_clear_error();
            EVP_CIPHER_CTX_free(src);
            EVP_CIPHER_CTX_free(dst);
        }
    }
}

/* ---- re-init --------------------------------------------------------------- */

static void reinits(const plain *pl)
{
    const alg *a = pl->a;
    char what[160];
    for (int enc = 1; enc >= 0; enc--) {
        size_t len;
        const unsigned char *in = dir_in(pl, enc, &len);
        const unsigned char *tag = pl->X.tag;
        size_t taglen = pl->X.taglen;
        const char *dir = enc ? "encrypt" : "decrypt";
        res r, want;
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        /* After a whole message or in the middle of one (upto 1). */
        for (int mid = 0; mid < 2; mid++) {
            struct {
                const unsigned char *key, *iv;
                const char *what;
            } cases[] = { { K2, IV2, "a new key and IV" },
                          { NULL, IV2, "a new IV (NULL key: the key stays)" },
                          { K2, NULL, "a new key (NULL IV: the IV stays)" },
                          { NULL, NULL, "NULL key and IV (both stay)" } };
            for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                check(keyed(ctx, a, enc, NULL, K1, IV1), a->name, "init");
                stages(ctx, a, enc, in, len, tag, taglen, 0, mid ? 1 : 2, &r);
                check(EVP_CipherInit_ex2(ctx, NULL, cases[i].key, cases[i].iv, enc, NULL), a->name, "init again");
                text(ctx, a, enc, in, len, tag, taglen, &r);
                fresh(a, enc, NULL, cases[i].key ? cases[i].key : K1, cases[i].iv ? cases[i].iv : IV1, in, len, tag,
                      taglen, &want);
                snprintf(what, sizeof(what), "%s: init again %s with %s differs", dir,
                         mid ? "in a message" : "after a message", cases[i].what);
                check(same(&want, &r), a->name, what);
            }
        }
        /* The other direction, key and IV kept. */
        {
            size_t olen;
            const unsigned char *oin = dir_in(pl, !enc, &olen);
            check(keyed(ctx, a, enc, NULL, K1, IV1), a->name, "init");
            text(ctx, a, enc, in, len, tag, taglen, &r);
            check(EVP_CipherInit_ex2(ctx, NULL, NULL, NULL, !enc, NULL), a->name, "init in the other direction");
            text(ctx, a, !enc, oin, olen, tag, taglen, &r);
            snprintf(what, sizeof(what), "%s, then init in the other direction: differs", dir);
            check(same(dir_plain(pl, !enc), &r), a->name, what);
        }
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
    }
}

/* ---- string parameters without a NUL ---------------------------------- */

static void unterminated(const plain *pl)
{
    const alg *a = pl->a;
    const OSSL_PARAM *list = EVP_CIPHER_settable_ctx_params(a->c);
    char what[160];
    for (const OSSL_PARAM *def = list; def != NULL && def->key != NULL; def++) {
        const char *val = "cryptopro-b";
        size_t n = strlen(val);
        char *exact, *junk, *lng;
        OSSL_PARAM pt[2] = { OSSL_PARAM_END, OSSL_PARAM_END }, pe[2] = { OSSL_PARAM_END, OSSL_PARAM_END },
                   pj[2] = { OSSL_PARAM_END, OSSL_PARAM_END }, pl2[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
        res R, E, J, L;
        EVP_CIPHER_CTX *ctx;
        if (def->data_type != OSSL_PARAM_UTF8_STRING)
            continue;
        exact = malloc(n);               /* no room for a NUL */
        junk = malloc(n + 9);            /* followed by other letters */
        lng = malloc(40);
        memcpy(exact, val, n);
        memcpy(junk, val, n);
        memcpy(junk + n, "zzzzzzzz", 9);
        memset(lng, 'x', 40);
        pt[0] = OSSL_PARAM_construct_utf8_string(def->key, (char *)val, 0);
        pe[0] = OSSL_PARAM_construct_utf8_string(def->key, exact, n);
        pj[0] = OSSL_PARAM_construct_utf8_string(def->key, junk, n);
        pl2[0] = OSSL_PARAM_construct_utf8_string(def->key, lng, 40);
        fresh(a, 1, pt, K1, IV1, PT, text_len(a), NULL, 0, &R);
        fresh(a, 1, pe, K1, IV1, PT, text_len(a), NULL, 0, &E);
        fresh(a, 1, pj, K1, IV1, PT, text_len(a), NULL, 0, &J);
        snprintf(what, sizeof(what), "\"%s\" without a NUL acts otherwise than with one", def->key);
        check(same(&R, &E) && same(&R, &J), a->name, what);
        ctx = EVP_CIPHER_CTX_new();
        memset(&L, 0, sizeof(L));
        if (keyed(ctx, a, 1, NULL, K1, IV1) && EVP_CIPHER_CTX_set_params(ctx, pe))
            text(ctx, a, 1, PT, text_len(a), NULL, 0, &L);
        ERR_clear_error();
        snprintf(what, sizeof(what), "\"%s\" without a NUL after init acts otherwise than before", def->key);
        check(same(&R, &L), a->name, what);
        check(EVP_CipherInit_ex2(ctx, a->c, NULL, NULL, 1, NULL) && !EVP_CIPHER_CTX_set_params(ctx, pl2)
                  && error_queued(),
              a->name, "a 40-byte unterminated string parameter is accepted");
        EVP_CIPHER_CTX_free(ctx);
        free(exact);
        free(junk);
        free(lng);
    }
}

static void cipher_battery(void)
{
    for (size_t i = 0; i < nalgs; i++) {
        plain pl;
        if (!make_plain(&algs[i], &pl))
            continue;
        params_after_init(&pl);
        declaration_and_empty(&pl);
        copies(&pl);
        reinits(&pl);
        unterminated(&pl);
    }
    printf("cipher parameters after init: %lu settings with an effect, %lu refused before and after init\n",
           took_effect, refused_both);
}

/* ---- MACs --------------------------------------------------------------- */

typedef struct {
    int ok;
    unsigned char out[64];
    size_t len;
} mres;

static int msame(const mres *a, const mres *b)
{
    return a->ok == b->ok && (!a->ok || (a->len == b->len && !memcmp(a->out, b->out, a->len)));
}

typedef struct {
    EVP_MAC *m;
    const char *name;
    size_t keylen, size;
    OSSL_PARAM base[2]; /* what the MAC needs besides the key (GMAC: an IV) */
} mac;

/* stage 1: the first FIRST bytes; 2: the rest and final. */
static void mstages(EVP_MAC_CTX *ctx, int from, int upto, mres *r)
{
    if (from <= 1)
        memset(r, 0, sizeof(*r)), r->ok = 1;
    if (!r->ok)
        return;
    if (from <= 1 && upto >= 1 && !EVP_MAC_update(ctx, PT, FIRST))
        goto fail;
    if (from <= 2 && upto >= 2
        && (!EVP_MAC_update(ctx, PT + FIRST, TEXT - FIRST) || !EVP_MAC_final(ctx, r->out, &r->len, sizeof(r->out))))
        goto fail;
    return;
fail:
    r->ok = 0;
    ERR_clear_error();
}

static void mfresh(const mac *m, const OSSL_PARAM *before, const unsigned char *key, mres *r)
{
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(m->m);
    memset(r, 0, sizeof(*r));
    if (ctx != NULL && EVP_MAC_CTX_set_params(ctx, m->base) && (before == NULL || EVP_MAC_CTX_set_params(ctx, before))
        && EVP_MAC_init(ctx, key, m->keylen, NULL))
        mstages(ctx, 1, 2, r);
    ERR_clear_error();
    EVP_MAC_CTX_free(ctx);
}

static int mkeyed(const mac *m, EVP_MAC_CTX *ctx, const unsigned char *key)
{
    return EVP_MAC_CTX_set_params(ctx, m->base) && EVP_MAC_init(ctx, key, m->keylen, NULL);
}

static int mac_value(const mac *m, const OSSL_PARAM *def, value *v)
{
    const char *k = def->key;
    memset(v, 0, sizeof(*v));
    v->p[1] = OSSL_PARAM_construct_end();
    if (!strcmp(k, OSSL_MAC_PARAM_KEY)) {
        memcpy(v->oct, K2, m->keylen);
        v->p[0] = OSSL_PARAM_construct_octet_string(k, v->oct, m->keylen);
    } else if (!strcmp(k, OSSL_MAC_PARAM_IV)) {
        memcpy(v->oct, IV2, 16);
        v->p[0] = OSSL_PARAM_construct_octet_string(k, v->oct, 16);
    } else if (!strcmp(k, OSSL_MAC_PARAM_SIZE)) {
        v->sz = m->size > 1 ? m->size / 2 : 1;
        v->p[0] = OSSL_PARAM_construct_size_t(k, &v->sz);
    } else if (!strcmp(k, "sbox")) {
        strcpy(v->str, "cryptopro-b");
        v->p[0] = OSSL_PARAM_construct_utf8_string(k, v->str, 0);
    } else if (!strcmp(k, "key-meshing")) {
        v->u = !strncmp(m->name, "gost-mac", 8) ? 0 : 1;
        v->p[0] = OSSL_PARAM_construct_uint(k, &v->u);
    } else if (!strcmp(k, "section-bytes") || !strcmp(k, "key-section-bytes")) {
        v->sz = !strcmp(k, "section-bytes") ? 128 : 256;
        v->p[0] = OSSL_PARAM_construct_size_t(k, &v->sz);
    } else {
        return 0;
    }
    return 1;
}

static void mac_battery(void)
{
    char what[160];
    for (size_t i = 0; i < nmacs; i++) {
        mac m;
        mres D, R, L, M, r;
        size_t keylen = 0, size = 0;
        OSSL_PARAM gp[3] = { OSSL_PARAM_construct_size_t("keylen", &keylen),
                             OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_END };
        const OSSL_PARAM *list = EVP_MAC_settable_ctx_params(macs[i]);
        EVP_MAC_CTX *ctx, *dup;
        memset(&m, 0, sizeof(m));
        m.m = macs[i];
        m.name = EVP_MAC_get0_name(macs[i]);
        check(EVP_MAC_get_params(macs[i], gp) && keylen > 0 && keylen <= 64 && size > 0, m.name, "sizes");
        m.keylen = keylen;
        m.size = size;
        m.base[0] = OSSL_PARAM_construct_end();
        m.base[1] = OSSL_PARAM_construct_end();
        mfresh(&m, NULL, K1, &D);
        if (!D.ok) {
            /* An IV is part of this MAC (GMAC). */
            m.base[0] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, IV1, 16);
            mfresh(&m, NULL, K1, &D);
        }
        check(D.ok, m.name, "the plain MAC");
        if (!D.ok)
            continue;

        /* Each settable parameter after init, before and after data. */
        for (const OSSL_PARAM *def = list; def != NULL && def->key != NULL; def++) {
            value v;
            int set_ok, mid_ok;
            if (!mac_value(&m, def, &v)) {
                snprintf(what, sizeof(what), "no test value for the settable parameter \"%s\"", def->key);
                check(0, m.name, what);
                continue;
            }
            /* (a key given as a parameter is not overridden at init) */
            mfresh(&m, v.p, strcmp(def->key, OSSL_MAC_PARAM_KEY) ? K1 : NULL, &R);
            ctx = EVP_MAC_CTX_new(m.m);
            memset(&L, 0, sizeof(L));
            set_ok = 0;
            if (mkeyed(&m, ctx, K1)) {
                set_ok = EVP_MAC_CTX_set_params(ctx, v.p);
                if (!set_ok)
                    check(error_queued(), m.name, "a parameter refused without an error");
                else
                    mstages(ctx, 1, 2, &L);
            }
            ERR_clear_error();
            snprintf(what, sizeof(what), "\"%s\" set after init %s", def->key,
                     R.ok ? "does not act as set before init" : "succeeds where set before init fails");
            check(R.ok ? set_ok && msame(&R, &L) : !L.ok, m.name, what);
            memset(&M, 0, sizeof(M));
            mid_ok = -2;
            if (mkeyed(&m, ctx, K1)) {
                mstages(ctx, 1, 1, &M);
                mid_ok = EVP_MAC_CTX_set_params(ctx, v.p);
                if (!mid_ok)
                    check(error_queued(), m.name, "a parameter refused in a message without an error");
                mstages(ctx, 2, 2, &M);
            }
            ERR_clear_error();
            snprintf(what, sizeof(what), "\"%s\" set after data %s", def->key,
                     mid_ok == 1 ? "is accepted but does not act as set before init"
                                 : "is refused but the MAC changed");
            check(mid_ok == 1 ? R.ok && msame(&R, &M) : msame(&D, &M), m.name, what);
            EVP_MAC_CTX_free(ctx);
            if (def->data_type == OSSL_PARAM_UTF8_STRING) {
                /* Without a NUL, before and after init. */
                size_t n = strlen(v.str);
                char *exact = malloc(n);
                OSSL_PARAM pe[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
                memcpy(exact, v.str, n);
                pe[0] = OSSL_PARAM_construct_utf8_string(def->key, exact, n);
                mfresh(&m, pe, K1, &r);
                snprintf(what, sizeof(what), "\"%s\" without a NUL acts otherwise than with one", def->key);
                check(msame(&R, &r), m.name, what);
                ctx = EVP_MAC_CTX_new(m.m);
                memset(&r, 0, sizeof(r));
                if (mkeyed(&m, ctx, K1) && EVP_MAC_CTX_set_params(ctx, pe))
                    mstages(ctx, 1, 2, &r);
                ERR_clear_error();
                check(msame(&R, &r), m.name, "an unterminated string after init acts otherwise than before");
                EVP_MAC_CTX_free(ctx);
                free(exact);
            }
        }

        /* 0-byte updates. */
        ctx = EVP_MAC_CTX_new(m.m);
        check(mkeyed(&m, ctx, K1) && EVP_MAC_update(ctx, PT, 0) && EVP_MAC_update(ctx, NULL, 0), m.name,
              "a 0-byte update fails");
        mstages(ctx, 1, 1, &r);
        check(EVP_MAC_update(ctx, PT, 0), m.name, "a 0-byte update after data fails");
        mstages(ctx, 2, 2, &r);
        check(msame(&D, &r), m.name, "0-byte updates change the MAC");
        ERR_clear_error();

        /* dup before init, after init, after data, after final. */
        for (int point = 0; point < 4; point++) {
            static const char *names[] = { "before init", "after init", "after data", "after final" };
            mres rs, rd;
            EVP_MAC_CTX *src = EVP_MAC_CTX_new(m.m);
            memset(&rs, 0, sizeof(rs));
            if (point >= 1)
                check(mkeyed(&m, src, K1), m.name, "init");
            if (point >= 2)
                mstages(src, 1, point == 2 ? 1 : 2, &rs);
            rd = rs;
            dup = EVP_MAC_CTX_dup(src);
            if (dup == NULL) {
                snprintf(what, sizeof(what), "a dup %s is refused%s", names[point],
                         error_queued() ? "" : " without an error");
                check(point == 2, m.name, what);
            }
            for (int side = 0; side < 2; side++) {
                EVP_MAC_CTX *c = side ? dup : src;
                mres *res_ = side ? &rd : &rs;
                if (c == NULL)
                    continue;
                if (point == 0)
                    check(mkeyed(&m, c, K1), m.name, "init after dup");
                if (point == 3) {
                    check(!EVP_MAC_update(c, PT, 1) && error_queued(), m.name, "an update after final is accepted");
                    check(EVP_MAC_init(c, NULL, 0, NULL), m.name, "init again after final (NULL key)");
                }
                if (point == 2)
                    mstages(c, 2, 2, res_);
                else
                    mstages(c, 1, 2, res_);
                snprintf(what, sizeof(what), "the %s of a dup %s differs", side ? "copy" : "source", names[point]);
                check(msame(&D, res_), m.name, what);
            }
            ERR_clear_error();
            EVP_MAC_CTX_free(src);
            EVP_MAC_CTX_free(dup);
        }

        /* Re-init: NULL key keeps the key, after a MAC and after data; a new key. */
        for (int mid = 0; mid < 2; mid++) {
            mres want;
            check(mkeyed(&m, ctx, K1), m.name, "init");
            mstages(ctx, 1, mid ? 1 : 2, &r);
            check(EVP_MAC_init(ctx, NULL, 0, NULL), m.name, "init again (NULL key)");
            mstages(ctx, 1, 2, &r);
            check(msame(&D, &r), m.name, mid ? "init again with NULL key after data differs"
                                             : "init again with NULL key after a MAC differs");
            check(EVP_MAC_init(ctx, K2, m.keylen, NULL), m.name, "init with a new key");
            mstages(ctx, 1, 2, &r);
            mfresh(&m, NULL, K2, &want);
            check(want.ok && msame(&want, &r), m.name, "init again with a new key differs");
        }
        ERR_clear_error();
        EVP_MAC_CTX_free(ctx);
    }
}

/* ---- the named cases ------------------------------------------------------ */

/* EVP_CIPHER_CTX_set_padding(ctx, 0) after a keyed init: one block in, one
 * block out, both ways, for every ECB and CBC cipher. */
static void padding_after_init(void)
{
    for (size_t i = 0; i < nalgs; i++) {
        const alg *a = &algs[i];
        unsigned char ct[256], pt[256];
        int l1 = 0, l2 = 0, m1 = 0, m2 = 0;
        EVP_CIPHER_CTX *ctx;
        if (!a->pads)
            continue;
        ctx = EVP_CIPHER_CTX_new();
        check(EVP_EncryptInit_ex2(ctx, a->c, K1, IV1, NULL) && EVP_CIPHER_CTX_set_padding(ctx, 0)
                  && EVP_EncryptUpdate(ctx, ct, &l1, PT, (int)a->bs) && EVP_EncryptFinal_ex(ctx, ct + l1, &l2)
                  && (size_t)(l1 + l2) == a->bs,
              a->name, "padding turned off after init: one block does not encrypt to one block");
        check(EVP_DecryptInit_ex2(ctx, a->c, K1, IV1, NULL) && EVP_CIPHER_CTX_set_padding(ctx, 0)
                  && EVP_DecryptUpdate(ctx, pt, &m1, ct, (int)a->bs) && EVP_DecryptFinal_ex(ctx, pt + m1, &m2)
                  && (size_t)(m1 + m2) == a->bs && !memcmp(pt, PT, a->bs),
              a->name, "padding turned off after init: one raw block does not decrypt");
        /* Turned back on in the middle of a message: padded at final. */
        check(EVP_EncryptInit_ex2(ctx, a->c, K1, IV1, NULL) && EVP_CIPHER_CTX_set_padding(ctx, 0)
                  && EVP_EncryptUpdate(ctx, ct, &l1, PT, (int)a->bs) && EVP_CIPHER_CTX_set_padding(ctx, 1)
                  && EVP_EncryptFinal_ex(ctx, ct + l1, &l2) && (size_t)(l1 + l2) == 2 * a->bs,
              a->name, "padding turned on in a message: no padding block");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
    }
}

/* EVP_EncryptUpdate(ctx, NULL, &outl, NULL, len) on every AEAD cipher. */
static void ccm_length(void)
{
    for (size_t i = 0; i < nalgs; i++) {
        const alg *a = &algs[i];
        unsigned char out[TEXT];
        int outl = 0, fl = 0;
        EVP_CIPHER_CTX *ctx;
        if (!a->aead)
            continue;
        ctx = EVP_CIPHER_CTX_new();
        check(EVP_EncryptInit_ex2(ctx, a->c, K1, IV1, NULL) && EVP_EncryptUpdate(ctx, NULL, &outl, NULL, TEXT)
                  && EVP_EncryptUpdate(ctx, NULL, &outl, AAD, sizeof(AAD))
                  && EVP_EncryptUpdate(ctx, out, &outl, PT, TEXT) && outl == TEXT
                  && EVP_EncryptFinal_ex(ctx, out + outl, &fl),
              a->name, "the CCM length declaration");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
    }
}

/* After a refused copy in the middle of a message, every call on the target
 * fails with an error, for every cipher whose copy is refused there. */
static void copy_target(void)
{
    for (size_t i = 0; i < nalgs; i++) {
        const alg *a = &algs[i];
        unsigned char out[OUTCAP];
        int outl = 0;
        EVP_CIPHER_CTX *src = EVP_CIPHER_CTX_new(), *dst = EVP_CIPHER_CTX_new();
        plain pl;
        /* (A wrap cipher's message is one update: a copy never comes
         * in the middle of one.) */
        if (a->aead || a->xts || a->wrap || !make_plain(a, &pl)) {
            EVP_CIPHER_CTX_free(src);
            EVP_CIPHER_CTX_free(dst);
            continue;
        }
        check(EVP_EncryptInit_ex2(src, a->c, K1, IV1, NULL) && EVP_EncryptUpdate(src, out, &outl, PT, FIRST), a->name,
              "init");
        if (!EVP_CIPHER_CTX_copy(dst, src)) {
            check(error_queued(), a->name, "a refused copy without an error");
            dead_target(&pl, dst, 1);
        }
        ERR_clear_error();
        EVP_CIPHER_CTX_free(src);
        EVP_CIPHER_CTX_free(dst);
    }
}

/* A 0-byte text update of an AEAD is no text update. */
static void zero_update(void)
{
    for (size_t i = 0; i < nalgs; i++) {
        const alg *a = &algs[i];
        unsigned char out[TEXT];
        int outl = 0, fl = 0;
        EVP_CIPHER_CTX *ctx;
        if (!a->aead)
            continue;
        ctx = EVP_CIPHER_CTX_new();
        check(EVP_EncryptInit_ex2(ctx, a->c, K1, IV1, NULL) && EVP_EncryptUpdate(ctx, out, &outl, PT, 0)
                  && EVP_EncryptUpdate(ctx, out, &outl, PT, TEXT) && outl == TEXT
                  && EVP_EncryptFinal_ex(ctx, out + outl, &fl),
              a->name, "a 0-byte update takes the place of the text");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
    }
}

/* OSSL_CIPHER_PARAM_UPDATED_IV after CBC data: the last ciphertext block
 * (the last m bytes of IV || ciphertext for a longer GOST register). */
static void updated_iv(void)
{
    for (size_t i = 0; i < nalgs; i++) {
        const alg *a = &algs[i];
        unsigned char ct[OUTCAP], pt[OUTCAP], iv[256];
        int l1 = 0, l2 = 0;
        EVP_CIPHER_CTX *ctx;
        if (EVP_CIPHER_get_mode(a->c) != EVP_CIPH_CBC_MODE)
            continue;
        ctx = EVP_CIPHER_CTX_new();
        /* 3 blocks and a part: the register is the third ciphertext block. */
        check(EVP_EncryptInit_ex2(ctx, a->c, K1, IV1, NULL) && EVP_EncryptUpdate(ctx, ct, &l1, PT, (int)(3 * a->bs + 1))
                  && l1 == (int)(3 * a->bs) && EVP_CIPHER_CTX_get_updated_iv(ctx, iv, a->ivlen)
                  && !memcmp(iv, ct + 2 * a->bs, a->bs),
              a->name, "UPDATED_IV after encrypting is not the last ciphertext block");
        check(EVP_EncryptFinal_ex(ctx, ct + l1, &l2) && EVP_CIPHER_CTX_get_updated_iv(ctx, iv, a->ivlen)
                  && !memcmp(iv, ct + l1 + l2 - a->bs, a->bs),
              a->name, "UPDATED_IV after final is not the last ciphertext block");
        /* Decrypting 2 blocks and a part (padding on keeps the second back:
         * the register is the chaining value of what the cipher processed,
         * here the whole blocks given). */
        check(EVP_DecryptInit_ex2(ctx, a->c, K1, IV1, NULL) && EVP_DecryptUpdate(ctx, pt, &l1, ct, (int)(2 * a->bs + 3))
                  && EVP_CIPHER_CTX_get_updated_iv(ctx, iv, a->ivlen) && !memcmp(iv, ct + a->bs, a->bs),
              a->name, "UPDATED_IV after decrypting is not the last ciphertext block");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
    }
}

/* A decryption initialised again does not keep the last message's tag. */
static void reinit_tag(void)
{
    for (size_t i = 0; i < nalgs; i++) {
        const alg *a = &algs[i];
        unsigned char out[OUTCAP];
        int outl = 0;
        plain pl;
        EVP_CIPHER_CTX *ctx;
        if (!a->aead || !make_plain(a, &pl))
            continue;
        ctx = EVP_CIPHER_CTX_new();
        {
            OSSL_PARAM p[2] = { OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, pl.X.tag, pl.X.taglen),
                                OSSL_PARAM_END };
            check(EVP_DecryptInit_ex2(ctx, a->c, K1, IV1, NULL) && EVP_CIPHER_CTX_set_params(ctx, p)
                      && EVP_DecryptUpdate(ctx, NULL, &outl, AAD, sizeof(AAD))
                      && EVP_DecryptUpdate(ctx, out, &outl, pl.X.out, (int)pl.X.len)
                      && EVP_DecryptFinal_ex(ctx, out, &outl),
                  a->name, "decrypt");
        }
        check(EVP_DecryptInit_ex2(ctx, NULL, NULL, IV1, NULL) && EVP_DecryptUpdate(ctx, NULL, &outl, AAD, sizeof(AAD))
                  && !EVP_DecryptUpdate(ctx, out, &outl, pl.X.out, (int)pl.X.len) && error_queued(),
              a->name, "a decryption initialised again checks against the last message's tag");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
    }
}

/* OSSL_CIPHER_PARAM_AEAD_TAG is an octet string only. */
static void tag_utf8(void)
{
    for (size_t i = 0; i < nalgs; i++) {
        const alg *a = &algs[i];
        char tag[] = "0123456789abcdef";
        OSSL_PARAM p[2] = { OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, 8), OSSL_PARAM_END };
        EVP_CIPHER_CTX *ctx;
        if (!a->aead)
            continue;
        ctx = EVP_CIPHER_CTX_new();
        check(EVP_DecryptInit_ex2(ctx, a->c, K1, IV1, NULL) && !EVP_CIPHER_CTX_set_params(ctx, p) && error_queued(),
              a->name, "a UTF-8 string is taken as the tag");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(ctx);
    }
}

/* "sbox" is read within its data_size: an S-box name followed by other
 * letters in memory, and one in a buffer of exactly its length. */
static void sbox_unterminated(void)
{
    const char *ciphers[] = { "gost89", "gost89-cnt", "gost89-cbc" };
    const char *mac_names[] = { "gost-mac", "gost-mac-12" };
    char junk[] = "cryptopro-bzzzz";
    char *exact = malloc(11);
    OSSL_PARAM pj[2] = { OSSL_PARAM_construct_utf8_string("sbox", junk, 11), OSSL_PARAM_END };
    OSSL_PARAM pe[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
    OSSL_PARAM pt[2] = { OSSL_PARAM_construct_utf8_string("sbox", (char *)"cryptopro-b", 0), OSSL_PARAM_END };
    memcpy(exact, "cryptopro-b", 11);
    pe[0] = OSSL_PARAM_construct_utf8_string("sbox", exact, 11);
    for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++) {
        alg a;
        res R, J, E;
        memset(&a, 0, sizeof(a));
        a.c = EVP_CIPHER_fetch(NULL, ciphers[i], PROPQ);
        a.name = ciphers[i];
        a.bs = 8;
        check(a.c != NULL, ciphers[i], "fetch");
        if (a.c == NULL)
            continue;
        fresh(&a, 1, pt, K1, IV1, PT, TEXT, NULL, 0, &R);
        fresh(&a, 1, pj, K1, IV1, PT, TEXT, NULL, 0, &J);
        fresh(&a, 1, pe, K1, IV1, PT, TEXT, NULL, 0, &E);
        check(R.ok && same(&R, &J) && same(&R, &E), ciphers[i], "an S-box name without a NUL is misread");
        EVP_CIPHER_free(a.c);
    }
    for (size_t i = 0; i < sizeof(mac_names) / sizeof(mac_names[0]); i++) {
        EVP_MAC *mac = EVP_MAC_fetch(NULL, mac_names[i], PROPQ);
        unsigned char t[3][64];
        size_t tl[3] = { 0, 0, 0 };
        const OSSL_PARAM *ps[3] = { pt, pj, pe };
        check(mac != NULL, mac_names[i], "fetch");
        if (mac == NULL)
            continue;
        for (int k = 0; k < 3; k++) {
            EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
            if (!EVP_MAC_init(ctx, K1, 32, ps[k]) || !EVP_MAC_update(ctx, PT, TEXT)
                || !EVP_MAC_final(ctx, t[k], &tl[k], sizeof(t[k])))
                tl[k] = 0;
            ERR_clear_error();
            EVP_MAC_CTX_free(ctx);
        }
        check(tl[0] > 0 && tl[0] == tl[1] && tl[0] == tl[2] && !memcmp(t[0], t[1], tl[0]) && !memcmp(t[0], t[2], tl[0]),
              mac_names[i], "an S-box name without a NUL is misread");
        EVP_MAC_free(mac);
    }
    free(exact);
}

/* An integer or real parameter of one width: its value as a size_t, or
 * -1 when it holds none (negative, fractional). */
static long long number_of(const OSSL_PARAM *p)
{
    if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
        switch (p->data_size) {
        case 1: return *(const uint8_t *)p->data;
        case 2: return *(const uint16_t *)p->data;
        case 4: return *(const uint32_t *)p->data;
        case 8: return (long long)*(const uint64_t *)p->data;
        }
    } else if (p->data_type == OSSL_PARAM_INTEGER) {
        switch (p->data_size) {
        case 1: return *(const int8_t *)p->data;
        case 2: return *(const int16_t *)p->data;
        case 4: return *(const int32_t *)p->data;
        case 8: return (long long)*(const int64_t *)p->data;
        }
    } else if (p->data_type == OSSL_PARAM_REAL && p->data_size == sizeof(double)) {
        double d = *(const double *)p->data;
        return d >= 0 && d == (double)(long long)d ? (long long)d : -1;
    }
    return -1;
}

/* The provider reads and writes OSSL_PARAM with helpers of its own (the
 * module links no libcrypto): integers of every width and either sign and
 * doubles, as OpenSSL's OSSL_PARAM functions take and give them; the size
 * query (a NULL data pointer); a negative or fractional value refused. */
static void param_widths(void)
{
    static const struct {
        unsigned type;
        size_t size;
    } widths[] = {
        { OSSL_PARAM_UNSIGNED_INTEGER, 1 }, { OSSL_PARAM_UNSIGNED_INTEGER, 2 }, { OSSL_PARAM_UNSIGNED_INTEGER, 4 },
        { OSSL_PARAM_UNSIGNED_INTEGER, 8 }, { OSSL_PARAM_INTEGER, 1 },          { OSSL_PARAM_INTEGER, 2 },
        { OSSL_PARAM_INTEGER, 4 },          { OSSL_PARAM_INTEGER, 8 },          { OSSL_PARAM_REAL, sizeof(double) },
    };
    for (size_t i = 0; i < nalgs; i++) {
        const alg *a = &algs[i];
        for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
            uint64_t buf = 0;
            OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
            char what[96];
            p[0].key = OSSL_CIPHER_PARAM_KEYLEN;
            p[0].data_type = widths[w].type;
            p[0].data = &buf;
            p[0].data_size = widths[w].size;
            p[0].return_size = OSSL_PARAM_UNMODIFIED;
            snprintf(what, sizeof(what), "keylen read as a %zu-byte %s", widths[w].size,
                     widths[w].type == OSSL_PARAM_REAL ? "double" : widths[w].type == OSSL_PARAM_INTEGER ? "int" : "uint");
            /* A key length over 127 would not fit the 1-byte signed width. */
            check(EVP_CIPHER_get_params(a->c, p) && p[0].return_size == widths[w].size
                      && number_of(&p[0]) == (long long)a->keylen,
                  a->name, what);
            ERR_clear_error();
        }
        {
            OSSL_PARAM q[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
            q[0].key = OSSL_CIPHER_PARAM_IVLEN;
            q[0].data_type = OSSL_PARAM_UNSIGNED_INTEGER;
            q[0].return_size = OSSL_PARAM_UNMODIFIED;
            check(EVP_CIPHER_get_params(a->c, q) && q[0].return_size == sizeof(size_t), a->name,
                  "ivlen's size query (NULL data) answers sizeof(size_t)");
            ERR_clear_error();
        }
        if (a->pads) {
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            int64_t zero = 0;
            int32_t minus = -1;
            double half = 0.5;
            unsigned got = 1;
            OSSL_PARAM set0[2] = { OSSL_PARAM_int64(OSSL_CIPHER_PARAM_PADDING, &zero), OSSL_PARAM_END };
            OSSL_PARAM setm[2] = { OSSL_PARAM_int32(OSSL_CIPHER_PARAM_PADDING, &minus), OSSL_PARAM_END };
            OSSL_PARAM seth[2] = { OSSL_PARAM_double(OSSL_CIPHER_PARAM_PADDING, &half), OSSL_PARAM_END };
            OSSL_PARAM get[2] = { OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, &got), OSSL_PARAM_END };
            check(EVP_EncryptInit_ex2(ctx, a->c, K1, IV1, NULL) && EVP_CIPHER_CTX_set_params(ctx, set0)
                      && EVP_CIPHER_CTX_get_params(ctx, get) && got == 0,
                  a->name, "padding set as a 64-bit int 0 reads back 0");
            check(!EVP_CIPHER_CTX_set_params(ctx, setm), a->name, "padding -1 accepted");
            check(!EVP_CIPHER_CTX_set_params(ctx, seth), a->name, "padding 0.5 accepted");
            ERR_clear_error();
            EVP_CIPHER_CTX_free(ctx);
        }
    }
}

static const struct {
    const char *name;
    void (*run)(void);
} groups[] = {
    { "padding-after-init", padding_after_init },
    { "ccm-length", ccm_length },
    { "copy-target", copy_target },
    { "zero-update", zero_update },
    { "updated-iv", updated_iv },
    { "reinit-tag", reinit_tag },
    { "tag-utf8", tag_utf8 },
    { "sbox-unterminated", sbox_unterminated },
    { "param-widths", param_widths },
    { "cipher-battery", cipher_battery },
    { "mac-battery", mac_battery },
};

int main(int argc, char **argv)
{
    OSSL_PROVIDER *def;
    int ran = 0;
    if (argc > 2 || (argc == 2 && !strcmp(argv[1], "-l"))) {
        for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
            printf("%s\n", groups[g].name);
        return argc > 2 ? 2 : 0;
    }
    mb = OSSL_PROVIDER_load(NULL, "multiblock");
    def = OSSL_PROVIDER_load(NULL, "default");
    if (mb == NULL || def == NULL) {
        fprintf(stderr, "cannot load the multiblock provider (OPENSSL_MODULES?)\n");
        ERR_print_errors_fp(stderr);
        return 2;
    }
    for (size_t i = 0; i < sizeof(K1); i++) {
        K1[i] = (unsigned char)(i * 7 + 1);
        K2[i] = (unsigned char)(i * 13 + 5);
    }
    for (size_t i = 0; i < sizeof(IV1); i++) {
        IV1[i] = (unsigned char)(i * 3 + 11);
        IV2[i] = (unsigned char)(i * 5 + 17);
    }
    for (size_t i = 0; i < sizeof(PT); i++)
        PT[i] = (unsigned char)(i * 11 + 3);
    memcpy(AAD, "header!", sizeof(AAD));
    EVP_CIPHER_do_all_provided(NULL, add_cipher, NULL);
    EVP_MAC_do_all_provided(NULL, add_mac, NULL);
    check(nalgs > 50 && nmacs > 10, "provider", "too few algorithms listed");
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        if (argc == 2 && strcmp(argv[1], groups[g].name))
            continue;
        groups[g].run();
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "no group %s (-l lists them)\n", argv[1]);
        return 2;
    }
    printf("%zu ciphers, %zu MACs: %lu passed, %lu failed\n", nalgs, nmacs, passed, failed);
    for (size_t i = 0; i < nalgs; i++)
        EVP_CIPHER_free(algs[i].c);
    for (size_t i = 0; i < nmacs; i++)
        EVP_MAC_free(macs[i]);
    OSSL_PROVIDER_unload(mb);
    OSSL_PROVIDER_unload(def);
    return failed ? 1 : 0;
}
