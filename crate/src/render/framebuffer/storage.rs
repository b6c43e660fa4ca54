//! An RGBA32F render target's quads: on the heap, or natively (feature `jit`, Unix) the first
//! target in a region a compiled module can take as its memory and store colours into
//! (`exec::lend`, docs/jit.md "Colours stored by the module"). Both read as `[QuadPixels]`.

use super::QuadPixels;
use std::ops::{Deref, DerefMut};

use crate::exec::lend::Region;
use std::sync::Arc;

/// The fewest quads a target is lent for (a 64x64 picture, the conformance corpus's size): the
/// module that stores colours is compiled once more per program and instantiated once per
/// target, which a smaller picture does not repay.
pub const MIN_LENT_QUADS: usize = 32 * 32;

/// A render target's quads.
pub struct TargetQuads {
    quads: usize,
    store: Store,
}

enum Store {
    Heap(Vec<QuadPixels>),
    Lendable(Arc<Region>),
}

impl TargetQuads {
    /// `quads` cleared quads on the heap.
    pub fn heap(quads: usize) -> TargetQuads {
        TargetQuads { quads, store: Store::Heap(vec![QuadPixels::default(); quads]) }
    }

    /// `quads` cleared quads that a compiled module can be lent, where the build and the system
    /// allow it and there are at least [`MIN_LENT_QUADS`]; on the heap otherwise.
    pub fn lendable(quads: usize) -> TargetQuads {
        TargetQuads::lendable_from(quads, MIN_LENT_QUADS)
    }

    /// [`TargetQuads::lendable`] with another minimum.
    pub fn lendable_from(quads: usize, min_quads: usize) -> TargetQuads {
        if quads >= min_quads {
            let bytes = quads * std::mem::size_of::<QuadPixels>();
            if let Some(r) = Region::new(bytes) {
                return TargetQuads { quads, store: Store::Lendable(Arc::new(r)) };
            }
        }
        TargetQuads::heap(quads)
    }

    /// The region holding the quads, when they can be lent.
    pub fn region(&self) -> Option<&Arc<Region>> {
        match &self.store {
            Store::Lendable(r) => Some(r),
            Store::Heap(_) => None,
        }
    }
}

impl Deref for TargetQuads {
    type Target = [QuadPixels];
    fn deref(&self) -> &[QuadPixels] {
        match &self.store {
            Store::Heap(v) => v,
            // SAFETY: the region holds `quads` quads from `data()` (64-aligned: the mapping is
            // page-aligned and the prefix a multiple of 64), alive as long as `self`; a module
            // writes them only during a run, while no reference from here is held (the render
            // holds the framebuffer, not its quads, across a fused run).
            Store::Lendable(r) => unsafe {
                std::slice::from_raw_parts(r.data().cast::<QuadPixels>(), self.quads)
            },
        }
    }
}

impl DerefMut for TargetQuads {
    fn deref_mut(&mut self) -> &mut [QuadPixels] {
        match &mut self.store {
            Store::Heap(v) => v,
            // SAFETY: as in `deref`; `&mut self` excludes every other reference from here.
            Store::Lendable(r) => unsafe {
                std::slice::from_raw_parts_mut(r.data().cast::<QuadPixels>(), self.quads)
            },
        }
    }
}

impl Clone for TargetQuads {
    /// A copy on the heap (a clone is never lent).
    fn clone(&self) -> TargetQuads {
        TargetQuads { quads: self.quads, store: Store::Heap(self.to_vec()) }
    }
}

impl std::fmt::Debug for TargetQuads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TargetQuads").field("quads", &self.quads).finish()
    }
}
