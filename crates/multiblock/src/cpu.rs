//! CPU feature detection: which instruction-set extensions this CPU has
//! (minus those `MULTIBLOCK_DISABLE` hides), and which core design it is
//! where that changes the fastest code. Choosing a backend from these is
//! `backend.rs`'s job.

use std::sync::OnceLock;

/// The features whose fields are listed, each set by `std::arch::$detect!`
/// of its name; the rest `false`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! detected {
    ($detect:ident: $($field:ident $name:tt),* $(,)?) => {
        CpuFeatures { $($field: std::arch::$detect!($name),)* ..CpuFeatures::default() }
    };
}

/// The instruction-set extensions the backends care about, each `true`
/// when the CPU has it and the OS enabled it (fields named as in
/// `is_x86_feature_detected!` and, for aarch64, `is_aarch64_feature_detected!`;
/// `aes` is either architecture's).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[allow(missing_docs)] // one flag per extension, named by it
pub struct CpuFeatures {
    pub sse2: bool,
    pub ssse3: bool,
    pub sse41: bool,
    pub avx: bool,
    pub avx2: bool,
    pub bmi2: bool,
    pub aes: bool,
    pub pclmulqdq: bool,
    pub avx512f: bool,
    pub avx512bw: bool,
    pub avx512vl: bool,
    pub avx512vbmi: bool,
    pub avx512vbmi2: bool,
    pub gfni: bool,
    pub vaes: bool,
    pub vpclmulqdq: bool,
    pub neon: bool,
    pub pmull: bool,
    pub sha3: bool,
}

impl CpuFeatures {
    /// Features of the running CPU (and enabled by the OS), detected once,
    /// less those `MULTIBLOCK_DISABLE` names ([`disabled_features`]).
    ///
    /// Every feature test in the library goes through here (backend
    /// availability, `Machine::detect`, the key schedules' and the GF
    /// multipliers' SIMD paths), so a disabled feature is absent
    /// everywhere: what `info` reports is what runs.
    pub fn get() -> &'static CpuFeatures {
        static DETECTED: OnceLock<CpuFeatures> = OnceLock::new();
        DETECTED.get_or_init(|| Self::detect().without(disabled_features()))
    }

    /// Every feature name, in the order of the struct.
    pub const NAMES: [&'static str; 19] = [
        "sse2", "ssse3", "sse4.1", "avx", "avx2", "bmi2", "aes", "pclmulqdq", "avx512f", "avx512bw", "avx512vl",
        "avx512vbmi", "avx512vbmi2", "gfni", "vaes", "vpclmulqdq", "neon", "pmull", "sha3",
    ];

    /// The flags in the order of [`CpuFeatures::NAMES`].
    fn flags_mut(&mut self) -> [&mut bool; 19] {
        [
            &mut self.sse2,
            &mut self.ssse3,
            &mut self.sse41,
            &mut self.avx,
            &mut self.avx2,
            &mut self.bmi2,
            &mut self.aes,
            &mut self.pclmulqdq,
            &mut self.avx512f,
            &mut self.avx512bw,
            &mut self.avx512vl,
            &mut self.avx512vbmi,
            &mut self.avx512vbmi2,
            &mut self.gfni,
            &mut self.vaes,
            &mut self.vpclmulqdq,
            &mut self.neon,
            &mut self.pmull,
            &mut self.sha3,
        ]
    }

    /// These features with the `names` ([`CpuFeatures::NAMES`]) cleared.
    pub fn without(mut self, names: &[&str]) -> CpuFeatures {
        for (flag, name) in self.flags_mut().into_iter().zip(Self::NAMES) {
            if names.contains(&name) {
                *flag = false;
            }
        }
        self
    }

    #[cfg(target_arch = "x86_64")]
    fn detect() -> CpuFeatures {
        detected!(is_x86_feature_detected: sse2 "sse2", ssse3 "ssse3", sse41 "sse4.1", avx "avx", avx2 "avx2",
            bmi2 "bmi2", aes "aes", pclmulqdq "pclmulqdq", avx512f "avx512f", avx512bw "avx512bw",
            avx512vl "avx512vl", avx512vbmi "avx512vbmi", avx512vbmi2 "avx512vbmi2", gfni "gfni", vaes "vaes",
            vpclmulqdq "vpclmulqdq")
    }

    #[cfg(target_arch = "aarch64")]
    fn detect() -> CpuFeatures {
        detected!(is_aarch64_feature_detected: neon "neon", aes "aes", pmull "pmull", sha3 "sha3")
    }

    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    fn detect() -> CpuFeatures {
        CpuFeatures::default()
    }

    /// The names of the detected features, in the order of the struct.
    pub fn names(&self) -> Vec<&'static str> {
        let mut copy = *self;
        copy.flags_mut().into_iter().zip(Self::NAMES).filter(|(on, _)| **on).map(|(_, n)| n).collect()
    }
}

/// The classes of CPU whose crossovers between a narrow (one block's
/// latency) and a wide (throughput) kernel differ, detected once. The same
/// instruction costs differently by maker and generation, and where a
/// family has two constant-time forms of a job the faster one can depend
/// on it. Which form runs depends on this and on public lengths only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Core {
    /// Intel (Ice Lake and later among the AVX-512 CPUs): a 512-bit `vpermb`
    /// is one µop of 3 cycles, while a 256-bit `vpermi2b` is three µops of
    /// 4-5 cycles.
    Intel,
    /// AMD before family 26, Zen 4 among the AVX-512 CPUs, and every other
    /// maker: 512-bit operations run as two 256-bit halves, and the 512-bit
    /// shuffles are the slower ones (5 against 4 cycles).
    AmdHalfZmm,
    /// AMD family 26 and later (Zen 5): 512-bit operations at full width,
    /// every simple vector operation 2 cycles (`vpermi2b` 3 / 4 / 5 on
    /// xmm / ymm / zmm; measured on an EPYC VM, README "On AMD Zen 5").
    AmdFullZmm,
}

impl Core {
    /// The names [`CORE_ENV`] takes, in the order of the variants.
    pub(crate) const NAMES: [&'static str; 3] = ["intel", "amd-half-zmm", "amd-full-zmm"];

    fn from_name(name: &str) -> Option<Core> {
        match name.trim().to_ascii_lowercase().as_str() {
            "intel" => Some(Core::Intel),
            "amd-half-zmm" => Some(Core::AmdHalfZmm),
            "amd-full-zmm" => Some(Core::AmdFullZmm),
            _ => None,
        }
    }
}

/// The environment variable that names the class of core (`intel`,
/// `amd-half-zmm` or `amd-full-zmm`) whose forms of the kernels run, in
/// place of the detected one: to test, trace and time every form on any
/// machine. Each form is constant-time; which instructions the CPU has is
/// still detected. An unknown name gets a one-line warning and is ignored.
pub const CORE_ENV: &str = "MULTIBLOCK_CORE";

/// The class of core whose forms of the kernels run (as [`CORE_ENV`]
/// spells it), and whether [`CORE_ENV`] chose it.
pub fn core_class() -> (&'static str, bool) {
    let (core, chosen) = core_and_source();
    (Core::NAMES[core as usize], chosen)
}

/// This CPU's [`Core`] class, from CPUID leaves 0 (maker) and 1 (family),
/// or as [`CORE_ENV`] names it.
pub(crate) fn core() -> Core {
    core_and_source().0
}

/// [`core`], and whether [`CORE_ENV`] chose it; read once per process.
fn core_and_source() -> (Core, bool) {
    static CORE: OnceLock<(Core, bool)> = OnceLock::new();
    *CORE.get_or_init(|| {
        if let Some(name) = std::env::var(CORE_ENV).ok().filter(|v| !v.trim().is_empty()) {
            match Core::from_name(&name) {
                Some(core) => return (core, true),
                None => eprintln!(
                    "multiblock: warning: {CORE_ENV}: unknown class of core {:?} ignored (known: {})",
                    name.trim(),
                    Core::NAMES.join(", ")
                ),
            }
        }
        (detected_core(), false)
    })
}

/// This CPU's [`Core`] class as CPUID gives it.
fn detected_core() -> Core {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        let id = __cpuid(0);
        // The 12-byte vendor string is EBX, EDX, ECX.
        let vendor = [id.ebx, id.edx, id.ecx];
        if vendor == [*b"Genu", *b"ineI", *b"ntel"].map(u32::from_le_bytes) {
            return Core::Intel;
        }
        let amd = vendor == [*b"Auth", *b"enti", *b"cAMD"].map(u32::from_le_bytes);
        if amd && id.eax >= 1 {
            // Family: the base family (EAX bits 8-11), plus the extended
            // family (bits 20-27) when the base one is 15.
            let eax = __cpuid(1).eax;
            let base = (eax >> 8) & 0xf;
            let family = if base == 0xf { base + ((eax >> 20) & 0xff) } else { base };
            if family >= 0x1a {
                return Core::AmdFullZmm;
            }
        }
        Core::AmdHalfZmm
    }
    #[cfg(not(target_arch = "x86_64"))]
    Core::AmdHalfZmm
}

/// The environment variable whose comma-separated CPU feature names (as
/// [`CpuFeatures::NAMES`] spells them, or `all`) detection treats as
/// absent, like OpenSSL's `OPENSSL_ia32cap`: to test or use the fallbacks
/// on any machine.
pub const DISABLE_ENV: &str = "MULTIBLOCK_DISABLE";

/// The features `MULTIBLOCK_DISABLE` hides, read once per process. An
/// unknown name gets a one-line warning on stderr (naming the known ones)
/// and is ignored: detection has no caller to return an error to.
pub fn disabled_features() -> &'static [&'static str] {
    static DISABLED: OnceLock<Vec<&'static str>> = OnceLock::new();
    DISABLED.get_or_init(|| {
        let list = std::env::var(DISABLE_ENV).unwrap_or_default();
        let (names, unknown) = parse_disable(&list);
        if !unknown.is_empty() {
            eprintln!(
                "multiblock: warning: {DISABLE_ENV}: unknown CPU feature(s) {} ignored (known: all, {})",
                unknown.join(", "),
                CpuFeatures::NAMES.join(", ")
            );
        }
        names
    })
}

/// The known feature names of a `MULTIBLOCK_DISABLE` list (`all`: every
/// one), and the unknown ones. Names are trimmed and case-insensitive.
fn parse_disable(list: &str) -> (Vec<&'static str>, Vec<String>) {
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for name in list.split(',').map(|n| n.trim().to_ascii_lowercase()).filter(|n| !n.is_empty()) {
        if name == "all" {
            known.extend(CpuFeatures::NAMES);
        } else if let Some(&n) = CpuFeatures::NAMES.iter().find(|&&n| n == name) {
            known.push(n);
        } else {
            unknown.push(name);
        }
    }
    known.sort_unstable();
    known.dedup();
    (known, unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_names_parse() {
        for (name, core) in Core::NAMES.iter().zip([Core::Intel, Core::AmdHalfZmm, Core::AmdFullZmm]) {
            assert_eq!(Core::from_name(name), Some(core));
            assert_eq!(Core::from_name(&format!(" {} ", name.to_ascii_uppercase())), Some(core));
        }
        assert_eq!(Core::from_name("zen5"), None);
        assert_eq!(Core::from_name(""), None);
    }

    #[test]
    fn disable_list_parses_names_and_all() {
        assert_eq!(parse_disable(""), (vec![], vec![]));
        let (names, unknown) = parse_disable(" AVX2 ,gfni,,avx3 ");
        assert_eq!(names, ["avx2", "gfni"]);
        assert_eq!(unknown, ["avx3"]);
        let (names, unknown) = parse_disable("all,avx2");
        assert_eq!(names.len(), CpuFeatures::NAMES.len());
        assert!(unknown.is_empty());
    }

    #[test]
    fn without_clears_exactly_the_named_features() {
        let mut every = CpuFeatures::default();
        every.flags_mut().into_iter().for_each(|f| *f = true);
        assert_eq!(every.names(), CpuFeatures::NAMES);
        let some = every.without(&["avx2", "gfni"]);
        assert!(!some.avx2 && !some.gfni && some.avx && some.avx512f);
        assert_eq!(some.names().len(), CpuFeatures::NAMES.len() - 2);
        assert_eq!(every.without(&CpuFeatures::NAMES), CpuFeatures::default());
    }

    #[test]
    fn detection_is_consistent() {
        let f = CpuFeatures::get();
        // The implications every real CPU obeys (and the OS checks keep).
        if f.avx2 {
            assert!(f.avx);
        }
        if f.avx512bw || f.avx512vbmi {
            assert!(f.avx512f);
        }
        #[cfg(target_arch = "x86_64")]
        #[cfg(target_arch = "x86_64")]
        assert!(f.sse2 || disabled_features().contains(&"sse2"), "every x86-64 CPU has SSE2");
        #[cfg(target_arch = "aarch64")]
        assert!(f.neon || disabled_features().contains(&"neon"), "every aarch64 Linux CPU has Advanced SIMD");
        assert_eq!(f.names().len(), [f.sse2, f.ssse3, f.sse41, f.avx, f.avx2, f.bmi2, f.aes, f.pclmulqdq,
            f.avx512f, f.avx512bw, f.avx512vl, f.avx512vbmi, f.avx512vbmi2, f.gfni, f.vaes, f.vpclmulqdq, f.neon, f.pmull,
            f.sha3]
            .iter().filter(|x| **x).count());
    }
}
