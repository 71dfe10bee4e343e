//! What the streaming engines have in common: [`StreamCore`], the one
//! interface `CipherStream` drives, and the adapter of the families'
//! sequential types to it. The parallel engines and the stream both build
//! on this module; neither imports the other's internals.

use super::threads::Pool;
use crate::Result;

/// One direction of one mode, fed whole `unit`s by `CipherStream`.
pub(crate) trait StreamCore: Send {
    /// `update` takes a multiple of this many bytes.
    fn unit(&self) -> usize;
    /// Bytes always kept back for `finish` (a padded decryption's last
    /// block, XTS's stolen block).
    fn hold(&self) -> usize {
        0
    }
    /// Transforms `data` in place.
    fn update(&mut self, data: &mut [u8], pool: &Pool) -> Result<()>;
    /// Transforms `src` into `dst` (the same length): a copy, then
    /// [`update`](StreamCore::update), unless the mode reads its input in
    /// the same pass (CTR).
    fn update_from(&mut self, src: &[u8], dst: &mut [u8], pool: &Pool) -> Result<()> {
        dst.copy_from_slice(src);
        self.update(dst, pool)
    }
    /// Whether [`update_from`](StreamCore::update_from) reads `src` in the
    /// pass that writes `dst` (no copy first).
    fn reads_in_pass(&self) -> bool {
        false
    }
    /// The output for the last bytes (fewer than `unit() + hold()`), with
    /// `total` the length of the whole input, for error messages.
    fn finish(self: Box<Self>, tail: Vec<u8>, total: u64, pool: &Pool) -> Result<Vec<u8>>;
}

/// A sequential streaming type of the families, adapted to [`StreamCore`].
pub(crate) struct Sequential<T> {
    pub(crate) mode: T,
    pub(crate) unit: usize,
    pub(crate) update: fn(&mut T, &mut [u8]) -> Result<()>,
    pub(crate) finish: fn(T, &mut [u8]) -> Result<()>,
}

impl<T: Send> StreamCore for Sequential<T> {
    fn unit(&self) -> usize {
        self.unit
    }

    fn update(&mut self, data: &mut [u8], _: &Pool) -> Result<()> {
        (self.update)(&mut self.mode, data)
    }

    fn finish(self: Box<Self>, mut tail: Vec<u8>, _: u64, _: &Pool) -> Result<Vec<u8>> {
        (self.finish)(self.mode, &mut tail)?;
        Ok(tail)
    }
}

/// A type whose `update` takes any split and needs no end.
pub(crate) fn any_split<T: Send + 'static>(mode: T, update: fn(&mut T, &mut [u8]) -> Result<()>) -> Box<dyn StreamCore> {
    Box::new(Sequential { mode, unit: 1, update, finish: |_, _| Ok(()) })
}
