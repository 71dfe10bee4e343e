/*
 * mbp_ctromac.c - kuznyechik-ctr-acpkm-omac and magma-ctr-acpkm-omac, the
 * CTR-ACPKM encryption with an OMAC of the plaintext that gost-engine's
 * provider (gostprov) offers under these names and OIDs
 * (1.2.643.7.1.1.5.2.2, 1.2.643.7.1.1.5.1.2; the CMS algorithms of
 * R 1323565.1.026 / RFC 9337's id-gostr3412-2015-*-ctracpkm-omac):
 *
 *   K_enc || K_mac = KDF_TREE_GOSTR3411_2012_256(K, "kdf tree", seed, R = 1), 64 bytes
 *                    (RFC 7836 section 4.4)
 *   C   = CTR-ACPKM(K_enc, IV, P)                 (R 1323565.1.017; the section
 *                                                  size as the ctr-acpkm cipher's)
 *   tag = the same keystream, continued, XOR OMAC(K_mac, P)  (GOST R 34.13 MAC, a
 *                                                  whole block: 16 or 8 bytes)
 *
 * The IV is n/2 bytes (8, 4); the 8-byte KDF seed is the "kdf-seed"
 * parameter, or with the IV the UKM of "alg_id_param" (the DER of
 * SEQUENCE { OCTET STRING IV || seed }, gostprov's parameter for the CMS
 * AlgorithmIdentifier). Unset, the seed is 8 zero bytes: give a fresh
 * one per key and message (gostprov draws a random seed when encrypting
 * with none set; "alg_id_param" reads it back from either provider).
 * The tag is the AEAD tag parameter: gettable after an encryption's
 * final, settable (before final) for a decryption, whose final fails
 * unless it matches. The plaintext is released as it is decrypted (a
 * stream, as gostprov does), so a caller must drop it when final fails.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include "mbp.h"

#define SEED_BYTES 8
static const uint8_t KDF_LABEL[] = "kdf tree";

int mbp_ctromac_start(mbp_cipher_ctx *c)
{
    uint8_t keys[64];
    mb_params p;
    int ok;
    mbp_cipher_mb_params(c, &p);
    p.tag_bits = 0;
    ok = mb_kdf_tree(c->key, 32, KDF_LABEL, sizeof(KDF_LABEL) - 1, c->kdf_seed, SEED_BYTES, 1, keys, sizeof(keys))
             == MB_OK
         && mb_stream_new(&c->stream, c->encrypt, c->alg->cipher, "ctr-acpkm", keys, 32, c->iv, c->iv_len, &p)
                == MB_OK
         && mb_mac_stream_new(&c->omac, c->alg->cipher, "mac", keys + 32, 32, NULL, 0, NULL) == MB_OK;
    mbp_cleanse(keys, sizeof(keys));
    if (!ok) {
        mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
        mb_stream_free(c->stream);
        c->stream = NULL;
        mb_mac_stream_free(c->omac);
        c->omac = NULL;
    }
    return ok;
}

static int lib_error(mbp_cipher_ctx *c)
{
    mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
    return 0;
}

/* Encrypting: the OMAC takes the plaintext before it is overwritten (in
 * may be out); decrypting: the plaintext written. */
int mbp_ctromac_update(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                       const unsigned char *in, size_t inl)
{
    size_t len = outsize;
    if (c->encrypt && mb_mac_stream_update(c->omac, in, inl) != MB_OK)
        return lib_error(c);
    if (mb_stream_update(c->stream, in, inl, out, &len) != MB_OK)
        return lib_error(c);
    if (!c->encrypt && mb_mac_stream_update(c->omac, out, len) != MB_OK)
        return lib_error(c);
    *outl = len;
    return 1;
}

/* The OMAC through the continued keystream: the tag (encrypting), or the
 * check of the one given (decrypting, in constant time). */
int mbp_ctromac_final(mbp_cipher_ctx *c, size_t *outl)
{
    uint8_t mac[64], ks[64];
    size_t n = c->alg->n, mlen = sizeof(mac), klen = sizeof(ks);
    static const uint8_t zero[64];
    unsigned diff = 0;
    *outl = 0;
    if (!c->encrypt && !c->tag_set) {
        mbp_error(c->prov, MBP_R_STATE, "%s: set the tag to check before final", c->alg->names);
        return 0;
    }
    /* The keystream continued over n bytes is the encryption of zeros. */
    if (mb_mac_stream_final(c->omac, mac, &mlen) != MB_OK || mlen != n
        || mb_stream_update(c->stream, zero, n, ks, &klen) != MB_OK || klen != n)
        return lib_error(c);
    if (c->encrypt) {
        for (size_t i = 0; i < n; i++)
            c->tag[i] = mac[i] ^ ks[i];
        c->tag_len = n;
        c->data_done = 1;
    } else {
        for (size_t i = 0; i < n; i++)
            diff |= (unsigned)(c->tag[i] ^ ks[i] ^ mac[i]);
    }
    mbp_cleanse(mac, sizeof(mac));
    mbp_cleanse(ks, sizeof(ks));
    if (diff != 0) {
        mbp_error(c->prov, MBP_R_AUTH, "%s: the tag does not match (drop the plaintext)", c->alg->names);
        return 0;
    }
    return 1;
}

/* "kdf-seed" (8 bytes) and "alg_id_param" (the DER of SEQUENCE { OCTET
 * STRING IV || seed }): both start the message again with the new seed
 * (and IV); refused once data has passed, as every setting. */
int mbp_ctromac_set(mbp_cipher_ctx *c, const OSSL_PARAM params[])
{
    const OSSL_PARAM *p;
    if ((p = mbp_param_locate_const(params, "kdf-seed")) != NULL) {
        if (c->alg->kind != MBP_CTR_OMAC || p->data_type != OSSL_PARAM_OCTET_STRING || p->data == NULL
            || p->data_size != SEED_BYTES) {
            mbp_error(c->prov, MBP_R_ARG, "%s: kdf-seed is 8 bytes, for the ctr-acpkm-omac ciphers", c->alg->names);
            return 0;
        }
        memcpy(c->kdf_seed, p->data, SEED_BYTES);
    }
    if ((p = mbp_param_locate_const(params, "alg_id_param")) != NULL) {
        const uint8_t *d = p->data;
        size_t ukm = c->alg->iv_bytes + SEED_BYTES;
        if (c->alg->kind != MBP_CTR_OMAC || p->data_type != OSSL_PARAM_OCTET_STRING || d == NULL
            || p->data_size != ukm + 4 || d[0] != 0x30 || d[1] != ukm + 2 || d[2] != 0x04 || d[3] != ukm) {
            mbp_error(c->prov, MBP_R_ARG, "%s: alg_id_param is the DER of SEQUENCE { OCTET STRING of %zu bytes }",
                      c->alg->names, ukm);
            return 0;
        }
        memcpy(c->iv, d + 4, c->alg->iv_bytes);
        c->iv_len = c->alg->iv_bytes;
        c->have_iv = 1;
        memcpy(c->kdf_seed, d + 4 + c->alg->iv_bytes, SEED_BYTES);
    }
    return 1;
}

int mbp_ctromac_get(mbp_cipher_ctx *c, OSSL_PARAM params[])
{
    OSSL_PARAM *p;
    uint8_t der[4 + 64 + SEED_BYTES];
    size_t ukm = c->iv_len + SEED_BYTES;
    if ((p = mbp_param_locate(params, "kdf-seed")) != NULL
        && (c->alg->kind != MBP_CTR_OMAC || !mbp_param_set_octet_string(p, c->kdf_seed, SEED_BYTES)))
        return 0;
    if ((p = mbp_param_locate(params, "alg_id_param")) != NULL) {
        if (c->alg->kind != MBP_CTR_OMAC || !c->have_iv) {
            mbp_error(c->prov, MBP_R_STATE, "%s: alg_id_param is the IV and seed of a ctr-acpkm-omac message",
                      c->alg->names);
            return 0;
        }
        der[0] = 0x30;
        der[1] = (uint8_t)(ukm + 2);
        der[2] = 0x04;
        der[3] = (uint8_t)ukm;
        memcpy(der + 4, c->iv, c->iv_len);
        memcpy(der + 4 + c->iv_len, c->kdf_seed, SEED_BYTES);
        if (!mbp_param_set_octet_string(p, der, ukm + 4))
            return 0;
    }
    return 1;
}
