//! One sort for the engine's cold lists (diagnostics, declarations, semantic intervals).
//!
//! Every `sort_by_key` or `sort_unstable` call with its own element type or closure is a copy of
//! the standard library's sort, 1 to 3 KB gzipped each in the widget's WebAssembly engine. Here
//! one small merge sort runs on positions, behind a `dyn` comparison; each caller keeps only
//! the small code that compares two of its items and moves them into place. Not for hot loops:
//! a comparison is an indirect call.

use std::cmp::Ordering;

/// Sorts `items` by `compare`, keeping the order of items that compare equal (the result of
/// `items.sort_by(compare)`). Also stands in for `sort_unstable*`: the two differ only in the
/// order of equal items, which callers of the unstable sorts must not depend on.
pub fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    {
        let items = &items[..];
        sort_positions(&mut order, &|a, b| compare(&items[a], &items[b]));
    }
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    // `order` holds every position once, so each slot is taken exactly once.
    items.extend(order.iter().filter_map(|&i| slots.get_mut(i).and_then(Option::take)));
}

/// A bottom-up merge sort of positions, compared through their items: stable (of two equal
/// items the earlier goes first), O(n log n), and a few hundred bytes where the library's sort
/// was 1.7 KB gzipped of the widget's engine.
#[inline(never)]
fn sort_positions(order: &mut Vec<usize>, compare: &dyn Fn(usize, usize) -> Ordering) {
    let n = order.len();
    let mut merged = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                if compare(order[j], order[i]) == Ordering::Less {
                    merged[k] = order[j];
                    j += 1;
                } else {
                    merged[k] = order[i];
                    i += 1;
                }
                k += 1;
            }
            merged[k..k + mid - i].copy_from_slice(&order[i..mid]);
            k += mid - i;
            merged[k..k + end - j].copy_from_slice(&order[j..end]);
            start = end;
        }
        std::mem::swap(order, &mut merged);
        width *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same order as the library's stable sort, equal items included.
    #[test]
    fn matches_the_stable_sort() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for len in (0usize..=70).chain([100, 1000, 1025, 4097]) {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    ((seed % 5) as u8, i)
                })
                .collect();
            let mut want = items.clone();
            want.sort_by_key(|x| x.0);
            let mut got = items;
            sort_by(&mut got, |a, b| a.0.cmp(&b.0));
            assert_eq!(got, want);
        }
    }
}
