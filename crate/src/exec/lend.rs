//! Storage the render lends to a compiled module as its linear memory (docs/jit.md "Colours
//! stored by the module"): a render target whose module stores each quad's colour itself, with
//! no pass of its own over the batch. Only native builds with the compiling tier's runtime
//! (feature `jit`) on Unix make regions; elsewhere [`Region::new`] gives none.
//!
//! A [`Region`] is one address-space reservation of [`RESERVE`] bytes plus a [`GUARD`] of
//! inaccessible pages, as wasmtime reserves for its own memories: a memory of 64 KiB pages whose
//! reservation and guard cover every 32-bit address needs no bounds check on any access
//! (wasmtime-environ's `Memory::can_use_virtual_memory` and its static heaps; docs/perf-log.md,
//! 2026-12-06 22:50). Its first [`PREFIX`] bytes are the module's own working memory (rows,
//! constants, records); the render target's quads follow. Only the used part is readable and
//! writable, and untouched pages cost no memory.
//!
//! A region keeps the instance whose memory it is ([`Region::slot`]), so that no instance can
//! outlive the storage it writes: the instance is dropped first when the region is.

use std::any::Any;
use std::ptr::NonNull;
use std::sync::Mutex;

/// Address space reserved for a region's memory: every 32-bit address.
pub const RESERVE: usize = 4 << 30;
/// Inaccessible bytes after the reservation: an address plus a static offset up to this far
/// past it still faults instead of reaching another mapping.
pub const GUARD: usize = 2 << 30;
/// The module's own memory in front of the render target's quads. A module that needs more
/// does not store colours itself.
pub const PREFIX: usize = 16 << 20;
/// WebAssembly's page.
#[cfg(all(feature = "jit", unix, not(target_arch = "wasm32")))]
const PAGE: usize = 65536;

/// What a region's slot holds.
pub enum Slot {
    Empty,
    /// The instance made last on the region, waiting for its next batch.
    Kept(Box<dyn Any + Send>),
    /// An accelerator is using the instance now (a second one asking is refused).
    Lent,
}

/// A reservation whose first [`PREFIX`] + `bytes` bytes (rounded up to a page) are usable.
pub struct Region {
    base: NonNull<u8>,
    /// Bytes readable and writable from `base`: the module's memory size.
    mapped: usize,
    /// The instance whose memory this is (see the module's comment).
    pub slot: Mutex<Slot>,
}

// SAFETY: the region owns its mapping; the pointer is only dereferenced through `&self`/
// `&mut self` of the owners (`render::framebuffer::TargetQuads`) and by the instance kept in
// `slot`, which runs on one thread at a time (it is taken out of the slot to run).
unsafe impl Send for Region {}
unsafe impl Sync for Region {}

impl Region {
    /// No region: this system's mappings are not used.
    #[cfg(not(all(feature = "jit", unix, not(target_arch = "wasm32"))))]
    pub fn new(_bytes: usize) -> Option<Region> {
        None
    }

    /// A region with room for `bytes` bytes after the prefix, or None when the system refuses
    /// the mapping (the caller then keeps its storage on the heap).
    #[cfg(all(feature = "jit", unix, not(target_arch = "wasm32")))]
    pub fn new(bytes: usize) -> Option<Region> {
        let mapped = PREFIX.checked_add(bytes)?.checked_next_multiple_of(PAGE)?;
        if mapped > RESERVE {
            return None;
        }
        // SAFETY: an anonymous private mapping of fresh address space, no file; the result
        // is checked before use.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                RESERVE + GUARD,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        // SAFETY: `base..base + mapped` lies inside the mapping just made.
        let ok = unsafe { libc::mprotect(base, mapped, libc::PROT_READ | libc::PROT_WRITE) } == 0;
        let region = Region {
            base: NonNull::new(base.cast::<u8>())?,
            mapped,
            slot: Mutex::new(Slot::Empty),
        };
        // (Dropping a region unmaps it, also when the protection failed.)
        ok.then_some(region)
    }

    /// The start of the module's memory.
    pub fn base(&self) -> *mut u8 {
        self.base.as_ptr()
    }

    /// The module's memory size in bytes (prefix and data, whole pages).
    pub fn memory_bytes(&self) -> usize {
        self.mapped
    }

    /// The data after the prefix (fresh pages read as zeros).
    pub fn data(&self) -> *mut u8 {
        // SAFETY: `PREFIX < mapped`, inside the mapping.
        unsafe { self.base.as_ptr().add(PREFIX) }
    }

    /// Sets the first `bytes` bytes of the prefix to zero (a new instance's memory starts
    /// zeroed, as a fresh module memory does).
    pub fn clear_prefix(&self, bytes: usize) {
        // SAFETY: within the readable and writable part; no instance runs meanwhile (the caller
        // holds the slot as `Lent`).
        unsafe { std::ptr::write_bytes(self.base.as_ptr(), 0, bytes.min(PREFIX)) };
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // The instance first: it must not outlive its memory.
        if let Ok(mut s) = self.slot.lock() {
            *s = Slot::Empty;
        }
        // SAFETY: unmaps exactly the mapping made in `new`.
        #[cfg(all(feature = "jit", unix, not(target_arch = "wasm32")))]
        unsafe {
            libc::munmap(self.base.as_ptr().cast(), RESERVE + GUARD)
        };
    }
}

#[cfg(all(test, feature = "jit", unix, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn a_region_is_its_prefix_and_data_in_whole_pages_zeroed() {
        // 100 quads of 64 bytes: 6400 bytes after the prefix, one 64 KiB page.
        let r = Region::new(6400).expect("the system maps a region");
        assert_eq!(r.memory_bytes(), PREFIX + PAGE);
        assert_eq!(r.data() as usize - r.base() as usize, PREFIX);
        assert_eq!(r.base() as usize % PAGE, 0, "page-aligned (the quads need 64)");
        // SAFETY: the whole memory is readable and writable.
        let all = unsafe { std::slice::from_raw_parts_mut(r.base(), r.memory_bytes()) };
        assert!(all.iter().all(|&b| b == 0), "fresh pages read as zeros");
        all[..8].fill(7);
        all[PREFIX] = 9;
        r.clear_prefix(4);
        assert_eq!(&all[..8], &[0, 0, 0, 0, 7, 7, 7, 7], "clears exactly what it is asked");
        assert_eq!(all[PREFIX], 9, "the data is not the prefix");
    }

    #[test]
    fn a_region_too_large_for_its_reservation_is_refused() {
        assert!(Region::new(RESERVE).is_none());
        assert!(Region::new(usize::MAX - 10).is_none());
    }

    #[test]
    fn dropping_a_region_drops_what_its_slot_keeps() {
        struct Flag(std::sync::Arc<std::sync::atomic::AtomicBool>);
        impl Drop for Flag {
            fn drop(&mut self) {
                self.0.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let dropped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let r = Region::new(64).expect("region");
        if let Ok(mut s) = r.slot.lock() {
            *s = Slot::Kept(Box::new(Flag(dropped.clone())));
        }
        assert!(!dropped.load(std::sync::atomic::Ordering::SeqCst));
        drop(r);
        assert!(dropped.load(std::sync::atomic::Ordering::SeqCst), "the kept instance goes first");
    }
}
