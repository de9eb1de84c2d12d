//! Distinct values in the order they first appear: how runs, arms, subsets and groups are listed
//! everywhere (the input's own order, never sorted), so tables follow the files.
//!
//! **Invariant**: linear in the number of values (a hash set or map beside the list), so a file
//! with one group per row costs no more than one with a handful.

use std::collections::HashMap;
use std::hash::Hash;

/// The distinct items of `it`, each once, in order of first appearance.
pub fn first_seen<T: Hash + Eq + Clone>(it: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for x in it {
        if seen.insert(x.clone()) {
            out.push(x);
        }
    }
    out
}

/// The values of `it` grouped by `key`, groups in order of first appearance and values in their
/// own order within each group.
pub fn groups_first_seen<K: Hash + Eq + Clone, T>(
    it: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
) -> Vec<(K, Vec<T>)> {
    let mut index: HashMap<K, usize> = HashMap::new();
    let mut out: Vec<(K, Vec<T>)> = Vec::new();
    for x in it {
        let k = key(&x);
        match index.get(&k) {
            Some(&i) => out[i].1.push(x),
            None => {
                index.insert(k.clone(), out.len());
                out.push((k, vec![x]));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_the_first_occurrence_order() {
        assert_eq!(super::first_seen(["b", "a", "b", "c", "a"]), ["b", "a", "c"]);
        assert!(super::first_seen(Vec::<u8>::new()).is_empty());
    }

    #[test]
    fn groups_keep_first_occurrence_order_and_values_in_order() {
        let g = super::groups_first_seen([("b", 1), ("a", 2), ("b", 3)], |x| x.0);
        assert_eq!(g, vec![("b", vec![("b", 1), ("b", 3)]), ("a", vec![("a", 2)])]);
    }
}
