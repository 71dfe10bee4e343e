/*
 * mbp.h - shared declarations of the multiblock OpenSSL 3 provider.
 *
 * The provider is a thin layer over the C library (multiblock.h): every
 * cipher, mode and MAC runs in libmultiblock; this code only maps OpenSSL's
 * provider interface (core_dispatch.h) onto mb_stream_*, mb_cipher_*,
 * mb_encrypt/mb_decrypt and mb_mac_stream_*.
 */
#ifndef MBP_H
#define MBP_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include "multiblock.h"

/* How a cipher algorithm runs. */
enum mbp_kind {
    MBP_STREAM, /* mb_stream_* (ecb, cbc, ctr, ctr-acpkm, ofb, cnt, xts, gost89 cfb) */
    MBP_CFB,    /* GOST R 34.13 CFB with s = n over mb_cipher (mbp_blockmodes.c), bytewise */
    MBP_CBC,    /* CBC over mb_cipher (gost89-cbc; the library has no GOST 28147 CBC) */
    MBP_AEAD,   /* mgm, gcm, ccm: one-shot mb_encrypt / mb_decrypt (mbp_aead.c) */
    MBP_XTS,    /* xts: each update is one data unit, one-shot (mbp_aead.c), as OpenSSL's XTS */
    MBP_CTR_OMAC, /* ctr-acpkm-omac: mb_stream ctr-acpkm and mb_mac_stream mac under KDF_TREE keys (mbp_ctromac.c) */
    MBP_KEXP     /* kexp15: KExp15 / KImp15, one key per message over mb_encrypt ctr and mb_mac (mbp_kexp15.c) */
};

/* One cipher algorithm the provider offers. */
typedef struct mbp_alg {
    const char *names;    /* OSSL_ALGORITHM names: "name[:alias...]" (OIDs as aliases) */
    const char *cipher;   /* multiblock cipher name */
    const char *mode;     /* multiblock mode name */
    unsigned ossl_mode;   /* EVP_CIPH_*_MODE, reported as OSSL_CIPHER_PARAM_MODE */
    size_t key_bytes;
    size_t iv_bytes;      /* default IV / nonce length */
    size_t block_bytes;   /* EVP block size: n for ecb/cbc, 1 for the rest */
    size_t n;             /* the cipher's block size */
    enum mbp_kind kind;
    const char *sbox;     /* default S-box set (gost89 variants), else NULL */
    int key_meshing;      /* default CryptoPro key meshing (gost89 variants) */
    int ivlen_settable;   /* GOST R 34.13 cbc/cfb/ofb: register m = IV length, a multiple of n */
} mbp_alg;

extern const OSSL_ALGORITHM mbp_ciphers[];
extern const OSSL_ALGORITHM mbp_macs[];
extern const OSSL_ALGORITHM mbp_digests[];

/* The provider context: the core handle, for errors. */
typedef struct mbp_provctx {
    const OSSL_CORE_HANDLE *core;
} mbp_provctx;

/* Raise an OpenSSL error with the library's message (mb_last_error) or a
 * formatted one. reason: one of the MBP_R_* below. */
#define MBP_R_LIBRARY 1 /* libmultiblock refused: message from mb_last_error() */
#define MBP_R_STATE 2   /* call out of order (no key, update after final, ...) */
#define MBP_R_ARG 3     /* a wrong argument: length, parameter */
#define MBP_R_AUTH 4    /* AEAD tag check failed */
void mbp_error(mbp_provctx *p, int reason, const char *fmt, ...);
/* A call with a NULL algorithm context (EVP leaves it NULL on the target of
 * a refused EVP_CIPHER_CTX_copy): raises an error through the core handle
 * of a loaded instance of the provider, as the call brings no provider
 * context, and returns 0. */
int mbp_no_ctx(void);
/* The "sbox" UTF-8 parameter into dst (cap bytes, NUL-terminated), read
 * within its data_size whether or not the caller's string ends in a NUL. */
int mbp_param_sbox(mbp_provctx *prov, const char *alg, const OSSL_PARAM *p, char *dst, size_t cap);
void mbp_core_init(const OSSL_CORE_HANDLE *core, const OSSL_DISPATCH *in);

/* Algorithm-level parameters (EVP_CIPHER_get_params): shared by every
 * cipher kind. */
int mbp_cipher_get_alg_params(const mbp_alg *alg, OSSL_PARAM params[]);
const OSSL_PARAM *mbp_cipher_gettable_params(void *provctx);

/* Cipher context, shared by every kind (fields a kind does not use stay 0). */
typedef struct mbp_cipher_ctx {
    mbp_provctx *prov;
    const mbp_alg *alg;
    int encrypt;
    int padding;            /* ECB/CBC: PKCS#7 on (OpenSSL's default) */
    uint8_t key[64];
    int have_key;
    uint8_t iv[4 * 64];     /* IV / nonce / register (GOST m up to 4n) */
    size_t iv_len;
    int have_iv;
    char sbox[32];
    int key_meshing;
    size_t section_bytes;   /* ACPKM section size, 0 = the library default */
    /* MBP_STREAM */
    mb_stream *stream;
    /* MBP_CFB, MBP_CBC */
    mb_cipher *handle;
    uint8_t reg[4 * 64];    /* CFB: the last k ciphertext blocks (a ring); CBC: the chaining block */
    size_t ks_used;         /* CFB: bytes of the current keystream block used */
    uint8_t ks[64];         /* CFB: current keystream block */
    size_t ring;            /* CFB: index of the ring block the next keystream comes from */
    uint8_t part[64];       /* CBC: partial block (decrypting with padding: up to a whole one);
                             * ECB/CBC over mb_stream: the plaintext block a padded decryption keeps back */
    size_t part_len;
    /* MBP_STREAM ECB and CBC */
    size_t in_total;        /* bytes fed to the stream (the padding's length at final) */
    uint8_t chain[5 * 64];  /* CBC: the last iv_len + n bytes of IV || ciphertext (UPDATED_IV) */
    size_t chain_len;
    /* MBP_AEAD */
    uint8_t *aad;
    size_t aad_len;
    uint8_t tag[64];
    size_t tag_len;         /* the tag length (bytes) */
    int tag_set;            /* decrypt: the expected tag was given */
    int data_done;          /* the one data update happened */
    int auth_ok;
    size_t ccm_nb;          /* DSTU CCM N_B, 0 = default */
    size_t text_len;        /* the text length declared by an update with in == out == NULL */
    int text_len_set;
    int finalized;
    int fed;                /* an update with data ran since the message started */
    /* TLSTREE (mbp_tlstree.c) */
    uint8_t tree_root[32];  /* the key given at init: TLSTREE's root */
    uint8_t tree_iv[4 * 64];/* CTR: the IV given at init, IV of IV_seqnum = IV + seqnum */
    int tree_mode;          /* MGM: 0 unset, 1 "strong", 2 "light" */
    mb_tlstree_ctx *tree;       /* the cached levels, made at the first seqnum */
    int in_init;            /* parameters given to init: "tlstree" waits for the key */
    /* MBP_CTR_OMAC (mbp_ctromac.c) */
    mb_mac_stream *omac;    /* OMAC of the plaintext */
    uint8_t kdf_seed[8];    /* KDF_TREE's seed */
    uint64_t tree_seq;      /* a seqnum set before the root key ... */
    int tree_pending;       /* ... applies when the key comes */
} mbp_cipher_ctx;

void *mbp_cipher_newctx(void *provctx, const mbp_alg *alg);
int mbp_pads(const mbp_alg *alg);
void mbp_cipher_freectx(void *vctx);
void *mbp_cipher_dupctx(void *vctx);
int mbp_cipher_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[]);
int mbp_cipher_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                     size_t ivlen, const OSSL_PARAM params[]);
int mbp_cipher_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl);
int mbp_cipher_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize);
int mbp_cipher_oneshot(void *vctx, unsigned char *out, size_t *outl, size_t outsize,
                       const unsigned char *in, size_t inl);
int mbp_cipher_get_ctx_params(void *vctx, OSSL_PARAM params[]);
int mbp_cipher_set_ctx_params(void *vctx, const OSSL_PARAM params[]);
const OSSL_PARAM *mbp_cipher_gettable_ctx_params(void *cctx, void *provctx);
const OSSL_PARAM *mbp_cipher_settable_ctx_params(void *cctx, void *provctx);

/* Settings changed on a context (mbp_params.c asks mbp_cipher.c): whether a
 * message has taken data that the settings shaped (they may not change then),
 * and whether one is keyed but has no data yet (it is started again). */
int mbp_cipher_late(const mbp_cipher_ctx *c);
int mbp_cipher_started_unfed(const mbp_cipher_ctx *c);
int mbp_cipher_restart(mbp_cipher_ctx *c);
void mbp_cipher_stop(mbp_cipher_ctx *c);
/* UPDATED_IV: the chaining value of CBC, else the IV given at init. */
const uint8_t *mbp_cipher_updated_iv(const mbp_cipher_ctx *c);

/* Kind-specific parts (mbp_blockmodes.c, mbp_aead.c). */
int mbp_blockmode_start(mbp_cipher_ctx *c);
int mbp_blockmode_rekey(mbp_cipher_ctx *c);
/* PKCS#7: checks (without a branch on the plaintext) and strips the padding
 * of the last block, writing the rest to out. */
int mbp_unpad(mbp_cipher_ctx *c, uint8_t *block, unsigned char *out, size_t *outl, size_t outsize);
int mbp_cfb_update(mbp_cipher_ctx *c, unsigned char *out, const unsigned char *in, size_t inl);
int mbp_cbc_update(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                   const unsigned char *in, size_t inl);
int mbp_cbc_final(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize);
int mbp_aead_update(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                    const unsigned char *in, size_t inl);
int mbp_aead_final(mbp_cipher_ctx *c, size_t *outl);

/* TLSTREE (mbp_tlstree.c): "tlstree_mode", and "tlstree" re-keying the
 * context for a record (before the key, or within init: pending until init
 * has the key, then mbp_tlstree_pending);
 * the root key and IV taken at init; the cached tree freed. */
int mbp_tlstree_set(mbp_cipher_ctx *c, const OSSL_PARAM params[], int in_init);
int mbp_tlstree_pending(mbp_cipher_ctx *c); /* init: a seqnum waiting for the key */
void mbp_tlstree_new_key(mbp_cipher_ctx *c);
void mbp_tlstree_new_iv(mbp_cipher_ctx *c);
void mbp_tlstree_free(mbp_cipher_ctx *c);

/* ctr-acpkm-omac (mbp_ctromac.c): the message's start, update, final
 * (tag made or checked), and its parameters "kdf-seed" and "alg_id_param". */
int mbp_ctromac_start(mbp_cipher_ctx *c);
int mbp_ctromac_update(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                       const unsigned char *in, size_t inl);
int mbp_ctromac_final(mbp_cipher_ctx *c, size_t *outl);
int mbp_ctromac_set(mbp_cipher_ctx *c, const OSSL_PARAM params[]);
int mbp_ctromac_get(mbp_cipher_ctx *c, OSSL_PARAM params[]);

/* kexp15 (mbp_kexp15.c): one update exports K (encrypting) or imports
 * it (decrypting, the OMAC checked); final checks that it ran. */
int mbp_kexp15_update(mbp_cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                      const unsigned char *in, size_t inl);
int mbp_kexp15_final(mbp_cipher_ctx *c, size_t *outl);

/* The library's mb_params for this context (S-box, meshing, m, padding...). */
void mbp_cipher_mb_params(const mbp_cipher_ctx *c, mb_params *p);

/* Wipes and frees. */
void mbp_cleanse_free(void *p, size_t len);

/* libcrypto's helpers, written in mbp_ossl.c (the module links no
 * libcrypto): OSSL_PARAM_locate, _get_*, _set_* with OpenSSL's rules, and
 * a wipe the compiler cannot drop (OPENSSL_cleanse). */
const OSSL_PARAM *mbp_param_locate_const(const OSSL_PARAM *params, const char *key);
OSSL_PARAM *mbp_param_locate(OSSL_PARAM *params, const char *key);
int mbp_param_get_uint(const OSSL_PARAM *p, unsigned int *val);
int mbp_param_get_size_t(const OSSL_PARAM *p, size_t *val);
int mbp_param_set_int(OSSL_PARAM *p, int val);
int mbp_param_set_uint(OSSL_PARAM *p, unsigned int val);
int mbp_param_set_size_t(OSSL_PARAM *p, size_t val);
int mbp_param_set_octet_string(OSSL_PARAM *p, const void *val, size_t len);
int mbp_param_set_utf8_string(OSSL_PARAM *p, const char *val);
int mbp_param_set_utf8_ptr(OSSL_PARAM *p, const char *val);
void mbp_cleanse(void *p, size_t len);

#endif
