/*
 * mbp_blockmodes.c - the two modes the provider builds itself over the
 * library's keyed block cipher (mb_cipher):
 *
 * - CFB with s = n (GOST R 34.13-2015 section 4.5, DSTU 7624 section 7.4)
 *   byte by byte, because EVP wants every byte of a CFB update back at once
 *   and the library's streaming CFB decryptor works in whole blocks. The
 *   register holds m = k * n bits, kept as a ring of k blocks: block i's
 *   keystream is E(ring[i mod k]), and C_i then takes that slot.
 *   Decryption of whole blocks encrypts up to 256 blocks per library call.
 * - CBC for GOST 28147-89 (gost89-cbc of gost-engine), which the library
 *   has no mode for; PKCS#7 padding as OpenSSL's EVP does it.
 */
#include <string.h>

#include "mbp.h"

#define BATCH_BYTES 4096

static int lib_error(mbp_cipher_ctx *c)
{
    mbp_error(c->prov, MBP_R_LIBRARY, "%s", mb_last_error());
    return 0;
}

/* A keyed handle only (a copy keeps the original's register and position). */
int mbp_blockmode_rekey(mbp_cipher_ctx *c)
{
    if (mb_cipher_new(&c->handle, c->alg->cipher, c->key, c->alg->key_bytes, c->sbox[0] ? c->sbox : NULL, NULL)
        != MB_OK)
        return lib_error(c);
    return 1;
}

int mbp_blockmode_start(mbp_cipher_ctx *c)
{
    /* Parameters of the library's modes these two do not have: refused, as
     * the library refuses them for its modes. */
    if (c->key_meshing || c->section_bytes || c->ccm_nb) {
        mbp_error(c->prov, MBP_R_ARG, "%s takes no key meshing, section size or N_B", c->alg->names);
        return 0;
    }
    if (!mbp_blockmode_rekey(c))
        return 0;
    memcpy(c->reg, c->iv, c->iv_len);
    return 1;
}

/* ---- CFB ---------------------------------------------------------------- */

static int cfb_bytes(mbp_cipher_ctx *c, unsigned char *out, const unsigned char *in, size_t len)
{
    size_t n = c->alg->n, k = c->iv_len / n;
    for (size_t i = 0; i < len; i++) {
        uint8_t *slot = c->reg + c->ring * n;
        unsigned char x = in[i];
        if (c->ks_used == 0) {
            memcpy(c->ks, slot, n);
            if (mb_cipher_encrypt_blocks(c->handle, c->ks, c->ks, n) != MB_OK)
                return lib_error(c);
        }
        out[i] = x ^ c->ks[c->ks_used];
        /* The ciphertext byte replaces the register byte just used. */
        slot[c->ks_used] = c->encrypt ? out[i] : x;
        if (++c->ks_used == n) {
            c->ks_used = 0;
            c->ring = (c->ring + 1) % k;
        }
    }
    return 1;
}

/* Decrypts whole blocks at a block boundary, up to BATCH_BYTES at a time. */
static int cfb_decrypt_blocks(mbp_cipher_ctx *c, unsigned char *out, const unsigned char *in, size_t blocks)
{
    size_t n = c->alg->n, k = c->iv_len / n;
    uint8_t ks[BATCH_BYTES];
    while (blocks > 0) {
        size_t b = blocks < BATCH_BYTES / n ? blocks : BATCH_BYTES / n;
        for (size_t i = 0; i < b; i++) {
            const uint8_t *src = i < k ? c->reg + ((c->ring + i) % k) * n : in + (i - k) * n;
            memcpy(ks + i * n, src, n);
        }
        if (mb_cipher_encrypt_blocks(c->handle, ks, ks, b * n) != MB_OK)
            return lib_error(c);
        /* The last k ciphertext blocks become the register (read before
         * `out`, which may be `in`, is written). */
        for (size_t i = b > k ? b - k : 0; i < b; i++)
            memcpy(c->reg + ((c->ring + i) % k) * n, in + i * n, n);
        c->ring = (c->ring + b) % k;
        for (size_t i = 0; i < b * n; i++)
            out[i] = in[i] ^ ks[i];
        in += b * n;
        out += b * n;
        blocks -= b;
    }
    mbp_cleanse(ks, sizeof(ks));
    return 1;
}

int mbp_cfb_update(mbp_cipher_ctx *c, unsigned char *out, const unsigned char *in, size_t inl)
{
    size_t n = c->alg->n, head, whole;
    if (c->encrypt)
        return cfb_bytes(c, out, in, inl);
    head = c->ks_used ? n - c->ks_used : 0;
    if (head > inl)
        head = inl;
    if (!cfb_bytes(c, out, in, head))
        return 0;
    whole = (inl - head) / n;
    if (!cfb_decrypt_blocks(c, out + head, in + head, whole))
        return 0;
    return cfb_bytes(c, out + head + whole * n, in + head + whole * n, inl - head - whole * n);
}

/* ---- CBC ---------------------------------------------------------------- */

/* One block: encrypt (P xor R) or decrypt (D(C) xor R); R = C. */
static int cbc_blocks(mbp_cipher_ctx *c, unsigned char *out, const unsigned char *in, size_t blocks)
{
    size_t n = c->alg->n;
    uint8_t buf[BATCH_BYTES], next[64];
    if (c->encrypt) {
        for (size_t i = 0; i < blocks; i++) {
            for (size_t j = 0; j < n; j++)
                c->reg[j] ^= in[i * n + j];
            if (mb_cipher_encrypt_blocks(c->handle, c->reg, c->reg, n) != MB_OK)
                return lib_error(c);
            memcpy(out + i * n, c->reg, n);
        }
        return 1;
    }
    while (blocks > 0) {
        size_t b = blocks < BATCH_BYTES / n ? blocks : BATCH_BYTES / n;
        if (mb_cipher_decrypt_blocks(c->handle, in, buf, b * n) != MB_OK)
            return lib_error(c);
        memcpy(next, in + (b - 1) * n, n);
        for (size_t i = b; i-- > 0;) {
            const uint8_t *prev = i ? in + (i - 1) * n : c->reg;
            for (size_t j = 0; j < n; j++)
                out[i * n + j] = buf[i * n + j] ^ prev[j];
        }
        memcpy(c->reg, next, n);
        in += b * n;
        out += b * n;
        blocks -= b;
    }
    mbp_cleanse(buf, sizeof(buf));
    return 1;
}

int mbp_cbc_update(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                   size_t inl)
{
    size_t n = c->alg->n, done = 0;
    size_t emit = (c->part_len + inl) / n;
    /* Decrypting with padding keeps the last whole block (in `part`) for final. */
    if (!c->encrypt && c->padding && (c->part_len + inl) % n == 0 && emit > 0)
        emit--;
    *outl = 0;
    if (outsize < emit * n) {
        mbp_error(c->prov, MBP_R_ARG, "output buffer too small");
        return 0;
    }
    if (emit > 0 && c->part_len > 0) {
        size_t take = n - c->part_len;
        memcpy(c->part + c->part_len, in, take);
        in += take;
        inl -= take;
        if (!cbc_blocks(c, out, c->part, 1))
            return 0;
        c->part_len = 0;
        done = n;
        emit--;
    }
    if (emit > 0) {
        if (!cbc_blocks(c, out + done, in, emit))
            return 0;
        done += emit * n;
        in += emit * n;
        inl -= emit * n;
    }
    memcpy(c->part + c->part_len, in, inl);
    c->part_len += inl;
    *outl = done;
    return 1;
}

int mbp_cbc_final(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize)
{
    size_t n = c->alg->n;
    uint8_t block[64];
    *outl = 0;
    if (c->encrypt) {
        if (!c->padding) {
            if (c->part_len != 0) {
                mbp_error(c->prov, MBP_R_ARG, "%s: data is not a whole number of %zu-byte blocks",
                          c->alg->names, n);
                return 0;
            }
            return 1;
        }
        if (outsize < n) {
            mbp_error(c->prov, MBP_R_ARG, "output buffer too small");
            return 0;
        }
        memset(c->part + c->part_len, (int)(n - c->part_len), n - c->part_len);
        if (!cbc_blocks(c, out, c->part, 1))
            return 0;
        *outl = n;
        return 1;
    }
    if (!c->padding && c->part_len == n) {
        /* Padding turned off after this block was kept back: released whole. */
        if (outsize < n) {
            mbp_error(c->prov, MBP_R_ARG, "output buffer too small");
            return 0;
        }
        if (!cbc_blocks(c, out, c->part, 1))
            return 0;
        *outl = n;
        return 1;
    }
    if (!c->padding) {
        if (c->part_len != 0) {
            mbp_error(c->prov, MBP_R_ARG, "%s: data is not a whole number of %zu-byte blocks", c->alg->names, n);
            return 0;
        }
        return 1;
    }
    if (c->part_len != n) {
        mbp_error(c->prov, MBP_R_ARG, "%s: data is not a whole number of %zu-byte blocks", c->alg->names, n);
        return 0;
    }
    if (!cbc_blocks(c, block, c->part, 1))
        return 0;
    return mbp_unpad(c, block, out, outl, outsize);
}

int mbp_unpad(mbp_cipher_ctx *c, uint8_t *block, unsigned char *out, size_t *outl, size_t outsize)
{
    size_t n = c->alg->n;
    /* PKCS#7 check without a branch on the plaintext. */
    unsigned pad = block[n - 1];
    unsigned bad = ((unsigned)((pad - 1u) >> 8) | (unsigned)((n - pad) >> 8)) & 1u; /* pad not in 1..n */
    *outl = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned in_pad = (unsigned)(((n - 1 - i) - pad) >> 8) & 1u; /* i >= n - pad */
        bad |= in_pad & (block[i] != pad);
    }
    if (bad & 1u) {
        mbp_cleanse(block, n);
        mbp_error(c->prov, MBP_R_ARG, "%s: bad padding", c->alg->names);
        return 0;
    }
    if (outsize < n - pad) {
        mbp_cleanse(block, n);
        mbp_error(c->prov, MBP_R_ARG, "output buffer too small");
        return 0;
    }
    memcpy(out, block, n - pad);
    *outl = n - pad;
    mbp_cleanse(block, n);
    return 1;
}
