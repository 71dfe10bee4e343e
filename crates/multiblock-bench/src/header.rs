//! The report's header: what machine the numbers come from.

use multiblock::{backends, CipherId, CpuFeatures};

pub struct Machine {
    pub cpu: String,
    /// The day of the run, UTC, as YYYY-MM-DD.
    pub date: String,
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
            cpu: crate::cpu::cpu_model(),
            date: today(),
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
            ("date".to_string(), format!("{} (UTC)", self.date)),
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

/// Today's date (UTC) from the system clock, as YYYY-MM-DD.
fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_date((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The Gregorian (year, month, day) of `days` after 1970-01-01: eras of
/// 400 years (146 097 days), years counted from March so that the leap
/// day falls last.
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::civil_date;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_000), (2024, 10, 4));
        assert_eq!(civil_date(-1), (1969, 12, 31));
    }
}
