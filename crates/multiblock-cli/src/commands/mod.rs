pub mod crypt;
pub mod crypt_kw;
pub mod crypt_stream;
pub mod info;
pub mod mac_files;
pub mod selftest;
