//! A traversal stack: a fixed inline array that spills to the heap only when a tree is
//! deeper than expected, so queries neither allocate nor recurse in the common case.

/// Entries kept inline before spilling.
const INLINE: usize = 64;

/// LIFO stack of `T`, inline up to [`INLINE`] entries.
pub(crate) struct Stack<T: Copy> {
    inline: [T; INLINE],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy> Stack<T> {
    /// An empty stack; `fill` only initialises the inline storage.
    #[inline]
    pub(crate) fn new(fill: T) -> Self {
        Self {
            inline: [fill; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    /// Pushes `v`; the newest entries live in `spill` once the inline part is full.
    #[inline]
    pub(crate) fn push(&mut self, v: T) {
        if self.len < INLINE {
            self.inline[self.len] = v;
            self.len += 1;
        } else {
            self.spill.push(v);
        }
    }

    /// Pops the newest entry.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<T> {
        if let Some(v) = self.spill.pop() {
            return Some(v);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
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
