/*
 * multiblock.h - C interface of multiblock: fast, constant-time multi-block
 * Kalyna (DSTU 7624:2014), Kuznyechik and Magma (GOST R 34.12-2015),
 * GOST 28147-89 and uBlock, with the modes of their standards; the hashes
 * Streebog (GOST R 34.11-2012, RFC 6986) and Kupyna (DSTU 7564:2014), HMAC
 * over them and Kupyna's own MAC; the RFC 7836 KDFs and TLSTREE.
 *
 * Link with -lmultiblock (pkg-config: `pkg-config --cflags --libs multiblock`,
 * or `--static` for libmultiblock.a). Written by hand to match
 * crates/multiblock-c/src; the Rust side is the implementation.
 *
 * Conventions for every function below
 * -------------------------------------
 * - Return value: a status code, MB_OK (0) on success or one of MB_ERR_*.
 *   mb_strerror(code) gives its fixed message; mb_last_error() gives the
 *   detailed one-line message of the calling thread's last call (it names
 *   the problem and the expected value, e.g. "kuznyechik needs a key of 32
 *   bytes (64 hex digits), got 16 bytes"). Messages name mode parameters
 *   as the command-line flags do: "--tag-bits" is mb_params.tag_bits.
 * - No function aborts or unwinds into the caller on bad input: every error,
 *   even an internal bug, comes back as a status code.
 * - Names (cipher, mode, S-box set, backend) are NUL-terminated UTF-8
 *   strings, as listed in the README and in `multiblock info`: ciphers
 *   "kalyna-128-128", "kalyna-128-256", "kalyna-256-256", "kalyna-256-512",
 *   "kalyna-512-512", "kuznyechik", "magma", "gost89", "ublock-128-128",
 *   "ublock-128-256", "ublock-256-256"; modes "ecb", and per family:
 *     kuznyechik:        ctr ofb cbc cfb mac ctr-acpkm omac-acpkm mgm xts
 *     magma:             ctr ofb cbc cfb mac ctr-acpkm omac-acpkm mgm
 *     gost89:            cnt cfb mac
 *     kalyna-*:          ctr cbc cfb ofb cmac gcm gmac ccm xts kw
 *     ublock-*:          cbc
 * - Byte strings are (pointer, length) pairs. A pointer may be NULL when its
 *   length is 0. The library only reads inputs during the call and keeps no
 *   pointer to them afterwards.
 * - Sizes: every length, capacity (*out_len) and count is checked the same
 *   way; one larger than any object (more than PTRDIFF_MAX bytes, i.e.
 *   SIZE_MAX / 2) is MB_ERR_PARAM, before any byte is read or written.
 * - Output buffers: `out` with `*out_len` = its capacity in bytes on entry.
 *   On MB_OK, *out_len = bytes written. On MB_ERR_BUFFER_TOO_SMALL nothing is
 *   written and *out_len = the size needed (so out = NULL, *out_len = 0 is a
 *   size query; it runs the whole operation). On any other error nothing is
 *   written to `out` and *out_len = 0. The result is computed into a
 *   temporary (wiped afterwards) and copied last, so `out` may be the same
 *   buffer as `data` (in place). Sizes that always suffice:
 *     encrypt: data_len + 2 * block bytes (<= data_len + 2*MB_MAX_BLOCK_BYTES)
 *     decrypt: data_len
 *     mac:     block bytes (<= MB_MAX_BLOCK_BYTES)
 * - Threads: all functions may be called from any thread. A mb_cipher handle
 *   may be used by several threads at once (it is read-only after
 *   mb_cipher_new) but must not be freed while in use.
 */
#ifndef MULTIBLOCK_H
#define MULTIBLOCK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status codes ------------------------------------------------------ */

#define MB_OK                      0  /* success */
#define MB_ERR_NULL_POINTER        1  /* a required pointer is NULL (or NULL with a nonzero length) */
#define MB_ERR_INVALID_STRING      2  /* a name is not valid UTF-8 */
#define MB_ERR_UNKNOWN_CIPHER      3  /* no cipher of that name */
#define MB_ERR_UNKNOWN_MODE        4  /* no mode of that name for this cipher */
#define MB_ERR_KEY_LENGTH          5  /* key_len is not the key size of the cipher, Kupyna's MAC, the
                                         KDFs or TLSTREE */
#define MB_ERR_UNKNOWN_SBOX        6  /* no S-box set of that name */
#define MB_ERR_SBOX_NOT_APPLICABLE 7  /* an S-box was given for a cipher with a fixed one */
#define MB_ERR_UNKNOWN_BACKEND     8  /* the cipher or hash has no backend of that name in this build
                                         (another architecture's, such as neon on x86-64, included) */
#define MB_ERR_BACKEND_UNAVAILABLE 9  /* a backend of this build whose instructions this CPU lacks */
#define MB_ERR_DATA_LENGTH         10 /* data is not a whole number of blocks (handle, ECB, Kalyna and
                                         uBlock CBC; GOST CBC reports it as MB_ERR_PARAM) */
#define MB_ERR_PARAM               11 /* a parameter is wrong: IV/nonce length, s, m, tag or MAC
                                         bits, ACPKM sections, nb, padding, data length of KW/XTS,
                                         a MAC mode passed to mb_encrypt, a kupyna-N that HMAC does
                                         not take, a KDF's r or length, a TLSTREE suite, ... */
#define MB_ERR_AUTHENTICATION      12 /* AEAD tag, MAC or key-wrap check failed; nothing was written */
#define MB_ERR_BUFFER_TOO_SMALL    13 /* *out_len now holds the size needed; nothing was written */
#define MB_ERR_INTERNAL            14 /* a bug in multiblock (caught, reported, never unwound) */
#define MB_ERR_UNKNOWN_HASH        15 /* no hash of that name (see "hashes" below) */

/* The largest block of any cipher (Kalyna-512), in bytes. */
#define MB_MAX_BLOCK_BYTES 64

/* ---- messages and sizes ---------------------------------------------- */

/* The library version, e.g. "0.1.0". Static string: do not free. */
const char *mb_version(void);

/* The fixed English message of a status code; an unknown code gets
 * "unknown multiblock status code". Static string: do not free. Never NULL. */
const char *mb_strerror(int code);

/* The detailed one-line message of the calling thread's last call that
 * returned a status code ("" if that call succeeded). Owned by the library;
 * valid until the same thread's next such call. Never NULL. */
const char *mb_last_error(void);

/* Block and key size in bytes of the cipher `cipher`. Either out pointer
 * may be NULL. Errors: MB_ERR_NULL_POINTER (cipher), MB_ERR_UNKNOWN_CIPHER. */
int mb_cipher_sizes(const char *cipher, size_t *block_bytes, size_t *key_bytes);

/* ---- keyed cipher handle: ECB over whole blocks ----------------------- */

/* Opaque. Holds the expanded key on one backend. */
typedef struct mb_cipher mb_cipher;

/* Keys `cipher` with `key` (key_len bytes, the cipher's key size) and stores
 * a new handle in *out (NULL on any error). The key bytes are not kept; the
 * round keys are zeroized by mb_cipher_free.
 *   sbox:    NULL for the default; gost89: "tc26-z" (default), "test",
 *            "cryptopro-a" .. "cryptopro-d", "dstu4145"; magma accepts only "tc26-z";
 *            other ciphers only NULL.
 *   backend: NULL for the fastest constant-time backend of this CPU (or the
 *            MULTIBLOCK_BACKEND environment preference), or a backend name
 *            such as "avx2" or "reference" to force it.
 * Errors: MB_ERR_NULL_POINTER, MB_ERR_INVALID_STRING, MB_ERR_UNKNOWN_CIPHER,
 * MB_ERR_KEY_LENGTH, MB_ERR_UNKNOWN_SBOX, MB_ERR_SBOX_NOT_APPLICABLE,
 * MB_ERR_UNKNOWN_BACKEND, MB_ERR_BACKEND_UNAVAILABLE.
 * The caller owns the handle and frees it with mb_cipher_free. */
int mb_cipher_new(mb_cipher **out, const char *cipher, const uint8_t *key, size_t key_len,
                  const char *sbox, const char *backend);

/* ECB-encrypts `len` bytes (a multiple of the block size, may be 0) from
 * `in` to `out`. in == out (in place) is allowed; other overlaps are not.
 * Errors: MB_ERR_NULL_POINTER, MB_ERR_DATA_LENGTH, MB_ERR_PARAM (len larger
 * than any object); nothing is written on any of them. */
int mb_cipher_encrypt_blocks(const mb_cipher *cipher, const uint8_t *in, uint8_t *out, size_t len);

/* ECB-decrypts, as mb_cipher_encrypt_blocks. */
int mb_cipher_decrypt_blocks(const mb_cipher *cipher, const uint8_t *in, uint8_t *out, size_t len);

/* The name of the backend the handle runs on (e.g. "avx2"). Owned by the
 * handle: valid until mb_cipher_free. NULL for a NULL handle. */
const char *mb_cipher_backend(const mb_cipher *cipher);

/* The block size in bytes (8, 16, 32 or 64); 0 for a NULL handle. */
size_t mb_cipher_block_bytes(const mb_cipher *cipher);

/* Frees the handle and zeroizes its round keys. NULL is ignored. */
void mb_cipher_free(mb_cipher *cipher);

/* ---- one-shot modes ---------------------------------------------------- */

/* Padding of mb_params.padding: ECB and CBC (all ciphers); the GOST MAC
 * accepts NONE or GOST3; DSTU CMAC pads by itself (DSTU 7624 §9) and, like
 * the other modes, refuses any. */
#define MB_PADDING_NONE  0 /* default: the data must fit the mode */
#define MB_PADDING_GOST1 1 /* GOST R 34.13 procedure 1: zeros (not removed on decrypt) */
#define MB_PADDING_GOST2 2 /* GOST R 34.13 procedure 2: 0x80 then zeros, always added */
#define MB_PADDING_GOST3 3 /* GOST R 34.13 procedure 3: as 2, only if the last block is partial (not removed) */
#define MB_PADDING_PKCS7 4 /* PKCS#7 */

/* Mode parameters, named as the CLI's flags and the test vectors' `params`.
 * Zero (or NULL) in any field means the standard's default, so
 * `mb_params p = {0};` or a NULL mb_params pointer gives all defaults. A mode
 * refuses a parameter it does not take (MB_ERR_PARAM). The layout is part of
 * the ABI: a new field means a new SONAME (libmultiblock.so.1 today). */
typedef struct mb_params {
    size_t s;                 /* GOST R 34.13 CTR/OFB/CFB, DSTU CFB: bits per step */
    size_t m;                 /* GOST R 34.13: register bits (the IV length also gives it) */
    size_t mac_bits;          /* MAC length in bits (GOST mac, omac-acpkm, gost89 mac) */
    size_t tag_bits;          /* tag length in bits (mgm; DSTU cmac, gcm, gmac, ccm) */
    size_t section_bytes;     /* ACPKM section size N in bytes (ctr-acpkm, omac-acpkm) */
    size_t key_section_bytes; /* OMAC-ACPKM key section size T* in bytes */
    size_t nb;                /* DSTU CCM length field N_B in bytes */
    int padding;              /* MB_PADDING_* */
    int key_meshing;          /* nonzero: gost89 CryptoPro key meshing (RFC 4357) in cnt/cfb */
    const char *sbox;         /* S-box set, as in mb_cipher_new; NULL = default */
    const char *backend;      /* backend name, as in mb_cipher_new; NULL = automatic */
    size_t data_unit;         /* kuznyechik xts (IEEE 1619): bytes per data unit, a multiple of 16
                                 (VeraCrypt: 512); 0 = the whole message is one unit, iv its tweak */
    uint64_t unit;            /* kuznyechik xts: number of the first data unit (VeraCrypt's 64-bit
                                 numbering, little-endian in the tweak) */
} mb_params;

/* Encrypts `data` with `mode` of `cipher`:
 *   - cipher modes: ciphertext (ECB and CBC: padded as params->padding says);
 *   - AEAD (mgm, gcm, ccm): ciphertext || tag, with `aad` authenticated;
 *   - kw: the wrapped key (one block longer).
 * key: the cipher's key size. iv: the IV, nonce, initial register or XTS
 * tweak, NULL for modes that take none (ecb, kw, GOST/DSTU MACs but gmac).
 * aad: associated data of AEAD modes (NULL with aad_len 0 otherwise).
 * params: NULL for all defaults. out/out_len: see the conventions above.
 * A MAC mode here is MB_ERR_PARAM (use mb_mac). Errors: every MB_ERR_*
 * but MB_ERR_AUTHENTICATION. */
int mb_encrypt(const char *cipher, const char *mode,
               const uint8_t *key, size_t key_len,
               const uint8_t *iv, size_t iv_len,
               const uint8_t *aad, size_t aad_len,
               const mb_params *params,
               const uint8_t *data, size_t data_len,
               uint8_t *out, size_t *out_len);

/* Decrypts what mb_encrypt made, with the same arguments. AEAD modes take
 * ciphertext || tag and check the tag before anything is released; kw checks
 * the unwrapped key. On a failed check: MB_ERR_AUTHENTICATION, nothing
 * written to `out`, *out_len = 0. Padding (gost2, pkcs7) is checked and
 * removed: a bad one is MB_ERR_PARAM. */
int mb_decrypt(const char *cipher, const char *mode,
               const uint8_t *key, size_t key_len,
               const uint8_t *iv, size_t iv_len,
               const uint8_t *aad, size_t aad_len,
               const mb_params *params,
               const uint8_t *data, size_t data_len,
               uint8_t *out, size_t *out_len);

/* Computes the MAC (tag) of `data` with a MAC mode: mac, omac-acpkm
 * (kuznyechik, magma), mac (gost89), cmac, gmac (kalyna; gmac takes an iv).
 * The tag has params->mac_bits or params->tag_bits bits (default: the
 * standard's). Other modes are MB_ERR_PARAM. */
int mb_mac(const char *cipher, const char *mode,
           const uint8_t *key, size_t key_len,
           const uint8_t *iv, size_t iv_len,
           const mb_params *params,
           const uint8_t *data, size_t data_len,
           uint8_t *out, size_t *out_len);

/* ---- many messages under one key at once -------------------------------- */

/* The serial modes cannot split one message's chain across SIMD lanes, but
 * many messages can share them: each step runs one wide cipher call over the
 * next block of every message (CBC, CFB, OFB with a one-block register; GOST
 * mac, omac-acpkm, DSTU cmac). Other modes run one message at a time, with
 * the same results. Messages of similar length run fastest together (a
 * lone long message runs at the one-block speed once the others end).
 *
 * Both take `count` messages: data[i] points at data_len[i] bytes (data[i]
 * may be NULL when data_len[i] is 0; data and data_len may be NULL when
 * count is 0). The other arguments are mb_mac's / mb_encrypt's, shared by
 * every message. An error in any message fails the whole call (e.g. an empty
 * message of the DSTU cmac, a partial block in CBC without padding). A
 * count no array can hold, or one whose list of messages the library cannot
 * allocate, is MB_ERR_PARAM (never an abort), before the arrays are read. */

/* Writes the tags of the messages to `out`, back to back in order, each of
 * the mode's tag size: *out_len = count * tag bytes (count *
 * MB_MAX_BLOCK_BYTES always suffices). Each tag equals mb_mac's. */
int mb_mac_many(const char *cipher, const char *mode,
                const uint8_t *key, size_t key_len,
                const uint8_t *iv, size_t iv_len,
                const mb_params *params,
                size_t count, const uint8_t *const *data, const size_t *data_len,
                uint8_t *out, size_t *out_len);

/* Encrypts the messages under one key and one IV (a cipher mode, as
 * mb_encrypt) and writes the ciphertexts to `out`, back to back in order;
 * on MB_OK out_lens[i] = the length of ciphertext i (out_lens: `count`
 * sizes, NULL only when count is 0) and *out_len their sum (the sum of
 * data_len[i] + 2 * MB_MAX_BLOCK_BYTES always suffices). Each ciphertext
 * equals mb_encrypt's. Reusing an IV across messages is for the caller to
 * judge (CBC and CFB leak equal prefixes, OFB reuses its keystream). Where
 * no message overlaps `out`, the ciphertexts are made in `out` itself, with
 * no temporary; messages inside `out` (in place) are allowed and go through
 * a temporary. The AEAD modes (mgm, gcm, ccm) and kw are refused with
 * MB_ERR_PARAM ("<mode> is not available for many messages at once: each
 * message needs its own nonce (AEAD) or integrity check (KW); encrypt them
 * one at a time"): one IV for all would reuse the nonce, so encrypt such
 * messages with mb_encrypt, one at a time, each with its own nonce. A MAC
 * mode is MB_ERR_PARAM too (use mb_mac_many). */
int mb_encrypt_many(const char *cipher, const char *mode,
                    const uint8_t *key, size_t key_len,
                    const uint8_t *iv, size_t iv_len,
                    const mb_params *params,
                    size_t count, const uint8_t *const *data, const size_t *data_len,
                    uint8_t *out, size_t *out_len, size_t *out_lens);

/* ---- streaming: init, update as often as needed, final ----------------- */

/* Opaque streaming encryptor or decryptor of one message. */
typedef struct mb_stream mb_stream;

/* Starts encrypting (encrypt != 0) or decrypting one message with a
 * streaming mode: ecb, cbc, cfb, ofb, ctr, ctr-acpkm, cnt, xts (the AEAD
 * modes stream with mb_aead_stream_*; kw, which goes round the whole message
 * six times, only with mb_encrypt / mb_decrypt). Arguments as mb_encrypt's; the handle keeps no pointer to
 * them. The output is the same bytes as mb_encrypt / mb_decrypt for any
 * split of the input. Errors: as mb_encrypt (MB_ERR_PARAM for a
 * non-streaming mode). Free with mb_stream_free. */
int mb_stream_new(mb_stream **out, int encrypt, const char *cipher, const char *mode,
                  const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                  const mb_params *params);

/* Feeds `in_len` bytes and writes the output that is ready (whole units of
 * the mode; a padded decryption keeps its last block back for final) to
 * `out`, *out_len = bytes written. CTR, CTR-ACPKM, OFB, CNT and the GOST
 * CFB (kuznyechik, magma, gost89) output every byte at each update; ECB,
 * CBC, XTS and DSTU CFB whole blocks (the rest at final). `out` must hold
 * at least in_len bytes and at least what is ready (never more than
 * in_len + 2 * MB_MAX_BLOCK_BYTES); in == out (in place) is allowed. On
 * MB_ERR_BUFFER_TOO_SMALL *out_len = the size needed and the stream is
 * unchanged. Errors: MB_ERR_NULL_POINTER, MB_ERR_BUFFER_TOO_SMALL,
 * MB_ERR_PARAM (after final). */
int mb_stream_update(mb_stream *stream, const uint8_t *in, size_t in_len,
                     uint8_t *out, size_t *out_len);

/* Ends the message: writes the last output (a partial block, padding, XTS's
 * stolen block; at most 2 * MB_MAX_BLOCK_BYTES) to `out`. On
 * MB_ERR_BUFFER_TOO_SMALL (a size query, out = NULL with *out_len = 0,
 * included) *out_len = the size needed, nothing is written, and the handle
 * keeps the last output: call mb_stream_final again with a big enough
 * buffer to get it (mb_stream_update is then MB_ERR_PARAM: the message has
 * ended). After any other result the handle is spent (MB_ERR_PARAM on any
 * further use but free). Errors: MB_ERR_DATA_LENGTH / MB_ERR_PARAM (the
 * total input does not fit the mode, a bad padding), MB_ERR_BUFFER_TOO_SMALL. */
int mb_stream_final(mb_stream *stream, uint8_t *out, size_t *out_len);

/* Frees the handle, wiping its state. NULL is ignored. */
void mb_stream_free(mb_stream *stream);

/* Opaque streaming AEAD encryptor or decryptor of one message (mgm, gcm,
 * ccm) of any size in bounded memory. */
typedef struct mb_aead_stream mb_aead_stream;

/* `text_len` when the length is not known in advance (mgm, gcm only). */
#define MB_TEXT_LEN_UNKNOWN UINT64_MAX

/* Starts AEAD encryption (encrypt != 0) or decryption of one message.
 * Arguments as mb_encrypt's, plus: text_len = the plaintext length (the
 * ciphertext's, without the tag), required by ccm (DSTU 7624 §13 puts it in
 * the first MAC block), MB_TEXT_LEN_UNKNOWN otherwise allowed. A declared
 * text_len binds every mode: the stream takes exactly text_len bytes (a
 * decryption whose input ends with the tag: text_len plus the tag's bytes).
 * The update that would take more fails with MB_ERR_PARAM, writing nothing;
 * fewer at final is MB_ERR_PARAM, with no last bytes and no tag; either way
 * the handle is spent. tag/tag_len: decryption only, the tag to
 * check; NULL/0 means the tag is the last bytes of the input (ciphertext ||
 * tag, as mb_decrypt takes it). The handle keeps no pointer to the
 * arguments. Free with mb_aead_stream_free. */
int mb_aead_stream_new(mb_aead_stream **out, int encrypt, const char *cipher, const char *mode,
                       const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                       const uint8_t *aad, size_t aad_len, const mb_params *params,
                       uint64_t text_len, const uint8_t *tag, size_t tag_len);

/* Feeds `in_len` bytes and writes the output that is ready to `out`
 * (*out_len = bytes written; `out` must hold in_len + MB_MAX_BLOCK_BYTES,
 * or exactly what is ready). DECRYPTION OUTPUT IS NOT AUTHENTICATED until
 * mb_aead_stream_final returns MB_OK: keep it from any use (write it to a
 * private temporary file, rename on success). On MB_ERR_BUFFER_TOO_SMALL
 * *out_len = the size needed and the stream is unchanged. Input past the
 * declared text_len: MB_ERR_PARAM, nothing written, the handle spent (see
 * mb_aead_stream_new). in and out must not overlap. */
int mb_aead_stream_update(mb_aead_stream *stream, const uint8_t *in, size_t in_len,
                          uint8_t *out, size_t *out_len);

/* Ends the message: writes the last bytes (fewer than MB_MAX_BLOCK_BYTES)
 * to `out`; encryption also writes the tag to `tag` (*tag_len = its size,
 * at most MB_MAX_BLOCK_BYTES; mb_encrypt's output is the whole ciphertext
 * then the tag). Decryption checks the tag in constant time: on a wrong tag
 * MB_ERR_AUTHENTICATION and nothing is written (`tag`, `tag_len` may be
 * NULL for decryption). Input short of the declared text_len:
 * MB_ERR_PARAM, nothing written. On MB_ERR_BUFFER_TOO_SMALL the stream is
 * unchanged and may be finalized again; after any other result the handle
 * is spent (MB_ERR_PARAM on further use but free). */
int mb_aead_stream_final(mb_aead_stream *stream, uint8_t *out, size_t *out_len,
                         uint8_t *tag, size_t *tag_len);

/* Frees the handle, wiping its state. NULL is ignored. */
void mb_aead_stream_free(mb_aead_stream *stream);

/* Opaque streaming MAC of one message. */
typedef struct mb_mac_stream mb_mac_stream;

/* Starts a MAC with a mode mb_mac takes, arguments as mb_mac's. */
int mb_mac_stream_new(mb_mac_stream **out, const char *cipher, const char *mode,
                      const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                      const mb_params *params);

/* Feeds `len` bytes of the message. */
int mb_mac_stream_update(mb_mac_stream *stream, const uint8_t *data, size_t len);

/* Writes the tag (at most MB_MAX_BLOCK_BYTES) to `out`. On
 * MB_ERR_BUFFER_TOO_SMALL (a size query included) *out_len = the tag's
 * size, nothing is written, and the handle keeps the tag: call
 * mb_mac_stream_final again with a big enough buffer to get it
 * (mb_mac_stream_update is then MB_ERR_PARAM). After any other result the
 * handle is spent (MB_ERR_PARAM on any further use but free). */
int mb_mac_stream_final(mb_mac_stream *stream, uint8_t *out, size_t *out_len);

/* Frees the handle, wiping its state. NULL is ignored. */
void mb_mac_stream_free(mb_mac_stream *stream);

/* ---- hashes: Streebog and Kupyna ---------------------------------------- */

/* Hash names (`algo`): "streebog-256", "streebog-512" (GOST R 34.11-2012,
 * RFC 6986), "kupyna-256", "kupyna-384", "kupyna-512" (DSTU 7564:2014), and
 * "kupyna-N" for the other digest lengths the standard allows (N from 8 to
 * 512 in steps of 8). "streebog256" and "kupyna256" (OpenSSL's spellings)
 * are accepted too. Any other name is MB_ERR_UNKNOWN_HASH. */

/* The largest digest (Streebog-512, Kupyna-512), in bytes. */
#define MB_MAX_DIGEST_BYTES 64

/* Digest and block size in bytes of the hash `algo` (the block is what HMAC
 * pads its key to: 64, or 128 for Kupyna over 256 bits). Either out pointer
 * may be NULL. Errors: MB_ERR_NULL_POINTER (algo), MB_ERR_INVALID_STRING,
 * MB_ERR_UNKNOWN_HASH. */
int mb_hash_sizes(const char *algo, size_t *digest_bytes, size_t *block_bytes);

/* The digest of `data` (data_len bytes) with `algo` on the default backend:
 * *out_len = the digest size on MB_OK (MB_MAX_DIGEST_BYTES always suffices);
 * out/out_len as in the conventions above (a size query included). Errors:
 * MB_ERR_NULL_POINTER, MB_ERR_INVALID_STRING, MB_ERR_UNKNOWN_HASH,
 * MB_ERR_BUFFER_TOO_SMALL, MB_ERR_PARAM (a length larger than any object). */
int mb_hash(const char *algo, const uint8_t *data, size_t data_len, uint8_t *out, size_t *out_len);

/* The digests of `count` independent messages (data[i]: data_len[i] bytes;
 * the arrays as mb_mac_many's), back to back in order: *out_len = count *
 * the digest size. Backends that hash several messages in the SIMD lanes at
 * once do so; each digest equals mb_hash's. A buffer too small is reported
 * before anything is hashed. */
int mb_hash_many(const char *algo, size_t count, const uint8_t *const *data, const size_t *data_len,
                 uint8_t *out, size_t *out_len);

/* Opaque incremental hash of one message at a time. Holds the state, which
 * mb_hash_free wipes. One handle must not be used by two threads at once.
 * (The type is mb_hash_ctx because mb_hash names the one-shot function.) */
typedef struct mb_hash_ctx mb_hash_ctx;

/* A new hash of `algo` in *out (NULL on any error). backend: NULL for the
 * fastest constant-time backend of this CPU (or the MULTIBLOCK_BACKEND
 * preference), or a backend name to force it. Errors: MB_ERR_NULL_POINTER,
 * MB_ERR_INVALID_STRING, MB_ERR_UNKNOWN_HASH, MB_ERR_UNKNOWN_BACKEND,
 * MB_ERR_BACKEND_UNAVAILABLE. Free with mb_hash_free. */
int mb_hash_new(mb_hash_ctx **out, const char *algo, const char *backend);

/* Feeds `len` bytes of the message (any split gives the same digest).
 * Errors: MB_ERR_NULL_POINTER, MB_ERR_PARAM (len larger than any object). */
int mb_hash_update(mb_hash_ctx *hash, const uint8_t *data, size_t len);

/* Writes the digest (mb_hash_digest_size bytes) to `out`, *out_len = its
 * size, and starts the handle over with an empty message (on the same
 * backend), ready for the next one. On MB_ERR_BUFFER_TOO_SMALL (a size
 * query, out = NULL with *out_len = 0, included) *out_len = the digest
 * size, nothing is written, and the message goes on unchanged. */
int mb_hash_final(mb_hash_ctx *hash, uint8_t *out, size_t *out_len);

/* A copy of `hash` and its state in *out (NULL on error), e.g. to finish
 * several messages that share a prefix. Free it with mb_hash_free. */
int mb_hash_clone(mb_hash_ctx **out, const mb_hash_ctx *hash);

/* mb_hash_update, except that the message's first piece, if it is whole
 * blocks (mb_hash_sizes' block), is compressed at once. A handle holds a
 * message's last block back so that mb_hash_final runs it with the padding
 * in one call; for a handle keyed by a first update and copied for many
 * messages (HMAC's key XOR ipad), this keeps the copies from compressing
 * that block again. The digest is the same either way.
 * Errors: as mb_hash_update. */
int mb_hash_update_for_copies(mb_hash_ctx *hash, const uint8_t *data, size_t len);

/* The digest size in bytes (1 to 64); 0 for a NULL handle. */
size_t mb_hash_digest_size(const mb_hash_ctx *hash);

/* The name of the backend the handle runs on. Owned by the handle: valid
 * until mb_hash_free. NULL for a NULL handle. */
const char *mb_hash_backend(const mb_hash_ctx *hash);

/* Frees the handle, wiping its state. NULL is ignored. */
void mb_hash_free(mb_hash_ctx *hash);

/* ---- HMAC over the hashes ------------------------------------------------ */

/* HMAC (RFC 2104) over "streebog-256", "streebog-512", "kupyna-256",
 * "kupyna-384" or "kupyna-512"; over Streebog it is HMAC_GOSTR3411_2012_256
 * and _512 of RFC 7836 §4.1. Keys of any length (longer than the hash's
 * block are hashed first). The tag is the digest's size. Another kupyna-N
 * is MB_ERR_PARAM. */

/* The tag of `data` under `key`: *out_len = the tag size on MB_OK
 * (MB_MAX_DIGEST_BYTES always suffices), out/out_len as in the conventions.
 * Errors: MB_ERR_NULL_POINTER, MB_ERR_INVALID_STRING, MB_ERR_UNKNOWN_HASH,
 * MB_ERR_PARAM, MB_ERR_BUFFER_TOO_SMALL. */
int mb_hmac(const char *algo, const uint8_t *key, size_t key_len,
            const uint8_t *data, size_t data_len, uint8_t *out, size_t *out_len);

/* Opaque incremental HMAC under one key, one message at a time; holds the
 * keyed state, which mb_hmac_free wipes. One handle must not be used by two
 * threads at once. (mb_hmac_ctx: mb_hmac names the one-shot function.) */
typedef struct mb_hmac_ctx mb_hmac_ctx;

/* A new HMAC of `algo` under `key` in *out (NULL on any error), on the
 * hash's backend named `backend` (NULL: the default, as mb_hash_new); the
 * key bytes are not kept. Errors: as mb_hmac's, and MB_ERR_UNKNOWN_BACKEND,
 * MB_ERR_BACKEND_UNAVAILABLE. Free with mb_hmac_free. */
int mb_hmac_new(mb_hmac_ctx **out, const char *algo, const uint8_t *key, size_t key_len,
                const char *backend);

/* Feeds `len` bytes of the message. */
int mb_hmac_update(mb_hmac_ctx *hmac, const uint8_t *data, size_t len);

/* Writes the tag to `out` (*out_len = its size) and starts over with an
 * empty message under the same key. On MB_ERR_BUFFER_TOO_SMALL (a size
 * query included) *out_len = the tag size, nothing is written, and the
 * message goes on unchanged. */
int mb_hmac_final(mb_hmac_ctx *hmac, uint8_t *out, size_t *out_len);

/* Compares the message's tag with `tag` in constant time and starts over
 * with an empty message: MB_OK if equal, MB_ERR_AUTHENTICATION if not.
 * tag_len other than the tag size is MB_ERR_PARAM (and the message goes on). */
int mb_hmac_verify(mb_hmac_ctx *hmac, const uint8_t *tag, size_t tag_len);

/* The tag size in bytes; 0 for a NULL handle. */
size_t mb_hmac_tag_size(const mb_hmac_ctx *hmac);

/* Frees the handle, wiping its keyed state. NULL is ignored. */
void mb_hmac_free(mb_hmac_ctx *hmac);

/* ---- Kupyna's MAC (DSTU 7564:2014) --------------------------------------- */

/* The keyed MAC that DSTU 7564:2014 defines next to the hash (its MAC mode;
 * IACR ePrint 2015/885 §5): Kupyna-n of Pad(K) || Pad(M) || ~K, Pad as the
 * hash pads, ~K the key's bits inverted. Not HMAC: tag_bits n is 256, 384
 * or 512 and the key K is exactly n / 8 bytes (32, 48, 64); the tag is
 * n / 8 bytes (MB_MAX_DIGEST_BYTES always suffices). tag_bits other than
 * those is MB_ERR_PARAM; key_len other than tag_bits / 8 is
 * MB_ERR_KEY_LENGTH (tag_bits is checked first). */

/* The tag of `data` under `key`: *out_len = tag_bits / 8 on MB_OK,
 * out/out_len as in the conventions (a size query included). Errors:
 * MB_ERR_NULL_POINTER, MB_ERR_PARAM (tag_bits, a length larger than any
 * object), MB_ERR_KEY_LENGTH, MB_ERR_BUFFER_TOO_SMALL. */
int mb_kupyna_mac(size_t tag_bits, const uint8_t *key, size_t key_len,
                  const uint8_t *data, size_t data_len, uint8_t *out, size_t *out_len);

/* Opaque incremental Kupyna MAC under one key, one message at a time; holds
 * the key and the keyed state, which mb_kupyna_mac_free wipes. One handle
 * must not be used by two threads at once. (mb_kupyna_mac_ctx: mb_kupyna_mac
 * names the one-shot function.) */
typedef struct mb_kupyna_mac_ctx mb_kupyna_mac_ctx;

/* A new MAC with `tag_bits` under `key` in *out (NULL on any error), on the
 * Kupyna backend named `backend` (NULL: the default, as mb_hash_new); the
 * caller's key buffer is not kept (the handle holds its own copy). Errors:
 * as mb_kupyna_mac's, and MB_ERR_INVALID_STRING, MB_ERR_UNKNOWN_BACKEND,
 * MB_ERR_BACKEND_UNAVAILABLE. Free with mb_kupyna_mac_free. */
int mb_kupyna_mac_new(mb_kupyna_mac_ctx **out, size_t tag_bits, const uint8_t *key, size_t key_len,
                      const char *backend);

/* Feeds `len` bytes of the message (any split gives the same tag). Errors:
 * MB_ERR_NULL_POINTER, MB_ERR_PARAM (len larger than any object). */
int mb_kupyna_mac_update(mb_kupyna_mac_ctx *mac, const uint8_t *data, size_t len);

/* Writes the tag to `out` (*out_len = its size) and starts over with an
 * empty message under the same key. On MB_ERR_BUFFER_TOO_SMALL (a size
 * query included) *out_len = the tag size, nothing is written, and the
 * message goes on unchanged. */
int mb_kupyna_mac_final(mb_kupyna_mac_ctx *mac, uint8_t *out, size_t *out_len);

/* Compares the message's tag with `tag` in constant time and starts over
 * with an empty message: MB_OK if equal, MB_ERR_AUTHENTICATION if not.
 * tag_len other than the tag size is MB_ERR_PARAM (and the message goes on). */
int mb_kupyna_mac_verify(mb_kupyna_mac_ctx *mac, const uint8_t *tag, size_t tag_len);

/* The tag size in bytes (32, 48 or 64); 0 for a NULL handle. */
size_t mb_kupyna_mac_tag_size(const mb_kupyna_mac_ctx *mac);

/* Frees the handle, wiping its key and keyed state. NULL is ignored. */
void mb_kupyna_mac_free(mb_kupyna_mac_ctx *mac);

/* ---- key derivation: RFC 7836 KDFs and TLSTREE -------------------------- */

/* KDF_GOSTR3411_2012_256(key, label, seed) of RFC 7836 §4.5: HMAC
 * Streebog-256 of 01 || label || 00 || seed || 01 00; 32 bytes, *out_len = 32
 * on MB_OK, out/out_len as in the conventions. The key is 256 bits: key_len
 * other than 32 is MB_ERR_KEY_LENGTH. Errors: MB_ERR_NULL_POINTER,
 * MB_ERR_KEY_LENGTH, MB_ERR_PARAM, MB_ERR_BUFFER_TOO_SMALL. */
int mb_kdf(const uint8_t *key, size_t key_len, const uint8_t *label, size_t label_len,
           const uint8_t *seed, size_t seed_len, uint8_t *out, size_t *out_len);

/* KDF_TREE_GOSTR3411_2012_256(key, label, seed, r) of RFC 7836 §4.4 with
 * L = 8 * out_len bits: exactly out_len bytes are written to out (which
 * may overlap the inputs). The key is 256 bits (key_len 32); r is the
 * counter's length in bytes, 1 to 4. Errors: MB_ERR_NULL_POINTER,
 * MB_ERR_KEY_LENGTH (key_len other than 32), MB_ERR_PARAM (r, an out_len
 * of 0 or more than the r-byte counter reaches). */
int mb_kdf_tree(const uint8_t *key, size_t key_len, const uint8_t *label, size_t label_len,
                const uint8_t *seed, size_t seed_len, size_t r, uint8_t *out, size_t out_len);

/* TLSTREE(root, seqnum): the 32-byte key of TLS record `seqnum` under the
 * 32-byte root key of a GOST cipher suite (RFC 9189 §8.1 for TLS 1.2,
 * RFC 9367 §4.1.2 for TLS 1.3). `suite` names the suite's masks:
 * "kuznyechik-ctr-omac", "magma-ctr-omac" (TLS 1.2), "kuznyechik-mgm-l",
 * "kuznyechik-mgm-s", "magma-mgm-l", "magma-mgm-s" (TLS 1.3). *out_len = 32
 * on MB_OK. Errors: MB_ERR_NULL_POINTER, MB_ERR_INVALID_STRING, MB_ERR_PARAM
 * (an unknown suite), MB_ERR_KEY_LENGTH (root_len other than 32),
 * MB_ERR_BUFFER_TOO_SMALL. */
int mb_tlstree(const char *suite, const uint8_t *root, size_t root_len, uint64_t seqnum,
               uint8_t *out, size_t *out_len);

/* Opaque TLSTREE over one root key that keeps each level's last key, so
 * consecutive records derive only the levels that change (most records
 * derive nothing). Any order of sequence numbers gives the right keys.
 * Holds key material, which mb_tlstree_free wipes; one handle must not be
 * used by two threads at once. (The type is mb_tlstree_ctx because
 * mb_tlstree names the one-shot function.) */
typedef struct mb_tlstree_ctx mb_tlstree_ctx;

/* A tree in *out (NULL on any error): errors as mb_tlstree's. */
int mb_tlstree_new(mb_tlstree_ctx **out, const char *suite, const uint8_t *root, size_t root_len);

/* The key of record `seqnum` (32 bytes, *out_len = 32), as mb_tlstree gives it. */
int mb_tlstree_key(mb_tlstree_ctx *tree, uint64_t seqnum, uint8_t *out, size_t *out_len);

/* Frees the tree, wiping its keys. NULL is ignored. */
void mb_tlstree_free(mb_tlstree_ctx *tree);

/* ---- Key export and key wrap --------------------------------------------- */

/* KExp15 / KImp15 (R 1323565.1.017-2018 §5): a key exported under two
 * 32-byte keys, kek_enc (GOST R 34.13-2015 CTR) and kek_mac (its MAC,
 * OMAC), with an IV of half a block: KExp15 = CTR_enc(IV, key || OMAC_mac(IV
 * || key)). `cipher` is "kuznyechik" (8-byte IV, 16-byte MAC) or "magma"
 * (4-byte IV, 8-byte MAC); another name is MB_ERR_PARAM. The key may have
 * any length from 1 byte. The output's size follows from the input's
 * (export: key_len + MAC bytes; import: blob_len - MAC bytes), so a size
 * query (out = NULL, *out_len = 0) answers without any cryptography. */

/* Exports `key`. Errors: MB_ERR_NULL_POINTER, MB_ERR_INVALID_STRING,
 * MB_ERR_PARAM (a KEK, the IV or an empty key), MB_ERR_BUFFER_TOO_SMALL. */
int mb_kexp15(const char *cipher, const uint8_t *key, size_t key_len,
              const uint8_t *kek_enc, size_t kek_enc_len,
              const uint8_t *kek_mac, size_t kek_mac_len,
              const uint8_t *iv, size_t iv_len, uint8_t *out, size_t *out_len);

/* Imports the key in `blob` (longer than one MAC): MB_ERR_AUTHENTICATION
 * if its MAC does not match (compared in constant time; nothing written).
 * Other errors: as mb_kexp15's. */
int mb_kimp15(const char *cipher, const uint8_t *blob, size_t blob_len,
              const uint8_t *kek_enc, size_t kek_enc_len,
              const uint8_t *kek_mac, size_t kek_mac_len,
              const uint8_t *iv, size_t iv_len, uint8_t *out, size_t *out_len);

/* Dstu7624Wrap, the key wrap of the Ukrainian CMS profile (order No. 687
 * of the State Service of Special Communications, 2020) over Kalyna-256/256:
 * a 32-byte key under a 32-byte KEK with a 32-byte random IV, 96 bytes out
 * (MB_DSTU7624_WRAPPED_BYTES). iv = NULL with iv_len = 0 draws the IV from
 * the operating system (what a user wants); a given IV is for reproducing
 * a vector. Errors: MB_ERR_NULL_POINTER, MB_ERR_PARAM (the KEK, key or IV
 * length, or the OS random generator failing), MB_ERR_BUFFER_TOO_SMALL. */
#define MB_DSTU7624_WRAPPED_BYTES 96
int mb_dstu7624_wrap(const uint8_t *kek, size_t kek_len, const uint8_t *key, size_t key_len,
                     const uint8_t *iv, size_t iv_len, uint8_t *out, size_t *out_len);

/* The 32-byte key in the 96-byte `wrapped`: MB_ERR_AUTHENTICATION if its
 * MAC does not match (compared in constant time; nothing written). Other
 * errors: MB_ERR_NULL_POINTER, MB_ERR_PARAM (the KEK or wrapped length),
 * MB_ERR_BUFFER_TOO_SMALL. */
int mb_dstu7624_unwrap(const uint8_t *kek, size_t kek_len, const uint8_t *wrapped, size_t wrapped_len,
                       uint8_t *out, size_t *out_len);

/* The GOST 28147-89 key wrap of the Ukrainian CMS profile (order No. 108
 * of the State Service of Special Communications, 2013): a 32-byte key
 * under a 32-byte KEK with an 8-byte random IV, 44 bytes out
 * (MB_GOST28147_WRAPPED_BYTES). sbox: a gost89 S-box set name, NULL for
 * "dstu4145" (DSTU 4145-2002's DKE No. 1, the profile's default). iv = NULL
 * with iv_len = 0 draws the IV from the operating system; a given IV is for
 * reproducing a vector. Errors as mb_dstu7624_wrap, and MB_ERR_PARAM for an
 * unknown S-box set. */
#define MB_GOST28147_WRAPPED_BYTES 44
int mb_gost28147_wrap(const char *sbox, const uint8_t *kek, size_t kek_len, const uint8_t *key,
                      size_t key_len, const uint8_t *iv, size_t iv_len, uint8_t *out, size_t *out_len);

/* The 32-byte key in the 44-byte `wrapped`: MB_ERR_AUTHENTICATION if its
 * MAC does not match (compared in constant time; nothing written). Other
 * errors as mb_dstu7624_unwrap. */
int mb_gost28147_unwrap(const char *sbox, const uint8_t *kek, size_t kek_len, const uint8_t *wrapped,
                        size_t wrapped_len, uint8_t *out, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif /* MULTIBLOCK_H */
