pub mod bench;
pub mod bench_modes;
pub mod bench_threads;
pub mod crypt;
pub mod crypt_kw;
pub mod crypt_stream;
pub mod info;
pub mod selftest;
