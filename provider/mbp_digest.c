/*
 * mbp_digest.c - EVP_MD algorithms over mb_hash_*: Streebog (GOST R
 * 34.11-2012, RFC 6986) and Kupyna (DSTU 7564:2014).
 *
 * Streebog carries gostprov's names and OIDs (md_gost12_256 and
 * md_gost12_512, id-tc26-gost3411-12-256/-512, 1.2.643.7.1.1.2.2/.3; RFC
 * 7836 section 2 / TC 26), so a program written for gostprov finds ours,
 * plus "streebog256"/"streebog512" (the library's spellings). Kupyna's
 * OIDs are those of the Ukrainian registry's DSTU 7564 arc
 * 1.2.804.2.1.1.1.1.2.2.{1,2,3} for 256/384/512 bits (as UAPKI and Bouncy
 * Castle's UAObjectIdentifiers assign them).
 *
 * HMAC needs nothing more: OpenSSL's HMAC (the default provider) runs over
 * any digest with a block size and a copy (dupctx), e.g.
 *   openssl mac -provider default -provider multiblock -digest md_gost12_256 ... HMAC
 * which is RFC 7836 section 4.1's HMAC_GOSTR3411_2012_256. It feeds
 * K XOR ipad (and K XOR opad) as the first update, one block, and copies
 * that state for every message. The library holds a message's last block
 * back for the final call, so updates go through mb_hash_update_for_copies,
 * which compresses a first update of whole blocks at once: no copy
 * compresses the keyed block again.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "mbp.h"

typedef struct {
    const char *names; /* OSSL_ALGORITHM names */
    const char *hash;  /* the library's hash name */
} md_alg;

typedef struct {
    mbp_provctx *prov;
    const md_alg *alg;
    mb_hash_ctx *hash; /* NULL before init */
} md_ctx;

static void *newctx(void *provctx, const md_alg *alg)
{
    md_ctx *c = calloc(1, sizeof(*c));
    if (c == NULL)
        return NULL;
    c->prov = provctx;
    c->alg = alg;
    return c;
}

static void freectx(void *vctx)
{
    md_ctx *c = vctx;
    if (c == NULL)
        return;
    mb_hash_free(c->hash);
    free(c);
}

/* A copy with its own state (HMAC copies the keyed inner and outer states). */
static void *dupctx(void *vctx)
{
    md_ctx *c = vctx, *d;
    if (c == NULL) {
        mbp_no_ctx();
        return NULL;
    }
    d = calloc(1, sizeof(*d));
    if (d == NULL)
        return NULL;
    d->prov = c->prov;
    d->alg = c->alg;
    if (c->hash != NULL && mb_hash_clone(&d->hash, c->hash) != MB_OK) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        free(d);
        return NULL;
    }
    return d;
}

/* Starts a new message (the digests take no parameters). */
static int init(void *vctx, const OSSL_PARAM params[])
{
    md_ctx *c = vctx;
    (void)params;
    if (c == NULL)
        return mbp_no_ctx();
    mb_hash_free(c->hash);
    c->hash = NULL;
    if (mb_hash_new(&c->hash, c->alg->hash, NULL) != MB_OK) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        return 0;
    }
    return 1;
}

static int update(void *vctx, const unsigned char *in, size_t inl)
{
    md_ctx *c = vctx;
    if (c == NULL)
        return mbp_no_ctx();
    if (c->hash == NULL) {
        mbp_error(c->prov, MBP_R_STATE, "%s: update before init", c->alg->names);
        return 0;
    }
    if (inl == 0)
        return 1;
    if (mb_hash_update_for_copies(c->hash, in, inl) != MB_OK) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        return 0;
    }
    return 1;
}

static int final(void *vctx, unsigned char *out, size_t *outl, size_t outsz)
{
    md_ctx *c = vctx;
    size_t len = outsz;
    if (c == NULL)
        return mbp_no_ctx();
    if (c->hash == NULL) {
        mbp_error(c->prov, MBP_R_STATE, "%s: final before init", c->alg->names);
        return 0;
    }
    if (mb_hash_final(c->hash, out, &len) != MB_OK) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        return 0;
    }
    *outl = len;
    return 1;
}

static const OSSL_PARAM param_types[] = {
    OSSL_PARAM_DEFN(OSSL_DIGEST_PARAM_BLOCK_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_DIGEST_PARAM_SIZE, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_DIGEST_PARAM_XOF, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_DIGEST_PARAM_ALGID_ABSENT, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *gettable_params(void *provctx)
{
    (void)provctx;
    return param_types;
}

/* Digest and block size (the block is HMAC's: 64 bytes, 128 for Kupyna over
 * 256 bits), from the library. */
static int get_params(const md_alg *a, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    size_t digest = 0, block = 0;
    if (mb_hash_sizes(a->hash, &digest, &block) != MB_OK)
        return 0;
    if ((p = mbp_param_locate(params, OSSL_DIGEST_PARAM_BLOCK_SIZE)) != NULL && !mbp_param_set_size_t(p, block))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_DIGEST_PARAM_SIZE)) != NULL && !mbp_param_set_size_t(p, digest))
        return 0;
    if ((p = mbp_param_locate(params, OSSL_DIGEST_PARAM_XOF)) != NULL && !mbp_param_set_int(p, 0))
        return 0;
    /* Signature AlgorithmIdentifiers of the GOST and DSTU hashes carry no parameters. */
    if ((p = mbp_param_locate(params, OSSL_DIGEST_PARAM_ALGID_ABSENT)) != NULL && !mbp_param_set_int(p, 1))
        return 0;
    return 1;
}

/* X(id, names, library hash name) */
#define MBP_DIGEST_LIST \
    X(streebog256, "md_gost12_256:id-tc26-gost3411-12-256:streebog256:streebog-256:1.2.643.7.1.1.2.2", "streebog-256") \
    X(streebog512, "md_gost12_512:id-tc26-gost3411-12-512:streebog512:streebog-512:1.2.643.7.1.1.2.3", "streebog-512") \
    X(kupyna256, "kupyna-256:kupyna256:1.2.804.2.1.1.1.1.2.2.1", "kupyna-256") \
    X(kupyna384, "kupyna-384:kupyna384:1.2.804.2.1.1.1.1.2.2.2", "kupyna-384") \
    X(kupyna512, "kupyna-512:kupyna512:1.2.804.2.1.1.1.1.2.2.3", "kupyna-512")

#define X(id, nm, h) \
    static const md_alg md_##id = { nm, h }; \
    static void *newctx_##id(void *provctx) { return newctx(provctx, &md_##id); } \
    static int get_params_##id(OSSL_PARAM params[]) { return get_params(&md_##id, params); } \
    static const OSSL_DISPATCH md_fns_##id[] = { \
        { OSSL_FUNC_DIGEST_NEWCTX, (void (*)(void))newctx_##id }, \
        { OSSL_FUNC_DIGEST_DUPCTX, (void (*)(void))dupctx }, \
        { OSSL_FUNC_DIGEST_FREECTX, (void (*)(void))freectx }, \
        { OSSL_FUNC_DIGEST_INIT, (void (*)(void))init }, \
        { OSSL_FUNC_DIGEST_UPDATE, (void (*)(void))update }, \
        { OSSL_FUNC_DIGEST_FINAL, (void (*)(void))final }, \
        { OSSL_FUNC_DIGEST_GETTABLE_PARAMS, (void (*)(void))gettable_params }, \
        { OSSL_FUNC_DIGEST_GET_PARAMS, (void (*)(void))get_params_##id }, \
        { 0, NULL } \
    };
MBP_DIGEST_LIST
#undef X

#define X(id, nm, h) { nm, "provider=multiblock", md_fns_##id, NULL },
const OSSL_ALGORITHM mbp_digests[] = {
    MBP_DIGEST_LIST
    { NULL, NULL, NULL, NULL }
};
#undef X
