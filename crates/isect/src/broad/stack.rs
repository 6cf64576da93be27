//! A traversal stack: a fixed inline array that spills to the heap only when a tree is
//! deeper than expected, so queries neither allocate nor recurse in the common case.
//! Every walk of the broad phase (the [`Bvh`](super::Bvh) walks, its nearest-item and
//! overlap walks, the [`DynamicTree`](super::DynamicTree)) uses this one type.

/// Entries kept inline before spilling: a depth-first walk of a 4-wide tree holds at
/// most three pending siblings per level, so 16 levels (over four billion items in a
/// balanced tree) fit; a binary tree's walk holds one per level.
const INLINE: usize = 48;

use core::mem::MaybeUninit;

/// LIFO stack of `T`, inline up to [`INLINE`] entries.
pub(crate) struct Stack<T: Copy> {
    /// Entries `..len` (at most [`INLINE`] of them) were written by `push`; the others
    /// are never read. Left uninitialised: a walk starts a stack for every query, and
    /// filling 48 entries was a call to `memset` each time (about a tenth of a ray's
    /// instructions in a 100k-box tree, BENCHMARKS.md, session 32).
    inline: [MaybeUninit<T>; INLINE],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy> Stack<T> {
    /// An empty stack.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            inline: [const { MaybeUninit::uninit() }; INLINE],
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
            self.inline[self.len].write(v);
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
        // SAFETY: `len` was below `INLINE` and above this index, so `push` wrote the
        // entry (the only writer; `len` grows only there, one entry at a time).
        Some(unsafe { self.inline[self.len].assume_init() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Past the inline capacity the stack still pops in LIFO order.
    #[test]
    fn spills_and_stays_lifo() {
        let mut s = Stack::new();
        for i in 0..200 {
            s.push(i);
        }
        for i in (0..200).rev() {
            assert_eq!(s.pop(), Some(i));
        }
        assert_eq!(s.pop(), None);
    }

    // Pushes and pops interleaved at random, across the inline capacity and back, and
    // cleared midway: every pop gives what a `Vec` model gives (only written entries
    // are read).
    #[test]
    fn interleaved_pushes_and_pops_match_a_vec() {
        let (mut s, mut model) = (Stack::new(), Vec::new());
        let mut state = 3_u64;
        for step in 0..20_000_u64 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Pushes slightly more likely while below 70 entries, so the length wanders
            // between 0 and past the inline capacity.
            let push = (state >> 60) < if model.len() < 70 { 9 } else { 7 };
            if step % 5_000 == 4_999 {
                s.clear();
                model.clear();
            } else if push {
                s.push((step, state));
                model.push((step, state));
            } else {
                assert_eq!(s.pop(), model.pop(), "step {step}");
            }
        }
        while let Some(v) = model.pop() {
            assert_eq!(s.pop(), Some(v));
        }
        assert_eq!(s.pop(), None);
    }
}
