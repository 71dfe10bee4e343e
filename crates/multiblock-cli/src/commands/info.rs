//! `info`: what this CPU has and which backend each cipher and hash uses.

use crate::cpu::cpu_model;
use crate::{out, Failure};
use multiblock::hash::{HashId, Hasher};
use multiblock::{backends, BackendStatus, CipherId, CpuFeatures};

pub fn run() -> Result<(), Failure> {
    out::line(format!("cpu: {}", cpu_model()))?;
    out::line(format!("features: {}", CpuFeatures::get().names().join(" ")))?;
    let (class, chosen) = multiblock::core_class();
    out::line(format!(
        "kernel forms for: {class}{}",
        if chosen { format!(" (set by {})", multiblock::CORE_ENV) } else { String::new() }
    ))?;
    let disabled = multiblock::disabled_features();
    if !disabled.is_empty() {
        out::line(format!(
            "{}: treated as absent: {}",
            multiblock::DISABLE_ENV,
            if disabled.len() == CpuFeatures::NAMES.len() { "all".to_string() } else { disabled.join(" ") }
        ))?;
    }
    let env = std::env::var(multiblock::BACKEND_ENV).ok().filter(|v| !v.trim().is_empty());
    if let Some(v) = &env {
        out::line(format!(
            "{}={v}: a preference list; \"env\" below marks what it selects (the status column)",
            multiblock::BACKEND_ENV
        ))?;
    }
    out::line("")?;
    out::line(format!("{:<16} {:<18} {:<14} {:>5}  {}", "cipher", "backend", "constant-time", "ways", "status"))?;
    for id in CipherId::ALL {
        // What the environment selects (`None`: unset; an error: a typo).
        let chosen = multiblock::env_backend(id.name()).map_err(Failure::input)?.map(|b| b.name);
        rows(id.name(), &backends(id.name()).map_err(Failure::input)?, chosen, env.as_deref())?;
    }
    out::line("")?;
    out::line(format!("{:<16} {:<18} {:<14} {:>5}  {}", "hash", "backend", "constant-time", "ways", "status"))?;
    for id in HashId::NAMED {
        // The backend a hasher gets is the default or what the environment selects.
        let chosen = match env {
            Some(_) => Some(Hasher::new(id).map_err(|e| Failure::Input(format!("{id}: {e}")))?.backend().name),
            None => None,
        };
        rows(&id.to_string(), &multiblock::hash::backends(id), chosen, env.as_deref())?;
    }
    Ok(())
}

/// The lines of one cipher's or hash's backends; `chosen`: what
/// `MULTIBLOCK_BACKEND` (the list `env`) selects for it.
fn rows(name: &str, list: &[BackendStatus], chosen: Option<&str>, env: Option<&str>) -> Result<(), Failure> {
    let listed = |backend: &str| env.is_some_and(|l| l.split(',').any(|n| n.trim() == backend));
    for b in list {
        let status = match (b.available, b.is_default, chosen) {
            (true, true, None) => "default".to_string(),
            (true, true, Some(c)) if c == b.info.name && !listed(c) => "default (env lists none of its backends)".to_string(),
            (true, _, Some(c)) if c == b.info.name => {
                let ct = if b.info.constant_time { "" } else { ", NOT constant-time" };
                let default = if b.is_default { " (also the default)" } else { "" };
                format!("env{default}{ct}")
            }
            (true, true, Some(_)) => "default (overridden by env)".to_string(),
            (true, false, _) => "available".to_string(),
            (false, _, _) => format!("needs {}", b.info.needs),
        };
        out::line(format!(
            "{:<16} {:<18} {:<14} {:>5}  {}",
            name,
            b.info.name,
            if b.info.constant_time { "yes" } else { "no" },
            b.info.ways,
            status
        ))?;
    }
    Ok(())
}
