//! The RFC 7836 key derivation functions and TLSTREE (`mb_kdf`,
//! `mb_kdf_tree`, `mb_tlstree`, `mb_tlstree_new/_key/_free`) over the
//! library's `kdf` module: KDF_GOSTR3411_2012_256 (RFC 7836 §4.5),
//! KDF_TREE_GOSTR3411_2012_256 (RFC 7836 §4.4) and the per-record keys of
//! the GOST TLS suites (RFC 9189 §8.1, RFC 9367 §4.1.2).

use std::ffi::{c_char, c_int};

use multiblock::kdf::{self, Suite, TlsTree};

use crate::args::{self, Output};
use crate::status::{guard, Failure, MB_ERR_KEY_LENGTH, MB_ERR_PARAM};

/// The size of every key the KDFs and TLSTREE take and give.
const KEY_BYTES: usize = 32;

/// The 256-bit key of a KDF (RFC 7836 §4.4, §4.5: K_in is 256 bits) at
/// `key`, named `function` in the error.
///
/// # Safety
/// `key` is NULL or points at `key_len` readable bytes.
unsafe fn kdf_key<'a>(function: &str, key: *const u8, key_len: usize) -> Result<&'a [u8], Failure> {
    // SAFETY: passed on.
    let key = unsafe { args::bytes(key, key_len, "key") }?;
    if key.len() != KEY_BYTES {
        return Err(Failure::new(MB_ERR_KEY_LENGTH, format!("{function} needs a key of {KEY_BYTES} bytes, got {key_len}")));
    }
    Ok(key)
}

/// What `mb_tlstree *` points at: the tree caches each level's key, which
/// the library wipes on drop.
pub struct MbTlsTree {
    tree: TlsTree,
}

/// The suite named by the C string `suite` (one of [`Suite::name`]'s names).
///
/// # Safety
/// `suite` is NULL or NUL-terminated.
unsafe fn suite(suite: *const c_char) -> Result<Suite, Failure> {
    // SAFETY: passed on.
    let name = unsafe { args::name(suite, "suite") }?;
    Suite::ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| {
        let known: Vec<&str> = Suite::ALL.iter().map(|s| s.name()).collect();
        Failure::new(MB_ERR_PARAM, format!("unknown TLSTREE suite {name:?} (known: {})", known.join(", ")))
    })
}

/// The 32-byte root key at `root`.
///
/// # Safety
/// `root` is NULL or points at `root_len` readable bytes.
unsafe fn root_key(root: *const u8, root_len: usize) -> Result<[u8; KEY_BYTES], Failure> {
    // SAFETY: passed on.
    let root = unsafe { args::bytes(root, root_len, "root") }?;
    root.try_into().map_err(|_| {
        Failure::new(MB_ERR_KEY_LENGTH, format!("a TLSTREE root key is {KEY_BYTES} bytes, got {root_len}"))
    })
}

/// # Safety
/// See `mb_kdf` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kdf(
    key: *const u8,
    key_len: usize,
    label: *const u8,
    label_len: usize,
    seed: *const u8,
    seed_len: usize,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let output = unsafe { Output::new(out, out_len) }?;
        let key = unsafe { kdf_key("mb_kdf", key, key_len) }?;
        let label = unsafe { args::bytes(label, label_len, "label") }?;
        let seed = unsafe { args::bytes(seed, seed_len, "seed") }?;
        let derived = kdf::kdf_gostr3411_2012_256(key, label, seed);
        // SAFETY: checked in Output::new; `derived` is our own memory.
        unsafe { output.write(&derived[..]) }
    })
}

/// # Safety
/// See `mb_kdf_tree` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_kdf_tree(
    key: *const u8,
    key_len: usize,
    label: *const u8,
    label_len: usize,
    seed: *const u8,
    seed_len: usize,
    r: usize,
    out: *mut u8,
    out_len: usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let key = unsafe { kdf_key("mb_kdf_tree", key, key_len) }?;
        let label = unsafe { args::bytes(label, label_len, "label") }?;
        let seed = unsafe { args::bytes(seed, seed_len, "seed") }?;
        args::fits_object::<u8>(out_len, "out_len")?;
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        // Derived into our own buffer first: `out` may overlap an input.
        let mut derived = zeroize::Zeroizing::new(vec![0u8; out_len]);
        kdf::kdf_tree_gostr3411_2012_256(key, label, seed, r, &mut derived)?;
        // SAFETY: `out` points at `out_len` writable bytes (the contract); the source is ours.
        unsafe { std::ptr::copy_nonoverlapping(derived.as_ptr(), out, out_len) };
        Ok(())
    })
}

/// # Safety
/// See `mb_tlstree` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_tlstree(
    suite_name: *const c_char,
    root: *const u8,
    root_len: usize,
    seqnum: u64,
    out: *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY (every read): the header's contract on the arguments.
        let output = unsafe { Output::new(out, out_len) }?;
        let suite = unsafe { suite(suite_name) }?;
        let root = zeroize::Zeroizing::new(unsafe { root_key(root, root_len) }?);
        let key = kdf::tlstree(&root, suite, seqnum);
        // SAFETY: checked in Output::new; `key` is our own memory.
        unsafe { output.write(&key[..]) }
    })
}

/// # Safety
/// See `mb_tlstree_new` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_tlstree_new(
    out: *mut *mut MbTlsTree,
    suite_name: *const c_char,
    root: *const u8,
    root_len: usize,
) -> c_int {
    guard(|| {
        let make = || {
            // SAFETY (both reads): the header's contract on these arguments.
            let suite = unsafe { suite(suite_name) }?;
            let root = zeroize::Zeroizing::new(unsafe { root_key(root, root_len) }?);
            Ok(MbTlsTree { tree: TlsTree::new(&root, suite) })
        };
        // SAFETY: `out` is NULL or points at a writable pointer (the contract).
        unsafe { args::new_handle(out, make) }
    })
}

/// # Safety
/// See `mb_tlstree_key` in include/multiblock.h.
#[no_mangle]
pub unsafe extern "C" fn mb_tlstree_key(tree: *mut MbTlsTree, seqnum: u64, out: *mut u8, out_len: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: the header's contract on `out`, `out_len`.
        let output = unsafe { Output::new(out, out_len) }?;
        // SAFETY: a live handle or NULL (the contract).
        let t = unsafe { tree.as_mut() }.ok_or_else(|| Failure::null("tree"))?;
        let key = t.tree.key(seqnum);
        // SAFETY: checked in Output::new; the key lives in the handle, which no caller buffer overlaps.
        unsafe { output.write(&key[..]) }
    })
}

/// Frees a tree (its keys are wiped); NULL is ignored.
///
/// # Safety
/// `tree` is NULL or a live handle, not used again afterwards.
#[no_mangle]
pub unsafe extern "C" fn mb_tlstree_free(tree: *mut MbTlsTree) {
    // SAFETY: passed on.
    unsafe { args::free_handle(tree) }
}
