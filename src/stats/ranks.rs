//! Ranks with ties averaged (mid-ranks): R `rank(ties.method = "average")`,
//! `scipy.stats.rankdata(method="average")`.

/// 1-based average ranks of `values` in ascending order (the smallest gets rank 1; tied
/// values share the mean of the ranks they span). NaN sorts last.
pub fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i + 1;
        while j < idx.len() && values[idx[j]] == values[idx[i]] {
            j += 1;
        }
        let r = (i + 1 + j) as f64 / 2.0; // mean of ranks i+1 ..= j
        for &k in &idx[i..j] {
            ranks[k] = r;
        }
        i = j;
    }
    ranks
}

/// Sizes of the groups of tied values (only groups of size ≥ 2).
pub fn tie_sizes(values: &[f64]) -> Vec<usize> {
    let mut v: Vec<f64> = values.to_vec();
    v.sort_by(f64::total_cmp);
    let mut out = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i + 1;
        while j < v.len() && v[j] == v[i] {
            j += 1;
        }
        if j - i > 1 {
            out.push(j - i);
        }
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_rankdata_average() {
        // scipy.stats.rankdata([0.5, 0.1, 0.5, 0.9, 0.1, 0.1]) = [4.5, 2, 4.5, 6, 2, 2]
        assert_eq!(average_ranks(&[0.5, 0.1, 0.5, 0.9, 0.1, 0.1]), vec![4.5, 2.0, 4.5, 6.0, 2.0, 2.0]);
        assert_eq!(tie_sizes(&[0.5, 0.1, 0.5, 0.9, 0.1, 0.1]), vec![3, 2]);
        assert!(average_ranks(&[]).is_empty());
    }
}
