/*
 * mbp_cipher_list.h - every cipher algorithm of the provider, one X() line
 * each: X(id, names, cipher, mode, ossl_mode, key, iv, evp_block, n, kind,
 * sbox, key_meshing, ivlen_settable).
 *
 * Names, OIDs and IV lengths follow gost-engine's provider (gostprov) where
 * it has the algorithm: GOST R 34.13 CTR takes n/2 bytes of IV, CBC, CFB
 * and OFB n bytes (m = n; a longer register through the "ivlen" parameter).
 * gost89 is CFB with the TC26 Z S-box (RFC 7836) and CryptoPro key meshing,
 * gost89-cnt the counter mode with the CryptoPro-A S-box (RFC 4357) and key
 * meshing, gost89-cnt-12 the same with TC26 Z, gost89-cbc CBC with TC26 Z
 * and no meshing: the defaults gostprov (gost-engine 3.0.1) runs with, found
 * by interoperating with it (scripts/ci/openssl-provider.sh checks them).
 * OIDs: R 1323565.1.017 (ctr-acpkm), RFC 4357 (gost89).
 * kexp15 (KExp15 / KImp15, mbp_kexp15.c): the key is K_mac || K_enc, 64
 * bytes, the IV n/2 bytes; EVP block size n, so that EVP sizes the output
 * of the one update (K, 32 bytes, in; 32 + n out) as the input + n.
 * mode: EVP_CIPH_*_MODE values (openssl/evp.h); 0 is a stream cipher,
 * 0x10002 EVP_CIPH_WRAP_MODE.
 * Kalyna CFB has the EVP block size n: DSTU 7624 CFB encrypts a last
 * partial block with the END of the keystream block, so the output of a
 * partial block waits for final (at most n - 1 bytes).
 */

/* GOST R 34.12-2015 Kuznyechik and Magma with the GOST R 34.13-2015 modes and MGM (R 1323565.1.026). */
X(kuz_ecb, "kuznyechik-ecb", "kuznyechik", "ecb", 1, 32, 0, 16, 16, MBP_STREAM, NULL, 0, 0)
X(kuz_cbc, "kuznyechik-cbc", "kuznyechik", "cbc", 2, 32, 16, 16, 16, MBP_STREAM, NULL, 0, 1)
X(kuz_cfb, "kuznyechik-cfb", "kuznyechik", "cfb", 3, 32, 16, 1, 16, MBP_CFB, NULL, 0, 1)
X(kuz_ofb, "kuznyechik-ofb", "kuznyechik", "ofb", 4, 32, 16, 1, 16, MBP_STREAM, NULL, 0, 1)
X(kuz_ctr, "kuznyechik-ctr", "kuznyechik", "ctr", 5, 32, 8, 1, 16, MBP_STREAM, NULL, 0, 0)
X(kuz_acpkm, "kuznyechik-ctr-acpkm:1.2.643.7.1.1.5.2.1", "kuznyechik", "ctr-acpkm", 5, 32, 8, 1, 16, MBP_STREAM, NULL, 0, 0)
X(kuz_ctr_omac, "kuznyechik-ctr-acpkm-omac:1.2.643.7.1.1.5.2.2", "kuznyechik", "ctr-acpkm-omac", 5, 32, 8, 1, 16, MBP_CTR_OMAC, NULL, 0, 0)
X(kuz_kexp15, "kuznyechik-kexp15:1.2.643.7.1.1.7.2.1", "kuznyechik", "kexp15", 0x10002, 64, 8, 16, 16, MBP_KEXP, NULL, 0, 0)
X(kuz_mgm, "kuznyechik-mgm", "kuznyechik", "mgm", 0, 32, 16, 1, 16, MBP_AEAD, NULL, 0, 0)
X(mag_ecb, "magma-ecb", "magma", "ecb", 1, 32, 0, 8, 8, MBP_STREAM, NULL, 0, 0)
X(mag_cbc, "magma-cbc", "magma", "cbc", 2, 32, 8, 8, 8, MBP_STREAM, NULL, 0, 1)
X(mag_cfb, "magma-cfb", "magma", "cfb", 3, 32, 8, 1, 8, MBP_CFB, NULL, 0, 1)
X(mag_ofb, "magma-ofb", "magma", "ofb", 4, 32, 8, 1, 8, MBP_STREAM, NULL, 0, 1)
X(mag_ctr, "magma-ctr", "magma", "ctr", 5, 32, 4, 1, 8, MBP_STREAM, NULL, 0, 0)
X(mag_acpkm, "magma-ctr-acpkm:1.2.643.7.1.1.5.1.1", "magma", "ctr-acpkm", 5, 32, 4, 1, 8, MBP_STREAM, NULL, 0, 0)
X(mag_ctr_omac, "magma-ctr-acpkm-omac:1.2.643.7.1.1.5.1.2", "magma", "ctr-acpkm-omac", 5, 32, 4, 1, 8, MBP_CTR_OMAC, NULL, 0, 0)
X(mag_kexp15, "magma-kexp15:1.2.643.7.1.1.7.1.1", "magma", "kexp15", 0x10002, 64, 4, 8, 8, MBP_KEXP, NULL, 0, 0)
X(mag_mgm, "magma-mgm", "magma", "mgm", 0, 32, 8, 1, 8, MBP_AEAD, NULL, 0, 0)

/* GOST 28147-89 (RFC 5830; key meshing RFC 4357 section 2.3). */
X(g89_cfb, "gost89:GOST 28147-89:1.2.643.2.2.21", "gost89", "cfb", 3, 32, 8, 1, 8, MBP_STREAM, "tc26-z", 1, 0)
X(g89_cnt, "gost89-cnt", "gost89", "cnt", 4, 32, 8, 1, 8, MBP_STREAM, "cryptopro-a", 1, 0)
X(g89_cnt12, "gost89-cnt-12", "gost89", "cnt", 4, 32, 8, 1, 8, MBP_STREAM, "tc26-z", 1, 0)
X(g89_cbc, "gost89-cbc", "gost89", "ecb", 2, 32, 8, 8, 8, MBP_CBC, "tc26-z", 0, 0)

/* DSTU 7624:2014 Kalyna, five variants. */
#define MBP_KALYNA(v, name, key, n) \
X(v##_ecb, name "-ecb", name, "ecb", 1, key, 0, n, n, MBP_STREAM, NULL, 0, 0) \
X(v##_cbc, name "-cbc", name, "cbc", 2, key, n, n, n, MBP_STREAM, NULL, 0, 0) \
X(v##_cfb, name "-cfb", name, "cfb", 3, key, n, n, n, MBP_STREAM, NULL, 0, 0) \
X(v##_ofb, name "-ofb", name, "ofb", 4, key, n, 1, n, MBP_STREAM, NULL, 0, 0) \
X(v##_ctr, name "-ctr", name, "ctr", 5, key, n, 1, n, MBP_STREAM, NULL, 0, 0) \
X(v##_gcm, name "-gcm", name, "gcm", 6, key, n, 1, n, MBP_AEAD, NULL, 0, 0) \
X(v##_ccm, name "-ccm", name, "ccm", 7, key, n, 1, n, MBP_AEAD, NULL, 0, 0) \
X(v##_xts, name "-xts", name, "xts", 0x10001, key, n, 1, n, MBP_XTS, NULL, 0, 0)
MBP_KALYNA(k128_128, "kalyna-128-128", 16, 16)
MBP_KALYNA(k128_256, "kalyna-128-256", 32, 16)
MBP_KALYNA(k256_256, "kalyna-256-256", 32, 32)
MBP_KALYNA(k256_512, "kalyna-256-512", 64, 32)
MBP_KALYNA(k512_512, "kalyna-512-512", 64, 64)

/* uBlock (Wu et al., 2019), ECB and CBC. */
X(ub128_128_ecb, "ublock-128-128-ecb", "ublock-128-128", "ecb", 1, 16, 0, 16, 16, MBP_STREAM, NULL, 0, 0)
X(ub128_128_cbc, "ublock-128-128-cbc", "ublock-128-128", "cbc", 2, 16, 16, 16, 16, MBP_STREAM, NULL, 0, 0)
X(ub128_256_ecb, "ublock-128-256-ecb", "ublock-128-256", "ecb", 1, 32, 0, 16, 16, MBP_STREAM, NULL, 0, 0)
X(ub128_256_cbc, "ublock-128-256-cbc", "ublock-128-256", "cbc", 2, 32, 16, 16, 16, MBP_STREAM, NULL, 0, 0)
X(ub256_256_ecb, "ublock-256-256-ecb", "ublock-256-256", "ecb", 1, 32, 0, 32, 32, MBP_STREAM, NULL, 0, 0)
X(ub256_256_cbc, "ublock-256-256-cbc", "ublock-256-256", "cbc", 2, 32, 32, 32, 32, MBP_STREAM, NULL, 0, 0)
