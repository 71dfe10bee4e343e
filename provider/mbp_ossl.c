/*
 * mbp_ossl.c - the few libcrypto helpers the provider needs, written here
 * so that the module links no libcrypto at all: OSSL_PARAM lookup, reads
 * and writes (the rules of OpenSSL's own OSSL_PARAM_get_* and _set_*:
 * integers of any C width, signed or unsigned, converted with a range
 * check, and exactly integral doubles; return_size set; a NULL data pointer
 * answers the size wanted) and a memory wipe the compiler keeps.
 *
 * A module that linked libcrypto would bring a second libcrypto into the
 * process when the application's is another one (a static `openssl`
 * binary, or a different OpenSSL release): two error queues, two sets of
 * globals. Everything else the provider needs from OpenSSL comes through
 * the core's dispatch table (mbp_main.c) or header-only macros.
 */
#include <limits.h>
#include <string.h>

#include "mbp.h"

const OSSL_PARAM *mbp_param_locate_const(const OSSL_PARAM *params, const char *key)
{
    if (params == NULL)
        return NULL;
    for (; params->key != NULL; params++)
        if (strcmp(params->key, key) == 0)
            return params;
    return NULL;
}

/* The same search over a writable array: the element found is one of its own. */
OSSL_PARAM *mbp_param_locate(OSSL_PARAM *params, const char *key)
{
    return (OSSL_PARAM *)mbp_param_locate_const(params, key);
}

/* An integer parameter's value as a sign and a magnitude. */
static int param_get_integer(const OSSL_PARAM *p, int *negative, uint64_t *mag)
{
    if (p == NULL || p->data == NULL)
        return 0;
    *negative = 0;
    if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
        switch (p->data_size) {
        case 1: { uint8_t v; memcpy(&v, p->data, 1); *mag = v; return 1; }
        case 2: { uint16_t v; memcpy(&v, p->data, 2); *mag = v; return 1; }
        case 4: { uint32_t v; memcpy(&v, p->data, 4); *mag = v; return 1; }
        case 8: { uint64_t v; memcpy(&v, p->data, 8); *mag = v; return 1; }
        default: return 0;
        }
    }
    if (p->data_type == OSSL_PARAM_INTEGER) {
        int64_t s;
        switch (p->data_size) {
        case 1: { int8_t v; memcpy(&v, p->data, 1); s = v; break; }
        case 2: { int16_t v; memcpy(&v, p->data, 2); s = v; break; }
        case 4: { int32_t v; memcpy(&v, p->data, 4); s = v; break; }
        case 8: { int64_t v; memcpy(&v, p->data, 8); s = v; break; }
        default: return 0;
        }
        *negative = s < 0;
        *mag = s < 0 ? (uint64_t)(-(s + 1)) + 1 : (uint64_t)s;
        return 1;
    }
    if (p->data_type == OSSL_PARAM_REAL && p->data_size == sizeof(double)) {
        double d;
        memcpy(&d, p->data, sizeof(d));
        /* Only exact integers below 2^53 (every one of them a double). */
        if (!(d > -9007199254740992.0 && d < 9007199254740992.0))
            return 0;
        *negative = d < 0;
        *mag = (uint64_t)(d < 0 ? -d : d);
        return (double)*mag == (d < 0 ? -d : d);
    }
    return 0;
}

int mbp_param_get_uint(const OSSL_PARAM *p, unsigned int *val)
{
    int neg;
    uint64_t m;
    if (!param_get_integer(p, &neg, &m) || neg || m > UINT_MAX)
        return 0;
    *val = (unsigned int)m;
    return 1;
}

int mbp_param_get_size_t(const OSSL_PARAM *p, size_t *val)
{
    int neg;
    uint64_t m;
    if (!param_get_integer(p, &neg, &m) || neg || m > SIZE_MAX)
        return 0;
    *val = (size_t)m;
    return 1;
}

/* Writes a value (a sign and a magnitude) into an integer or real
 * parameter of any width that holds it; natural: the size to answer when
 * the caller asks for it with a NULL data pointer. */
static int param_set_integer(OSSL_PARAM *p, int negative, uint64_t mag, size_t natural)
{
    if (p == NULL)
        return 0;
    p->return_size = 0;
    if (p->data_type == OSSL_PARAM_REAL) {
        double d;
        if (p->data == NULL) {
            p->return_size = sizeof(double);
            return 1;
        }
        if (p->data_size != sizeof(double) || mag > ((uint64_t)1 << 53))
            return 0;
        d = negative ? -(double)mag : (double)mag;
        memcpy(p->data, &d, sizeof(d));
        p->return_size = sizeof(double);
        return 1;
    }
    if (p->data_type != OSSL_PARAM_INTEGER && p->data_type != OSSL_PARAM_UNSIGNED_INTEGER)
        return 0;
    if (p->data == NULL) {
        p->return_size = natural;
        return 1;
    }
    if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER) {
        if (negative && mag != 0)
            return 0;
        switch (p->data_size) {
        case 1: { uint8_t v = (uint8_t)mag; if (mag > UINT8_MAX) return 0; memcpy(p->data, &v, 1); break; }
        case 2: { uint16_t v = (uint16_t)mag; if (mag > UINT16_MAX) return 0; memcpy(p->data, &v, 2); break; }
        case 4: { uint32_t v = (uint32_t)mag; if (mag > UINT32_MAX) return 0; memcpy(p->data, &v, 4); break; }
        case 8: { uint64_t v = mag; memcpy(p->data, &v, 8); break; }
        default: return 0;
        }
    } else {
        /* The magnitude limit of an n-bit two's complement value of this sign. */
        uint64_t lim;
        int64_t s;
        switch (p->data_size) {
        case 1: lim = (uint64_t)INT8_MAX; break;
        case 2: lim = (uint64_t)INT16_MAX; break;
        case 4: lim = (uint64_t)INT32_MAX; break;
        case 8: lim = (uint64_t)INT64_MAX; break;
        default: return 0;
        }
        if (mag > lim + (negative ? 1 : 0))
            return 0;
        s = negative ? -(int64_t)(mag - 1) - 1 : (int64_t)mag;
        switch (p->data_size) {
        case 1: { int8_t v = (int8_t)s; memcpy(p->data, &v, 1); break; }
        case 2: { int16_t v = (int16_t)s; memcpy(p->data, &v, 2); break; }
        case 4: { int32_t v = (int32_t)s; memcpy(p->data, &v, 4); break; }
        default: memcpy(p->data, &s, 8); break;
        }
    }
    p->return_size = p->data_size;
    return 1;
}

int mbp_param_set_int(OSSL_PARAM *p, int val)
{
    return param_set_integer(p, val < 0, val < 0 ? (uint64_t)(-(int64_t)val) : (uint64_t)val, sizeof(int));
}

int mbp_param_set_uint(OSSL_PARAM *p, unsigned int val)
{
    return param_set_integer(p, 0, val, sizeof(unsigned int));
}

int mbp_param_set_size_t(OSSL_PARAM *p, size_t val)
{
    return param_set_integer(p, 0, val, sizeof(size_t));
}

int mbp_param_set_octet_string(OSSL_PARAM *p, const void *val, size_t len)
{
    if (p == NULL || p->data_type != OSSL_PARAM_OCTET_STRING)
        return 0;
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_size < len)
        return 0;
    if (len > 0)
        memcpy(p->data, val, len);
    return 1;
}

/* The string and its terminating NUL: the caller's buffer must hold both. */
int mbp_param_set_utf8_string(OSSL_PARAM *p, const char *val)
{
    size_t len = strlen(val);
    if (p == NULL || p->data_type != OSSL_PARAM_UTF8_STRING)
        return 0;
    p->return_size = len;
    if (p->data == NULL)
        return 1;
    if (p->data_size <= len)
        return 0;
    memcpy(p->data, val, len + 1);
    return 1;
}

int mbp_param_set_utf8_ptr(OSSL_PARAM *p, const char *val)
{
    if (p == NULL || p->data_type != OSSL_PARAM_UTF8_PTR)
        return 0;
    p->return_size = strlen(val);
    if (p->data != NULL)
        *(const char **)p->data = val;
    return 1;
}

void mbp_cleanse(void *p, size_t len)
{
    volatile unsigned char *v = p;
    while (len--)
        *v++ = 0;
#if defined(__GNUC__) || defined(__clang__)
    /* The pointer escapes into memory the compiler cannot see through. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
#endif
}
