//! The table's big arrays: zeroed memory, in huge pages when large.
//!
//! A table of millions of entries is read at random places, one per lookup:
//! with 4 KB pages nearly every lookup also misses the address translation
//! cache.  On Linux a slab of at least [`HUGE`] bytes is mapped on its own
//! and the kernel is asked to back it with 2 MB pages (`madvise`; where huge
//! pages are not available the request changes nothing).  The memory comes
//! zeroed and is not touched until used, so an array costs no resident
//! memory before the search writes into it.

use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Arrays from this size up are mapped on their own, in huge pages.
pub const HUGE: usize = 2 << 20;

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// The implementor promises that a value made of zero bytes is valid.
pub unsafe trait Zeroable: Copy {}

// SAFETY: zero is a valid value of every integer.
unsafe impl Zeroable for u32 {}

/// A fixed-length array of `T` whose all-zero value is valid.
pub struct Slab<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
    mapped: bool,
    _own: PhantomData<T>,
}

impl<T: Zeroable> Slab<T> {
    /// `len` zeroed values (at least one).
    pub fn zeroed(len: usize) -> Slab<T> {
        let len = len.max(1);
        let layout = Layout::array::<T>(len).expect("slab size");
        if layout.size() >= HUGE {
            if let Some(ptr) = map_huge(layout.size()) {
                return Slab {
                    ptr: ptr.cast(),
                    len,
                    layout,
                    mapped: true,
                    _own: PhantomData,
                };
            }
        }
        // SAFETY: the layout has a non-zero size (len >= 1, and the types
        // used are not zero-sized); the pointer is checked for null.
        let raw = unsafe { alloc_zeroed(layout) } as *mut T;
        let Some(ptr) = NonNull::new(raw) else {
            handle_alloc_error(layout)
        };
        Slab {
            ptr,
            len,
            layout,
            mapped: false,
            _own: PhantomData,
        }
    }

    /// Is the array mapped on its own (with huge pages asked for)?
    pub fn mapped(&self) -> bool {
        self.mapped
    }
}

/// An anonymous mapping of `bytes` (zeroed, committed page by page as it is
/// touched) with huge pages asked for; None if the system refuses it.
#[cfg(target_os = "linux")]
fn map_huge(bytes: usize) -> Option<NonNull<u8>> {
    // SAFETY: a private anonymous mapping of fresh memory, checked for failure;
    // madvise only sets a hint on it.
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
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
            #[cfg(target_os = "linux")]
            // SAFETY: mapped in `map_huge` with this size; T is Copy (no drop glue).
            unsafe {
                libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, self.layout.size());
            }
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
            let mut s: Slab<u32> = Slab::zeroed(len);
            assert_eq!(s.len(), len);
            assert!(s.iter().all(|&x| x == 0));
            s[len - 1] = 7;
            assert_eq!(s[len - 1], 7);
        }
        let small: Slab<u32> = Slab::zeroed(1000);
        assert!(!small.mapped());
        let large: Slab<u32> = Slab::zeroed(HUGE);
        assert_eq!(large.mapped(), cfg!(target_os = "linux"));
    }
}
