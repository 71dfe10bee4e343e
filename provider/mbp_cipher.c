/*
 * mbp_cipher.c - the cipher context every algorithm shares: new/free/dup,
 * init (key and IV checks, then the kind's start), update and final, which
 * hand the work to the kind: mb_stream_* here, CFB and CBC over mb_cipher
 * in mbp_blockmodes.c, AEAD and XTS in mbp_aead.c.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>

#include "mbp.h"

/* ECB and CBC (EVP_CIPH_ECB_MODE, _CBC_MODE) take PKCS#7 padding. */
int mbp_pads(const mbp_alg *alg)
{
    return alg->ossl_mode == 1 || alg->ossl_mode == 2;
}

void *mbp_cipher_newctx(void *provctx, const mbp_alg *alg)
{
    mbp_cipher_ctx *c = calloc(1, sizeof(*c));
    if (c == NULL)
        return NULL;
    c->prov = provctx;
    c->alg = alg;
    c->padding = mbp_pads(alg); /* OpenSSL's default: PKCS#7 on ECB and CBC */
    c->iv_len = alg->iv_bytes;
    if (alg->sbox != NULL)
        strncpy(c->sbox, alg->sbox, sizeof(c->sbox) - 1);
    c->key_meshing = alg->key_meshing;
    c->tag_len = alg->n; /* MGM, GCM, CCM: a whole block unless "taglen"/"tag" says otherwise */
    return c;
}

/* Drops the running operation (not the key, IV or settings). */
static void stop(mbp_cipher_ctx *c)
{
    mb_stream_free(c->stream);
    c->stream = NULL;
    mb_cipher_free(c->handle);
    c->handle = NULL;
    mbp_cleanse_free(c->aad, c->aad_len);
    c->aad = NULL;
    c->aad_len = 0;
    OPENSSL_cleanse(c->reg, sizeof(c->reg));
    OPENSSL_cleanse(c->ks, sizeof(c->ks));
    OPENSSL_cleanse(c->part, sizeof(c->part));
    c->ks_used = c->ring = c->part_len = 0;
    c->data_done = c->auth_ok = c->finalized = 0;
    c->fed = 0;
}

void mbp_cipher_freectx(void *vctx)
{
    mbp_cipher_ctx *c = vctx;
    if (c == NULL)
        return;
    stop(c);
    mbp_cleanse_free(c, sizeof(*c));
}

static int start(mbp_cipher_ctx *c);

void *mbp_cipher_dupctx(void *vctx)
{
    /* The library's handles cannot be copied: a copy starts afresh from the
     * same key, IV and settings, which suffices for EVP_CIPHER_CTX_copy
     * before the first update (e.g. of a keyed template). A copy of a
     * context in the middle of a message is refused. */
    mbp_cipher_ctx *c = vctx, *d;
    if (c->fed || c->aad_len != 0 || c->data_done) {
        mbp_error(c->prov, MBP_R_STATE, "a %s context in the middle of a message cannot be copied", c->alg->names);
        return NULL;
    }
    d = malloc(sizeof(*d));
    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof(*d));
    d->stream = NULL;
    d->handle = NULL;
    d->aad = NULL;
    if ((c->stream != NULL || c->handle != NULL) && !start(d)) {
        mbp_cipher_freectx(d);
        return NULL;
    }
    return d;
}

void mbp_cipher_mb_params(const mbp_cipher_ctx *c, mb_params *p)
{
    memset(p, 0, sizeof(*p));
    if (mbp_pads(c->alg) && c->padding)
        p->padding = MB_PADDING_PKCS7;
    p->sbox = c->sbox[0] ? c->sbox : NULL;
    p->key_meshing = c->key_meshing;
    p->section_bytes = c->section_bytes;
    if (c->alg->kind == MBP_AEAD)
        p->tag_bits = 8 * c->tag_len;
    p->nb = c->ccm_nb;
}

/* Starts a message with the key and IV we hold. */
static int start(mbp_cipher_ctx *c)
{
    mb_params p;
    int rc;
    stop(c);
    switch (c->alg->kind) {
    case MBP_STREAM:
        mbp_cipher_mb_params(c, &p);
        rc = mb_stream_new(&c->stream, c->encrypt, c->alg->cipher, c->alg->mode, c->key, c->alg->key_bytes,
                           c->iv_len ? c->iv : NULL, c->iv_len, &p);
        if (rc != MB_OK) {
            mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
            return 0;
        }
        return 1;
    case MBP_CFB:
    case MBP_CBC:
        return mbp_blockmode_start(c);
    case MBP_AEAD:
    case MBP_XTS:
        return 1;
    }
    return 0;
}

static int init(mbp_cipher_ctx *c, int encrypt, const unsigned char *key, size_t keylen,
                const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    c->encrypt = encrypt;
    if (!mbp_cipher_set_ctx_params(c, params))
        return 0;
    if (key != NULL) {
        if (keylen != c->alg->key_bytes) {
            mbp_error(c->prov, MBP_R_ARG, "%s needs a key of %zu bytes, got %zu", c->alg->names,
                      c->alg->key_bytes, keylen);
            return 0;
        }
        memcpy(c->key, key, keylen);
        c->have_key = 1;
    }
    if (iv != NULL && c->iv_len > 0) {
        if (ivlen < c->iv_len) {
            mbp_error(c->prov, MBP_R_ARG, "%s needs an IV of %zu bytes, got %zu", c->alg->names, c->iv_len, ivlen);
            return 0;
        }
        memcpy(c->iv, iv, c->iv_len);
        c->have_iv = 1;
    }
    stop(c);
    if (c->have_key && (c->have_iv || c->iv_len == 0))
        return start(c);
    return 1;
}

int mbp_cipher_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return init(vctx, 1, key, keylen, iv, ivlen, params);
}

int mbp_cipher_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
                     const OSSL_PARAM params[])
{
    return init(vctx, 0, key, keylen, iv, ivlen, params);
}

/* Whether a message is under way (key and IV given, not finalized). */
static int ready(mbp_cipher_ctx *c)
{
    int running;
    switch (c->alg->kind) {
    case MBP_STREAM:
        running = c->stream != NULL;
        break;
    case MBP_CFB:
    case MBP_CBC:
        running = c->handle != NULL;
        break;
    default:
        running = c->have_key && (c->have_iv || c->iv_len == 0);
        break;
    }
    if (!running || c->finalized) {
        mbp_error(c->prov, MBP_R_STATE, "%s: no key or IV set, or the message was already finalized",
                  c->alg->names);
        return 0;
    }
    return 1;
}

int mbp_cipher_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                      size_t inl)
{
    mbp_cipher_ctx *c = vctx;
    size_t len;
    *outl = 0;
    if (!ready(c))
        return 0;
    c->fed = 1;
    switch (c->alg->kind) {
    case MBP_STREAM:
        len = outsize;
        if (mb_stream_update(c->stream, in, inl, out, &len) != MB_OK) {
            mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
            return 0;
        }
        *outl = len;
        return 1;
    case MBP_CFB:
        if (outsize < inl) {
            mbp_error(c->prov, MBP_R_ARG, "output buffer too small");
            return 0;
        }
        *outl = inl;
        return mbp_cfb_update(c, out, in, inl);
    case MBP_CBC:
        return mbp_cbc_update(c, out, outl, outsize, in, inl);
    case MBP_AEAD:
    case MBP_XTS:
        return mbp_aead_update(c, out, outl, outsize, in, inl);
    }
    return 0;
}

int mbp_cipher_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    mbp_cipher_ctx *c = vctx;
    size_t len;
    int ok = 1;
    *outl = 0;
    if (!ready(c))
        return 0;
    switch (c->alg->kind) {
    case MBP_STREAM:
        len = outsize;
        if (mb_stream_final(c->stream, out, &len) != MB_OK) {
            mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
            ok = 0;
        } else {
            *outl = len;
        }
        mb_stream_free(c->stream);
        c->stream = NULL;
        break;
    case MBP_CFB:
        break;
    case MBP_CBC:
        ok = mbp_cbc_final(c, out, outl, outsize);
        break;
    case MBP_AEAD:
    case MBP_XTS:
        ok = mbp_aead_final(c, outl);
        break;
    }
    c->finalized = 1;
    return ok;
}

/* EVP_Cipher(): update, or final when in is NULL. */
int mbp_cipher_oneshot(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                       size_t inl)
{
    if (in == NULL)
        return mbp_cipher_final(vctx, out, outl, outsize);
    return mbp_cipher_update(vctx, out, outl, outsize, in, inl);
}
