//! Distinct values in the order they first appear: how runs, arms, subsets and groups are listed
//! everywhere (the input's own order, never sorted), so tables follow the files.

/// The distinct items of `it`, each once, in order of first appearance. Quadratic, which is
/// fine for the handful of runs, arms or subsets it lists.
pub fn first_seen<T: PartialEq>(it: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in it {
        if !out.contains(&x) {
            out.push(x);
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
}
