/*
 * emu-probe: proves that AVX-512 (F, BW, VL, VBMI, VBMI2), GFNI, VAES and
 * VPCLMULQDQ instructions really execute on this CPU (or emulator) and give
 * the architected results.  Every vector result is compared with a plain
 * scalar computation of the same operation on pseudo-random inputs, and a
 * few results on fixed inputs are printed for a person to read.
 *
 * Built static by scripts/emu-avx512.sh:
 *     cc -static -O2 -o emu-probe emu-probe.c
 * No -m flags: only the functions marked TARGET use the extensions, so the
 * CPUID check below runs first and a CPU without them is reported, not
 * killed by SIGILL.
 *
 * Exit: 0 all checks passed; 1 a check failed; 2 the CPU/OS lacks a feature.
 * Last line: "emu-probe: N passed, M failed".
 */
#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TARGET __attribute__((target( \
    "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,gfni,vaes,vpclmulqdq,aes,pclmul")))
#define ROUNDS 500

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static void fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd64();
}
static void hex(const char *label, const uint8_t *p, size_t n) {
    printf("  %-26s", label);
    for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
    printf("\n");
}

/* ---------- scalar references ---------- */

static uint8_t gf_mul(uint8_t a, uint8_t b) { /* GF(2^8), x^8+x^4+x^3+x+1 */
    uint8_t r = 0;
    while (b) {
        if (b & 1) r ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
        b >>= 1;
    }
    return r;
}
static uint8_t parity8(uint8_t x) {
    x ^= x >> 4; x ^= x >> 2; x ^= x >> 1;
    return x & 1;
}
/* GF2P8AFFINEQB on one byte: bit i = parity(A.byte[7-i] & x) ^ b.bit[i] */
static uint8_t affine_byte(uint64_t a, uint8_t x, uint8_t b) {
    uint8_t r = 0;
    for (int i = 0; i < 8; i++) {
        uint8_t row = (uint8_t)(a >> (8 * (7 - i)));
        r |= (uint8_t)((parity8(row & x) ^ ((b >> i) & 1)) << i);
    }
    return r;
}
static void clmul64(uint64_t a, uint64_t b, uint64_t out[2]) {
    uint64_t lo = 0, hi = 0;
    for (int i = 0; i < 64; i++)
        if ((b >> i) & 1) {
            lo ^= a << i;
            if (i) hi ^= a >> (64 - i);
        }
    out[0] = lo; out[1] = hi;
}
static uint8_t sbox[256];
static void make_sbox(void) {
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x; y++)
            if (gf_mul((uint8_t)x, (uint8_t)y) == 1) { inv = (uint8_t)y; break; }
        uint8_t s = 0x63;
        for (int i = 0; i < 8; i++) {
            int bit = ((inv >> i) ^ (inv >> ((i + 4) % 8)) ^ (inv >> ((i + 5) % 8)) ^
                       (inv >> ((i + 6) % 8)) ^ (inv >> ((i + 7) % 8))) & 1;
            s ^= (uint8_t)(bit << i);
        }
        sbox[x] = s;
    }
}
/* AESENC on one 16-byte block: MixColumns(ShiftRows(SubBytes(s))) ^ k */
static void aesenc_ref(const uint8_t in[16], const uint8_t key[16], uint8_t out[16]) {
    uint8_t t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) t[r + 4 * c] = sbox[in[r + 4 * ((c + r) % 4)]];
    for (int c = 0; c < 4; c++) {
        uint8_t *col = t + 4 * c;
        uint8_t a0 = col[0], a1 = col[1], a2 = col[2], a3 = col[3];
        out[4 * c + 0] = gf_mul(a0, 2) ^ gf_mul(a1, 3) ^ a2 ^ a3;
        out[4 * c + 1] = a0 ^ gf_mul(a1, 2) ^ gf_mul(a2, 3) ^ a3;
        out[4 * c + 2] = a0 ^ a1 ^ gf_mul(a2, 2) ^ gf_mul(a3, 3);
        out[4 * c + 3] = gf_mul(a0, 3) ^ a1 ^ a2 ^ gf_mul(a3, 2);
    }
    for (int i = 0; i < 16; i++) out[i] ^= key[i];
}

/* ---------- vector versions ---------- */

TARGET static void v_vpermb(const uint8_t idx[64], const uint8_t tab[64], uint8_t out[64]) {
    __m512i r = _mm512_permutexvar_epi8(_mm512_loadu_si512(idx), _mm512_loadu_si512(tab));
    _mm512_storeu_si512(out, r);
}
TARGET static void v_affine(const uint8_t x[64], const uint64_t a[8], uint8_t out[64]) {
    __m512i r = _mm512_gf2p8affine_epi64_epi8(_mm512_loadu_si512(x), _mm512_loadu_si512(a), 0x63);
    _mm512_storeu_si512(out, r);
}
TARGET static void v_affineinv(const uint8_t x[64], const uint64_t a[8], uint8_t out[64]) {
    __m512i r = _mm512_gf2p8affineinv_epi64_epi8(_mm512_loadu_si512(x), _mm512_loadu_si512(a), 0x63);
    _mm512_storeu_si512(out, r);
}
TARGET static void v_gfmul(const uint8_t x[64], const uint8_t y[64], uint8_t out[64]) {
    __m512i r = _mm512_gf2p8mul_epi8(_mm512_loadu_si512(x), _mm512_loadu_si512(y));
    _mm512_storeu_si512(out, r);
}
TARGET static void v_compress(const uint8_t x[64], uint64_t mask, uint8_t out[64]) {
    __m512i r = _mm512_maskz_compress_epi8((__mmask64)mask, _mm512_loadu_si512(x));
    _mm512_storeu_si512(out, r);
}
TARGET static void v_clmul(const uint64_t a[8], const uint64_t b[8], uint64_t out[8]) {
    __m512i r = _mm512_clmulepi64_epi128(_mm512_loadu_si512(a), _mm512_loadu_si512(b), 0x10);
    _mm512_storeu_si512(out, r);
}
TARGET static void v_aesenc(const uint8_t s[64], const uint8_t k[64], uint8_t out[64]) {
    __m512i r = _mm512_aesenc_epi128(_mm512_loadu_si512(s), _mm512_loadu_si512(k));
    _mm512_storeu_si512(out, r);
}
TARGET static void v_vl_bw(const uint8_t x[32], const uint8_t y[32], uint32_t mask, uint8_t out[32]) {
    /* AVX512VL+BW: masked byte add on a 256-bit register, zeroing the rest */
    __m256i r = _mm256_maskz_add_epi8((__mmask32)mask, _mm256_loadu_si256((const void *)x),
                                      _mm256_loadu_si256((const void *)y));
    _mm256_storeu_si256((void *)out, r);
}

/* ---------- checks ---------- */

static int passed, failed;
static uint8_t gf_inv(uint8_t x) {
    for (int y = 1; y < 256 && x; y++)
        if (gf_mul(x, (uint8_t)y) == 1) return (uint8_t)y;
    return 0;
}
/* Bochs 2.7 computes the affine bits with an even- instead of odd-parity
   table, so every result byte is the complement of the right one. */
static void affine_diagnosis(int all_complemented) {
    if (all_complemented)
        printf("emu-probe:   every byte is the bitwise NOT of the architected result: the Bochs 2.7\n"
               "emu-probe:   GF2P8AFFINE(INV)QB parity bug (emu-avx512.sh runs a patched copy of bochs-bin)\n");
}
static void report(const char *name, int bad) {
    printf("emu-probe: %-28s %s (%d random vectors)\n", name, bad ? "MISMATCH" : "ok", ROUNDS);
    if (bad) failed++; else passed++;
}

static int check_cpu(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) { printf("emu-probe: no CPUID leaf 7\n"); return 0; }
    struct { const char *name; unsigned reg, bit; } f[] = {
        {"avx512f", b, 16}, {"avx512bw", b, 30}, {"avx512vl", b, 31}, {"avx512vbmi", c, 1},
        {"avx512vbmi2", c, 6}, {"gfni", c, 8}, {"vaes", c, 9}, {"vpclmulqdq", c, 10},
    };
    int ok = 1;
    printf("emu-probe: CPUID.7.0:");
    for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {
        int has = (f[i].reg >> f[i].bit) & 1;
        printf(" %s=%d", f[i].name, has);
        ok &= has;
    }
    printf("\n");
    __get_cpuid(1, &a, &b, &c, &d);
    if (!((c >> 27) & 1)) { printf("emu-probe: OSXSAVE is off\n"); return 0; }
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    printf("emu-probe: XCR0=%#x (need 0xe6 for ZMM state)\n", lo);
    if ((lo & 0xe6) != 0xe6) ok = 0;
    return ok;
}

int main(void) {
    if (!check_cpu()) {
        printf("emu-probe: this CPU/OS lacks a needed extension; nothing executed\n");
        printf("emu-probe: 0 passed, 1 failed\n");
        return 2;
    }
    make_sbox();
    uint8_t x[64], y[64], v[64], s[64];
    uint64_t qa[8], qb[8], qv[8], qs[8];
    int bad;

    /* fixed inputs, printed */
    for (int i = 0; i < 64; i++) { y[i] = (uint8_t)(i * 3 + 1); x[i] = (uint8_t)(63 - i); }
    v_vpermb(x, y, v);
    for (int i = 0; i < 64; i++) s[i] = y[x[i] & 63];
    printf("emu-probe: vpermb tab[i]=3i+1, idx[i]=63-i (first 16 bytes):\n");
    hex("vpermb zmm:", v, 16);
    hex("scalar:", s, 16);
    for (int i = 0; i < 64; i++) x[i] = (uint8_t)i;
    for (int i = 0; i < 8; i++) qa[i] = 0xF1E3C78F1F3E7CF8ull; /* AES S-box affine map */
    v_affine(x, qa, v);
    for (int i = 0; i < 64; i++) s[i] = affine_byte(qa[i / 8], x[i], 0x63);
    printf("emu-probe: vgf2p8affineqb A=0xF1E3C78F1F3E7CF8 b=0x63 on bytes 0..15:\n");
    hex("vgf2p8affineqb zmm:", v, 16);
    hex("scalar:", s, 16);

    bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        fill(x, 64); fill(y, 64);
        v_vpermb(x, y, v);
        for (int i = 0; i < 64; i++) bad |= v[i] != y[x[i] & 63];
    }
    report("vpermb (AVX512VBMI)", bad);

    int compl = 1;
    bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        fill(x, 64); fill((uint8_t *)qa, 64);
        v_affine(x, qa, v);
        for (int i = 0; i < 64; i++) {
            uint8_t want = affine_byte(qa[i / 8], x[i], 0x63);
            bad |= v[i] != want;
            compl &= (v[i] ^ want) == 0xff;
        }
    }
    report("vgf2p8affineqb (GFNI)", bad);
    if (bad) affine_diagnosis(compl);

    uint8_t inv[256];
    for (int i = 0; i < 256; i++) inv[i] = gf_inv((uint8_t)i);
    compl = 1;
    bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        fill(x, 64); fill((uint8_t *)qa, 64);
        v_affineinv(x, qa, v);
        for (int i = 0; i < 64; i++) {
            uint8_t want = affine_byte(qa[i / 8], inv[x[i]], 0x63);
            bad |= v[i] != want;
            compl &= (v[i] ^ want) == 0xff;
        }
    }
    report("vgf2p8affineinvqb (GFNI)", bad);
    if (bad) affine_diagnosis(compl);

    bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        fill(x, 64); fill(y, 64);
        v_gfmul(x, y, v);
        for (int i = 0; i < 64; i++) bad |= v[i] != gf_mul(x[i], y[i]);
    }
    report("vgf2p8mulb (GFNI)", bad);

    bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        fill(x, 64);
        uint64_t m = rnd64();
        v_compress(x, m, v);
        int k = 0;
        memset(s, 0, 64);
        for (int i = 0; i < 64; i++) if ((m >> i) & 1) s[k++] = x[i];
        bad |= memcmp(v, s, 64) != 0;
    }
    report("vpcompressb (AVX512VBMI2)", bad);

    bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        fill((uint8_t *)qa, 64); fill((uint8_t *)qb, 64);
        v_clmul(qa, qb, qv);
        for (int l = 0; l < 4; l++) clmul64(qa[2 * l], qb[2 * l + 1], &qs[2 * l]); /* imm 0x10 */
        bad |= memcmp(qv, qs, 64) != 0;
    }
    report("vpclmulqdq zmm (VPCLMULQDQ)", bad);

    bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        fill(x, 64); fill(y, 64);
        v_aesenc(x, y, v);
        for (int l = 0; l < 4; l++) aesenc_ref(x + 16 * l, y + 16 * l, s + 16 * l);
        bad |= memcmp(v, s, 64) != 0;
    }
    report("vaesenc zmm (VAES)", bad);

    bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        fill(x, 32); fill(y, 32);
        uint32_t m = (uint32_t)rnd64();
        v_vl_bw(x, y, m, v);
        for (int i = 0; i < 32; i++) bad |= v[i] != (((m >> i) & 1) ? (uint8_t)(x[i] + y[i]) : 0);
    }
    report("vpaddb ymm{k}{z} (AVX512VL+BW)", bad);

    printf("emu-probe: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
