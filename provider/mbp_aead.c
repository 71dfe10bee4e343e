/*
 * mbp_aead.c - the one-shot kinds: AEAD (MGM, GCM, CCM) and XTS.
 *
 * The library's AEAD calls are one-shot, and a decryption must not release
 * plaintext before its tag is checked. So these ciphers follow OpenSSL's
 * CCM convention: AAD through any number of updates with out == NULL, then
 * the whole text in ONE update; for decryption the expected tag is set
 * (OSSL_CIPHER_PARAM_AEAD_TAG) before that update, which checks it and
 * writes nothing if it is wrong. Final writes nothing and reports the
 * check's result; the tag of an encryption is read after it.
 * An update with in == out == NULL and a length declares the text's length
 * (OpenSSL's CCM convention, taken by every AEAD here): the text update must
 * then have that length. A 0-byte update is no text update.
 * XTS: one update is one data unit (the IV its tweak), as OpenSSL's XTS.
 */
#include <stdlib.h>
#include <string.h>

#include "mbp.h"

static int add_aad(mbp_cipher_ctx *c, const unsigned char *in, size_t inl)
{
    uint8_t *grown;
    if (c->data_done) {
        mbp_error(c->prov, MBP_R_STATE, "%s: AAD after the text", c->alg->names);
        return 0;
    }
    if (inl == 0)
        return 1;
    grown = malloc(c->aad_len + inl);
    if (grown == NULL)
        return 0;
    if (c->aad_len)
        memcpy(grown, c->aad, c->aad_len);
    memcpy(grown + c->aad_len, in, inl);
    mbp_cleanse_free(c->aad, c->aad_len);
    c->aad = grown;
    c->aad_len += inl;
    return 1;
}

/* The one text update (or the empty text at final). */
static int run(mbp_cipher_ctx *c, unsigned char *out, const unsigned char *in, size_t inl)
{
    mb_params p;
    size_t len = inl + c->tag_len, tag_len = c->alg->kind == MBP_AEAD ? c->tag_len : 0;
    uint8_t *buf;
    int rc;
    if (c->data_done) {
        mbp_error(c->prov, MBP_R_STATE, "%s takes the whole text in one update (as OpenSSL's CCM)",
                  c->alg->names);
        return 0;
    }
    if (c->text_len_set && inl != c->text_len) {
        mbp_error(c->prov, MBP_R_ARG, "%s: a text of %zu bytes was declared, not %zu", c->alg->names, c->text_len,
                  inl);
        return 0;
    }
    if (!c->encrypt && tag_len && !c->tag_set) {
        mbp_error(c->prov, MBP_R_STATE, "%s: set the tag (OSSL_CIPHER_PARAM_AEAD_TAG) before decrypting",
                  c->alg->names);
        return 0;
    }
    mbp_cipher_mb_params(c, &p);
    c->data_done = 1;
    buf = malloc(inl + tag_len + 1);
    if (buf == NULL)
        return 0;
    if (c->encrypt) {
        len = inl + tag_len;
        rc = mb_encrypt(c->alg->cipher, c->alg->mode, c->key, c->alg->key_bytes, c->iv, c->iv_len, c->aad,
                        c->aad_len, &p, in, inl, buf, &len);
        if (rc == MB_OK && len == inl + tag_len) {
            if (inl)
                memcpy(out, buf, inl);
            memcpy(c->tag, buf + inl, tag_len);
            c->auth_ok = 1;
        }
    } else {
        if (inl)
            memcpy(buf, in, inl);
        memcpy(buf + inl, c->tag, tag_len);
        len = inl + tag_len; /* out holds inl bytes: all mb_decrypt writes */
        rc = mb_decrypt(c->alg->cipher, c->alg->mode, c->key, c->alg->key_bytes, c->iv, c->iv_len, c->aad,
                        c->aad_len, &p, buf, inl + tag_len, inl ? out : buf, &len);
        c->auth_ok = rc == MB_OK;
    }
    mbp_cleanse_free(buf, inl + tag_len + 1);
    if (rc == MB_ERR_AUTHENTICATION) {
        mbp_error(c->prov, MBP_R_AUTH, "%s: wrong tag, no plaintext released", c->alg->names);
        return 0;
    }
    if (rc != MB_OK) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        return 0;
    }
    return 1;
}

int mbp_aead_update(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                    size_t inl)
{
    *outl = 0;
    if (out == NULL && in == NULL) {
        /* The length declaration: nothing is read. */
        if (c->alg->kind != MBP_AEAD || c->data_done) {
            mbp_error(c->prov, MBP_R_STATE, "%s: a text length is declared before the text, by an AEAD cipher",
                      c->alg->names);
            return 0;
        }
        c->text_len = inl;
        c->text_len_set = 1;
        *outl = inl;
        return 1;
    }
    if (out == NULL) {
        if (c->alg->kind != MBP_AEAD) {
            mbp_error(c->prov, MBP_R_ARG, "%s takes no AAD", c->alg->names);
            return 0;
        }
        if (!add_aad(c, in, inl))
            return 0;
        *outl = inl;
        return 1;
    }
    if (outsize < inl) {
        mbp_error(c->prov, MBP_R_ARG, "output buffer too small");
        return 0;
    }
    if (!run(c, out, in, inl))
        return 0;
    *outl = inl;
    return 1;
}

int mbp_aead_final(mbp_cipher_ctx *c, size_t *outl)
{
    *outl = 0;
    if (!c->data_done) {
        if (c->alg->kind == MBP_XTS) {
            mbp_error(c->prov, MBP_R_ARG, "%s: no data unit was given", c->alg->names);
            return 0;
        }
        /* No text: the tag covers the AAD alone. */
        if (!run(c, NULL, NULL, 0))
            return 0;
    }
    return c->auth_ok;
}
