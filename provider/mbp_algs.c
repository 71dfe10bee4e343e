/*
 * mbp_algs.c - the cipher algorithm table: for each line of
 * mbp_cipher_list.h an mbp_alg, the two functions OpenSSL calls without a
 * context (newctx, get_params: they must know their algorithm, so each
 * algorithm gets its own pair), a dispatch table and an OSSL_ALGORITHM.
 */
#include <openssl/core_dispatch.h>

#include "mbp.h"

#define MBP_PROPS "provider=multiblock"

#define X(id, names, cipher, mode, omode, key, iv, blk, n, kind, sbox, mesh, ivset) \
    static const mbp_alg alg_##id = { names, cipher, mode, omode, key, iv, blk, n, kind, sbox, mesh, ivset }; \
    static void *newctx_##id(void *provctx) { return mbp_cipher_newctx(provctx, &alg_##id); } \
    static int get_params_##id(OSSL_PARAM params[]) { return mbp_cipher_get_alg_params(&alg_##id, params); } \
    static const OSSL_DISPATCH fns_##id[] = { \
        { OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))newctx_##id }, \
        { OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))mbp_cipher_freectx }, \
        { OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))mbp_cipher_dupctx }, \
        { OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))mbp_cipher_einit }, \
        { OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))mbp_cipher_dinit }, \
        { OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))mbp_cipher_update }, \
        { OSSL_FUNC_CIPHER_FINAL, (void (*)(void))mbp_cipher_final }, \
        { OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))mbp_cipher_oneshot }, \
        { OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))get_params_##id }, \
        { OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))mbp_cipher_gettable_params }, \
        { OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))mbp_cipher_get_ctx_params }, \
        { OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))mbp_cipher_set_ctx_params }, \
        { OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))mbp_cipher_gettable_ctx_params }, \
        { OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))mbp_cipher_settable_ctx_params }, \
        { 0, NULL } \
    };
#include "mbp_cipher_list.h"
#undef X

#define X(id, names, cipher, mode, omode, key, iv, blk, n, kind, sbox, mesh, ivset) \
    { names, MBP_PROPS, fns_##id, NULL },
const OSSL_ALGORITHM mbp_ciphers[] = {
#include "mbp_cipher_list.h"
    { NULL, NULL, NULL, NULL }
};
#undef X
