//! The report's header: what machine the numbers come from.

use multiblock::{backends, CipherId, CpuFeatures};

pub struct Machine {
    pub cpu: String,
    pub features: String,
    /// TSC ticks per second, measured against the monotonic clock.
    pub tsc_hz: f64,
    /// /proc/loadavg's 1-minute figure and the number of CPUs, if known:
    /// a loaded machine makes absolute figures unreliable (ratios hold better).
    pub load: Option<(f64, usize)>,
    /// Each cipher's default backend, e.g. "gost89: avx2".
    pub defaults: Vec<(CipherId, &'static str)>,
}

impl Machine {
    pub fn detect(tsc_hz: f64) -> Machine {
        let load = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|s| s.split_whitespace().next().and_then(|x| x.parse().ok()))
            .map(|l| (l, std::thread::available_parallelism().map_or(1, |n| n.get())));
        let defaults = CipherId::ALL
            .iter()
            .filter_map(|&id| {
                let list = backends(id.name()).ok()?;
                list.iter().find(|b| b.is_default).map(|b| (id, b.info.name))
            })
            .collect();
        Machine {
            cpu: crate::commands::info::cpu_model(),
            features: CpuFeatures::get().names().join(" "),
            tsc_hz,
            load,
            defaults,
        }
    }

    /// "key: value" lines.
    pub fn lines(&self) -> Vec<(String, String)> {
        let mut v = vec![
            ("CPU".to_string(), self.cpu.clone()),
            ("features".to_string(), self.features.clone()),
            ("TSC".to_string(), format!("{:.3} GHz (measured against the monotonic clock)", self.tsc_hz / 1e9)),
        ];
        if let Some((l, n)) = self.load {
            v.push(("load".to_string(), format!("{l:.2} (1-minute average) on {n} CPUs")));
        }
        let defaults: Vec<String> = self.defaults.iter().map(|(id, b)| format!("{id} {b}")).collect();
        v.push(("defaults".to_string(), defaults.join(", ")));
        v
    }
}
