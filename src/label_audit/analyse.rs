//! The label workspace's statistics: per-rater label distributions with Wilson intervals,
//! Cohen's κ and percent agreement per rater pair, Fleiss' κ over all raters, the majority label
//! per item — on the k classes and on a stated collapse — with percentile-bootstrap intervals
//! over items.
//!
//! Populations (stated in every output): a rater's distribution counts the items it labelled;
//! a pair counts the items both labelled; Fleiss' κ and the majority count the items every
//! rater labelled ("complete" items — TIAP's majority is "computed only on cases where all five
//! models returned a valid label", seed-001 §1.6).

use serde::{Deserialize, Serialize};

use super::read::{Item, LabelSet, Problems, Reading};
use super::sample::SampleReport;
use super::{LabelsRequest, PairItems, TieBreak};
use crate::error::{Error, Result};
use crate::fields::mention;
use crate::stats::agreement::{cohens_kappa_weighted, fleiss_kappa_weighted};
use crate::stats::bca::percentile_interval;
use crate::stats::bootstrap::{Bootstrap, Scheme};
use crate::stats::proportions::wilson_interval;
use crate::stats::resample::bootstrap_counts;

/// The scale of the k classes as read.
pub const CLASSES: &str = "classes";
/// The scale of the stated collapse.
pub const COLLAPSED: &str = "collapsed";
/// The group of every item.
pub const ALL: &str = "all";
/// The pseudo-rater of the majority label.
pub const MAJORITY: &str = "majority";

/// A stated collapse of the classes: `relevant=supports,partial` puts both classes in one
/// (TIAP Table 3: "supports ∪ partial → relevant"); classes named in no group keep their name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Collapse {
    pub groups: Vec<(String, Vec<String>)>,
}

impl Collapse {
    /// Parses `name=a,b` entries; an error names the entry and what is wrong.
    pub fn parse(entries: &[String]) -> Result<Option<Collapse>> {
        if entries.is_empty() {
            return Ok(None);
        }
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for e in entries {
            let (name, members) = e.split_once('=').ok_or_else(|| {
                Error::setting("collapse", format!("`{e}` is not NAME=CLASS,CLASS (e.g. relevant=supports,partial)"))
            })?;
            let name = name.trim();
            let members: Vec<String> =
                members.split(',').map(|m| m.trim().to_string()).filter(|m| !m.is_empty()).collect();
            if name.is_empty() || members.is_empty() {
                return Err(Error::setting("collapse", format!("`{e}` needs a name and at least one class")));
            }
            for m in &members {
                if groups.iter().any(|(_, ms)| ms.contains(m)) {
                    return Err(Error::setting("collapse", format!("class `{m}` is in two groups")));
                }
            }
            if groups.iter().any(|(n, _)| n == name) {
                return Err(Error::setting("collapse", format!("group `{name}` is named twice")));
            }
            groups.push((name.to_string(), members));
        }
        Ok(Some(Collapse { groups }))
    }

    /// The collapsed classes (groups first, in their order, then the classes left as they are)
    /// and each class's index among them. An error when a group names a class never seen.
    pub fn apply(&self, classes: &[String]) -> Result<(Vec<String>, Vec<u32>)> {
        for (name, members) in &self.groups {
            if let Some(m) = members.iter().find(|m| !classes.contains(m)) {
                return Err(Error::setting(
                    "collapse",
                    format!(
                        "group `{name}` names class `{m}`, which no label has (the classes: {})",
                        classes.join(", ")
                    ),
                ));
            }
        }
        let mut out: Vec<String> = self.groups.iter().map(|(n, _)| n.clone()).collect();
        let mut map = Vec::with_capacity(classes.len());
        for c in classes {
            match self.groups.iter().position(|(_, ms)| ms.contains(c)) {
                Some(g) => map.push(g as u32),
                None => {
                    let at = out.iter().position(|o| o == c).unwrap_or_else(|| {
                        out.push(c.clone());
                        out.len() - 1
                    });
                    map.push(at as u32);
                }
            }
        }
        Ok((out, map))
    }
}

/// One label's share among a rater's (or the majority's) labels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DistributionRow {
    pub group: String,
    pub scale: String,
    pub rater: String,
    pub label: String,
    pub count: usize,
    /// The rater's labelled items in the group (the majority: complete items without a tie).
    pub n: usize,
    pub share: Option<f64>,
    /// Wilson interval of the share.
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// Agreement of two raters on the items both labelled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairRow {
    pub group: String,
    pub scale: String,
    pub rater_a: String,
    pub rater_b: String,
    pub n: usize,
    pub agreements: usize,
    pub percent_agreement: Option<f64>,
    /// Cohen's κ (undefined when chance agreement is 1).
    pub kappa: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Chance agreement p_e.
    pub p_e: Option<f64>,
    /// Resamples where κ was undefined (left out of the interval).
    pub undefined_resamples: usize,
}

/// Agreement of all raters on the complete items, and the majority.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OverallRow {
    pub group: String,
    pub scale: String,
    pub raters: usize,
    /// Items labelled by every rater.
    pub complete_items: usize,
    pub fleiss_kappa: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Observed agreement P̄ of Fleiss' κ.
    pub p_bar: Option<f64>,
    /// The mean of the pairs' percent agreement (TIAP Table 13's "Mean (all 10 pairs)").
    pub mean_pair_agreement: Option<f64>,
    /// Complete items where every rater gave the same label.
    pub unanimous: usize,
    /// Complete items whose majority is a tie (after the tie-break).
    pub ties: usize,
    pub undefined_resamples: usize,
}

/// One item: each rater's label and the majority.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemRow {
    pub item: String,
    pub group: Option<String>,
    pub stratum: Option<String>,
    /// Per rater, in the order of `raters` (empty: no valid label).
    pub labels: Vec<String>,
    /// On complete items: the majority label (empty on a tie).
    pub majority: Option<String>,
    pub majority_collapsed: Option<String>,
    pub complete: bool,
    pub unanimous: bool,
}

/// The settings a labels report was computed under (printed with every result).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub bootstrap: Bootstrap,
    pub tie_break: TieBreak,
    pub tie_rater: Option<String>,
    pub pair_items: PairItems,
    pub collapse: Vec<String>,
    pub classes_stated: bool,
    pub repeats: super::Repeats,
    pub interval_of_shares: String,
    pub populations: String,
}

/// Everything `memaudit labels` reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabelsReport {
    pub settings: Settings,
    pub raters: Vec<String>,
    pub classes: Vec<String>,
    /// The classes after the collapse (empty without one).
    pub collapsed_classes: Vec<String>,
    pub items: usize,
    pub complete_items: usize,
    pub readings: Vec<Reading>,
    pub problems: Problems,
    /// The `recode` setting's recodes, each with the labels it changed.
    #[serde(default)]
    pub recoded: Vec<super::read::Recoded>,
    pub distribution: Vec<DistributionRow>,
    pub pairs: Vec<PairRow>,
    pub overall: Vec<OverallRow>,
    pub item_rows: Vec<ItemRow>,
    pub sample: Option<SampleReport>,
    /// The items each rater labelled (per group), and raters that labelled different items
    /// ([`crate::cells`]).
    #[serde(default)]
    pub populations: crate::cells::CellReport,
}

/// Per group (or all items), each rater's labelled items: raters side by side.
fn rater_populations(set: &LabelSet) -> crate::cells::CellReport {
    let groups = crate::distinct::groups_first_seen(set.items.iter(), |it| it.group.clone());
    let mut cells = Vec::new();
    for (g, in_group) in &groups {
        for (r, rater) in set.raters.iter().enumerate() {
            let items: Vec<String> = in_group
                .iter()
                .filter(|it| it.labels.get(r).is_some_and(Option::is_some))
                .map(|it| it.id.clone())
                .collect();
            cells.push(crate::cells::CellItems {
                cell: rater.clone(),
                panel: g.clone().map_or_else(|| "all items".to_string(), |g| format!("group {g}")),
                rows: items.len(),
                items: Some(items),
            });
        }
    }
    crate::cells::CellReport::of_populations(&cells, "items")
}

/// A scale: its name, classes, and the map from read classes to them.
struct Scale {
    name: &'static str,
    classes: Vec<String>,
    map: Vec<u32>,
}

fn on(scale: &Scale, label: Option<u32>) -> Option<u32> {
    label.map(|l| scale.map[l as usize])
}

/// The majority class of one item's labels on a scale, after the tie-break (`None`: a tie).
fn majority(labels: &[Option<u32>], scale: &Scale, tie: TieBreak, tie_rater: Option<usize>) -> Option<u32> {
    let mut votes = vec![0usize; scale.classes.len()];
    for l in labels.iter().filter_map(|l| on(scale, *l)) {
        votes[l as usize] += 1;
    }
    let top = *votes.iter().max()?;
    let tied: Vec<u32> = (0..votes.len()).filter(|&c| votes[c] == top).map(|c| c as u32).collect();
    match (tied.as_slice(), tie) {
        ([one], _) => Some(*one),
        (_, TieBreak::ClassOrder) => tied.first().copied(),
        (_, TieBreak::Rater) => {
            let r = on(scale, tie_rater.and_then(|r| labels[r]))?;
            tied.contains(&r).then_some(r)
        }
        _ => None,
    }
}

fn interval(b: &Bootstrap, n: usize, stat: impl FnMut(&[u32]) -> Option<f64>) -> (Option<f64>, Option<f64>, usize) {
    let reps = bootstrap_counts(n, &Scheme::Iid, b.resamples, b.seed, stat);
    match percentile_interval(&reps.values, b.confidence) {
        Some((l, h)) => (Some(l), Some(h), reps.undefined),
        None => (None, None, reps.undefined),
    }
}

/// Kappa terms the pairwise table may take: beyond, the run is refused before it starts.
pub const MAX_PAIR_WORK: u64 = 2_000_000_000;

/// Refuses a pairwise table too large to compute: m(m−1)/2 rater pairs, each with a kappa and
/// `resamples` bootstrap kappas per scale and per table (all items, then each group): over all
/// the tables, every item is counted twice when there are groups (all, its group) and each table
/// adds classes² terms (`tables` is all items plus the groups).
fn check_pair_work(
    raters: usize,
    items: usize,
    classes: usize,
    tables: usize,
    scales: usize,
    resamples: usize,
) -> Result<()> {
    let pairs = (raters as u64).saturating_mul(raters.saturating_sub(1) as u64) / 2;
    let item_passes = if tables > 1 { 2 } else { 1 };
    let per_pass = (items as u64)
        .saturating_mul(item_passes)
        .saturating_add((tables as u64).saturating_mul((classes as u64).saturating_mul(classes as u64)));
    let work =
        pairs.max(1).saturating_mul(per_pass).saturating_mul(resamples as u64 + 1).saturating_mul(scales.max(1) as u64);
    if work > MAX_PAIR_WORK {
        let groups = tables.saturating_sub(1);
        return Err(Error::setting(
            "bootstrap",
            format!(
                "{raters} raters make {pairs} pairs; with {items} items in {groups} group(s), {classes} classes and \
                 {resamples} resamples that is about {work} kappa terms, more than the {MAX_PAIR_WORK} computed here: \
                 choose the raters to compare ({}), group by a column with fewer values ({}), or lower {}",
                mention("raters"),
                mention("group"),
                mention("bootstrap")
            ),
        ));
    }
    Ok(())
}

/// Computes the report from the read labels.
pub fn analyse(set: &LabelSet, request: &LabelsRequest, sample: Option<SampleReport>) -> Result<LabelsReport> {
    let tie_rater = match (&request.tie_break, &request.tie_rater) {
        (TieBreak::Rater, Some(name)) => Some(set.raters.iter().position(|r| r == name).ok_or_else(|| {
            Error::setting("tie-rater", format!("`{name}` is not one of the raters ({})", set.raters.join(", ")))
        })?),
        _ => None,
    };
    let identity = Scale { name: CLASSES, classes: set.classes.clone(), map: (0..set.classes.len() as u32).collect() };
    let mut scales = vec![identity];
    let collapse = Collapse::parse(&request.collapse)?;
    let mut collapsed_classes = Vec::new();
    if let Some(c) = &collapse {
        let (classes, map) = c.apply(&set.classes)?;
        collapsed_classes = classes.clone();
        scales.push(Scale { name: COLLAPSED, classes, map });
    }
    // All items, then each group's, grouped in one pass.
    let mut groups: Vec<(String, Vec<&Item>)> = vec![(ALL.to_string(), set.items.iter().collect())];
    groups.extend(crate::distinct::groups_first_seen(set.items.iter().filter(|it| it.group.is_some()), |it| {
        it.group.clone().unwrap_or_default()
    }));
    let b = request.bootstrap;
    let m = set.raters.len();
    check_pair_work(m, set.items.len(), set.classes.len(), groups.len(), scales.len(), b.resamples)?;
    let complete = |it: &Item| it.labels.iter().all(Option::is_some);
    let mut distribution = Vec::new();
    let mut pairs = Vec::new();
    let mut overall = Vec::new();
    for (g, items) in &groups {
        let full: Vec<&Item> = items.iter().copied().filter(|it| complete(it)).collect();
        for scale in &scales {
            let k = scale.classes.len();
            // Each rater's distribution, then the majority's.
            for (r, rater) in set.raters.iter().enumerate() {
                let labels: Vec<u32> = items.iter().filter_map(|it| on(scale, it.labels[r])).collect();
                distribution.extend(shares(g, scale, rater, &labels, b.confidence));
            }
            let majorities: Vec<Option<u32>> =
                full.iter().map(|it| majority(&it.labels, scale, request.tie_break, tie_rater)).collect();
            let decided: Vec<u32> = majorities.iter().flatten().copied().collect();
            if m >= 2 {
                distribution.extend(shares(g, scale, MAJORITY, &decided, b.confidence));
            }
            // Each pair.
            let mut pair_agreements = Vec::new();
            for a in 0..m {
                for c in a + 1..m {
                    let pool = if request.pair_items == PairItems::Complete { &full } else { items };
                    let coded: Vec<(u32, u32)> = pool
                        .iter()
                        .filter_map(|it| Some((on(scale, it.labels[a])?, on(scale, it.labels[c])?)))
                        .collect();
                    let n = coded.len();
                    let agreements = coded.iter().filter(|(x, y)| x == y).count();
                    let kappa = cohens_kappa_weighted(&coded, k, None);
                    let (low, high, undefined) = if kappa.is_some() {
                        interval(&b, n, |w| cohens_kappa_weighted(&coded, k, Some(w)).map(|x| x.kappa))
                    } else {
                        (None, None, 0)
                    };
                    let pa = (n > 0).then(|| agreements as f64 / n as f64);
                    if let Some(p) = pa {
                        pair_agreements.push(p);
                    }
                    pairs.push(PairRow {
                        group: g.clone(),
                        scale: scale.name.into(),
                        rater_a: set.raters[a].clone(),
                        rater_b: set.raters[c].clone(),
                        n,
                        agreements,
                        percent_agreement: pa,
                        kappa: kappa.as_ref().map(|x| x.kappa),
                        low,
                        high,
                        p_e: kappa.as_ref().map(|x| x.p_e),
                        undefined_resamples: undefined,
                    });
                }
            }
            if m >= 2 {
                let counts: Vec<Vec<f64>> = full
                    .iter()
                    .map(|it| {
                        let mut row = vec![0.0; k];
                        for l in it.labels.iter().filter_map(|l| on(scale, *l)) {
                            row[l as usize] += 1.0;
                        }
                        row
                    })
                    .collect();
                let fleiss = fleiss_kappa_weighted(&counts, None);
                let (low, high, undefined) = if fleiss.is_some() {
                    interval(&b, counts.len(), |w| fleiss_kappa_weighted(&counts, Some(w)).map(|x| x.kappa))
                } else {
                    (None, None, 0)
                };
                let unanimous = counts.iter().filter(|r| r.contains(&(m as f64))).count();
                overall.push(OverallRow {
                    group: g.clone(),
                    scale: scale.name.into(),
                    raters: m,
                    complete_items: full.len(),
                    fleiss_kappa: fleiss.as_ref().map(|x| x.kappa),
                    low,
                    high,
                    p_bar: fleiss.as_ref().map(|x| x.p_o),
                    mean_pair_agreement: crate::stats::bootstrap::mean(&pair_agreements),
                    unanimous,
                    ties: majorities.iter().filter(|x| x.is_none()).count(),
                    undefined_resamples: undefined,
                });
            }
        }
    }
    let name = |scale: &Scale, c: Option<u32>| c.map(|c| scale.classes[c as usize].clone()).unwrap_or_default();
    let item_rows = set
        .items
        .iter()
        .map(|it| {
            let full = complete(it);
            let maj = |s: &Scale| full.then(|| name(s, majority(&it.labels, s, request.tie_break, tie_rater)));
            ItemRow {
                item: it.id.clone(),
                group: it.group.clone(),
                stratum: it.stratum_text.clone(),
                labels: it.labels.iter().map(|l| name(&scales[0], *l)).collect(),
                majority: maj(&scales[0]),
                majority_collapsed: scales.get(1).and_then(maj),
                complete: full,
                unanimous: full && it.labels.windows(2).all(|w| w[0] == w[1]),
            }
        })
        .collect();
    Ok(LabelsReport {
        settings: Settings {
            bootstrap: b,
            tie_break: request.tie_break,
            tie_rater: request.tie_rater.clone(),
            pair_items: request.pair_items,
            collapse: request.collapse.clone(),
            classes_stated: set.classes_stated,
            repeats: request.repeats,
            interval_of_shares: "wilson".into(),
            populations: format!(
                "a rater's distribution: the items it labelled; a pair: {}; Fleiss' kappa and the majority: the \
                 items every rater labelled",
                match request.pair_items {
                    PairItems::Pairwise => "the items both labelled",
                    PairItems::Complete => "the items every rater labelled",
                }
            ),
        },
        raters: set.raters.clone(),
        classes: set.classes.clone(),
        collapsed_classes,
        items: set.items.len(),
        complete_items: set.items.iter().filter(|it| complete(it)).count(),
        readings: set.readings.clone(),
        recoded: set.recoded.clone(),
        problems: set.problems.clone(),
        distribution,
        pairs,
        overall,
        item_rows,
        sample,
        populations: rater_populations(set),
    })
}

/// One row per class of `labels` (class indices on `scale`) with its Wilson interval.
fn shares(group: &str, scale: &Scale, rater: &str, labels: &[u32], confidence: f64) -> Vec<DistributionRow> {
    let n = labels.len();
    scale
        .classes
        .iter()
        .enumerate()
        .map(|(c, label)| {
            let count = labels.iter().filter(|&&l| l as usize == c).count();
            let ci = wilson_interval(count as f64, n as f64, confidence);
            DistributionRow {
                group: group.into(),
                scale: scale.name.into(),
                rater: rater.into(),
                label: label.clone(),
                count,
                n,
                share: (n > 0).then(|| count as f64 / n as f64),
                low: ci.map(|i| i.low),
                high: ci.map(|i| i.high),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_pairwise_table_too_large_is_refused_with_its_size() {
        // 3 raters, 200 items, 2,000 resamples: 3 × 200 × 2,001 terms, computed.
        assert!(check_pair_work(3, 200, 2, 1, 1, 2000).is_ok());
        // 1,000 raters, 1,000 items: 499,500 pairs × 1,004 × 2,001 terms, refused.
        let e = check_pair_work(1000, 1000, 2, 1, 1, 2000).unwrap_err().to_string();
        assert!(e.contains("1000 raters make 499500 pairs"), "{e}");
        assert!(e.contains("about 1003497498000 kappa terms"), "{e}");
        // Without resamples the same table is computed once: 499,500 × 1,004 terms.
        assert!(check_pair_work(1000, 1000, 2, 1, 1, 0).is_ok());
        // One group per item: 3 pairs × (2 × 60,000 + 60,001 × 9) × 2,001 terms, refused with
        // the groups named (a linear search per group once made this a hang).
        let e = check_pair_work(3, 60_000, 3, 60_001, 1, 2000).unwrap_err().to_string();
        assert!(e.contains("60000 items in 60000 group(s)") && e.contains("about 3962034027 kappa terms"), "{e}");
    }

    #[test]
    fn collapse_groups_first_and_keeps_the_rest() {
        let c = Collapse::parse(&strings(&["relevant=supports,partial"])).unwrap().unwrap();
        let (classes, map) = c.apply(&strings(&["partial", "does_not_support", "supports"])).unwrap();
        assert_eq!(classes, strings(&["relevant", "does_not_support"]));
        assert_eq!(map, vec![0, 1, 0]);
        assert!(c.apply(&strings(&["partial"])).is_err(), "a class no label has");
        assert!(Collapse::parse(&strings(&["relevant"])).is_err());
        assert!(Collapse::parse(&strings(&["a=x", "b=x"])).is_err());
        assert!(Collapse::parse(&strings(&["a=x", "a=y"])).is_err());
    }

    #[test]
    fn majority_and_its_tie_breaks() {
        let s = Scale { name: CLASSES, classes: strings(&["s", "p", "n"]), map: vec![0, 1, 2] };
        let labels = [Some(0), Some(1), Some(0), Some(1), Some(2)];
        assert_eq!(majority(&labels, &s, TieBreak::None, None), None);
        assert_eq!(majority(&labels, &s, TieBreak::ClassOrder, None), Some(0));
        assert_eq!(majority(&labels, &s, TieBreak::Rater, Some(1)), Some(1));
        assert_eq!(majority(&labels, &s, TieBreak::Rater, Some(4)), None, "the rater's label is not tied");
        assert_eq!(majority(&[Some(2), Some(2), Some(0)], &s, TieBreak::None, None), Some(2));
    }
}
