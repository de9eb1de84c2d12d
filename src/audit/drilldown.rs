//! Per-query drill-down (TIAP Table 11 and Fig. 1): one system's ranked list for one query,
//! each item marked by how it relates to the query's evidence, with the per-target scores side
//! by side.

use serde::{Deserialize, Serialize};

use crate::conventions::Settings;
use crate::dataset::{Dataset, RankedList};
use crate::metrics::{ListScore, matched_groups};
use crate::model::Target;
use crate::rescore::reading_order;
use crate::targets::QueryTargets;

/// Per-target flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerTarget {
    pub raw: bool,
    pub source: bool,
    pub canonical: bool,
}

impl PerTarget {
    fn set(&mut self, t: Target, v: bool) {
        match t {
            Target::Raw => self.raw = v,
            Target::Source => self.source = v,
            Target::Canonical => self.canonical = v,
        }
    }
}

/// How an item relates to the query's evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// The raw source turn of an evidence anchor (credited under Raw and Source).
    Raw,
    /// A canonical serving memory of an evidence anchor (credited under Canonical and Source).
    Canonical,
    /// Flagged both raw and canonical (a lineage-contract problem).
    RawAndCanonical,
    /// Another stored descendant of an evidence anchor (credited under Source only).
    Descendant,
    /// No credit under any target.
    None,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrillItem {
    /// 1-based rank in the reading order.
    pub rank: usize,
    pub memory_id: String,
    pub stored: bool,
    pub kind: Option<String>,
    pub text: Option<String>,
    pub score: Option<f64>,
    /// Beyond the cutoff k (shown, not scored).
    pub within_k: bool,
    /// A repeat of an id ranked earlier (earns nothing).
    pub repeated: bool,
    pub mark: Mark,
    /// Evidence anchors of this query the memory descends from.
    pub evidence_anchors: Vec<String>,
    /// The item belongs to a group of the target (any credit possible).
    pub eligible: PerTarget,
    /// The item earned the nDCG credit of a group (matched) under the target.
    pub credited: PerTarget,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetScore {
    pub target: Target,
    pub eligible: bool,
    pub groups: Vec<String>,
    pub score: Option<ListScore>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Drilldown {
    pub system: String,
    pub query_id: String,
    pub query_text: Option<String>,
    pub answer: Option<String>,
    pub category: Option<String>,
    pub evidence: Vec<String>,
    pub has_run: bool,
    pub targets: Vec<TargetScore>,
    pub items: Vec<DrillItem>,
}

/// A query's targets and one system's list for it in reading order: what the items of a
/// drill-down are marked against.
struct Lineup<'a> {
    qt: QueryTargets,
    list: Option<&'a RankedList>,
    /// Positions in `list` in reading order (empty without a list).
    order: Vec<usize>,
}

impl<'a> Lineup<'a> {
    fn new(ds: &'a Dataset, settings: &Settings, system: usize, query: usize) -> Option<Lineup<'a>> {
        ds.systems.get(system)?;
        ds.queries.get(query)?;
        let qt = QueryTargets::build(ds, query as u32, settings.unit, settings.gain, Some(system));
        let list = ds.lists.get(system)?.get(query)?.as_ref();
        let order = list
            .map(|l| reading_order(ds, l, settings.order).unwrap_or_else(|| (0..l.items.len()).collect()))
            .unwrap_or_default();
        Some(Lineup { qt, list, order })
    }

    /// The groups of target `t` each marked item can fill; none for a repeat.
    fn slots(&self, marked: &[Marked], t: Target) -> Vec<&[u32]> {
        marked.iter().map(|m| if m.repeated { &[][..] } else { self.qt.groups_of(m.item, t) }).collect()
    }

    /// The first `limit` items in reading order, each marked by its relation to the query's
    /// evidence, with the targets it is eligible under and those whose credit it earned within k.
    fn marks(&self, ds: &Dataset, settings: &Settings, limit: usize) -> Vec<Marked> {
        let mut marked = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        if let Some(l) = self.list {
            for (pos, &i) in self.order.iter().take(limit).enumerate() {
                let item = l.items[i];
                let mut eligible = PerTarget::default();
                for &t in &ds.targets {
                    eligible.set(t, !self.qt.groups_of(item, t).is_empty());
                }
                let mark = match (eligible.raw, eligible.canonical, eligible.source) {
                    (true, true, _) => Mark::RawAndCanonical,
                    (true, false, _) => Mark::Raw,
                    (false, true, _) => Mark::Canonical,
                    (false, false, true) => Mark::Descendant,
                    _ => Mark::None,
                };
                let repeated = !seen.insert(item);
                marked.push(Marked {
                    rank: pos + 1,
                    position: i,
                    item,
                    eligible,
                    repeated,
                    mark,
                    credited: PerTarget::default(),
                });
            }
        }
        for &t in &ds.targets {
            let matched = matched_groups(&self.slots(&marked, t), self.qt.gains(t).len(), settings.k);
            for (pos, g) in matched.into_iter().enumerate() {
                if g.is_some() {
                    marked[pos].credited.set(t, true);
                }
            }
        }
        marked
    }

    /// A marked item with what the store says of it (id, kind, text, evidence anchors).
    fn describe(&self, ds: &Dataset, settings: &Settings, query: usize, m: &Marked) -> DrillItem {
        let q = &ds.queries[query];
        let mem = ds.memory(m.item);
        DrillItem {
            rank: m.rank,
            memory_id: ds.item_id(m.item).to_string(),
            stored: mem.is_some(),
            kind: mem.and_then(|mem| mem.kind.clone()),
            text: mem.and_then(|mem| mem.text.clone()),
            score: self.list.and_then(|l| l.scores.as_ref()).map(|s| s[m.position]),
            within_k: m.rank <= settings.k,
            repeated: m.repeated,
            mark: m.mark,
            evidence_anchors: mem
                .map(|mem| mem.anchors.iter().filter(|a| q.evidence.iter().any(|e| &e.anchor == *a)).cloned().collect())
                .unwrap_or_default(),
            eligible: m.eligible,
            credited: m.credited,
        }
    }
}

/// One item of a lineup as marked, before the store's description of it.
struct Marked {
    /// 1-based rank in the reading order.
    rank: usize,
    /// Its position in the saved list.
    position: usize,
    item: u32,
    eligible: PerTarget,
    repeated: bool,
    mark: Mark,
    credited: PerTarget,
}

/// The drill-down of `system` × `query` under `settings`; `None` for out-of-range indices.
pub fn drilldown(ds: &Dataset, settings: &Settings, system: usize, query: usize) -> Option<Drilldown> {
    let lineup = Lineup::new(ds, settings, system, query)?;
    let q = &ds.queries[query];
    let marked = lineup.marks(ds, settings, usize::MAX);
    let items: Vec<DrillItem> = marked.iter().map(|m| lineup.describe(ds, settings, query, m)).collect();
    let mut targets = Vec::new();
    for &t in &ds.targets {
        let slots = lineup.slots(&marked, t);
        let gains = lineup.qt.gains(t);
        let score = if lineup.list.is_some() || settings.missing == crate::conventions::MissingRun::Zero {
            crate::metrics::score_slots(&slots, &gains, settings.k, settings.discount, &mut Default::default())
        } else {
            None
        };
        targets.push(TargetScore {
            target: t,
            eligible: lineup.qt.eligible(t),
            groups: lineup.qt.groups(t).iter().map(|g| g.label.clone()).collect(),
            score,
        });
    }
    Some(Drilldown {
        system: ds.systems[system].clone(),
        query_id: q.query_id.clone(),
        query_text: q.text.clone(),
        answer: q.answer.clone(),
        category: q.category.clone(),
        evidence: q.evidence.iter().map(|e| e.anchor.clone()).collect(),
        has_run: lineup.list.is_some(),
        targets,
        items,
    })
}

/// The items of [`drilldown`] within the cutoff k (its first k items) that `keep` accepts
/// (given an item's eligibility and whether it repeats an earlier id), without the rest of the
/// list or the scores: what the contested credits list, at a fraction of the cost.
pub fn items_within_k(
    ds: &Dataset,
    settings: &Settings,
    system: usize,
    query: usize,
    keep: impl Fn(&PerTarget, bool) -> bool,
) -> Option<Vec<DrillItem>> {
    let lineup = Lineup::new(ds, settings, system, query)?;
    Some(
        lineup
            .marks(ds, settings, settings.k)
            .iter()
            .filter(|m| keep(&m.eligible, m.repeated))
            .map(|m| lineup.describe(ds, settings, query, m))
            .collect(),
    )
}

/// One drill-down as text (`memaudit drilldown --format table`).
pub fn render_text(d: &Drilldown, settings: &Settings) -> String {
    let mut out = format!("{} — {} ({})\n", d.system, d.query_id, settings.describe());
    if let Some(t) = &d.query_text {
        out.push_str(&format!("query: {t}\n"));
    }
    out.push_str(&format!("evidence: {}\n", d.evidence.join(", ")));
    for t in &d.targets {
        match &t.score {
            Some(s) => out.push_str(&format!(
                "  {:<9} nDCG {:.4}  recall {:.4}  hit {}  MRR {:.4}  groups {}\n",
                t.target.name(),
                s.ndcg,
                s.recall,
                s.hit,
                s.mrr,
                t.groups.len()
            )),
            None => out.push_str(&format!(
                "  {:<9} not eligible (no stored memory of the evidence is in this target)\n",
                t.target.name()
            )),
        }
    }
    for it in &d.items {
        out.push_str(&format!(
            "  {:>3}{} {:<40} {:<16} {:<10} {}\n",
            it.rank,
            if it.within_k { " " } else { "*" },
            it.memory_id,
            format!("{:?}", it.mark).to_lowercase(),
            it.kind.clone().unwrap_or_default(),
            it.evidence_anchors.join(", ")
        ));
    }
    out
}
