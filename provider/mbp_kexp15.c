/*
 * mbp_kexp15.c - kuznyechik-kexp15 and magma-kexp15: the key export
 * KExp15 and import KImp15 of R 1323565.1.017-2018, under the names and
 * OIDs of gost-engine (1.2.643.7.1.1.7.2.1, 1.2.643.7.1.1.7.1.1):
 *
 *   KExp15(K, K_enc, K_mac, IV) = CTR_K_enc(IV, K || OMAC_K_mac(IV || K))
 *
 * with CTR and OMAC ("mac") of GOST R 34.13-2015 over the cipher of block
 * n bytes, and an IV of n/2 bytes (the CTR counter's first half, and the
 * OMAC's prefix). The cipher's key is K_mac || K_enc (64 bytes: the MAC
 * key first, gost-engine's layout); K is a key of 32 bytes.
 *
 * Encrypting exports: one update takes K (32 bytes) and writes the export
 * (32 + n bytes). Decrypting imports: one update takes the export and
 * writes K, only once the OMAC is checked (in constant time); a changed
 * export, a wrong key or IV fail that update with nothing written. Final
 * writes nothing, and fails if no update ran. A second update in the same
 * message is refused (init again for the next key).
 */
#include <string.h>

#include "mbp.h"

#define KEY_BYTES 32 /* K: the exported key */

static int lib_error(mbp_cipher_ctx *c)
{
    mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
    return 0;
}

/* OMAC_K_mac(IV || K) into mac (n bytes). */
static int omac(mbp_cipher_ctx *c, const uint8_t *k, uint8_t *mac)
{
    uint8_t msg[32 + KEY_BYTES];
    size_t half = c->alg->iv_bytes, len = c->alg->n;
    int ok;
    memcpy(msg, c->iv, half);
    memcpy(msg + half, k, KEY_BYTES);
    ok = mb_mac(c->alg->cipher, "mac", c->key, 32, NULL, 0, NULL, msg, half + KEY_BYTES, mac, &len) == MB_OK
         && len == c->alg->n;
    mbp_cleanse(msg, sizeof(msg));
    return ok;
}

/* CTR under K_enc (the key's second half) with the n/2-byte IV. */
static int ctr(mbp_cipher_ctx *c, int encrypt, const uint8_t *in, size_t len, uint8_t *out)
{
    size_t outl = len;
    int rc = (encrypt ? mb_encrypt : mb_decrypt)(c->alg->cipher, "ctr", c->key + 32, 32, c->iv, c->alg->iv_bytes,
                                                 NULL, 0, NULL, in, len, out, &outl);
    return rc == MB_OK && outl == len;
}

static int kexp(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, const unsigned char *in)
{
    uint8_t buf[KEY_BYTES + 64];
    size_t n = c->alg->n;
    int ok;
    memcpy(buf, in, KEY_BYTES);
    ok = omac(c, buf, buf + KEY_BYTES) && ctr(c, 1, buf, KEY_BYTES + n, buf);
    if (ok) {
        memcpy(out, buf, KEY_BYTES + n);
        *outl = KEY_BYTES + n;
    }
    mbp_cleanse(buf, sizeof(buf));
    return ok ? 1 : lib_error(c);
}

static int kimp(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, const unsigned char *in)
{
    uint8_t buf[KEY_BYTES + 64], mac[64];
    size_t n = c->alg->n;
    unsigned diff = 0;
    if (!ctr(c, 0, in, KEY_BYTES + n, buf) || !omac(c, buf, mac)) {
        mbp_cleanse(buf, sizeof(buf));
        return lib_error(c);
    }
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned)(mac[i] ^ buf[KEY_BYTES + i]);
    if (diff == 0) {
        memcpy(out, buf, KEY_BYTES);
        *outl = KEY_BYTES;
    }
    mbp_cleanse(buf, sizeof(buf));
    mbp_cleanse(mac, sizeof(mac));
    if (diff != 0) {
        mbp_error(c->prov, MBP_R_AUTH, "%s: the OMAC of the exported key does not match (wrong key, IV or export)",
                  c->alg->names);
        return 0;
    }
    return 1;
}

int mbp_kexp15_update(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                      size_t inl)
{
    size_t want_in = c->encrypt ? KEY_BYTES : KEY_BYTES + c->alg->n;
    size_t want_out = c->encrypt ? KEY_BYTES + c->alg->n : KEY_BYTES;
    if (c->data_done) {
        mbp_error(c->prov, MBP_R_STATE, "%s: one key per message (init again for the next)", c->alg->names);
        return 0;
    }
    if (inl != want_in) {
        mbp_error(c->prov, MBP_R_ARG, "%s %s %zu bytes in one update, got %zu", c->alg->names,
                  c->encrypt ? "exports a key of" : "imports an export of", want_in, inl);
        return 0;
    }
    if (outsize < want_out) {
        mbp_error(c->prov, MBP_R_ARG, "%s: output buffer too small (%zu bytes, %zu needed)", c->alg->names, outsize,
                  want_out);
        return 0;
    }
    if (!(c->encrypt ? kexp(c, out, outl, in) : kimp(c, out, outl, in)))
        return 0;
    c->data_done = 1;
    return 1;
}

int mbp_kexp15_final(mbp_cipher_ctx *c, size_t *outl)
{
    *outl = 0;
    if (!c->data_done) {
        mbp_error(c->prov, MBP_R_STATE, "%s: final without a key %s", c->alg->names,
                  c->encrypt ? "exported" : "imported");
        return 0;
    }
    return 1;
}
