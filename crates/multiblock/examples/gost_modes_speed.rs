//! Speed of the GOST modes against plain ECB on the same backend, for one
//! message (default 1 MiB), best of a few runs, in TSC ticks per byte, and
//! the mode/ECB ratio. On a loaded machine (a shared VM) wall-clock ticks
//! include time spent preempted, so the ratio is taken from this thread's
//! CPU time (/proc/thread-self/schedstat, Linux) when it is readable.
//!
//! cargo run --release -p multiblock --example gost_modes_speed [BYTES] [REPS]

use multiblock::modes::{self, Mode, Params, Request};
use multiblock::hazmat;
use multiblock::{BackendChoice, Cipher, CipherId};

/// Nanoseconds this thread has run on a CPU, if the kernel says.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// (TSC ticks, CPU ns or 0) of one run of `f`.
fn run(mut f: impl FnMut()) -> (u64, u64) {
    let c = cpu_ns();
    let t = hazmat::ticks();
    f();
    let ticks = hazmat::ticks() - t;
    (ticks, cpu_ns().zip(c).map_or(0, |(b, a)| b - a))
}

fn best(reps: usize, mut f: impl FnMut()) -> u64 {
    (0..reps).map(|_| run(&mut f).0).min().unwrap()
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let bytes = args.first().copied().unwrap_or(1 << 20);
    let reps = args.get(1).copied().unwrap_or(3);
    let key = [0x5a; 32];
    let data = vec![0x33u8; bytes];
    for id in [CipherId::Magma, CipherId::Gost89, CipherId::Kuznyechik] {
        let n = id.block_bytes();
        let c = Cipher::with_id(id, &key, None, BackendChoice::Auto).unwrap();
        let mut buf = data.clone();
        let ecb = best(reps, || c.encrypt_blocks(&mut buf).unwrap());
        println!("{id} on {} ({} bytes): ecb {:.2} ticks/B", c.backend().name, bytes, ecb as f64 / bytes as f64);
        let iv = |len: usize| Some(vec![0x11; len]);
        let cases: Vec<(&str, Mode, Params, bool)> = if id == CipherId::Gost89 {
            vec![
                ("cnt", Mode::Cnt, Params { iv: iv(8), ..Params::default() }, true),
                ("cnt meshing", Mode::Cnt, Params { iv: iv(8), key_meshing: true, ..Params::default() }, true),
                ("cfb enc", Mode::Cfb, Params { iv: iv(8), ..Params::default() }, true),
                ("cfb dec", Mode::Cfb, Params { iv: iv(8), ..Params::default() }, false),
                ("cfb dec meshing", Mode::Cfb, Params { iv: iv(8), key_meshing: true, ..Params::default() }, false),
                ("mac (16 rounds, CT)", Mode::Mac, Params::default(), true),
            ]
        } else {
            vec![
                ("ctr", Mode::Ctr, Params { iv: iv(n / 2), ..Params::default() }, true),
                ("ctr-acpkm default N", Mode::CtrAcpkm, Params { iv: iv(n / 2), ..Params::default() }, true),
                ("ofb z=1", Mode::Ofb, Params { iv: iv(n), ..Params::default() }, true),
                ("ofb z=8", Mode::Ofb, Params { iv: iv(8 * n), ..Params::default() }, true),
                ("cbc enc z=1", Mode::Cbc, Params { iv: iv(n), ..Params::default() }, true),
                ("cbc enc z=8", Mode::Cbc, Params { iv: iv(8 * n), ..Params::default() }, true),
                ("cbc dec z=1", Mode::Cbc, Params { iv: iv(n), ..Params::default() }, false),
                ("cfb enc z=1", Mode::Cfb, Params { iv: iv(n), ..Params::default() }, true),
                ("cfb enc z=8", Mode::Cfb, Params { iv: iv(8 * n), ..Params::default() }, true),
                ("cfb dec", Mode::Cfb, Params { iv: iv(n), ..Params::default() }, false),
                ("mgm enc", Mode::Mgm, Params { iv: iv(n), ..Params::default() }, true),
                ("mgm dec", Mode::Mgm, Params { iv: iv(n), ..Params::default() }, false),
                ("mac", Mode::Mac, Params::default(), true),
                ("omac-acpkm", Mode::OmacAcpkm, Params::default(), true),
            ]
        };
        for (name, mode, params, enc) in cases {
            let req = Request { cipher: id, mode, key: &key, sbox: None, backend: BackendChoice::Auto, params };
            let input = if enc || mode == Mode::Cbc || mode == Mode::Cfb {
                data.clone()
            } else {
                modes::encrypt(&req, &data).unwrap()
            };
            // ECB and the mode alternate, so both see the same machine load;
            // best of `reps` runs, or of as many as fit in about a second.
            let (mut ecb_t, mut t, mut ecb_ns, mut ns) = (u64::MAX, u64::MAX, u64::MAX, u64::MAX);
            let started = std::time::Instant::now();
            let mut runs = 0;
            while runs < reps || (runs < 50 * reps && started.elapsed().as_millis() < 1000) {
                let (a, b) = run(|| c.encrypt_blocks(&mut buf).unwrap());
                (ecb_t, ecb_ns) = (ecb_t.min(a), ecb_ns.min(b));
                let (a, b) = run(|| {
                    let out = match (mode.kind(), enc) {
                        (modes::Kind::Mac, _) => modes::mac(&req, &input),
                        (_, true) => modes::encrypt(&req, &input),
                        (_, false) => modes::decrypt(&req, &input),
                    };
                    std::hint::black_box(out.unwrap());
                });
                (t, ns) = (t.min(a), ns.min(b));
                runs += 1;
            }
            let per = t as f64 / bytes as f64;
            let ecb_per = ecb_t as f64 / bytes as f64;
            let ratio = if ns > 0 && ecb_ns > 0 { ns as f64 / ecb_ns as f64 } else { per / ecb_per };
            println!("  {name:<22} {per:>9.2} ticks/B   ECB {ecb_per:>7.2}   {ratio:>6.2} x ECB (CPU time)");
        }
    }
}
