//! The interface every Kupyna backend gives the hasher: the chaining
//! value ([`State`]) and the compression functions ([`KernelFns`]), below
//! the kernels and the hasher that picks one.

/// A chaining value: 8·cols bytes used (64 or 128), column-major.
pub(crate) type State = [u8; 128];

/// `compress` of `blocks[k]` into `states[k]` for each k.
pub(crate) type CompressMany = fn(cols: usize, states: &mut [State], blocks: &[&[u8]]);

/// A backend's compression code, as its backend gives it: a reference to
/// its functions, which a hasher keeps in a register-sized field (copying
/// the functions themselves into each new hasher stalled its first read on
/// the stores that wrote them).
pub(crate) type Kernel = &'static KernelFns;

/// A backend's compression functions. Every function handles both state
/// sizes (`cols` = 8 or 16) and only whole blocks.
pub(crate) struct KernelFns {
    /// For each whole block m of `blocks`: h ← T⊕(h ⊕ m) ⊕ T+(m) ⊕ h.
    pub(crate) compress: fn(cols: usize, h: &mut State, blocks: &[u8]),
    /// h ← T⊕(h) ⊕ h (the digest is its last bytes).
    pub(crate) output: fn(cols: usize, h: &mut State),
    /// `compress` of `blocks[k]` into `states[k]` for each k (one block each),
    /// where the backend gains by running them together.
    pub(crate) compress_many: Option<CompressMany>,
    /// `output` of each state, where the backend gains by running them
    /// together.
    pub(crate) output_many: Option<fn(cols: usize, states: &mut [State])>,
    /// How many messages `compress_many` runs at once (1 without it).
    pub(crate) lanes: usize,
    /// `compress` of whole blocks, then `output`, in one call, where the
    /// backend gains by keeping the state in its registers between them.
    pub(crate) finish: Option<fn(cols: usize, h: &mut State, blocks: &[u8])>,
}
