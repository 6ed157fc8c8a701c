//! The table's big arrays: zeroed memory, in huge pages when large, that
//! grows in place.
//!
//! A table of millions of entries is read at random places, one per lookup:
//! with 4 KB pages nearly every lookup also misses the address translation
//! cache.  On Linux a slab of at least [`HUGE`] bytes is mapped on its own
//! and the kernel is asked to back it with 2 MB pages (`madvise`; where huge
//! pages are not available the request changes nothing).
//!
//! A slab is made for the most values it will ever hold and shows a prefix
//! of them: growing the prefix takes no new mapping and no copy, and the
//! memory beyond the largest prefix shown so far comes zeroed from the
//! system, untouched (it costs no resident memory, and no kernel time to
//! zero it, until the table writes into it).  Memory shown once and hidden
//! again is zeroed by the slab when it is shown again.
//!
//! A mapping is not given back to the system when its slab is dropped but
//! kept for the next slab of the same size (the next search of the same
//! budget; a slab of another size releases them all): memory the process
//! has touched costs little to zero again, while fresh memory costs a page
//! fault and the kernel's zeroing, which on a virtual machine is dear
//! (0.9 ms a MB where measured, a quarter of a second for a large table).

use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::Mutex;

/// Arrays from this size up are mapped on their own, in huge pages.
pub const HUGE: usize = 2 << 20;

/// Mappings of dropped slabs kept for reuse: (address, bytes, bytes that
/// may be non-zero).  At most [`SPARES`]: two tables' arrays.
static SPARE: Mutex<Vec<(usize, usize, usize)>> = Mutex::new(Vec::new());
const SPARES: usize = 4;

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// The implementor promises that a value made of zero bytes is valid.
pub unsafe trait Zeroable: Copy {}

// SAFETY: zero is a valid value of every integer.
unsafe impl Zeroable for u32 {}

/// An array of up to `capacity` values of `T` whose all-zero value is
/// valid, showing the first `len`.
pub struct Slab<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    /// The most values ever shown: the rest is zero as the system gave it.
    shown: usize,
    layout: Layout,
    mapped: bool,
    _own: PhantomData<T>,
}

impl<T: Zeroable> Slab<T> {
    /// Room for up to `capacity` values (at least one), showing `len` zeroed
    /// ones.  Where the system refuses that much, the room is halved until
    /// it agrees (never below `len`): [`Slab::capacity`] says what it is.
    pub fn zeroed(capacity: usize, len: usize) -> Slab<T> {
        let mut capacity = capacity.max(len).max(1);
        loop {
            let layout = Layout::array::<T>(capacity).ok();
            if let Some((ptr, mapped, dirty)) = layout.and_then(allocate::<T>) {
                let dirty = dirty.div_ceil(std::mem::size_of::<T>());
                // SAFETY: the first min(len, dirty) values lie within the
                // allocation; zero bytes are a valid T.
                unsafe { ptr.as_ptr().write_bytes(0, dirty.min(len)) };
                return Slab {
                    ptr,
                    len,
                    shown: len.max(dirty),
                    layout: layout.expect("allocated"),
                    mapped,
                    _own: PhantomData,
                };
            }
            if capacity / 2 < len.max(1) {
                handle_alloc_error(layout.unwrap_or(Layout::new::<T>()))
            }
            capacity /= 2;
        }
    }

    /// The most values the slab holds.
    pub fn capacity(&self) -> usize {
        self.layout.size() / std::mem::size_of::<T>()
    }

    /// Shows the first `len` values (at most the capacity): those shown
    /// anew are zero.
    pub fn resize(&mut self, len: usize) {
        assert!(len <= self.capacity(), "a slab holds at most its capacity");
        if len > self.len {
            let stale = self.shown.min(len).saturating_sub(self.len);
            // SAFETY: len..len + stale lies within the allocation (below
            // `shown` <= capacity), and zero bytes are a valid T.
            unsafe { self.ptr.as_ptr().add(self.len).write_bytes(0, stale) };
            self.shown = self.shown.max(len);
        }
        self.len = len;
    }

    /// Zeroes the values shown.
    pub fn clear(&mut self) {
        // SAFETY: the first `len` values lie within the allocation; zero
        // bytes are a valid T.
        unsafe { self.ptr.as_ptr().write_bytes(0, self.len) };
    }

    /// Is the array mapped on its own (with huge pages asked for)?
    pub fn mapped(&self) -> bool {
        self.mapped
    }
}

/// Memory for `layout`, mapped on its own if large, and how many of its
/// first bytes may be non-zero (the rest is zero); None if the system
/// refuses it.
fn allocate<T>(layout: Layout) -> Option<(NonNull<T>, bool, usize)> {
    if layout.size() >= HUGE {
        if let Some((ptr, dirty)) = take_spare(layout.size()) {
            return Some((ptr.cast(), true, dirty));
        }
    }
    if let Some(ptr) = map_huge(layout.size()) {
        return Some((ptr.cast(), true, 0));
    }
    // SAFETY: the layout has a non-zero size (capacity >= 1, and the types
    // used are not zero-sized).
    let raw = unsafe { alloc_zeroed(layout) } as *mut T;
    NonNull::new(raw).map(|p| (p, false, 0))
}

/// A kept mapping of `bytes` and how many of its first bytes may be
/// non-zero; if there is none, every kept mapping is released.
fn take_spare(bytes: usize) -> Option<(NonNull<u8>, usize)> {
    let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = spare.iter().position(|s| s.1 == bytes) {
        let (addr, _, dirty) = spare.remove(i);
        return NonNull::new(addr as *mut u8).map(|p| (p, dirty));
    }
    for (addr, size, _) in spare.drain(..) {
        unmap(addr as *mut u8, size);
    }
    None
}

/// Keeps a mapping of `bytes`, of which the first `dirty` may be non-zero,
/// for [`take_spare`] (releasing the oldest kept beyond [`SPARES`]).
fn keep_spare(p: *mut u8, bytes: usize, dirty: usize) {
    let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
    spare.push((p as usize, bytes, dirty));
    if spare.len() > SPARES {
        let (addr, size, _) = spare.remove(0);
        unmap(addr as *mut u8, size);
    }
}

/// Gives a mapping back to the system.
fn unmap(p: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: mapped in `map_huge` with this size and no longer used.
    unsafe {
        libc::munmap(p as *mut libc::c_void, bytes);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (p, bytes);
}

/// An anonymous mapping of `bytes` (zeroed, committed page by page as it is
/// touched) with huge pages asked for; None below [`HUGE`] bytes or if the
/// system refuses it.
#[cfg(target_os = "linux")]
fn map_huge(bytes: usize) -> Option<NonNull<u8>> {
    if bytes < HUGE {
        return None;
    }
    // SAFETY: a private anonymous mapping of fresh memory, checked for failure;
    // madvise only sets a hint on it.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        );
        if p == libc::MAP_FAILED {
            return None;
        }
        libc::madvise(p, bytes, libc::MADV_HUGEPAGE);
        NonNull::new(p as *mut u8)
    }
}

#[cfg(not(target_os = "linux"))]
fn map_huge(_bytes: usize) -> Option<NonNull<u8>> {
    None
}

impl<T: Zeroable> Deref for Slab<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: ptr points to len initialised (zeroed or since written) values we own.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for Slab<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in deref, and &mut self gives exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for Slab<T> {
    fn drop(&mut self) {
        if self.mapped {
            // T is Copy (no drop glue): the mapping is kept for another slab.
            let dirty = self.shown * std::mem::size_of::<T>();
            keep_spare(self.ptr.as_ptr() as *mut u8, self.layout.size(), dirty);
            return;
        }
        // SAFETY: allocated in `zeroed` with this layout; T is Copy (no drop glue).
        unsafe { dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

// SAFETY: a Slab owns its values like a Vec does.
unsafe impl<T: Zeroable + Send> Send for Slab<T> {}
// SAFETY: shared access only reads.
unsafe impl<T: Zeroable + Sync> Sync for Slab<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_slabs_are_zeroed_and_writable() {
        for len in [1, 1000, HUGE / 4 + 7] {
            let mut s: Slab<u32> = Slab::zeroed(len, len);
            assert_eq!(s.len(), len);
            assert!(s.iter().all(|&x| x == 0));
            s[len - 1] = 7;
            assert_eq!(s[len - 1], 7);
        }
        let small: Slab<u32> = Slab::zeroed(1000, 1000);
        assert!(!small.mapped());
        let large: Slab<u32> = Slab::zeroed(HUGE, 10);
        assert_eq!(large.mapped(), cfg!(target_os = "linux"));
        assert_eq!((large.len(), large.capacity()), (10, HUGE));
    }

    #[test]
    fn a_slab_grows_in_place_and_shows_zeros_only() {
        for capacity in [100, HUGE] {
            let mut s: Slab<u32> = Slab::zeroed(capacity, 10);
            s.iter_mut().for_each(|x| *x = 5);
            let at = s.as_ptr();
            s.resize(50);
            assert_eq!(s.as_ptr(), at);
            assert!(s[..10].iter().all(|&x| x == 5) && s[10..].iter().all(|&x| x == 0));
            s.iter_mut().for_each(|x| *x = 6);
            // Hidden and shown again: zeroed.
            s.resize(20);
            s.resize(40);
            assert!(s[..20].iter().all(|&x| x == 6) && s[20..].iter().all(|&x| x == 0));
            s.clear();
            assert!(s.iter().all(|&x| x == 0));
            s.resize(capacity);
            assert!(s[40..].iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn a_reused_mapping_shows_zeros_only() {
        // (Slabs of other tests may take or release the kept mapping
        // meanwhile: the slab is zeroed whichever memory it gets.)
        let capacity = (HUGE + 3 * 4096) / 4;
        for _ in 0..3 {
            let mut s: Slab<u32> = Slab::zeroed(capacity, 1000);
            assert!(s.iter().all(|&x| x == 0));
            s.resize(5000);
            assert!(s.iter().all(|&x| x == 0));
            s.iter_mut().for_each(|x| *x = 9);
            s.resize(capacity);
            assert!(s[5000..].iter().all(|&x| x == 0));
            s[capacity - 1] = 9;
        }
    }

    #[test]
    fn a_slab_takes_the_room_the_system_gives() {
        let mut s: Slab<u32> = Slab::zeroed(usize::MAX / 8, 10);
        assert!(s.capacity() >= 10 && s.capacity() < usize::MAX / 8);
        s[9] = 1;
        s.resize(1000);
        assert_eq!(s[9], 1);
    }
}
