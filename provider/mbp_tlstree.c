/*
 * mbp_tlstree.c - the cipher parameters "tlstree" and "tlstree_mode": the
 * per-record keys of the GOST TLS suites (TLSTREE, RFC 9189 section 8.1
 * for TLS 1.2, RFC 9367 section 4.1.2 for TLS 1.3) over mb_tlstree_*, as
 * gost-engine's provider and the GOST TLS 1.3 patch of OpenSSL pass them
 * (OSSL_CIPHER_PARAM_TLSTREE, OSSL_CIPHER_PARAM_TLSTREE_MODE).
 *
 * The key given at init is TLSTREE's root. Setting "tlstree" to a record's
 * sequence number (8 bytes, most significant first, as TLS keeps it)
 * re-keys the context for that record:
 *  - kuznyechik-mgm, magma-mgm (TLS 1.3): the key becomes TLSTREE(root,
 *    seqnum) with the masks "tlstree_mode" chose: "strong" (the _S
 *    suites) or "light" (_L), set once per connection, before the first
 *    seqnum. The nonce is the caller's, given at init as usual.
 *  - the CTR ciphers (kuznyechik- and magma-ctr, -ctr-acpkm,
 *    -ctr-acpkm-omac; TLS 1.2 CTR_OMAC): the key becomes TLSTREE(root,
 *    seqnum) with the suite's fixed masks, and the counter starts again
 *    from IV + seqnum mod 2^(n/2) (RFC 9189 section 8.2's IV_seqnum; the
 *    IV given at init is IV), so each record is a message of its own.
 * A stream's running message is ended (TLS 1.2's record layer runs a
 * record as updates with no final); an MGM message that took AAD or text
 * refuses it until final. A seqnum set before the key (or given to the
 * init that brings it) applies to that key.
 *
 * EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_TLSTREE, arg, seq) of a patched
 * OpenSSL becomes an octet string of data_size = arg over the 8 bytes at
 * seq: so data_size 0 and 1 read 8 bytes there, and 1 (TLS 1.2 without
 * encrypt-then-MAC, where the record layer has already counted the record)
 * means seqnum - 1 for the CTR ciphers, as gost-engine reads it. The mode
 * comes the same way, a NUL-terminated string with data_size 0.
 */
#include <stdio.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "mbp.h"

#define TREE_STRONG 1
#define TREE_LIGHT 2

/* Which TLSTREE a cipher has: 0 none, 1 the MGM suites, 2 a CTR_OMAC suite. */
static int tree_kind(const mbp_alg *a)
{
    if (strcmp(a->cipher, "kuznyechik") && strcmp(a->cipher, "magma"))
        return 0;
    if (!strcmp(a->mode, "mgm"))
        return 1;
    if (!strncmp(a->mode, "ctr", 3) && a->kind == MBP_STREAM)
        return 2;
    return 0;
}

void mbp_tlstree_new_key(mbp_cipher_ctx *c)
{
    mb_tlstree_free(c->tree);
    c->tree = NULL;
    memcpy(c->tree_root, c->key, sizeof(c->tree_root));
}

void mbp_tlstree_new_iv(mbp_cipher_ctx *c)
{
    memcpy(c->tree_iv, c->iv, c->iv_len);
}

void mbp_tlstree_free(mbp_cipher_ctx *c)
{
    mb_tlstree_free(c->tree);
    c->tree = NULL;
}

static int set_mode(mbp_cipher_ctx *c, const OSSL_PARAM *p)
{
    const char *s = p->data;
    size_t len = p->data_size;
    int mode = 0;
    if (tree_kind(c->alg) != 1) {
        mbp_error(c->prov, MBP_R_ARG, "%s: tlstree_mode is for kuznyechik-mgm and magma-mgm", c->alg->names);
        return 0;
    }
    if ((p->data_type != OSSL_PARAM_OCTET_STRING && p->data_type != OSSL_PARAM_UTF8_STRING) || s == NULL) {
        mbp_error(c->prov, MBP_R_ARG, "%s: tlstree_mode is a string, \"strong\" or \"light\"", c->alg->names);
        return 0;
    }
    if (len == 0) /* the ctrl's form: a C string */
        len = strnlen(s, 7);
    while (len > 0 && s[len - 1] == '\0')
        len--;
    if (len == 6 && !memcmp(s, "strong", 6))
        mode = TREE_STRONG;
    else if (len == 5 && !memcmp(s, "light", 5))
        mode = TREE_LIGHT;
    if (mode == 0) {
        mbp_error(c->prov, MBP_R_ARG, "%s: tlstree_mode is \"strong\" (the _S suites) or \"light\" (_L)",
                  c->alg->names);
        return 0;
    }
    if (mode != c->tree_mode) {
        mbp_tlstree_free(c);
        c->tree_mode = mode;
    }
    return 1;
}

/* The record's sequence number from the parameter (see the top). */
static int seqnum(mbp_cipher_ctx *c, const OSSL_PARAM *p, uint64_t *seq)
{
    const unsigned char *b = p->data;
    if (p->data_type != OSSL_PARAM_OCTET_STRING || b == NULL || (p->data_size != 8 && p->data_size > 1)) {
        mbp_error(c->prov, MBP_R_ARG, "%s: tlstree is the record's 8-byte sequence number", c->alg->names);
        return 0;
    }
    *seq = 0;
    for (int i = 0; i < 8; i++)
        *seq = *seq << 8 | b[i];
    if (p->data_size == 1 && tree_kind(c->alg) == 2)
        *seq -= 1;
    return 1;
}

/* The key of record seq into c->key (and the CTR ciphers' IV). */
static int rekey(mbp_cipher_ctx *c, uint64_t seq)
{
    size_t len = sizeof(c->key);
    if (c->tree == NULL) {
        char suite[32];
        int kind = tree_kind(c->alg);
        if (kind == 1 && c->tree_mode == 0) {
            mbp_error(c->prov, MBP_R_STATE, "%s: set tlstree_mode (\"strong\" or \"light\") before tlstree",
                      c->alg->names);
            return 0;
        }
        snprintf(suite, sizeof(suite), "%s-%s", c->alg->cipher,
                 kind == 2 ? "ctr-omac" : c->tree_mode == TREE_STRONG ? "mgm-s" : "mgm-l");
        if (mb_tlstree_new(&c->tree, suite, c->tree_root, sizeof(c->tree_root)) != MB_OK) {
            mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
            return 0;
        }
    }
    if (mb_tlstree_key(c->tree, seq, c->key, &len) != MB_OK) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        return 0;
    }
    if (tree_kind(c->alg) == 2) {
        /* IV_seqnum = IV + seqnum mod 2^(8 iv_len), the IV most significant byte first. */
        unsigned carry = 0;
        uint64_t s = seq;
        for (size_t i = c->iv_len; i-- > 0;) {
            unsigned sum = c->tree_iv[i] + (unsigned)(s & 0xff) + carry;
            c->iv[i] = (uint8_t)sum;
            carry = sum >> 8;
            s >>= 8;
        }
    }
    return 1;
}

int mbp_tlstree_set(mbp_cipher_ctx *c, const OSSL_PARAM params[], int in_init)
{
    const OSSL_PARAM *p;
    uint64_t seq;
    int kind = tree_kind(c->alg);
    if ((p = mbp_param_locate_const(params, "tlstree_mode")) != NULL && !set_mode(c, p))
        return 0;
    if ((p = mbp_param_locate_const(params, "tlstree")) == NULL)
        return 1;
    if (kind == 0) {
        mbp_error(c->prov, MBP_R_ARG, "%s: tlstree is for the Kuznyechik and Magma MGM and CTR ciphers",
                  c->alg->names);
        return 0;
    }
    if (!seqnum(c, p, &seq))
        return 0;
    /* An AEAD message that took AAD or text is not cut: the seqnum goes
     * between records (a stream cipher's record may end without final). */
    if (kind == 1 && (c->aad_len > 0 || c->data_done) && !c->finalized) {
        mbp_error(c->prov, MBP_R_STATE, "%s: tlstree goes between records, not within a message", c->alg->names);
        return 0;
    }
    /* Before the root key (or within init, where the key comes after the
     * parameters) the seqnum waits for it. */
    if (in_init || !c->have_key || (kind == 2 && !c->have_iv)) {
        c->tree_seq = seq;
        c->tree_pending = 1;
        return 1;
    }
    c->tree_pending = 0;
    if (!rekey(c, seq))
        return 0;
    /* The record is a new message under its key. */
    return mbp_cipher_restart(c);
}

int mbp_tlstree_pending(mbp_cipher_ctx *c)
{
    int kind = tree_kind(c->alg);
    if (!c->tree_pending || !c->have_key || (kind == 2 && !c->have_iv))
        return 1;
    c->tree_pending = 0;
    return rekey(c, c->tree_seq) && mbp_cipher_restart(c);
}
