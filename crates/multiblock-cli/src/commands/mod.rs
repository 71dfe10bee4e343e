pub mod bench;
pub mod bench_modes;
pub mod crypt;
pub mod info;
pub mod selftest;
