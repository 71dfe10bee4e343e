//! MULTIBLOCK_BACKEND handling. One test function, because the environment
//! is shared by every thread of this test binary.

use cipher::{BlockCipherEncrypt, KeyInit};
use multiblock::{backends, Cipher, CipherId, Error};

#[test]
fn backend_environment_variable() {
    let key = [7u8; 64];
    for id in CipherId::ALL {
        let key = &key[..id.key_bytes()];
        // A preference list: the first name this cipher has and the CPU runs wins.
        std::env::set_var("MULTIBLOCK_BACKEND", "no-such,reference");
        assert_eq!(Cipher::with_id(id, key, None, Default::default()).unwrap().backend().name, "reference");

        // Nothing usable in the list: an error naming the first entry.
        std::env::set_var("MULTIBLOCK_BACKEND", "no-such");
        match Cipher::with_id(id, key, None, Default::default()) {
            Err(Error::UnknownBackend { name, .. }) => assert_eq!(name, "no-such"),
            other => panic!("{id}: {:?}", other.map(|c| c.backend())),
        }

        // An explicit name beats the environment.
        let c = Cipher::new(id.name(), key, None, Some("reference")).unwrap();
        assert_eq!(c.backend().name, "reference");

        // Unset: the default of `backends()`.
        std::env::remove_var("MULTIBLOCK_BACKEND");
        let default = backends(id.name()).unwrap().into_iter().find(|b| b.is_default).unwrap();
        assert_eq!(Cipher::with_id(id, key, None, Default::default()).unwrap().backend().name, default.info.name);
    }

    // KeyInit cannot fail: a bad variable falls back to the default backend.
    std::env::set_var("MULTIBLOCK_BACKEND", "no-such");
    let k = multiblock::kuznyechik::Kuznyechik::new(&[1u8; 32].into());
    let mut block = [0u8; 16].into();
    k.encrypt_block(&mut block);
    let mut expect = [0u8; 16];
    Cipher::new("kuznyechik", &[1u8; 32], None, Some("reference")).unwrap().encrypt_blocks(&mut expect).unwrap();
    assert_eq!(block.as_slice(), &expect);
    std::env::remove_var("MULTIBLOCK_BACKEND");
}
