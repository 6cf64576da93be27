//! A traversal stack: a fixed inline array that spills to the heap only when a tree is
//! deeper than expected, so queries neither allocate nor recurse in the common case.
//! Every walk of the broad phase (the [`Bvh`](super::Bvh) walks, its nearest-item and
//! overlap walks, the [`DynamicTree`](super::DynamicTree)) uses this one type.

/// Entries kept inline before spilling: a depth-first walk of a 4-wide tree holds at
/// most three pending siblings per level, so 16 levels (over four billion items in a
/// balanced tree) fit; a binary tree's walk holds one per level.
const INLINE: usize = 48;

/// LIFO stack of `T`, inline up to [`INLINE`] entries.
pub(crate) struct Stack<T: Copy> {
    inline: [T; INLINE],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy> Stack<T> {
    /// An empty stack; `fill` only initialises the inline storage.
    #[inline(always)]
    pub(crate) fn new(fill: T) -> Self {
        Self {
            inline: [fill; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    /// Removes every entry (keeps the spill buffer's allocation).
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    /// Pushes `v`; the newest entries live in `spill` once the inline part is full.
    #[inline(always)]
    pub(crate) fn push(&mut self, v: T) {
        if self.len < INLINE {
            self.inline[self.len] = v;
            self.len += 1;
        } else {
            self.spill.push(v);
        }
    }

    /// Pops the newest entry.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<T> {
        if let Some(v) = self.spill.pop() {
            return Some(v);
        }
        self.len = self.len.checked_sub(1)?;
        Some(self.inline[self.len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Past the inline capacity the stack still pops in LIFO order.
    #[test]
    fn spills_and_stays_lifo() {
        let mut s = Stack::new(0u32);
        for i in 0..200 {
            s.push(i);
        }
        for i in (0..200).rev() {
            assert_eq!(s.pop(), Some(i));
        }
        assert_eq!(s.pop(), None);
    }
}
