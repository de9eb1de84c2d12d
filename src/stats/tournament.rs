//! A round-robin tournament of arms over shared items: each pair's win rate, each arm's mean
//! win rate (the row mean of the win-rate matrix) and its Copeland score.
//!
//! ```text
//! W[i][j] = (better(i, j) + ½ · ties(i, j)) / n(i, j)        so W[i][j] + W[j][i] = 1
//! mean win rate(i) = Σ_{j ≠ i} W[i][j] / (k − 1)
//! Copeland(i) = #{j : W[i][j] > ½} − #{j : W[i][j] < ½}
//! ```
//!
//! `better(i, j)` counts the items on which arm i does better than arm j (a higher value, or a
//! lower one when lower is better), `ties` those with equal values. BriefBench's win-rate
//! heatmap (Fig. 51): "cell (i, j) is the fraction of evaluation axes on which arm i beats arm j
//! … row mean = Copeland dominance score"; the paper leaves ties unspecified and counts none,
//! here a tie is half a win for each side (`../shared/notes/seed-002-briefbench.md` §1.14).
//! Copeland's score (Copeland 1951; Saari & Merlin 1996) counts pairwise majorities: +1 for each
//! arm beaten on more than half of the items, −1 for each arm lost to, 0 for an even split.
//! A pair without items has no win rate and counts for neither side; an arm without any pair
//! has no mean win rate.
//! Reference: `tests/reference/tournament/make_tournament_reference.py` (NumPy, from the rows).

use serde::{Deserialize, Serialize};

/// One pair's items, seen from its first arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Tally {
    /// Items on which the first arm does better.
    pub better: usize,
    pub ties: usize,
    /// Items on which the first arm does worse.
    pub worse: usize,
}

impl Tally {
    /// The items counted.
    pub fn n(&self) -> usize {
        self.better + self.ties + self.worse
    }

    /// The first arm's win rate, ties counted half (`None` without items).
    pub fn win_rate(&self) -> Option<f64> {
        let n = self.n();
        (n > 0).then(|| (self.better as f64 + 0.5 * self.ties as f64) / n as f64)
    }

    /// The same items seen from the second arm.
    pub fn reversed(&self) -> Tally {
        Tally { better: self.worse, ties: self.ties, worse: self.better }
    }
}

/// Each arm's standing in the tournament, in arm order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The row mean of the win-rate matrix over the pairs with items.
    pub mean_win_rate: Option<f64>,
    /// Pairwise majorities won minus lost.
    pub copeland: i64,
}

/// The standings of `k` arms from their pairs' tallies (`(i, j, tally seen from i)`, each
/// unordered pair at most once; arm indices below `k`).
pub fn standings(k: usize, pairs: &[(usize, usize, Tally)]) -> Vec<Standing> {
    let mut sums = vec![(0.0_f64, 0_usize, 0_i64); k];
    for &(i, j, t) in pairs {
        if i >= k || j >= k || i == j {
            continue;
        }
        for (me, tally) in [(i, t), (j, t.reversed())] {
            if let Some(w) = tally.win_rate() {
                let s = &mut sums[me];
                s.0 += w;
                s.1 += 1;
                s.2 += match tally.better.cmp(&tally.worse) {
                    std::cmp::Ordering::Greater => 1,
                    std::cmp::Ordering::Less => -1,
                    std::cmp::Ordering::Equal => 0,
                };
            }
        }
    }
    sums.into_iter()
        .map(|(sum, n, copeland)| Standing { mean_win_rate: (n > 0).then(|| sum / n as f64), copeland })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_are_half_a_win_and_the_matrix_is_complementary() {
        let t = Tally { better: 3, ties: 2, worse: 5 };
        assert_eq!(t.win_rate(), Some(0.4));
        assert_eq!(t.reversed().win_rate(), Some(0.6));
        assert_eq!(Tally::default().win_rate(), None);
    }

    #[test]
    fn a_cycle_has_no_copeland_winner() {
        // Rock-paper-scissors: each arm beats one and loses to one.
        let beats = Tally { better: 2, ties: 0, worse: 1 };
        let s = standings(3, &[(0, 1, beats), (1, 2, beats), (2, 0, beats)]);
        assert!(s.iter().all(|x| x.copeland == 0 && (x.mean_win_rate.unwrap() - 0.5).abs() < 1e-12), "{s:?}");
        // An even split counts for neither; a pair without items is left out of the mean.
        let s = standings(3, &[(0, 1, Tally { better: 1, ties: 0, worse: 1 }), (0, 2, Tally::default())]);
        assert_eq!((s[0].copeland, s[0].mean_win_rate), (0, Some(0.5)));
        assert_eq!(s[2].mean_win_rate, None);
    }
}
