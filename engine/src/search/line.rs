//! The current line: the positions from the root of the caller's walk down
//! to the node being searched, by full hash.
//!
//! A repetition of any of them fails for the attacker, and results that
//! rest on repetitions hold only while the positions they rest on are on
//! the line again, so membership is asked for every child of every node:
//! a small counting filter answers most of those questions without looking
//! at the stack.

const FILTER_BITS: u32 = 12;
const FILTER_MASK: u64 = (1 << FILTER_BITS) - 1;

/// The positions on the current line, in order.
pub struct Line {
    stack: Vec<u64>,
    filter: Box<[u16; 1 << FILTER_BITS]>,
}

impl Default for Line {
    fn default() -> Self {
        Self::new()
    }
}

impl Line {
    /// An empty line.
    pub fn new() -> Line {
        Line {
            stack: Vec::with_capacity(256),
            filter: Box::new([0; 1 << FILTER_BITS]),
        }
    }

    /// Puts a position on the line (the caller knows it is not on it yet).
    #[inline(always)]
    pub fn push(&mut self, h: u64) {
        self.stack.push(h);
        self.filter[(h & FILTER_MASK) as usize] += 1;
    }

    /// Takes the last position off the line.
    #[inline(always)]
    pub fn pop(&mut self) -> u64 {
        let h = self.stack.pop().expect("pop from an empty line");
        self.filter[(h & FILTER_MASK) as usize] -= 1;
        h
    }

    /// Is the position on the line?
    #[inline(always)]
    pub fn contains(&self, h: u64) -> bool {
        self.filter[(h & FILTER_MASK) as usize] != 0 && self.stack.iter().rev().any(|&x| x == h)
    }

    /// Are all these positions on the line?
    #[inline]
    pub fn contains_all(&self, set: &[u64]) -> bool {
        set.iter().all(|&h| self.contains(h))
    }

    /// How many positions are on the line.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.stack.len()
    }

    /// Is the line empty?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    /// The first `n` positions of the line (the whole line as it stood when it was `n` long).
    #[inline(always)]
    pub fn prefix(&self, n: usize) -> &[u64] {
        &self.stack[..n]
    }

    /// The last position put on the line.
    pub fn last(&self) -> Option<u64> {
        self.stack.last().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn membership_follows_the_stack() {
        let mut line = Line::new();
        assert!(line.is_empty() && !line.contains(5));
        line.push(5);
        line.push(5 + (1 << FILTER_BITS)); // the same filter slot
        line.push(77);
        assert!(line.contains(5) && line.contains(5 + (1 << FILTER_BITS)) && line.contains(77));
        assert!(!line.contains(5 + (2 << FILTER_BITS)));
        assert!(line.contains_all(&[77, 5]));
        assert!(!line.contains_all(&[77, 6]));
        assert_eq!(line.prefix(2), &[5, 5 + (1 << FILTER_BITS)]);
        assert_eq!(line.pop(), 77);
        assert!(!line.contains(77));
        assert_eq!(line.pop(), 5 + (1 << FILTER_BITS));
        assert!(line.contains(5) && !line.contains(5 + (1 << FILTER_BITS)));
        assert_eq!(line.len(), 1);
        assert_eq!(line.last(), Some(5));
    }
}
