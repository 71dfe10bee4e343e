//! Key material wiped as flat slices.

/// Implements `Zeroize` for a key type by wiping each named field, an array
/// of arrays, as one flat slice (one `memset` and a barrier; the derive
/// writes one volatile byte at a time, about a cycle per byte), `Drop` by
/// that wipe, and the `ZeroizeOnDrop` marker.
macro_rules! wiped_as_slices {
    ($ty:ty: $($field:ident),+) => {
        impl zeroize::Zeroize for $ty {
            fn zeroize(&mut self) {
                $(zeroize::Zeroize::zeroize(self.$field.as_flattened_mut());)+
            }
        }

        impl Drop for $ty {
            fn drop(&mut self) {
                zeroize::Zeroize::zeroize(self);
            }
        }

        impl zeroize::ZeroizeOnDrop for $ty {}
    };
}
pub(crate) use wiped_as_slices;
