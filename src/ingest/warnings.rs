//! Counted, visible warnings: nothing read is dropped or altered silently. Each kind is
//! counted, keeps its first few examples (with file and line), and is shown in the reading
//! summary of the CLI and the viewer.

use serde::{Deserialize, Serialize};

/// How much a warning matters for the numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational: a convention was applied (e.g. ids normalised), numbers are as intended.
    Note,
    /// Something was left out of scoring or may not mean what the user thinks.
    Warning,
}

/// Every kind of warning the readers and the dataset builder can raise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WarningKind {
    /// A run names a query id that no queries file defines; the run is not scored.
    RunQueryUnknown,
    /// A ranked list repeats a memory id; only its first occurrence earns credit.
    RepeatedRankedId,
    /// A ranked id is not a stored memory (or, for TREC, is unjudged); it earns no credit.
    RankedIdNotStored,
    /// An evidence anchor has no stored memory descending from it: an empty group, dropped.
    EvidenceWithoutMemory,
    /// A query has no ranked list for some system.
    QueryWithoutRun,
    /// Two or more items of a ranked list have the same score (saved order kept).
    TiedScores,
    /// Scores are given but do not decrease along the saved rank order.
    ScoresNotDescending,
    /// A memory id is defined twice; the first definition is kept.
    DuplicateMemory,
    /// A query id is defined twice; the first definition is kept.
    DuplicateQuery,
    /// Two ranked lists for the same (system, query); the first is kept.
    DuplicateRun,
    /// A query lists the same evidence anchor twice; it counts as one group.
    DuplicateEvidence,
    /// A query has no evidence at all: it is eligible for no target.
    QueryWithoutEvidence,
    /// A memory has no anchors: it can never earn credit.
    MemoryWithoutAnchor,
    /// A memory is flagged both raw and canonical.
    RawAndCanonical,
    /// A memory descends from several anchors (credit rule: see the conventions).
    MultiAnchorMemory,
    /// Per-hit rows: ranks with gaps or repeats; items were ordered by rank, then file order.
    RankIrregular,
    /// An evidence id was rewritten to the canonical form (multi-id string split, zero padding,
    /// stray separator).
    EvidenceNormalized,
    /// An evidence id could not be parsed at all and was dropped from its query.
    EvidenceUnparseable,
    /// An evidence id points at no turn of its conversation; kept as an anchor with no memory.
    EvidenceDangling,
    /// LoCoMo category-5 (adversarial) questions: imported, answer from `adversarial_answer`.
    AdversarialQuestion,
    /// A LoCoMo conversation file without `sample_id` (one conversation per file): named after
    /// its file.
    SampleFromFileName,
    /// LongMemEval abstention questions (`_abs`): no evidence, not imported.
    AbstentionQuestion,
    /// LongMemEval: no turn of an answer session carries `has_answer`; all its turns used.
    EvidenceFallback,
    /// A session appears in several questions' haystacks; stored once.
    SharedSession,
    /// A derived memory's source reference was rewritten (a list or a comma-joined string of ids).
    LineageNormalized,
    /// A derived memory cites a turn that does not exist; kept as an anchor with no raw turn.
    LineageDangling,
    /// Retrieval-log ids `noans_…` mapped back to the stored `answer_…` ids.
    IdAliased,
    /// trec_eval ordering was requested but a ranked list has no scores; saved order kept.
    OrderWithoutScores,
    /// TREC qrels lines with relevance ≤ 0: judged non-relevant, not evidence.
    NonRelevantJudgment,
    /// Retrieved documents a run's qrels do not list: unjudged, no credit (counted once per
    /// run; the example gives the number of documents).
    UnjudgedDocuments,
    /// A topic judged without any relevant document: scored 0 under Raw, as trec_eval does.
    JudgedWithoutRelevant,
    /// A memory names a system that has no ranked list: it is in no scored store.
    MemorySystemWithoutRun,
    /// A ranked id is a memory of another system's store: no credit for this system.
    RankedIdOutsideStore,
}

impl WarningKind {
    pub fn severity(self) -> Severity {
        use WarningKind::*;
        match self {
            EvidenceNormalized
            | MultiAnchorMemory
            | AdversarialQuestion
            | SampleFromFileName
            | SharedSession
            | IdAliased
            | NonRelevantJudgment
            | TiedScores
            | LineageNormalized
            | UnjudgedDocuments
            | JudgedWithoutRelevant => Severity::Note,
            _ => Severity::Warning,
        }
    }

    /// One line saying what happened and what was done about it.
    pub fn describe(self) -> &'static str {
        use WarningKind::*;
        match self {
            RunQueryUnknown => "ranked lists for query ids not in the queries: not scored",
            RepeatedRankedId => "ranked lists repeat a memory id: only the first occurrence earns credit",
            RankedIdNotStored => "ranked ids are not stored memories (unjudged for TREC): no credit",
            EvidenceWithoutMemory => "evidence anchors have no stored memory: empty groups, dropped",
            QueryWithoutRun => "(system, query) pairs have no ranked list",
            TiedScores => "ranked lists have tied scores: saved order kept",
            ScoresNotDescending => "ranked lists have scores that rise along the saved order: saved order kept",
            DuplicateMemory => "memory ids defined twice: first definition kept",
            DuplicateQuery => "query ids defined twice: first definition kept",
            DuplicateRun => "(system, query) ranked lists given twice: first kept",
            DuplicateEvidence => "queries list an evidence anchor twice: counted once",
            QueryWithoutEvidence => "queries have no evidence: eligible for no target",
            MemoryWithoutAnchor => "memories have no anchors: they can never earn credit",
            RawAndCanonical => "memories are flagged both raw and canonical",
            MultiAnchorMemory => "memories descend from several anchors (one credit per retrieved item in nDCG)",
            RankIrregular => "per-hit ranks have gaps or repeats: ordered by rank, then file order",
            EvidenceNormalized => "evidence ids rewritten to canonical form",
            EvidenceUnparseable => "evidence ids could not be parsed: dropped from their query",
            EvidenceDangling => "evidence ids point at no turn: kept as anchors with no memory",
            AdversarialQuestion => "category-5 (adversarial) questions imported, answer from adversarial_answer",
            SampleFromFileName => {
                "LoCoMo conversations in files of their own have no sample_id: named after their file (26.json → conv-26)"
            }
            AbstentionQuestion => "abstention questions (_abs) have no evidence: not imported",
            EvidenceFallback => "questions have no has_answer turn: every turn of the answer sessions used as evidence",
            SharedSession => "sessions appear in several haystacks: stored once",
            LineageNormalized => {
                "derived-memory source references given as lists or joined strings: split into anchors"
            }
            LineageDangling => "derived memories cite turns that do not exist: anchors with no raw turn",
            IdAliased => "retrieval-log ids noans_… mapped to the stored answer_… ids",
            OrderWithoutScores => "trec_eval ordering requested but lists have no scores: saved order kept",
            NonRelevantJudgment => "qrels judgments with relevance ≤ 0: not evidence",
            UnjudgedDocuments => "runs retrieve documents the qrels do not list: unjudged, no credit (trec_eval)",
            JudgedWithoutRelevant => "topics judged without a relevant document: scored 0 under Raw (trec_eval)",
            MemorySystemWithoutRun => "memories name a system that has no ranked list: in no scored store",
            RankedIdOutsideStore => "ranked ids are memories of another system's store: no credit for this system",
        }
    }
}

/// A kind of warning: every module that reads user data has its own enum of kinds and shares
/// the counting in [`Warnings`].
pub trait Kind: Copy + Eq + std::fmt::Debug {
    /// How much a warning of this kind matters for the numbers.
    fn severity(self) -> Severity;
    /// One line saying what happened and what was done about it.
    fn describe(self) -> &'static str;
}

impl Kind for WarningKind {
    fn severity(self) -> Severity {
        WarningKind::severity(self)
    }
    fn describe(self) -> &'static str {
        WarningKind::describe(self)
    }
}

/// One aggregated warning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Warning<K = WarningKind> {
    pub kind: K,
    pub severity: Severity,
    pub count: usize,
    pub message: String,
    /// The first few occurrences, each naming where it happened.
    pub examples: Vec<String>,
}

/// Aggregated warnings, one entry per kind, in first-seen order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Warnings<K = WarningKind> {
    items: Vec<Warning<K>>,
}

impl<K> Default for Warnings<K> {
    fn default() -> Self {
        Warnings { items: Vec::new() }
    }
}

const MAX_EXAMPLES: usize = 5;

impl<K: Kind> Warnings<K> {
    /// Counts one occurrence; `example` is called only while fewer than five are kept.
    pub fn add(&mut self, kind: K, example: impl FnOnce() -> String) {
        self.add_n(kind, 1, example)
    }

    /// Counts `n` occurrences with one example (nothing when `n == 0`).
    pub fn add_n(&mut self, kind: K, n: usize, example: impl FnOnce() -> String) {
        if n == 0 {
            return;
        }
        let i = match self.items.iter().position(|w| w.kind == kind) {
            Some(i) => i,
            None => {
                self.items.push(Warning {
                    kind,
                    severity: kind.severity(),
                    count: 0,
                    message: kind.describe().to_string(),
                    examples: Vec::new(),
                });
                self.items.len() - 1
            }
        };
        let w = &mut self.items[i];
        w.count += n;
        if w.examples.len() < MAX_EXAMPLES {
            w.examples.push(example());
        }
    }

    /// Adds every warning of `other` (counts add up, examples are kept up to five).
    pub fn extend(&mut self, other: &Warnings<K>) {
        for w in &other.items {
            let mut examples = w.examples.iter();
            let first = examples.next().cloned().unwrap_or_default();
            self.add_n(w.kind, w.count, || first);
            for e in examples {
                if let Some(mine) = self.items.iter_mut().find(|m| m.kind == w.kind && m.examples.len() < MAX_EXAMPLES)
                {
                    mine.examples.push(e.clone());
                }
            }
        }
    }

    /// How many times `kind` happened.
    pub fn count(&self, kind: K) -> usize {
        self.items.iter().find(|w| w.kind == kind).map_or(0, |w| w.count)
    }

    /// The aggregated entry of `kind`, if it happened.
    pub fn get(&self, kind: K) -> Option<&Warning<K>> {
        self.items.iter().find(|w| w.kind == kind)
    }

    /// Every aggregated warning, in first-seen order.
    pub fn iter(&self) -> impl Iterator<Item = &Warning<K>> {
        self.items.iter()
    }

    /// No warning at all.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Number of distinct kinds.
    pub fn len(&self) -> usize {
        self.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_keeps_first_examples() {
        let mut w = Warnings::default();
        for i in 0..8 {
            w.add(WarningKind::TiedScores, || format!("ex{i}"));
        }
        w.add(WarningKind::DuplicateQuery, || "q".into());
        assert_eq!(w.count(WarningKind::TiedScores), 8);
        assert_eq!(w.get(WarningKind::TiedScores).unwrap().examples.len(), MAX_EXAMPLES);
        assert_eq!(w.len(), 2);
        let mut other = Warnings::default();
        other.add_n(WarningKind::DuplicateQuery, 3, || "r".into());
        w.extend(&other);
        assert_eq!(w.count(WarningKind::DuplicateQuery), 4);
        assert_eq!(w.get(WarningKind::DuplicateQuery).unwrap().examples, vec!["q", "r"]);
    }
}
