//! Large arrays in huge pages.
//!
//! The graph's index, arena, parents and values are read at random places,
//! millions of times: with 4 KB pages nearly every such read also misses the
//! address translation cache.  [`big`] makes a vector whose memory the
//! kernel is asked to back with 2 MB pages (`madvise`, before the memory is
//! first touched; where huge pages are not available the request changes
//! nothing).

/// Vectors from this size up are advised (smaller ones gain nothing).
const HUGE: usize = 2 << 20;

/// A vector of `len` copies of `value`, its memory advised for huge pages
/// when it is large.
pub(crate) fn big<T: Copy>(len: usize, value: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    advise(&v);
    v.resize(len, value);
    v
}

/// An empty vector with room for `len` values, advised like [`big`]'s.
pub(crate) fn room<T>(len: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(len);
    advise(&v);
    v
}

/// Asks for huge pages under the whole 2 MB pages of `v`'s buffer.
fn advise<T>(v: &Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    if bytes < 2 * HUGE {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let start = v.as_ptr() as usize;
        let first = start.div_ceil(HUGE) * HUGE;
        let last = (start + bytes) / HUGE * HUGE;
        if last > first {
            // SAFETY: the range lies inside the vector's own allocation;
            // MADV_HUGEPAGE only sets a hint on it and changes no content.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_and_room_hold_what_they_should() {
        let v = big(3 * HUGE / 4 + 5, 7u32);
        assert_eq!(v.len(), 3 * HUGE / 4 + 5);
        assert!(v.iter().all(|&x| x == 7));
        let small = big(10, [1u8, 2]);
        assert_eq!(small, vec![[1u8, 2]; 10]);
        let r: Vec<u64> = room(HUGE);
        assert!(r.is_empty() && r.capacity() >= HUGE);
    }
}
