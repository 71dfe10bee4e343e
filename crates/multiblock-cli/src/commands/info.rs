//! `info`: what this CPU has and which backend each cipher uses.

use crate::{out, Failure};
use multiblock::{backends, CipherId, CpuFeatures};

/// The CPU's model name from /proc/cpuinfo (Linux), if any.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

pub fn run() -> Result<(), Failure> {
    out::line(format!("cpu: {}", cpu_model()))?;
    out::line(format!("features: {}", CpuFeatures::get().names().join(" ")))?;
    if let Ok(v) = std::env::var(multiblock::cpu::BACKEND_ENV) {
        out::line(format!("{}={v} (overrides the default)", multiblock::cpu::BACKEND_ENV))?;
    }
    out::line("")?;
    out::line(format!("{:<16} {:<14} {:<14} {:>5}  {}", "cipher", "backend", "constant-time", "ways", "status"))?;
    for id in CipherId::ALL {
        for b in backends(id.name()).map_err(Failure::input)? {
            let status = match (b.available, b.is_default) {
                (true, true) => "default".to_string(),
                (true, false) => "available".to_string(),
                (false, _) => format!("needs {}", b.info.needs),
            };
            out::line(format!(
                "{:<16} {:<14} {:<14} {:>5}  {}",
                id.name(),
                b.info.name,
                if b.info.constant_time { "yes" } else { "no" },
                b.info.ways,
                status
            ))?;
        }
    }
    Ok(())
}
