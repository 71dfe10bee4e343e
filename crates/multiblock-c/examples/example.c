/*
 * multiblock from C: a keyed handle for ECB blocks, a one-shot AEAD mode
 * (Kuznyechik MGM, RFC 9058) and what a wrong tag looks like.
 *
 *   cc example.c $(pkg-config --cflags --libs multiblock) -o example
 */
#include <stdio.h>
#include <string.h>

#include "multiblock.h"

static void print_hex(const char *label, const uint8_t *p, size_t n) {
    printf("%s", label);
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
    printf("\n");
}

int main(void) {
    /* GOST R 34.12-2015 / RFC 7801 test key and block for Kuznyechik. */
    static const uint8_t key[32] = {
        0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
        0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
    uint8_t block[16] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x00,
                         0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88};

    /* 1. A keyed handle: ECB over whole blocks, in place. */
    mb_cipher *c = NULL;
    int rc = mb_cipher_new(&c, "kuznyechik", key, sizeof key, NULL, NULL);
    if (rc != MB_OK) {
        fprintf(stderr, "mb_cipher_new: %s\n", mb_last_error());
        return 1;
    }
    rc = mb_cipher_encrypt_blocks(c, block, block, sizeof block);
    if (rc != MB_OK) {
        fprintf(stderr, "encrypt: %s\n", mb_last_error());
        mb_cipher_free(c);
        return 1;
    }
    printf("backend: %s\n", mb_cipher_backend(c));
    print_hex("ECB:     ", block, sizeof block); /* 7f679d90bebc24305a468d42b9d4edcd */
    mb_cipher_free(c);                             /* zeroizes the round keys */

    /* 2. One-shot AEAD: ciphertext || tag, with associated data. */
    const uint8_t nonce[16] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x00,
                               0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88};
    const char *msg = "attack at dawn", *aad = "header";
    uint8_t sealed[64];
    size_t sealed_len = sizeof sealed; /* in: capacity; out: bytes written */
    mb_params params = {0};            /* all defaults ... */
    params.tag_bits = 128;             /* ... but spell out the tag length */
    rc = mb_encrypt("kuznyechik", "mgm", key, sizeof key, nonce, sizeof nonce, (const uint8_t *)aad,
                    strlen(aad), &params, (const uint8_t *)msg, strlen(msg), sealed, &sealed_len);
    if (rc != MB_OK) {
        fprintf(stderr, "mb_encrypt: %s (%s)\n", mb_strerror(rc), mb_last_error());
        return 1;
    }
    print_hex("MGM:     ", sealed, sealed_len);

    uint8_t plain[64];
    size_t plain_len = sizeof plain;
    rc = mb_decrypt("kuznyechik", "mgm", key, sizeof key, nonce, sizeof nonce, (const uint8_t *)aad,
                    strlen(aad), &params, sealed, sealed_len, plain, &plain_len);
    if (rc != MB_OK) {
        fprintf(stderr, "mb_decrypt: %s\n", mb_last_error());
        return 1;
    }
    printf("opened:  %.*s\n", (int)plain_len, (const char *)plain);

    /* 3. A changed tag: a distinct status, and no plaintext is written. */
    sealed[sealed_len - 1] ^= 1;
    plain_len = sizeof plain;
    rc = mb_decrypt("kuznyechik", "mgm", key, sizeof key, nonce, sizeof nonce, (const uint8_t *)aad,
                    strlen(aad), &params, sealed, sealed_len, plain, &plain_len);
    printf("tampered: status %d (%s), %zu bytes out\n", rc, mb_strerror(rc), plain_len);
    return rc == MB_ERR_AUTHENTICATION ? 0 : 1;
}
