//! The published figures of the papers this project starts from, printed
//! beside this CPU's numbers. Every figure names its paper (authors, year,
//! title), its table and the CPU it was measured on; the values are the
//! papers' printed numbers: Sovyn et al. 2019 Tables 1, 2 and 4-7; the
//! "Magma and Kuznyechik with SSE2/AVX/AVX2 and LUTs" study's Tables 1-2;
//! Gao et al. 2024 §4; Wu et al. 2019 §5.1 (the uBlock design document).
//! NA marks a cell the paper leaves empty.

use crate::figure::{Figure, Source};
use crate::measure::AUTO;
use crate::row::{Entry, Kind};

/// Ya. Sovyn, V. Khoma, Yu. Nakonechnyi, M. Stakhiv (2019).
pub const SOVYN_2019: &str = "Ya. Sovyn, V. Khoma, Yu. Nakonechnyi, M. Stakhiv, \"Efficient implementation and performance comparison of the Kalyna and GOST 28147-89 ciphers with vector extensions SSE, AVX and AVX-512\", Zakhyst Informatsii 21(4), 2019";
/// Gao et al. (2024), uBlock with AVX2.
pub const GAO_2024: &str = "Gao et al., \"Fast software implementation of the block cipher uBlock algorithm\", Journal of National University of Defense Technology 46(6), 2024";
/// An unattributed Russian study of Magma and Kuznyechik.
pub const MAGMA_KUZNYECHIK_LUT: &str = "\"Magma and Kuznyechik with SSE2/AVX/AVX2 and LUTs\" (an unattributed Russian study)";
/// The uBlock design document.
pub const WU_2019: &str = "Wu et al., \"The block cipher uBlock\", Journal of Cryptologic Research 6(6), 2019";
/// The method of `--size-sweep`.
pub const GOLCHEVSKY_2023: &str = "Golchevsky & Ushakov, \"Acceleration of cryptographic computations by low-level optimisation of basic blocks\", Bulletin of Syktyvkar University, 2023, 1(46):30-49";

const SKYLAKE: &str = "Xeon Skylake-SP 2.0 GHz (GCP n1-highcpu-2), GCC 7.3 / MSVC 2019";
const I3_9100F: &str = "Core i3-9100F 3.6-4.2 GHz";
const I7_3740QM: &str = "Core i7-3740QM 2.7 GHz, MSVC 2010";
pub static SOVYN_2019_T1: Source = Source { tag: "Sovyn 2019 T1", paper: SOVYN_2019, table: "Table 1 (Kalyna developers' single-block code [14])", cpu: "Core i5-4670 3.4 GHz, gcc 4.9.2" };
pub static SOVYN_2019_T1_SHIFR: Source = Source { tag: "Sovyn 2019 T1 [2]", paper: SOVYN_2019, table: "Table 1 («Шифр+» v2 library [2], 16 KB)", cpu: "Core i7-6700HQ 2.6 GHz, Windows 10" };
pub static SOVYN_2019_T1_CPPCRYPTO: Source = Source { tag: "Sovyn 2019 T1 [10]", paper: SOVYN_2019, table: "Table 1 (cppcrypto [10], CBC, 130 KB)", cpu: "Xeon E5-1650 v3 3.5 GHz; VC++2015 / gcc 5.2 / clang 3.7" };
pub static SOVYN_2019_T2: Source = Source { tag: "Sovyn 2019 T2", paper: SOVYN_2019, table: "Table 2 (GOST 28147-89 by method, from [4])", cpu: "not given (cpb = 2600 / MB/s)" };
pub static SOVYN_2019_REF3: Source = Source { tag: "Sovyn 2019 [3]", paper: SOVYN_2019, table: "§2, multi-block GOST figures quoted from [3]", cpu: "not given (Haswell for the AVX2 figure)" };
pub static SOVYN_2019_T4: Source = Source { tag: "Sovyn 2019 T4", paper: SOVYN_2019, table: "Table 4 (GOST 28147-89, tables)", cpu: SKYLAKE };
pub static SOVYN_2019_T5: Source = Source { tag: "Sovyn 2019 T5", paper: SOVYN_2019, table: "Table 5 (GOST 28147-89, constant-time)", cpu: SKYLAKE };
pub static SOVYN_2019_T6: Source = Source { tag: "Sovyn 2019 T6", paper: SOVYN_2019, table: "Table 6 (Kalyna-128/128, tables)", cpu: SKYLAKE };
pub static SOVYN_2019_T7: Source = Source { tag: "Sovyn 2019 T7", paper: SOVYN_2019, table: "Table 7 (Kalyna-128/128, constant-time)", cpu: SKYLAKE };
pub static MAGMA_KUZNYECHIK_LUT_T1: Source = Source { tag: "LUT study T1", paper: MAGMA_KUZNYECHIK_LUT, table: "Table 1 (Magma, file encryption)", cpu: I3_9100F };
pub static MAGMA_KUZNYECHIK_LUT_T2: Source = Source { tag: "LUT study T2", paper: MAGMA_KUZNYECHIK_LUT, table: "Table 2 (Kuznyechik, file encryption)", cpu: I3_9100F };
pub static MAGMA_KUZNYECHIK_LUT_T1_REFS: Source = Source { tag: "LUT study T1 [3]", paper: MAGMA_KUZNYECHIK_LUT, table: "Table 1 (Magma, the implementations of its ref. [3])", cpu: I3_9100F };
pub static MAGMA_KUZNYECHIK_LUT_T2_REF5: Source = Source { tag: "LUT study T2 [5]", paper: MAGMA_KUZNYECHIK_LUT, table: "Table 2 (Kuznyechik implementation of its ref. [5])", cpu: I3_9100F };
pub static WU_2019_256: Source = Source { tag: "Wu 2019 §5.1 256 B", paper: WU_2019, table: "§5.1, the designers' SSE code, 256 B (as quoted by Gao et al. 2024)", cpu: I7_3740QM };
pub static GAO_2024_S4: Source = Source { tag: "Gao 2024 §4", paper: GAO_2024, table: "§4 conclusion (AVX2, short message, Mibit/s)", cpu: "Ryzen 9 5900X 3.7 GHz" };
pub static WU_2019_1MB: Source = Source { tag: "Wu 2019 §5.1", paper: WU_2019, table: "§5.1, the designers' SSE code, 1 MB (as quoted by Gao et al. 2024)", cpu: I7_3740QM };

const NA: f64 = f64::NAN;

/// One column of a sweep table of Sovyn et al. 2019: cycles/byte against blocks per
/// call, for GCC and for MSVC.
pub struct Sweep {
    pub source: &'static Source,
    pub cipher: &'static str,
    pub column: &'static str,
    pub direction: &'static str,
    /// Our backends that do the same job (same instruction set and method).
    pub backends: &'static [&'static str],
    /// (blocks per call, GCC cycles/byte, MSVC cycles/byte).
    pub points: &'static [(usize, f64, f64)],
}

impl Sweep {
    /// "GCC/MSVC" at `ways`, if the paper measured it.
    pub fn at(&self, ways: usize) -> Option<(f64, f64)> {
        self.points.iter().find(|p| p.0 == ways).map(|p| (p.1, p.2))
    }

    /// The paper's best point: (blocks, cycles/byte, compiler).
    pub fn best(&self) -> (usize, f64, &'static str) {
        let mut best = (0, f64::INFINITY, "");
        for &(w, g, m) in self.points {
            for (c, name) in [(g, "GCC"), (m, "MSVC")] {
                if c < best.1 {
                    best = (w, c, name);
                }
            }
        }
        best
    }
}

/// Sovyn et al. 2019, Tables 4-7, every column. `backends` names ours that the column
/// is printed beside; the gather columns of Tables 4 and 6 have no
/// counterpart (gathers are not constant-time and this project has no gather
/// backend) except Table 6's AVX-512 one, shown beside our AVX-512 backend
/// for the instruction set.
pub static SWEEPS: &[Sweep] = &[
    Sweep {
        source: &SOVYN_2019_T4,
        cipher: "gost89",
        column: "GPR, 8-bit tables",
        direction: "encrypt",
        backends: &["table"],
        points: &[(1, 35.00, 35.25), (2, 18.63, 18.63), (3, 13.50, 14.83), (4, 12.19, 15.94), (5, 12.20, 18.95)],
    },
    Sweep {
        source: &SOVYN_2019_T4,
        cipher: "gost89",
        column: "GPR, 12-bit tables",
        direction: "encrypt",
        backends: &["table12"],
        points: &[(1, 38.25, 37.00), (2, 20.13, 19.00), (3, 14.58, 13.75), (4, 11.75, 12.06), (5, 10.90, 12.45)],
    },
    Sweep {
        source: &SOVYN_2019_T5,
        cipher: "gost89",
        column: "SSE-128 pshufb",
        direction: "encrypt",
        backends: &["ssse3"],
        points: &[(1, 68.50, 52.25), (2, 34.50, 26.25), (4, 13.25, 10.75), (8, 9.50, 7.66), (12, 9.90, 8.83), (16, 9.77, 8.58)],
    },
    Sweep {
        source: &SOVYN_2019_T5,
        cipher: "gost89",
        column: "AVX-256 vpshufb",
        direction: "encrypt",
        backends: &["avx2"],
        points: &[(1, 54.00, 55.00), (2, 27.63, 27.88), (4, 13.88, 14.13), (8, 6.06, 6.03), (16, 3.73, 3.94), (24, 3.57, 3.93), (32, 3.39, 3.70)],
    },
    Sweep {
        source: &SOVYN_2019_T5,
        cipher: "gost89",
        column: "AVX-512 vpshufb, vprold",
        direction: "encrypt",
        backends: &["avx512", "avx512-vbmi"],
        points: &[(1, 68.25, 70.00), (2, 35.88, 36.50), (4, 18.19, 21.13), (8, 9.22, 9.84), (16, 3.42, 3.42), (32, 2.24, 2.17), (48, 1.95, 2.07), (64, 1.88, 2.28)],
    },
    Sweep {
        source: &SOVYN_2019_T6,
        cipher: "kalyna-128-128",
        column: "GPR, T-tables",
        direction: "encrypt",
        backends: &["table"],
        points: &[(1, 9.00, 9.00), (2, 7.75, 7.69), (4, 7.88, 11.06)],
    },
    Sweep {
        source: &SOVYN_2019_T6,
        cipher: "kalyna-128-128",
        column: "GPR, T-tables",
        direction: "decrypt",
        backends: &["table"],
        points: &[(1, 11.25, 10.88), (2, 8.81, 9.00), (4, 8.97, 12.66)],
    },
    Sweep {
        source: &SOVYN_2019_T7,
        cipher: "kalyna-128-128",
        column: "SSE-128 row-scan S-boxes",
        direction: "encrypt",
        backends: &["ssse3"],
        points: &[(1, 84.25, 48.75), (2, 50.31, 31.75), (4, 37.94, 24.00)],
    },
    Sweep {
        source: &SOVYN_2019_T7,
        cipher: "kalyna-128-128",
        column: "SSE-128 row-scan S-boxes",
        direction: "decrypt",
        backends: &["ssse3"],
        points: &[(1, 107.13, 57.75), (2, 77.88, 44.44), (4, 61.47, 35.88)],
    },
    Sweep {
        source: &SOVYN_2019_T7,
        cipher: "kalyna-128-128",
        column: "AVX-256 row-scan S-boxes",
        direction: "encrypt",
        backends: &["avx2"],
        points: &[(1, 38.13, 35.50), (2, 34.75, 24.13), (4, 21.59, 15.09), (8, 16.42, 10.63)],
    },
    Sweep {
        source: &SOVYN_2019_T7,
        cipher: "kalyna-128-128",
        column: "AVX-256 row-scan S-boxes",
        direction: "decrypt",
        backends: &["avx2"],
        points: &[(1, 45.38, 43.88), (2, 42.69, 30.94), (4, 29.34, 22.50), (8, 25.91, 17.19)],
    },
    Sweep {
        source: &SOVYN_2019_T7,
        cipher: "kalyna-128-128",
        column: "AVX-512 F+BW row-scan S-boxes",
        direction: "encrypt",
        backends: &["avx512-gfni"],
        points: &[(1, 52.38, 57.25), (2, 28.31, 30.00), (4, 18.13, 19.72), (8, 11.08, 11.73), (12, 10.14, 10.75), (16, 8.32, 8.78)],
    },
    Sweep {
        source: &SOVYN_2019_T7,
        cipher: "kalyna-128-128",
        column: "AVX-512 F+BW row-scan S-boxes",
        direction: "decrypt",
        backends: &["avx512-gfni"],
        points: &[(1, 74.00, 78.63), (2, 43.38, 47.50), (4, 24.69, 25.13), (8, 16.64, 18.25), (12, 17.22, 17.86), (16, 15.14, 15.55)],
    },
    // Table 6's vector columns: AVX-512 gather tables beside our AVX-512
    // backend (after Table 7's constant-time column, which is the same job).
    Sweep {
        source: &SOVYN_2019_T6,
        cipher: "kalyna-128-128",
        column: "AVX-512 gather T-tables (not constant-time)",
        direction: "encrypt",
        backends: &["avx512-gfni"],
        points: &[(1, 23.63, 25.38), (2, 13.69, 14.75), (4, 8.25, 8.84), (6, 7.67, 7.81), (8, 5.64, 5.83), (12, 5.47, 5.52), (16, 5.61, 5.49)],
    },
    Sweep {
        source: &SOVYN_2019_T6,
        cipher: "kalyna-128-128",
        column: "AVX-512 gather T-tables (not constant-time)",
        direction: "decrypt",
        backends: &["avx512-gfni"],
        points: &[(1, 26.88, 28.25), (2, 15.94, 16.88), (4, 9.97, 10.59), (6, 8.81, 9.25), (8, 6.95, 7.30), (12, 6.84, 7.52), (16, 7.09, 7.78)],
    },
    // Columns with no backend that does the same job here: printed in the
    // report's "other columns" tables, so every cell of Tables 4-7 shows.
    Sweep {
        source: &SOVYN_2019_T4,
        cipher: "gost89",
        column: "GPR, 16-bit tables",
        direction: "encrypt",
        backends: &[],
        points: &[(1, 73.50, 72.00), (2, 36.88, 35.25), (3, 24.58, 24.00), (4, 18.88, 18.75), (5, 15.30, 15.05)],
    },
    Sweep {
        source: &SOVYN_2019_T4,
        cipher: "gost89",
        column: "AVX-256 gather, 8-bit tables",
        direction: "encrypt",
        backends: &[],
        points: &[(1, 91.25, 91.75), (2, 46.13, 47.25), (4, 23.69, 24.63), (8, 15.53, 16.03), (16, 8.70, 9.11), (24, 8.21, 8.56), (32, 8.45, 8.86)],
    },
    Sweep {
        source: &SOVYN_2019_T4,
        cipher: "gost89",
        column: "AVX-256 gather, 12-bit tables",
        direction: "encrypt",
        backends: &[],
        points: &[(1, 106.25, 104.50), (2, 54.50, 57.75), (4, 28.63, 30.88), (8, 15.09, 16.03), (16, 8.23, 8.42), (24, 6.95, 7.02), (32, 6.99, 6.66)],
    },
    Sweep {
        source: &SOVYN_2019_T4,
        cipher: "gost89",
        column: "AVX-256 gather, 16-bit tables",
        direction: "encrypt",
        backends: &[],
        points: &[(1, 127.25, 124.75), (2, 67.13, 65.88), (4, 36.31, 37.25), (8, 20.69, 20.75), (16, 11.30, 11.16), (24, 8.90, 8.97), (32, 8.79, 8.52)],
    },
    Sweep {
        source: &SOVYN_2019_T4,
        cipher: "gost89",
        column: "AVX-512 gather, 8-bit tables",
        direction: "encrypt",
        backends: &[],
        points: &[(1, 129.25, 130.25), (2, 69.75, 71.63), (4, 35.19, 38.00), (8, 20.78, 21.56), (16, 12.73, 12.48), (32, 8.01, 8.04), (48, 7.95, 8.04), (64, 7.93, 8.07)],
    },
    Sweep {
        source: &SOVYN_2019_T4,
        cipher: "gost89",
        column: "AVX-512 gather, 12-bit tables",
        direction: "encrypt",
        backends: &[],
        points: &[(1, 131.75, 138.25), (2, 71.50, 74.50), (4, 36.69, 39.06), (8, 19.47, 21.41), (16, 11.16, 11.39), (32, 6.72, 7.05), (48, 6.60, 6.80), (64, 6.45, 6.61)],
    },
    Sweep {
        source: &SOVYN_2019_T4,
        cipher: "gost89",
        column: "AVX-512 gather, 16-bit tables",
        direction: "encrypt",
        backends: &[],
        points: &[(1, 139.25, 141.25), (2, 77.50, 79.38), (4, 43.81, 47.38), (8, 25.13, 27.59), (16, 15.03, 15.53), (32, 9.24, 9.38), (48, 7.72, 7.86), (64, 7.06, 7.17)],
    },
    Sweep {
        source: &SOVYN_2019_T6,
        cipher: "kalyna-128-128",
        column: "AVX-256 gather T-tables",
        direction: "encrypt",
        backends: &[],
        points: &[(1, 19.50, 19.50), (2, 10.88, 10.63), (4, 9.22, 8.72), (6, 9.25, 8.52), (8, 9.34, 8.42)],
    },
    Sweep {
        source: &SOVYN_2019_T6,
        cipher: "kalyna-128-128",
        column: "AVX-256 gather T-tables",
        direction: "decrypt",
        backends: &[],
        points: &[(1, 22.38, 22.00), (2, 12.69, 12.44), (4, 10.41, 9.94), (6, 10.38, 9.73), (8, 10.69, 10.88)],
    },
];

/// Every source, for the report's list of references.
pub static SOURCES: &[&Source] = &[
    &SOVYN_2019_T1, &SOVYN_2019_T1_SHIFR, &SOVYN_2019_T1_CPPCRYPTO, &SOVYN_2019_T2, &SOVYN_2019_REF3, &SOVYN_2019_T4, &SOVYN_2019_T5, &SOVYN_2019_T6, &SOVYN_2019_T7,
    &MAGMA_KUZNYECHIK_LUT_T1, &MAGMA_KUZNYECHIK_LUT_T1_REFS, &MAGMA_KUZNYECHIK_LUT_T2, &MAGMA_KUZNYECHIK_LUT_T2_REF5, &GAO_2024_S4, &WU_2019_1MB, &WU_2019_256,
];

/// The Sovyn et al. 2019 sweep column of `cipher`/`direction` that `backend` compares
/// with first (the same job: Table 7's constant-time column before Table 6's
/// gather column beside `avx512-gfni`).
pub fn sweep_for(cipher: &str, backend: &str, direction: &str) -> Option<&'static Sweep> {
    sweeps_for(cipher, backend, direction).next()
}

/// Every Sovyn et al. 2019 sweep column printed beside `backend`, in table order.
pub fn sweeps_for<'a>(cipher: &'a str, backend: &'a str, direction: &'a str) -> impl Iterator<Item = &'static Sweep> + 'a {
    SWEEPS.iter().filter(move |s| s.cipher == cipher && s.direction == direction && s.backends.contains(&backend))
}

/// The sweep columns of `cipher`/`direction` that sit beside none of `present`
/// (our backends measured in this run).
pub fn unmatched_sweeps(cipher: &str, direction: &str, present: &[&str]) -> Vec<&'static Sweep> {
    SWEEPS.iter().filter(|s| s.cipher == cipher && s.direction == direction && !s.backends.iter().any(|b| present.contains(b))).collect()
}

/// A single published figure (not a sweep).
pub struct Point {
    pub source: &'static Source,
    pub cipher: &'static str,
    pub implementation: &'static str,
    /// Our backends that do the same job; the peers' backend names for a peer figure.
    pub backends: &'static [&'static str],
    pub kind: Kind,
    pub direction: &'static str,
    pub cycles_per_byte: f64,
    pub mb_per_s: f64,
}

/// uBlock's Mibit/s (Gao et al. 2024 divide by 2^20) as MB/s.
const fn mibit(x: f64) -> f64 {
    x * 1.048576 / 8.0
}

const CT_VECTOR: &[&str] = &["ssse3", "avx2", "avx512", "avx512-vbmi"];
const UBLOCK_AVX: &[&str] = &["avx2", "avx512-vbmi"];

pub static POINTS: &[Point] = &[
    // Sovyn et al. 2019, Table 1, [14]: the Kalyna developers' single-block table code.
    Point { source: &SOVYN_2019_T1, cipher: "kalyna-128-128", implementation: "developers' T-table code, 1 block", backends: &["table", "dstu-core"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: 10.41, mb_per_s: 326.5 },
    Point { source: &SOVYN_2019_T1, cipher: "kalyna-128-256", implementation: "developers' T-table code, 1 block", backends: &["table", "dstu-core"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: 15.03, mb_per_s: 226.2 },
    Point { source: &SOVYN_2019_T1, cipher: "kalyna-256-256", implementation: "developers' T-table code, 1 block", backends: &["table", "dstu-core"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: 13.48, mb_per_s: 252.2 },
    Point { source: &SOVYN_2019_T1, cipher: "kalyna-256-512", implementation: "developers' T-table code, 1 block", backends: &["table", "dstu-core"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: 17.43, mb_per_s: 195.1 },
    Point { source: &SOVYN_2019_T1, cipher: "kalyna-512-512", implementation: "developers' T-table code, 1 block", backends: &["table", "dstu-core"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: 19.62, mb_per_s: 173.3 },
    // The Magma and Kuznyechik LUT study, Tables 1-2: MB/s of file encryption (ECB); cycles/byte not given.
    // Its AVX2 Kuznyechik is the same LS-table method as its SSE2 one (the
    // SSE2 figure stands beside our `table`), so it has no row of its own.
    Point { source: &MAGMA_KUZNYECHIK_LUT_T1, cipher: "magma", implementation: "AVX vpshufb, 4 blocks", backends: CT_VECTOR, kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: NA, mb_per_s: 200.0 },
    Point { source: &MAGMA_KUZNYECHIK_LUT_T1, cipher: "magma", implementation: "OpenSSL", backends: &["openssl-gost"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: NA, mb_per_s: 55.0 },
    Point { source: &MAGMA_KUZNYECHIK_LUT_T2, cipher: "kuznyechik", implementation: "SSE2 LS tables (pextrw)", backends: &["table"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: NA, mb_per_s: 195.0 },
    Point { source: &MAGMA_KUZNYECHIK_LUT_T2, cipher: "kuznyechik", implementation: "AVX2 LS tables, 2 blocks", backends: &[], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: NA, mb_per_s: 190.0 },
    // Gao et al. 2024, §4: short messages with key setup, one key and four keys, encryption.
    Point { source: &GAO_2024_S4, cipher: "ublock-128-128", implementation: "AVX2, 1 key", backends: UBLOCK_AVX, kind: Kind::Short, direction: "encrypt", cycles_per_byte: NA, mb_per_s: mibit(7205.0) },
    Point { source: &GAO_2024_S4, cipher: "ublock-128-128", implementation: "AVX2, 4 keys", backends: UBLOCK_AVX, kind: Kind::MultiKey, direction: "encrypt", cycles_per_byte: NA, mb_per_s: mibit(6340.0) },
    Point { source: &GAO_2024_S4, cipher: "ublock-128-256", implementation: "AVX2, 1 key", backends: UBLOCK_AVX, kind: Kind::Short, direction: "encrypt", cycles_per_byte: NA, mb_per_s: mibit(4099.0) },
    Point { source: &GAO_2024_S4, cipher: "ublock-128-256", implementation: "AVX2, 4 keys", backends: UBLOCK_AVX, kind: Kind::MultiKey, direction: "encrypt", cycles_per_byte: NA, mb_per_s: mibit(3422.0) },
    Point { source: &GAO_2024_S4, cipher: "ublock-256-256", implementation: "AVX2, 1 key", backends: UBLOCK_AVX, kind: Kind::Short, direction: "encrypt", cycles_per_byte: NA, mb_per_s: mibit(3182.0) },
    Point { source: &GAO_2024_S4, cipher: "ublock-256-256", implementation: "AVX2, 4 keys", backends: UBLOCK_AVX, kind: Kind::MultiKey, direction: "encrypt", cycles_per_byte: NA, mb_per_s: mibit(2813.0) },
    // The designers' SSE code on 1 MB (Gao et al. 2024's "original code").
    Point { source: &WU_2019_1MB, cipher: "ublock-128-128", implementation: "designers' SSE code", backends: &["ssse3"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: 11.8, mb_per_s: NA },
    Point { source: &WU_2019_1MB, cipher: "ublock-128-128", implementation: "designers' SSE code", backends: &["ssse3"], kind: Kind::Ecb, direction: "decrypt", cycles_per_byte: 11.3, mb_per_s: NA },
    Point { source: &WU_2019_1MB, cipher: "ublock-128-256", implementation: "designers' SSE code", backends: &["ssse3"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: 17.4, mb_per_s: NA },
    Point { source: &WU_2019_1MB, cipher: "ublock-128-256", implementation: "designers' SSE code", backends: &["ssse3"], kind: Kind::Ecb, direction: "decrypt", cycles_per_byte: 16.7, mb_per_s: NA },
    Point { source: &WU_2019_1MB, cipher: "ublock-256-256", implementation: "designers' SSE code", backends: &["ssse3"], kind: Kind::Ecb, direction: "encrypt", cycles_per_byte: 13.6, mb_per_s: NA },
    Point { source: &WU_2019_1MB, cipher: "ublock-256-256", implementation: "designers' SSE code", backends: &["ssse3"], kind: Kind::Ecb, direction: "decrypt", cycles_per_byte: 13.4, mb_per_s: NA },
];

fn some(x: f64) -> Option<f64> {
    (!x.is_nan()).then_some(x)
}

/// The published figure for the same experiment as `e`, if a paper has one.
pub fn figure_for(e: &Entry) -> Option<Figure> {
    let r = &e.row;
    if e.kind == Kind::Sweep {
        let s = sweep_for(r.cipher, r.backend, r.direction)?;
        let (g, m) = s.at(r.ways)?;
        let best = [g, m].into_iter().filter(|x| !x.is_nan()).fold(f64::INFINITY, f64::min);
        return Some(Figure {
            source: s.source,
            implementation: format!("{} (GCC {}, MSVC {})", s.column, cell(g), cell(m)),
            cycles_per_byte: some(best).filter(|x| x.is_finite()),
            mb_per_s: None,
        });
    }
    // Gao et al.'s multi-key figures are for short messages only.
    if (r.mode.is_some() && r.peer.is_none()) || (e.kind == Kind::MultiKey && e.message() != "short") {
        return None;
    }
    // `auto` (no backend forced) stands for the cipher's default backend.
    let backend = if r.backend == AUTO { default_backend(r.cipher).unwrap_or(AUTO) } else { r.backend };
    let p = POINTS.iter().find(|p| {
        p.cipher == r.cipher && p.kind == e.kind && p.direction == r.direction && p.backends.contains(&backend)
    });
    let Some(p) = p else {
        // Long-message ECB of a swept backend: the paper's best point of the
        // column that does the same job (it timed N-block calls, not 1 MiB).
        let s = sweep_for(r.cipher, r.backend, r.direction).filter(|_| e.kind == Kind::Ecb && r.peer.is_none())?;
        let (w, c, comp) = s.best();
        return Some(Figure {
            source: s.source,
            implementation: format!("{}, best: {w} blocks per call, {comp}", s.column),
            cycles_per_byte: Some(c),
            mb_per_s: None,
        });
    };
    Some(Figure {
        source: p.source,
        implementation: p.implementation.to_string(),
        cycles_per_byte: some(p.cycles_per_byte),
        mb_per_s: some(p.mb_per_s),
    })
}

/// A paper cell as printed ("–" where the paper has none).
pub fn cell(x: f64) -> String {
    if x.is_nan() {
        "–".into()
    } else {
        format!("{x:.2}")
    }
}

/// A figure a paper quotes from other work (or prints for a code this
/// project has no counterpart of): shown in its own table, beside our best
/// constant-time encryption of the same cipher in this run.
pub struct Quoted {
    pub source: &'static Source,
    pub cipher: &'static str,
    pub implementation: &'static str,
    pub direction: &'static str,
    /// As printed; NA where the source gives none.
    pub cycles_per_byte: f64,
    pub mb_per_s: f64,
}

const fn q(source: &'static Source, cipher: &'static str, implementation: &'static str, cycles_per_byte: f64, mb_per_s: f64) -> Quoted {
    Quoted { source, cipher, implementation, direction: "encrypt", cycles_per_byte, mb_per_s }
}

const fn qd(source: &'static Source, cipher: &'static str, implementation: &'static str, cycles_per_byte: f64, mb_per_s: f64) -> Quoted {
    Quoted { source, cipher, implementation, direction: "decrypt", cycles_per_byte, mb_per_s }
}

/// Sovyn et al. 2019 Tables 1-2 and its \[3\] figures, the LUT study's reference columns,
/// the uBlock design document's 256-byte figures. (Sovyn et al. 2019 Table
/// 1's \[14\] column is in POINTS, beside our table backend.)
pub static QUOTED: &[Quoted] = &[
    q(&SOVYN_2019_T1, "gost89", "GOST 28147-89 (Kalyna developers' comparison [14])", 42.55, 639.18 / 8.0),
    q(&SOVYN_2019_T1_SHIFR, "kalyna-128-128", "«Шифр+» v2", 20.28, 128.22),
    q(&SOVYN_2019_T1_SHIFR, "kalyna-128-256", "«Шифр+» v2", 26.55, 97.93),
    q(&SOVYN_2019_T1_SHIFR, "kalyna-256-256", "«Шифр+» v2", 20.29, 128.12),
    q(&SOVYN_2019_T1_SHIFR, "kalyna-256-512", "«Шифр+» v2", 23.29, 111.64),
    q(&SOVYN_2019_T1_SHIFR, "kalyna-512-512", "«Шифр+» v2", 21.63, 120.22),
    q(&SOVYN_2019_T1_SHIFR, "gost89", "«Шифр+» v2", 58.23, 44.65),
    q(&SOVYN_2019_T1_CPPCRYPTO, "kalyna-128-128", "cppcrypto VC++2015 / gcc 5.2 / clang 3.7: best gcc (19.55 / 14.83 / 16.99)", 14.83, 236.0),
    q(&SOVYN_2019_T1_CPPCRYPTO, "kalyna-128-256", "cppcrypto VC++2015 / gcc 5.2 / clang 3.7: best gcc (26.52 / 20.00 / 23.65)", 20.00, 175.0),
    q(&SOVYN_2019_T1_CPPCRYPTO, "kalyna-256-256", "cppcrypto VC++2015 / gcc 5.2 / clang 3.7: best gcc (19.77 / 16.99 / 20.96)", 16.99, 206.0),
    q(&SOVYN_2019_T1_CPPCRYPTO, "kalyna-256-512", "cppcrypto VC++2015 / gcc 5.2 / clang 3.7: best VC++ (25.00 / 25.93 / 26.72)", 25.00, 140.0),
    q(&SOVYN_2019_T1_CPPCRYPTO, "kalyna-512-512", "cppcrypto VC++2015 / gcc 5.2 / clang 3.7: best VC++ (22.58 / 28.23 / 29.41)", 22.58, 155.0),
    q(&SOVYN_2019_T2, "gost89", "Poly GPR", 83.87, 31.0),
    q(&SOVYN_2019_T2, "gost89", "Table 4Kb (8-bit tables)", 50.00, 52.0),
    q(&SOVYN_2019_T2, "gost89", "Poly SSE2", 22.22, 117.0),
    q(&SOVYN_2019_T2, "gost89", "SSSE3/AVX", 6.93, 375.0),
    q(&SOVYN_2019_REF3, "gost89", "GPR, 8-bit tables, 1 block", 60.0, NA),
    q(&SOVYN_2019_REF3, "gost89", "GPR, 8-bit tables, 2 blocks", 30.0, NA),
    q(&SOVYN_2019_REF3, "gost89", "AVX", 8.5, NA),
    q(&SOVYN_2019_REF3, "gost89", "AVX2 (Haswell)", 6.7, NA),
    q(&MAGMA_KUZNYECHIK_LUT_T1_REFS, "magma", "algorithmic optimization [3]", NA, 60.0),
    q(&MAGMA_KUZNYECHIK_LUT_T1_REFS, "magma", "assembler insert [3]", NA, 85.0),
    q(&MAGMA_KUZNYECHIK_LUT_T2_REF5, "kuznyechik", "implementation of [5]", NA, 30.0),
    q(&WU_2019_256, "ublock-128-128", "designers' SSE code", 13.1, 1641.0 / 8.0),
    qd(&WU_2019_256, "ublock-128-128", "designers' SSE code", 13.0, 1670.0 / 8.0),
    q(&WU_2019_256, "ublock-128-256", "designers' SSE code", 21.1, 1056.0 / 8.0),
    qd(&WU_2019_256, "ublock-128-256", "designers' SSE code", 20.1, 1098.0 / 8.0),
    q(&WU_2019_256, "ublock-256-256", "designers' SSE code", 17.1, 1268.0 / 8.0),
    qd(&WU_2019_256, "ublock-256-256", "designers' SSE code", 16.8, 1276.0 / 8.0),
];

/// The backend the library picks for `cipher` on this CPU.
pub fn default_backend(cipher: &str) -> Option<&'static str> {
    let id = multiblock::CipherId::from_name(cipher).ok()?;
    multiblock::backends(id.name()).ok()?.into_iter().find(|b| b.is_default).map(|b| b.info.name)
}
