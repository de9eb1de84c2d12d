//! Spearman's ρ of a multiset of pairs given by counts: item i taken cᵢ times (a bootstrap
//! resample). Ties get mid-ranks over the multiset — the rank of a tied group of total weight W
//! after C smaller items is C + (W + 1)/2 — and ρ is the weighted Pearson correlation of the
//! ranks, so with counts all 1 it equals [`super::correlation::spearman`] (SciPy's
//! `spearmanr`) and with counts c it equals `spearman` of the expanded vectors (tested).
//! The tie groups of both variables are found once; each evaluation is O(n).

/// Sorted orders of x and y, reused across count vectors.
#[derive(Debug, Clone)]
pub struct SpearmanPlan {
    n: usize,
    groups_x: Vec<Vec<usize>>,
    groups_y: Vec<Vec<usize>>,
}

/// The items grouped by equal value, groups in ascending order of the value.
fn tie_groups(v: &[f64]) -> Vec<Vec<usize>> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut out: Vec<Vec<usize>> = Vec::new();
    for i in idx {
        match out.last_mut() {
            Some(g) if v[g[0]] == v[i] => g.push(i),
            _ => out.push(vec![i]),
        }
    }
    out
}

/// Mid-ranks of the multiset into `ranks` (entries of zero-count items are left as is).
fn weighted_ranks(groups: &[Vec<usize>], counts: &[u32], ranks: &mut [f64]) {
    let mut before = 0.0;
    for g in groups {
        let w: f64 = g.iter().map(|&k| counts[k] as f64).sum();
        let r = before + (w + 1.0) / 2.0;
        for &k in g {
            ranks[k] = r;
        }
        before += w;
    }
}

impl SpearmanPlan {
    /// `None` when the lengths differ.
    pub fn new(x: &[f64], y: &[f64]) -> Option<SpearmanPlan> {
        (x.len() == y.len()).then(|| SpearmanPlan { n: x.len(), groups_x: tie_groups(x), groups_y: tie_groups(y) })
    }

    /// ρ of the multiset; `None` when fewer than two items are drawn, a variable is constant
    /// over the drawn items, or `counts` has the wrong length.
    pub fn rho(&self, counts: &[u32]) -> Option<f64> {
        let n = self.n;
        if counts.len() != n {
            return None;
        }
        let total: f64 = counts.iter().map(|&c| c as f64).sum();
        if total < 2.0 {
            return None;
        }
        let mut rx = vec![0.0; n];
        let mut ry = vec![0.0; n];
        weighted_ranks(&self.groups_x, counts, &mut rx);
        weighted_ranks(&self.groups_y, counts, &mut ry);
        let mean = (total + 1.0) / 2.0;
        let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
        for i in 0..n {
            let w = counts[i] as f64;
            if w == 0.0 {
                continue;
            }
            let (a, b) = (rx[i] - mean, ry[i] - mean);
            sxy += w * a * b;
            sxx += w * a * a;
            syy += w * b * b;
        }
        if sxx <= 0.0 || syy <= 0.0 {
            return None;
        }
        Some((sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::correlation::spearman;

    #[test]
    fn equals_spearman_on_the_expanded_multiset() {
        let x = [0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0];
        let y = [0.31, 0.52, 0.52, 0.12, 0.40, 0.77, 0.40, 0.05];
        let plan = SpearmanPlan::new(&x, &y).unwrap();
        let ones = vec![1u32; x.len()];
        let a = plan.rho(&ones).unwrap();
        assert!((a - spearman(&x, &y).unwrap()).abs() < 1e-14);
        let counts = [2u32, 0, 1, 3, 1, 0, 2, 1];
        let (mut ex, mut ey) = (Vec::new(), Vec::new());
        for i in 0..x.len() {
            for _ in 0..counts[i] {
                ex.push(x[i]);
                ey.push(y[i]);
            }
        }
        let b = plan.rho(&counts).unwrap();
        assert!((b - spearman(&ex, &ey).unwrap()).abs() < 1e-14, "{b}");
        assert_eq!(plan.rho(&[0, 0, 0, 0, 0, 0, 0, 2]), None, "one item drawn twice: constant");
        assert_eq!(plan.rho(&[1, 1]), None);
        assert!(SpearmanPlan::new(&[1.0], &[]).is_none());
    }
}
