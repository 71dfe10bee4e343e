/*
 * mbp_params.c - cipher parameters: the algorithm's (mode, key and IV
 * length, block size, AEAD flag) and the context's (padding, IV length,
 * IV, AEAD tag and tag length, TLSTREE's "tlstree" and "tlstree_mode"
 * (mbp_tlstree.c), and this provider's own: "sbox", "key-meshing",
 * "section-bytes", "nb").
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "mbp.h"

/* Our own parameter names (no OpenSSL name exists for these). */
#define MBP_PARAM_SBOX "sbox"                   /* utf8: GOST 28147-89 S-box set, e.g. "tc26-z" */
#define MBP_PARAM_KEY_MESHING "key-meshing"     /* uint: CryptoPro key meshing on (1) or off (0) */
#define MBP_PARAM_SECTION_BYTES "section-bytes" /* size_t: ACPKM section size N in bytes */
#define MBP_PARAM_NB "nb"                       /* size_t: DSTU CCM length field N_B in bytes */

static const OSSL_PARAM alg_param_types[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
    OSSL_PARAM_END
};

const OSSL_PARAM *mbp_cipher_gettable_params(void *provctx)
{
    (void)provctx;
    return alg_param_types;
}

int mbp_cipher_get_alg_params(const mbp_alg *alg, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_MODE)) != NULL && !mbp_param_set_uint(p, alg->ossl_mode))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL && !mbp_param_set_size_t(p, alg->key_bytes))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL && !mbp_param_set_size_t(p, alg->iv_bytes))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) != NULL
        && !mbp_param_set_size_t(p, alg->block_bytes))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_AEAD)) != NULL
        && !mbp_param_set_int(p, alg->kind == MBP_AEAD))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) != NULL && !mbp_param_set_int(p, 0))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_CTS)) != NULL && !mbp_param_set_int(p, 0))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK)) != NULL && !mbp_param_set_int(p, 0))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY)) != NULL && !mbp_param_set_int(p, 0))
        return 0;
    return 1;
}

static const OSSL_PARAM ctx_gettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_utf8_string(MBP_PARAM_SBOX, NULL, 0),
    OSSL_PARAM_uint(MBP_PARAM_KEY_MESHING, NULL),
    OSSL_PARAM_size_t(MBP_PARAM_SECTION_BYTES, NULL),
    OSSL_PARAM_octet_string("kdf-seed", NULL, 0),     /* mbp_ctromac.c */
    OSSL_PARAM_octet_string("alg_id_param", NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM ctx_settable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_utf8_string(MBP_PARAM_SBOX, NULL, 0),
    OSSL_PARAM_uint(MBP_PARAM_KEY_MESHING, NULL),
    OSSL_PARAM_size_t(MBP_PARAM_SECTION_BYTES, NULL),
    OSSL_PARAM_size_t(MBP_PARAM_NB, NULL),
    OSSL_PARAM_octet_string("tlstree", NULL, 0),      /* mbp_tlstree.c */
    OSSL_PARAM_octet_string("kdf-seed", NULL, 0),     /* mbp_ctromac.c */
    OSSL_PARAM_octet_string("alg_id_param", NULL, 0),
    OSSL_PARAM_octet_string("tlstree_mode", NULL, 0),
    OSSL_PARAM_END
};

const OSSL_PARAM *mbp_cipher_gettable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return ctx_gettable;
}

const OSSL_PARAM *mbp_cipher_settable_ctx_params(void *cctx, void *provctx)
{
    (void)cctx;
    (void)provctx;
    return ctx_settable;
}

int mbp_cipher_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    mbp_cipher_ctx *c = vctx;
    OSSL_PARAM *p;
    if (c == NULL)
        return mbp_no_ctx();
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL
        && !mbp_param_set_size_t(p, c->alg->key_bytes))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL && !mbp_param_set_size_t(p, c->iv_len))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_PADDING)) != NULL
        && !mbp_param_set_uint(p, (unsigned)c->padding))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_NUM)) != NULL
        && !mbp_param_set_uint(p, (unsigned)c->ks_used))
        return 0;
    /* IV: the one given at init; UPDATED_IV: CBC's chaining value (the
     * other modes' running state is inside the library: their IV). */
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_IV)) != NULL
        && !mbp_param_set_octet_string(p, c->iv, c->iv_len))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV)) != NULL
        && !mbp_param_set_octet_string(p, mbp_cipher_updated_iv(c), c->iv_len))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN)) != NULL
        && !mbp_param_set_size_t(p, c->tag_len))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL) {
        /* Only after an encryption, and only the tag length (or less). */
        if ((c->alg->kind != MBP_AEAD && c->alg->kind != MBP_CTR_OMAC) || !c->encrypt || !c->data_done
            || p->data_size == 0
            || p->data_size > c->tag_len) {
            mbp_error(c->prov, MBP_R_STATE, "%s: the tag is there after encrypting, up to %zu bytes",
                      c->alg->names, c->tag_len);
            return 0;
        }
        if (!mbp_param_set_octet_string(p, c->tag, p->data_size))
            return 0;
    }
    if ((p = mbp_param_locate(params, MBP_PARAM_SBOX)) != NULL && !mbp_param_set_utf8_string(p, c->sbox))
        return 0;
    if ((p = mbp_param_locate(params, MBP_PARAM_KEY_MESHING)) != NULL
        && !mbp_param_set_uint(p, (unsigned)c->key_meshing))
        return 0;
    if ((p = mbp_param_locate(params, MBP_PARAM_SECTION_BYTES)) != NULL
        && !mbp_param_set_size_t(p, c->section_bytes))
        return 0;
    return mbp_ctromac_get(c, params);
}

static int set_ivlen(mbp_cipher_ctx *c, size_t len)
{
    const mbp_alg *a = c->alg;
    /* GOST R 34.13: a register of m = k * n bits (k up to 4); else fixed. */
    int ok = len == a->iv_bytes
             || (a->ivlen_settable && len % a->n == 0 && len >= a->n && len <= 4 * a->n);
    if (!ok) {
        mbp_error(c->prov, MBP_R_ARG, "%s takes an IV of %zu bytes%s, not %zu", a->names, a->iv_bytes,
                  a->ivlen_settable ? " (or 2, 3, 4 blocks)" : "", len);
        return 0;
    }
    if (len != c->iv_len)
        c->have_iv = 0;
    c->iv_len = len;
    return 1;
}

int mbp_param_sbox(mbp_provctx *prov, const char *alg, const OSSL_PARAM *p, char *dst, size_t cap)
{
    const char *s = p->data, *nul;
    size_t len;
    if (p->data_type != OSSL_PARAM_UTF8_STRING || (s == NULL && p->data_size != 0)) {
        mbp_error(prov, MBP_R_ARG, "%s: \"sbox\" is a UTF-8 string", alg);
        return 0;
    }
    /* Within data_size: the string may or may not end in a NUL. */
    nul = s == NULL ? NULL : memchr(s, 0, p->data_size);
    len = s == NULL ? 0 : nul != NULL ? (size_t)(nul - s) : p->data_size;
    if (len >= cap) {
        mbp_error(prov, MBP_R_ARG, "%s: no S-box has a name of %zu bytes", alg, len);
        return 0;
    }
    if (len)
        memcpy(dst, s, len);
    dst[len] = 0;
    return 1;
}

static int set_tag(mbp_cipher_ctx *c, const OSSL_PARAM *p)
{
    if (c->alg->kind != MBP_AEAD && c->alg->kind != MBP_CTR_OMAC) {
        mbp_error(c->prov, MBP_R_ARG, "%s is not an AEAD cipher", c->alg->names);
        return 0;
    }
    if (p->data_type != OSSL_PARAM_OCTET_STRING) {
        mbp_error(c->prov, MBP_R_ARG, "%s: the tag is an octet string", c->alg->names);
        return 0;
    }
    if (c->data_done) {
        /* The text update checks the tag (or makes it): too late to set. */
        mbp_error(c->prov, MBP_R_STATE, "%s: the tag and its length are set before the text", c->alg->names);
        return 0;
    }
    if (p->data_size == 0 || p->data_size > c->alg->n
        || (c->alg->kind == MBP_CTR_OMAC && p->data_size != c->alg->n)) {
        mbp_error(c->prov, MBP_R_ARG, "%s: a tag of 1 to %zu bytes, not %zu", c->alg->names, c->alg->n,
                  p->data_size);
        return 0;
    }
    c->tag_len = p->data_size;
    /* With data: the expected tag of a decryption; without: the length only. */
    if (p->data != NULL) {
        if (c->encrypt && c->have_key) {
            mbp_error(c->prov, MBP_R_STATE, "%s: the tag to check is set for decryption", c->alg->names);
            return 0;
        }
        memcpy(c->tag, p->data, p->data_size);
        c->tag_set = 1;
    }
    return 1;
}

/* The settings a message is made with: saved before a change, to compare
 * and to put back when the change is refused. */
typedef struct {
    char sbox[32];
    int key_meshing, have_iv;
    size_t section_bytes, ccm_nb, tag_len, iv_len;
    uint8_t kdf_seed[8], iv[4 * 64]; /* ctr-acpkm-omac: "kdf-seed", "alg_id_param" */
} settings;

static void save(const mbp_cipher_ctx *c, settings *s)
{
    memcpy(s->sbox, c->sbox, sizeof(s->sbox));
    s->key_meshing = c->key_meshing;
    s->have_iv = c->have_iv;
    s->section_bytes = c->section_bytes;
    s->ccm_nb = c->ccm_nb;
    s->tag_len = c->tag_len;
    s->iv_len = c->iv_len;
    memcpy(s->kdf_seed, c->kdf_seed, sizeof(s->kdf_seed));
    memcpy(s->iv, c->iv, sizeof(s->iv));
}

static void put_back(mbp_cipher_ctx *c, const settings *s)
{
    memcpy(c->sbox, s->sbox, sizeof(c->sbox));
    c->key_meshing = s->key_meshing;
    c->have_iv = s->have_iv;
    c->section_bytes = s->section_bytes;
    c->ccm_nb = s->ccm_nb;
    c->tag_len = s->tag_len;
    c->iv_len = s->iv_len;
    memcpy(c->kdf_seed, s->kdf_seed, sizeof(c->kdf_seed));
    memcpy(c->iv, s->iv, sizeof(c->iv));
}

static int same(const settings *a, const mbp_cipher_ctx *c)
{
    return !strcmp(a->sbox, c->sbox) && a->key_meshing == c->key_meshing && a->section_bytes == c->section_bytes
           && a->ccm_nb == c->ccm_nb && a->tag_len == c->tag_len && a->iv_len == c->iv_len
           && !memcmp(a->kdf_seed, c->kdf_seed, sizeof(a->kdf_seed))
           && (c->alg->kind != MBP_CTR_OMAC || !memcmp(a->iv, c->iv, sizeof(a->iv)));
}

static int apply(mbp_cipher_ctx *c, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    size_t sz;
    unsigned int u;
    if ((p = mbp_param_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL) {
        if (!mbp_param_get_size_t(p, &sz) || sz != c->alg->key_bytes) {
            mbp_error(c->prov, MBP_R_ARG, "%s has a fixed key length of %zu bytes", c->alg->names,
                      c->alg->key_bytes);
            return 0;
        }
    }
    if ((p = mbp_param_locate_const(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL) {
        if (!mbp_param_get_size_t(p, &sz) || !set_ivlen(c, sz))
            return 0;
    }
    /* Padding (ECB, CBC) is applied by this provider at final: it may change
     * at any time before final, as with OpenSSL's own ciphers. */
    if ((p = mbp_param_locate_const(params, OSSL_CIPHER_PARAM_PADDING)) != NULL) {
        if (!mbp_param_get_uint(p, &u))
            return 0;
        c->padding = u != 0;
    }
    if ((p = mbp_param_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG)) != NULL && !set_tag(c, p))
        return 0;
    if ((p = mbp_param_locate_const(params, MBP_PARAM_SBOX)) != NULL
        && !mbp_param_sbox(c->prov, c->alg->names, p, c->sbox, sizeof(c->sbox)))
        return 0;
    if ((p = mbp_param_locate_const(params, MBP_PARAM_KEY_MESHING)) != NULL) {
        if (!mbp_param_get_uint(p, &u))
            return 0;
        c->key_meshing = u != 0;
    }
    if ((p = mbp_param_locate_const(params, MBP_PARAM_SECTION_BYTES)) != NULL
        && !mbp_param_get_size_t(p, &c->section_bytes))
        return 0;
    if ((p = mbp_param_locate_const(params, MBP_PARAM_NB)) != NULL && !mbp_param_get_size_t(p, &c->ccm_nb))
        return 0;
    return mbp_ctromac_set(c, params);
}

/* A setting changed after init (S-box, key meshing, section size, tag
 * length, N_B) takes effect: before any data, a running stream is started
 * again with it; once data has passed through it (an AEAD's text, a
 * stream's data before final), a change is refused with an error and the
 * context keeps its settings. A new IV length ends the message at any
 * point, until an IV of that length is given. */
int mbp_cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    mbp_cipher_ctx *c = vctx;
    settings before;
    if (c == NULL)
        return mbp_no_ctx();
    if (params == NULL)
        return 1;
    save(c, &before);
    if (!apply(c, params) || !mbp_tlstree_set(c, params, c->in_init)) {
        put_back(c, &before);
        return 0;
    }
    if (same(&before, c))
        return 1;
    if (c->iv_len != before.iv_len) {
        /* A new IV length ends the running message: the next one needs an
         * IV of that length (EVP also sets it so before a re-init). */
        mbp_cipher_stop(c);
        return 1;
    }
    if (mbp_cipher_late(c)) {
        put_back(c, &before);
        mbp_error(c->prov, MBP_R_STATE, "%s: a setting cannot change once data has passed; initialise again",
                  c->alg->names);
        return 0;
    }
    if (mbp_cipher_started_unfed(c) && !mbp_cipher_restart(c)) {
        /* The library refused the new settings: the old ones stay. */
        put_back(c, &before);
        if (!mbp_cipher_restart(c))
            mbp_cipher_stop(c);
        return 0;
    }
    return 1;
}
