/*
 * mbp_main.c - the provider's entry point (OSSL_provider_init), its
 * operation query, its own parameters and error reporting through the core.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>

#include "mbp.h"

static OSSL_FUNC_core_new_error_fn *core_new_error;
static OSSL_FUNC_core_set_error_debug_fn *core_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *core_vset_error;
/* The core handle of one loaded instance of the provider, for the errors
 * of calls that bring no provider context (mbp_no_ctx); cleared when that
 * instance is torn down. Atomic: instances load and unload on any thread. */
static const OSSL_CORE_HANDLE *any_core;

void mbp_core_init(const OSSL_CORE_HANDLE *core, const OSSL_DISPATCH *in)
{
    (void)core;
    for (; in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
            core_new_error = OSSL_FUNC_core_new_error(in);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            core_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            core_vset_error = OSSL_FUNC_core_vset_error(in);
            break;
        default:
            break;
        }
    }
}

static void core_error(const OSSL_CORE_HANDLE *core, int reason, const char *fmt, va_list ap)
{
    if (core == NULL || core_new_error == NULL || core_vset_error == NULL)
        return;
    core_new_error(core);
    if (core_set_error_debug != NULL)
        core_set_error_debug(core, __FILE__, __LINE__, "multiblock");
    core_vset_error(core, (uint32_t)reason, fmt, ap);
}

void mbp_error(mbp_provctx *p, int reason, const char *fmt, ...)
{
    va_list ap;
    if (p == NULL)
        return;
    va_start(ap, fmt);
    core_error(p->core, reason, fmt, ap);
    va_end(ap);
}

static void no_ctx_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    core_error(__atomic_load_n(&any_core, __ATOMIC_ACQUIRE), MBP_R_STATE, fmt, ap);
    va_end(ap);
}

int mbp_no_ctx(void)
{
    no_ctx_error("multiblock: no algorithm context (the target of a refused copy?): initialise it again with its "
                 "cipher or MAC");
    return 0;
}

void mbp_cleanse_free(void *p, size_t len)
{
    if (p != NULL) {
        mbp_cleanse(p, len);
        free(p);
    }
}

static const OSSL_PARAM provider_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_END
};

static const OSSL_PARAM *gettable_params(void *provctx)
{
    (void)provctx;
    return provider_param_types;
}

static int get_params(void *provctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    (void)provctx;
    p = mbp_param_locate(params, OSSL_PROV_PARAM_NAME);
    if (p != NULL && !mbp_param_set_utf8_ptr(p, "multiblock provider (Kuznyechik, Magma, GOST 28147-89, Kalyna, uBlock, Streebog, Kupyna)"))
        return 0;
    p = mbp_param_locate(params, OSSL_PROV_PARAM_VERSION);
    if (p != NULL && !mbp_param_set_utf8_ptr(p, mb_version()))
        return 0;
    p = mbp_param_locate(params, OSSL_PROV_PARAM_BUILDINFO);
    if (p != NULL && !mbp_param_set_utf8_ptr(p, "libmultiblock " "built against " OPENSSL_VERSION_TEXT))
        return 0;
    p = mbp_param_locate(params, OSSL_PROV_PARAM_STATUS);
    if (p != NULL && !mbp_param_set_int(p, 1))
        return 0;
    return 1;
}

static const OSSL_ALGORITHM *query_operation(void *provctx, int operation_id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_CIPHER:
        return mbp_ciphers;
    case OSSL_OP_MAC:
        return mbp_macs;
    case OSSL_OP_DIGEST:
        return mbp_digests;
    default:
        return NULL;
    }
}

static const OSSL_ITEM reason_strings[] = {
    { MBP_R_LIBRARY, "multiblock refused the input" },
    { MBP_R_STATE, "call out of order" },
    { MBP_R_ARG, "wrong argument" },
    { MBP_R_AUTH, "authentication failed (no plaintext released)" },
    { 0, NULL }
};

static const OSSL_ITEM *get_reason_strings(void *provctx)
{
    (void)provctx;
    return reason_strings;
}

static void teardown(void *provctx)
{
    mbp_provctx *p = provctx;
    const OSSL_CORE_HANDLE *expected;
    if (p != NULL) {
        expected = p->core;
        __atomic_compare_exchange_n(&any_core, &expected, NULL, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    free(provctx);
}

static const OSSL_DISPATCH provider_functions[] = {
    { OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))teardown },
    { OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))gettable_params },
    { OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))get_params },
    { OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))query_operation },
    { OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))get_reason_strings },
    { 0, NULL }
};

/* The one exported symbol (see the version script in scripts/build-provider.sh). */
int OSSL_provider_init(const OSSL_CORE_HANDLE *core, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    mbp_provctx *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return 0;
    p->core = core;
    mbp_core_init(core, in);
    __atomic_store_n(&any_core, core, __ATOMIC_RELEASE);
    *out = provider_functions;
    *provctx = p;
    return 1;
}
