pub mod bench;
pub mod bench_modes;
pub mod bench_short;
pub mod crypt;
pub mod info;
pub mod selftest;
#[cfg(feature = "peers")]
pub mod peers;
