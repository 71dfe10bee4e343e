#[allow(dead_code)] // used by the hash API this file declares at merge
pub(crate) mod streebog;
