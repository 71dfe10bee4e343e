//! The CPU's name, for `info` and the benchmark report's header.

/// The CPU's model name from /proc/cpuinfo (Linux) with its family and
/// model numbers, e.g. "AMD EPYC (family 25, model 17)": a VM's model name
/// alone often does not say which generation of core it runs on.
pub fn cpu_model() -> String {
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else { return std::env::consts::ARCH.to_string() };
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
    };
    let name = field("model name").unwrap_or_else(|| std::env::consts::ARCH.to_string());
    match (field("cpu family"), field("model")) {
        (Some(family), Some(model)) => format!("{name} (family {family}, model {model})"),
        _ => name,
    }
}
