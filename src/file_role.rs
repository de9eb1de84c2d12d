//! What an input file is for: the role it plays in a capability (the option it belongs to on
//! the command line). The CLI knows it from the option; the viewer, which takes files in any
//! order, detects it from the content ([`crate::capability::Capability::detect`]) and lets the
//! user override it.

crate::choice! {
    /// The role of an input file.
    pub enum FileRole {
        /// Any retrieval file of `memaudit rescore`, its format detected (`--input`).
        Retrieval,
        /// Stored memories with their lineage (`--memories`).
        Memories,
        /// Queries with gold evidence (`--queries`).
        Queries,
        /// Saved ranked outputs (`--runs`).
        Runs,
        /// TREC qrels (`--qrels`).
        Qrels,
        /// Per-item outcomes of several arms (`--outcomes`).
        Outcomes,
        /// Memory notes to probe (`--notes`).
        Notes,
        /// reclaim-eval probe keys: truth, stale value and options by pid (`--keys`).
        Keys,
        /// The source text plain-text notes were written from (`--source-file`).
        Source,
        /// Per-trial reclaim rows (`--trials`).
        Trials,
        /// Answer rows to rescore (`--input` of `memaudit answers`).
        Answers,
        /// Counterfactual-ablation traces (`--input` of `memaudit ablation`).
        Traces,
        /// Claims to check (`--claims`).
        Claims,
        /// Per-query scores (`--data` of `memaudit claims`).
        Scores,
        /// A printed table to lint (`--printed-table`).
        Table,
        /// A rule registry (`--rules`).
        Rules,
        /// Named values (`--values`).
        Values,
        /// A `git log --format='%H %cI' [--name-only]` export (`--git-log`).
        GitLog,
        /// A data file to fingerprint (`--data` of `memaudit rules`).
        Data,
        /// An exclusion ledger: item, reason, time, affected data (`--exclusions`).
        Exclusions,
        /// Categorical labels of items by raters (`--labels`).
        Labels,
        /// Per-item routing rows: confidence, outcome without and with memory (`--input` of
        /// `memaudit calibration`).
        Routing,
        /// Per-query target metrics and answer scores (`--input` of `memaudit alignment`).
        AlignmentRows,
        /// Per-task compliance rows of arms (`--input` of `memaudit compliance`).
        ComplianceRows,
        /// Any file of a release (a folder, an archive or files), triaged by its content
        /// (`memaudit audit`).
        Release,
    }
}

impl FileRole {
    /// The roles of `memaudit claims`' files.
    pub const CLAIMS: [FileRole; 3] = [FileRole::Claims, FileRole::Scores, FileRole::Table];
    /// The roles of `memaudit rules`' files.
    pub const RULES: [FileRole; 5] =
        [FileRole::Rules, FileRole::Values, FileRole::GitLog, FileRole::Data, FileRole::Exclusions];

    /// In words (each interface adds how a file is given a role: the CLI its option).
    pub fn describe(self) -> String {
        let what = match self {
            FileRole::Retrieval => "retrieval data, format detected",
            FileRole::Memories => "stored memories",
            FileRole::Queries => "queries with evidence",
            FileRole::Runs => "ranked outputs",
            FileRole::Qrels => "TREC qrels",
            FileRole::Outcomes => "per-item outcomes",
            FileRole::Notes => "memory notes",
            FileRole::Keys => "probe keys",
            FileRole::Source => "the source text of plain-text notes",
            FileRole::Trials => "reclaim trials",
            FileRole::Answers => "answer rows",
            FileRole::Traces => "ablation traces",
            FileRole::Claims => "claims to check",
            FileRole::Scores => "per-query scores",
            FileRole::Table => "printed table to lint",
            FileRole::Rules => "rule registry",
            FileRole::Values => "named values",
            FileRole::GitLog => "git log export",
            FileRole::Data => "data file to fingerprint",
            FileRole::Exclusions => "exclusion ledger",
            FileRole::Labels => "labels by raters",
            FileRole::Routing => "per-item routing rows",
            FileRole::AlignmentRows => "per-query metrics or answer scores",
            FileRole::ComplianceRows => "per-task compliance rows",
            FileRole::Release => "a file of a release, triaged by its content",
        };
        what.to_string()
    }
}
