/*
 * mbp_mac.c - EVP_MAC algorithms over mb_mac_stream_*: GOST R 34.13 MAC
 * (OMAC1), OMAC-ACPKM (R 1323565.1.017), the GOST 28147-89 MAC (imitovstavka,
 * RFC 5830 section 7), DSTU 7624 CMAC and GMAC.
 *
 * Names and OIDs follow gostprov where it has the algorithm (gost-mac,
 * gost-mac-12, magma-mac, kuznyechik-mac, and kuznyechik-ctr-acpkm-omac as
 * an alias of our kuznyechik-omac-acpkm, whose defaults give its bytes;
 * gost-mac runs the CryptoPro-A
 * S-box, gost-mac-12 TC26 Z, both with key meshing, checked by
 * interoperating with gostprov).
 * Parameters: "key", "size" (tag bytes), "iv" (GMAC), and ours: "sbox",
 * "key-meshing", "section-bytes", "key-section-bytes".
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "mbp.h"

typedef struct {
    const char *names, *cipher, *mode;
    size_t key_bytes, n, size; /* default tag bytes */
    const char *sbox;
    int key_meshing;
} mac_alg;

typedef struct {
    mbp_provctx *prov;
    const mac_alg *alg;
    mb_mac_stream *stream;
    uint8_t key[64];
    int have_key;
    uint8_t iv[64];
    size_t iv_len, size, section, key_section;
    char sbox[32];
    int key_meshing;
    int fed; /* the running MAC took data */
} mac_ctx;

/* The settings a MAC is made with (saved before a change, put back when
 * the change is refused). */
typedef struct {
    uint8_t key[64], iv[64];
    int have_key, key_meshing;
    size_t iv_len, size, section, key_section;
    char sbox[32];
} mac_settings;

static void save(const mac_ctx *c, mac_settings *s)
{
    memcpy(s->key, c->key, sizeof(s->key));
    memcpy(s->iv, c->iv, sizeof(s->iv));
    memcpy(s->sbox, c->sbox, sizeof(s->sbox));
    s->have_key = c->have_key;
    s->key_meshing = c->key_meshing;
    s->iv_len = c->iv_len;
    s->size = c->size;
    s->section = c->section;
    s->key_section = c->key_section;
}

static void put_back(mac_ctx *c, const mac_settings *s)
{
    memcpy(c->key, s->key, sizeof(c->key));
    memcpy(c->iv, s->iv, sizeof(c->iv));
    memcpy(c->sbox, s->sbox, sizeof(c->sbox));
    c->have_key = s->have_key;
    c->key_meshing = s->key_meshing;
    c->iv_len = s->iv_len;
    c->size = s->size;
    c->section = s->section;
    c->key_section = s->key_section;
}

static int same(const mac_settings *s, const mac_ctx *c)
{
    return !memcmp(s->key, c->key, sizeof(s->key)) && !memcmp(s->iv, c->iv, sizeof(s->iv))
           && !strcmp(s->sbox, c->sbox) && s->have_key == c->have_key && s->key_meshing == c->key_meshing
           && s->iv_len == c->iv_len && s->size == c->size && s->section == c->section
           && s->key_section == c->key_section;
}

/* Starts the MAC with the key and settings held. */
static int start(mac_ctx *c)
{
    mb_params p;
    mb_mac_stream_free(c->stream);
    c->stream = NULL;
    c->fed = 0;
    if (!c->have_key) {
        mbp_error(c->prov, MBP_R_STATE, "%s: no key", c->alg->names);
        return 0;
    }
    memset(&p, 0, sizeof(p));
    p.sbox = c->sbox[0] ? c->sbox : NULL;
    p.key_meshing = c->key_meshing;
    p.section_bytes = c->section;
    p.key_section_bytes = c->key_section;
    /* GMAC and DSTU CMAC name the length tag_bits, the GOST MACs mac_bits. */
    if (!strcmp(c->alg->mode, "cmac") || !strcmp(c->alg->mode, "gmac"))
        p.tag_bits = 8 * c->size;
    else
        p.mac_bits = 8 * c->size;
    if (mb_mac_stream_new(&c->stream, c->alg->cipher, c->alg->mode, c->key, c->alg->key_bytes,
                          c->iv_len ? c->iv : NULL, c->iv_len, &p)
        != MB_OK) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        return 0;
    }
    return 1;
}

static void *newctx(void *provctx, const mac_alg *alg)
{
    mac_ctx *c = calloc(1, sizeof(*c));
    if (c == NULL)
        return NULL;
    c->prov = provctx;
    c->alg = alg;
    c->size = alg->size;
    c->key_meshing = alg->key_meshing;
    if (alg->sbox != NULL)
        strcpy(c->sbox, alg->sbox);
    return c;
}

static void freectx(void *vctx)
{
    mac_ctx *c = vctx;
    if (c == NULL)
        return;
    mb_mac_stream_free(c->stream);
    mbp_cleanse_free(c, sizeof(*c));
}

/* A copy before init, after init with no data yet (the copy starts its own
 * MAC with the same key and settings) or after final. The library's running
 * MAC has no copy: once it took data, EVP_MAC_CTX_dup fails. */
static void *dupctx(void *vctx)
{
    mac_ctx *c = vctx, *d;
    if (c == NULL) {
        mbp_no_ctx();
        return NULL;
    }
    if (c->stream != NULL && c->fed) {
        mbp_error(c->prov, MBP_R_STATE, "a %s MAC that took data cannot be copied", c->alg->names);
        return NULL;
    }
    d = malloc(sizeof(*d));
    if (d == NULL)
        return NULL;
    memcpy(d, c, sizeof(*d));
    d->stream = NULL;
    if (c->stream != NULL && !start(d)) {
        freectx(d);
        return NULL;
    }
    return d;
}

static int apply(mac_ctx *c, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    unsigned int u;
    if ((p = mbp_param_locate_const(params, OSSL_MAC_PARAM_SIZE)) != NULL) {
        size_t sz;
        if (!mbp_param_get_size_t(p, &sz) || sz == 0 || sz > c->alg->n) {
            mbp_error(c->prov, MBP_R_ARG, "%s: a size of 1 to %zu bytes", c->alg->names, c->alg->n);
            return 0;
        }
        c->size = sz;
    }
    if ((p = mbp_param_locate_const(params, OSSL_MAC_PARAM_IV)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size > sizeof(c->iv)
            || (p->data == NULL && p->data_size != 0)) {
            mbp_error(c->prov, MBP_R_ARG, "%s: an IV is an octet string of up to %zu bytes", c->alg->names,
                      sizeof(c->iv));
            return 0;
        }
        memset(c->iv, 0, sizeof(c->iv));
        if (p->data_size)
            memcpy(c->iv, p->data, p->data_size);
        c->iv_len = p->data_size;
    }
    if ((p = mbp_param_locate_const(params, "sbox")) != NULL
        && !mbp_param_sbox(c->prov, c->alg->names, p, c->sbox, sizeof(c->sbox)))
        return 0;
    if ((p = mbp_param_locate_const(params, "key-meshing")) != NULL) {
        if (!mbp_param_get_uint(p, &u))
            return 0;
        c->key_meshing = u != 0;
    }
    if ((p = mbp_param_locate_const(params, "section-bytes")) != NULL && !mbp_param_get_size_t(p, &c->section))
        return 0;
    if ((p = mbp_param_locate_const(params, "key-section-bytes")) != NULL
        && !mbp_param_get_size_t(p, &c->key_section))
        return 0;
    if ((p = mbp_param_locate_const(params, OSSL_MAC_PARAM_KEY)) != NULL) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != c->alg->key_bytes || p->data == NULL) {
            mbp_error(c->prov, MBP_R_ARG, "%s needs a key of %zu bytes, got %zu", c->alg->names,
                      c->alg->key_bytes, p->data_size);
            return 0;
        }
        memcpy(c->key, p->data, p->data_size);
        c->have_key = 1;
    }
    return 1;
}

/* Parameters set after init take effect: before any data the MAC starts
 * again with them; once it took data a change is refused with an error
 * (the MAC keeps its settings). */
static int set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    mac_ctx *c = vctx;
    mac_settings before;
    int ok = 1;
    if (c == NULL)
        return mbp_no_ctx();
    if (params == NULL)
        return 1;
    save(c, &before);
    if (!apply(c, params)) {
        put_back(c, &before);
        ok = 0;
    } else if (c->stream != NULL && !same(&before, c)) {
        if (c->fed) {
            put_back(c, &before);
            mbp_error(c->prov, MBP_R_STATE, "%s: a setting cannot change once the MAC took data; initialise again",
                      c->alg->names);
            ok = 0;
        } else if (!start(c)) {
            put_back(c, &before);
            if (!start(c)) {
                mb_mac_stream_free(c->stream);
                c->stream = NULL;
            }
            ok = 0;
        }
    }
    mbp_cleanse(&before, sizeof(before));
    return ok;
}

/* Init starts a new MAC (ending a running one): parameters, then the key
 * (NULL keeps the one held). */
static int init(void *vctx, const unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
    mac_ctx *c = vctx;
    if (c == NULL)
        return mbp_no_ctx();
    mb_mac_stream_free(c->stream);
    c->stream = NULL;
    c->fed = 0;
    if (!set_ctx_params(c, params))
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
    return start(c);
}

static int update(void *vctx, const unsigned char *in, size_t inl)
{
    mac_ctx *c = vctx;
    if (c == NULL)
        return mbp_no_ctx();
    if (c->stream == NULL) {
        mbp_error(c->prov, MBP_R_STATE, "%s: not initialised", c->alg->names);
        return 0;
    }
    /* 0 bytes change nothing. */
    if (inl == 0)
        return 1;
    if (in == NULL) {
        mbp_error(c->prov, MBP_R_ARG, "%s: %zu bytes but no input buffer", c->alg->names, inl);
        return 0;
    }
    c->fed = 1;
    if (mb_mac_stream_update(c->stream, in, inl) != MB_OK) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        return 0;
    }
    return 1;
}

static int final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    mac_ctx *c = vctx;
    size_t len = outsize;
    int rc;
    *outl = 0;
    if (c == NULL)
        return mbp_no_ctx();
    if (c->stream == NULL) {
        mbp_error(c->prov, MBP_R_STATE, "%s: not initialised", c->alg->names);
        return 0;
    }
    rc = mb_mac_stream_final(c->stream, out, &len);
    mb_mac_stream_free(c->stream);
    c->stream = NULL;
    c->fed = 0;
    if (rc != MB_OK) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        return 0;
    }
    *outl = len;
    return 1;
}

static const OSSL_PARAM alg_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_size_t("keylen", NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM ctx_settable[] = {
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_IV, NULL, 0),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_utf8_string("sbox", NULL, 0),
    OSSL_PARAM_uint("key-meshing", NULL),
    OSSL_PARAM_size_t("section-bytes", NULL),
    OSSL_PARAM_size_t("key-section-bytes", NULL),
    OSSL_PARAM_END
};

static const OSSL_PARAM *gettable(void *provctx)
{
    (void)provctx;
    return alg_gettable;
}

static const OSSL_PARAM *ctx_gettable(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return alg_gettable;
}

static const OSSL_PARAM *settable(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return ctx_settable;
}

static int sizes(const mac_alg *a, size_t size, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    if ((p = mbp_param_locate(params, OSSL_MAC_PARAM_SIZE)) != NULL && !mbp_param_set_size_t(p, size))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_MAC_PARAM_BLOCK_SIZE)) != NULL && !mbp_param_set_size_t(p, a->n))
        return 0;
    if ((p = mbp_param_locate(params, "keylen")) != NULL && !mbp_param_set_size_t(p, a->key_bytes))
        return 0;
    return 1;
}

static int get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    mac_ctx *c = vctx;
    if (c == NULL)
        return mbp_no_ctx();
    return sizes(c->alg, c->size, params);
}

/* X(id, names, cipher, mode, key bytes, block bytes, default tag bytes, sbox, key meshing) */
#define MBP_MAC_LIST \
    X(gost_mac, "gost-mac:1.2.643.2.2.22", "gost89", "mac", 32, 8, 4, "cryptopro-a", 1) \
    X(gost_mac12, "gost-mac-12", "gost89", "mac", 32, 8, 4, "tc26-z", 1) \
    X(magma_mac, "magma-mac", "magma", "mac", 32, 8, 8, NULL, 0) \
    X(kuz_mac, "kuznyechik-mac", "kuznyechik", "mac", 32, 16, 16, NULL, 0) \
    X(magma_omac_acpkm, "magma-omac-acpkm", "magma", "omac-acpkm", 32, 8, 8, NULL, 0) \
    X(kuz_omac_acpkm, "kuznyechik-omac-acpkm:kuznyechik-ctr-acpkm-omac:1.2.643.7.1.1.5.2.2", "kuznyechik", "omac-acpkm", 32, 16, 16, NULL, 0) \
    MBP_KALYNA_MACS(k128_128, "kalyna-128-128", 16, 16) \
    MBP_KALYNA_MACS(k128_256, "kalyna-128-256", 32, 16) \
    MBP_KALYNA_MACS(k256_256, "kalyna-256-256", 32, 32) \
    MBP_KALYNA_MACS(k256_512, "kalyna-256-512", 64, 32) \
    MBP_KALYNA_MACS(k512_512, "kalyna-512-512", 64, 64)

#define MBP_KALYNA_MACS(v, name, key, n) \
    X(v##_cmac, name "-cmac", name, "cmac", key, n, n, NULL, 0) \
    X(v##_gmac, name "-gmac", name, "gmac", key, n, n, NULL, 0)

#define X(id, nm, ci, mo, kb, bb, tb, sb, mesh) \
    static const mac_alg mac_##id = { nm, ci, mo, kb, bb, tb, sb, mesh }; \
    static void *newctx_##id(void *provctx) { return newctx(provctx, &mac_##id); } \
    static int get_params_##id(OSSL_PARAM params[]) { return sizes(&mac_##id, mac_##id.size, params); } \
    static const OSSL_DISPATCH mac_fns_##id[] = { \
        { OSSL_FUNC_MAC_NEWCTX, (void (*)(void))newctx_##id }, \
        { OSSL_FUNC_MAC_DUPCTX, (void (*)(void))dupctx }, \
        { OSSL_FUNC_MAC_FREECTX, (void (*)(void))freectx }, \
        { OSSL_FUNC_MAC_INIT, (void (*)(void))init }, \
        { OSSL_FUNC_MAC_UPDATE, (void (*)(void))update }, \
        { OSSL_FUNC_MAC_FINAL, (void (*)(void))final }, \
        { OSSL_FUNC_MAC_GETTABLE_PARAMS, (void (*)(void))gettable }, \
        { OSSL_FUNC_MAC_GET_PARAMS, (void (*)(void))get_params_##id }, \
        { OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, (void (*)(void))ctx_gettable }, \
        { OSSL_FUNC_MAC_GET_CTX_PARAMS, (void (*)(void))get_ctx_params }, \
        { OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))settable }, \
        { OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))set_ctx_params }, \
        { 0, NULL } \
    };
MBP_MAC_LIST
#undef X

#define X(id, nm, ci, mo, kb, bb, tb, sb, mesh) { nm, "provider=multiblock", mac_fns_##id, NULL },
const OSSL_ALGORITHM mbp_macs[] = {
    MBP_MAC_LIST
    { NULL, NULL, NULL, NULL }
};
#undef X
