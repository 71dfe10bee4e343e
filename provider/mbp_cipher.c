/*
 * mbp_cipher.c - the cipher context every algorithm shares: new/free/dup,
 * init (key and IV checks, then the kind's start), update and final, which
 * hand the work to the kind: mb_stream_* here, CFB and CBC over mb_cipher
 * in mbp_blockmodes.c, AEAD and XTS in mbp_aead.c, KExp15 in mbp_kexp15.c.
 *
 * ECB and CBC over mb_stream run the stream without padding: PKCS#7 is done
 * here, so that the padding setting may change at any time before final, as
 * with OpenSSL's own ECB and CBC (EVP_CIPHER_CTX_set_padding after init).
 * Encryption appends the padding at final; a padded decryption keeps its
 * last plaintext block back until final, which checks and strips it.
 */
#include <stdlib.h>
#include <string.h>

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
    mb_mac_stream_free(c->omac);
    c->omac = NULL;
    mb_cipher_free(c->handle);
    c->handle = NULL;
    mbp_cleanse_free(c->aad, c->aad_len);
    c->aad = NULL;
    c->aad_len = 0;
    mbp_cleanse(c->reg, sizeof(c->reg));
    mbp_cleanse(c->ks, sizeof(c->ks));
    mbp_cleanse(c->part, sizeof(c->part));
    mbp_cleanse(c->chain, sizeof(c->chain));
    c->ks_used = c->ring = c->part_len = c->in_total = c->chain_len = 0;
    c->data_done = c->auth_ok = c->finalized = 0;
    c->fed = 0;
    c->text_len = 0;
    c->text_len_set = 0;
}

void mbp_cipher_stop(mbp_cipher_ctx *c)
{
    stop(c);
}

/* ECB or CBC over mb_stream, whose PKCS#7 padding is done here. */
static int stream_pads(const mbp_cipher_ctx *c)
{
    return c->alg->kind == MBP_STREAM && mbp_pads(c->alg);
}

/* CBC over mb_stream: chain keeps the last iv_len + n bytes of IV ||
 * ciphertext (encrypting: the output; decrypting: the input, whose partial
 * block the stream has not yet processed). */
static int stream_chains(const mbp_cipher_ctx *c)
{
    return c->alg->kind == MBP_STREAM && c->alg->ossl_mode == 2;
}

static void chain_add(mbp_cipher_ctx *c, const uint8_t *p, size_t len)
{
    size_t cap = c->iv_len + c->alg->n;
    if (len >= cap) {
        memcpy(c->chain, p + len - cap, cap);
        c->chain_len = cap;
        return;
    }
    if (c->chain_len + len > cap) {
        size_t drop = c->chain_len + len - cap;
        memmove(c->chain, c->chain + drop, c->chain_len - drop);
        c->chain_len -= drop;
    }
    memcpy(c->chain + c->chain_len, p, len);
    c->chain_len += len;
}

/* OSSL_CIPHER_PARAM_UPDATED_IV: for CBC the register after the blocks
 * processed so far (the last ciphertext block, or the last m bytes of IV ||
 * ciphertext for a GOST register of m bytes), as OpenSSL's CBC reports it;
 * the other modes keep their running state inside the library, and report
 * the IV given at init. */
const uint8_t *mbp_cipher_updated_iv(const mbp_cipher_ctx *c)
{
    if (c->alg->kind == MBP_CBC && c->handle != NULL)
        return c->reg;
    if (stream_chains(c) && c->chain_len >= c->iv_len) {
        size_t pending = c->encrypt ? 0 : c->in_total % c->alg->n;
        if (c->chain_len >= c->iv_len + pending)
            return c->chain + c->chain_len - pending - c->iv_len;
    }
    return c->iv;
}

void mbp_cipher_freectx(void *vctx)
{
    mbp_cipher_ctx *c = vctx;
    if (c == NULL)
        return;
    stop(c);
    mbp_tlstree_free(c);
    mbp_cleanse_free(c, sizeof(*c));
}

static int start(mbp_cipher_ctx *c);

void *mbp_cipher_dupctx(void *vctx)
{
    /* Everything but the library's stream (mb_stream: ECB, CBC, OFB, CTR,
     * CTR-ACPKM, CNT, GOST 28147 and Kalyna CFB) is in this context, and is
     * copied at any point: AEAD (AAD, tag, state), XTS, and the CFB and
     * gost89-cbc built here (a new keyed handle, the same register). A
     * stream has no copy: a context whose stream has taken data is not
     * copied (EVP_CIPHER_CTX_copy fails, and its target fails every call
     * until initialised again); before any data the copy starts a fresh
     * stream from the same key, IV and settings; after final it has none. */
    mbp_cipher_ctx *c = vctx, *d;
    if (c == NULL) {
        mbp_no_ctx();
        return NULL;
    }
    if (c->stream != NULL && c->fed) {
        mbp_error(c->prov, MBP_R_STATE,
                  "a %s context in the middle of a message cannot be copied (the library's stream state has no copy)",
                  c->alg->names);
        return NULL;
    }
    d = malloc(sizeof(*d));
    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof(*d));
    d->stream = NULL;
    d->handle = NULL;
    d->aad = NULL;
    d->tree = NULL; /* the copy derives its own from the same root */
    d->omac = NULL;
    if (c->aad_len != 0) {
        d->aad = malloc(c->aad_len);
        if (d->aad == NULL) {
            d->aad_len = 0;
            mbp_cipher_freectx(d);
            return NULL;
        }
        memcpy(d->aad, c->aad, c->aad_len);
    }
    if ((c->stream != NULL && !start(d)) || (c->handle != NULL && !mbp_blockmode_rekey(d))) {
        mbp_cipher_freectx(d);
        return NULL;
    }
    return d;
}

void mbp_cipher_mb_params(const mbp_cipher_ctx *c, mb_params *p)
{
    memset(p, 0, sizeof(*p));
    /* No library padding: PKCS#7 of ECB and CBC is done here (see the top). */
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
        if (stream_chains(c))
            chain_add(c, c->iv, c->iv_len);
        return 1;
    case MBP_CFB:
    case MBP_CBC:
        return mbp_blockmode_start(c);
    case MBP_CTR_OMAC:
        return mbp_ctromac_start(c);
    case MBP_AEAD:
    case MBP_XTS:
    case MBP_KEXP:
        return 1;
    }
    return 0;
}

int mbp_cipher_restart(mbp_cipher_ctx *c)
{
    return start(c);
}

/* Settings shaped data already: a stream, CFB or CBC that took data (until
 * final), an AEAD or XTS once its text ran (until re-initialised). */
int mbp_cipher_late(const mbp_cipher_ctx *c)
{
    if (c->alg->kind == MBP_AEAD || c->alg->kind == MBP_XTS)
        return c->data_done;
    return c->fed && !c->finalized;
}

/* A stream, CFB or CBC keyed and started, with no data yet. */
int mbp_cipher_started_unfed(const mbp_cipher_ctx *c)
{
    return (c->stream != NULL || c->handle != NULL) && !c->fed && !c->finalized;
}

static int init(mbp_cipher_ctx *c, int encrypt, const unsigned char *key, size_t keylen,
                const unsigned char *iv, size_t ivlen, const OSSL_PARAM params[])
{
    int was_keyed;
    if (c == NULL)
        return mbp_no_ctx();
    /* Init ends the running message (parameters given with it belong to
     * the next one). If a message was keyed and ready, the expected tag of
     * a decryption was its own: the next message needs its tag set again. */
    was_keyed = c->have_key && (c->have_iv || c->iv_len == 0);
    stop(c);
    if (was_keyed) {
        mbp_cleanse(c->tag, sizeof(c->tag));
        c->tag_set = 0;
    }
    c->encrypt = encrypt;
    c->in_init = 1;
    if (!mbp_cipher_set_ctx_params(c, params)) {
        c->in_init = 0;
        return 0;
    }
    c->in_init = 0;
    if (key != NULL) {
        if (keylen != c->alg->key_bytes) {
            mbp_error(c->prov, MBP_R_ARG, "%s needs a key of %zu bytes, got %zu", c->alg->names,
                      c->alg->key_bytes, keylen);
            return 0;
        }
        memcpy(c->key, key, keylen);
        c->have_key = 1;
        mbp_tlstree_new_key(c);
    }
    if (iv != NULL && c->iv_len > 0) {
        if (ivlen < c->iv_len) {
            mbp_error(c->prov, MBP_R_ARG, "%s needs an IV of %zu bytes, got %zu", c->alg->names, c->iv_len, ivlen);
            return 0;
        }
        memcpy(c->iv, iv, c->iv_len);
        c->have_iv = 1;
        mbp_tlstree_new_iv(c);
    }
    if (c->have_key && (c->have_iv || c->iv_len == 0) && !start(c))
        return 0;
    /* A record's sequence number set before the key or given with this
     * init re-keys now that the key is there. */
    return mbp_tlstree_pending(c);
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
    case MBP_CTR_OMAC:
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

static int lib_error(mbp_cipher_ctx *c)
{
    mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
    return 0;
}

/* The last whole block a padded decryption keeps back: out holds len bytes
 * (whole blocks) from the stream; the block kept before goes in front, the
 * last one is kept. *len becomes the bytes released. */
static void keep_last_block(mbp_cipher_ctx *c, unsigned char *out, size_t *len)
{
    size_t n = c->alg->n;
    uint8_t last[64];
    memcpy(last, out + *len - n, n);
    memmove(out + c->part_len, out, *len - n);
    memcpy(out, c->part, c->part_len);
    *len = *len - n + c->part_len;
    memcpy(c->part, last, n);
    c->part_len = n;
    mbp_cleanse(last, sizeof(last));
}

static int stream_update(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                         const unsigned char *in, size_t inl)
{
    size_t len = outsize, tail_len = 0;
    uint8_t tail[5 * 64];
    if (stream_chains(c) && !c->encrypt) {
        /* The input's last bytes, before an in-place update overwrites them. */
        tail_len = inl < c->iv_len + c->alg->n ? inl : c->iv_len + c->alg->n;
        memcpy(tail, in + inl - tail_len, tail_len);
    }
    if (mb_stream_update(c->stream, in, inl, out, &len) != MB_OK)
        return lib_error(c);
    c->in_total += inl;
    if (stream_chains(c))
        chain_add(c, c->encrypt ? out : tail, c->encrypt ? len : tail_len);
    /* Decrypting: with padding on (or a block already kept back when it was
     * turned off) the last block waits for final. */
    if (stream_pads(c) && !c->encrypt && len > 0 && (c->padding || c->part_len > 0))
        keep_last_block(c, out, &len);
    *outl = len;
    return 1;
}

static int stream_final(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize)
{
    size_t n = c->alg->n, done = 0, len;
    if (stream_pads(c) && c->encrypt && c->padding) {
        uint8_t pad[64];
        size_t k = n - c->in_total % n;
        memset(pad, (int)k, k);
        len = outsize;
        if (mb_stream_update(c->stream, pad, k, out, &len) != MB_OK)
            return lib_error(c);
        c->in_total += k;
        if (stream_chains(c))
            chain_add(c, out, len);
        done = len;
    }
    len = outsize - done;
    if (mb_stream_final(c->stream, out + done, &len) != MB_OK)
        return lib_error(c);
    done += len;
    if (stream_pads(c) && !c->encrypt) {
        if (c->padding) {
            if (c->part_len != n) {
                mbp_error(c->prov, MBP_R_ARG, "%s: no whole last block to remove the padding from", c->alg->names);
                return 0;
            }
            c->part_len = 0;
            if (!mbp_unpad(c, c->part, out + done, &len, outsize - done))
                return 0;
            done += len;
        } else if (c->part_len > 0) {
            if (outsize - done < c->part_len) {
                mbp_error(c->prov, MBP_R_ARG, "output buffer too small");
                return 0;
            }
            memcpy(out + done, c->part, c->part_len);
            done += c->part_len;
            c->part_len = 0;
        }
    }
    *outl = done;
    return 1;
}

int mbp_cipher_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                      size_t inl)
{
    mbp_cipher_ctx *c = vctx;
    *outl = 0;
    if (c == NULL)
        return mbp_no_ctx();
    if (!ready(c))
        return 0;
    /* in == out == NULL with a length: the text length declaration of
     * OpenSSL's CCM, which the AEAD ciphers take (mbp_aead.c). */
    if (c->alg->kind == MBP_AEAD && in == NULL && out == NULL)
        return mbp_aead_update(c, out, outl, outsize, in, inl);
    /* A 0-byte update changes nothing (not even the one text update of an
     * AEAD or XTS). */
    if (inl == 0)
        return 1;
    if (in == NULL || (out == NULL && c->alg->kind != MBP_AEAD)) {
        mbp_error(c->prov, MBP_R_ARG, "%s: %zu bytes to process but no %s buffer", c->alg->names, inl,
                  in == NULL ? "input" : "output");
        return 0;
    }
    c->fed = 1;
    switch (c->alg->kind) {
    case MBP_STREAM:
        return stream_update(c, out, outl, outsize, in, inl);
    case MBP_CTR_OMAC:
        return mbp_ctromac_update(c, out, outl, outsize, in, inl);
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
    case MBP_KEXP:
        return mbp_kexp15_update(c, out, outl, outsize, in, inl);
    }
    return 0;
}

int mbp_cipher_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    mbp_cipher_ctx *c = vctx;
    int ok = 1;
    *outl = 0;
    if (c == NULL)
        return mbp_no_ctx();
    if (!ready(c))
        return 0;
    switch (c->alg->kind) {
    case MBP_STREAM:
        ok = stream_final(c, out, outl, outsize);
        mb_stream_free(c->stream);
        c->stream = NULL;
        break;
    case MBP_CTR_OMAC:
        ok = mbp_ctromac_final(c, outl);
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
    case MBP_KEXP:
        ok = mbp_kexp15_final(c, outl);
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
