//! Independent chunks of work on every core of the machine, their results in input order.
//!
//! Natively the chunks run on scoped threads (`std::thread::scope`); in the browser a
//! WebAssembly worker has no threads, so there is one thread and the chunks run one after the
//! other. Callers keep their results bit-identical to one thread by making each chunk's work
//! independent of the others (the same operations in the same order, whichever thread runs it).
//! Written with the standard library rather than a thread-pool crate: two call sites, each a
//! handful of chunks per call, and nothing to build for the browser.

/// Threads worth using: the machine's cores (at most 8) natively, 1 in WebAssembly.
pub fn threads() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::thread::available_parallelism().map_or(1, |n| n.get()).min(8)
    }
    #[cfg(target_arch = "wasm32")]
    {
        1
    }
}

/// `f` of each consecutive chunk of `chunk` items of `items` (the last may be shorter), in chunk
/// order. With more than one chunk and more than one thread, every chunk but the first runs on
/// its own scoped thread and the first on this one. A chunk whose thread panicked (a bug) is
/// computed again on this thread, so the panic surfaces here.
pub fn map_chunks<T: Sync, R: Send>(items: &[T], chunk: usize, f: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
    let chunk = chunk.max(1);
    #[cfg(not(target_arch = "wasm32"))]
    if items.len() > chunk && threads() > 1 {
        let f = &f;
        return std::thread::scope(|s| {
            let mut parts = items.chunks(chunk);
            let first = parts.next().unwrap_or_default();
            let handles: Vec<_> = parts.map(|part| (part, s.spawn(move || f(part)))).collect();
            let mut out = Vec::with_capacity(handles.len() + 1);
            out.push(f(first));
            out.extend(handles.into_iter().map(|(part, h)| h.join().unwrap_or_else(|_| f(part))));
            out
        });
    }
    items.chunks(chunk).map(&f).collect()
}

/// `f` of each item, in order, the items shared equally among the [`threads`] (one chunk each).
pub fn map_per_thread<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_chunks(items, items.len().div_ceil(threads()), |chunk| chunk.iter().map(&f).collect::<Vec<R>>())
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_come_back_in_order_with_every_item() {
        let items: Vec<u64> = (0..1003).collect();
        for chunk in [1, 7, 500, 1003, 5000] {
            let sums = map_chunks(&items, chunk, |c| (c[0], c.len(), c.iter().sum::<u64>()));
            let firsts: Vec<u64> = sums.iter().map(|s| s.0).collect();
            let want: Vec<u64> = (0..1003).step_by(chunk).collect();
            assert_eq!(firsts, want, "chunk {chunk}");
            assert_eq!(sums.iter().map(|s| s.1).sum::<usize>(), 1003);
            assert_eq!(sums.iter().map(|s| s.2).sum::<u64>(), 1003 * 1002 / 2);
        }
        assert!(map_chunks(&[] as &[u8], 4, |c| c.len()).is_empty());
        assert_eq!(map_per_thread(&items, |i| i * 2), items.iter().map(|i| i * 2).collect::<Vec<_>>());
        assert!(map_per_thread(&[] as &[u8], |i| *i).is_empty());
    }
}
