//! The measures trec_eval computes from qrels and a TREC run, their parameters and names
//! (trec_eval 10.0 `measures.c`, `meas_init.c`), and the `-m` selection language:
//!
//! - `-m NAME` marks a measure, `-m NAME.PARAMS` marks it with parameters (the first
//!   parameters given for a name are used, as trec_eval does);
//! - nicknames `official`, `all_trec`, `set`;
//! - ir-measures names (`nDCG@10`, `P@5`, `R@100`, `AP`, `RR`, `Success@1`, …), each mapped
//!   to the trec_eval measure and cutoff it stands for.
//!
//! Measures are always computed and printed in trec_eval's order (the order of
//! [`Kind::ALL`]), whatever the order of the `-m` options.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

crate::choice! {
    /// Which trec_eval to reproduce. `10` (the current release, default) and `9` (9.0.8, the
    /// trec_eval inside pytrec_eval and ir_measures) differ in four places: 9 keeps scores as
    /// 32-bit floats (more ties, broken by docno), rounds the recall cutoffs of
    /// `iprec_at_recall`/`11pt_avg` as ⌊x·R + 0.9⌋ instead of to the nearest integer, has no
    /// `unj`, `rbp`, `rbp_resid`, `dcg`, `ideal_dcg` (nor them in `all_trec`), and with `-c`
    /// prints nothing for a query the run does not answer.
    #[derive(Default)]
    pub enum TrecEvalVersion {
        #[default]
        V10 = "10",
        V9 = "9",
    }
}

impl Kind {
    /// Whether trec_eval `version` has this measure.
    pub fn in_version(self, version: TrecEvalVersion) -> bool {
        version == TrecEvalVersion::V10
            || !matches!(self, Kind::Unj | Kind::Rbp | Kind::RbpResid | Kind::Dcg | Kind::IdealDcg)
    }
}

/// How a measure's values are averaged over queries (trec_eval `calc_avg_meas_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Average {
    /// Arithmetic mean over the evaluated queries (`-c`: over every qrels query).
    Mean,
    /// exp(mean of log(max(v, 0.00001))) — `gm_map`, `gm_bpref`.
    Geometric,
    /// The sum over queries (`num_ret`, `num_rel_ret`, `num_nonrel_judged_ret`).
    Sum,
    /// The number of queries.
    Count,
    /// `num_rel`: the sum, or with `-c` the relevant judgments of every qrels query.
    NumRel,
    /// Not averaged (`runid`, `relstring`).
    None,
}

/// How a value is printed: `%6.4f`, `%ld` or a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueType {
    Double,
    Long,
    Text,
}

/// The parameter shape of a measure.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    /// No parameters.
    Plain,
    /// Integer cutoffs, one value per cutoff, named `NAME_5` (sorted, > 0, distinct).
    LongCutoffs(&'static [i64]),
    /// Real cutoffs, one value per cutoff, named `NAME_0.10` (`%3.2f`, sorted, distinct).
    DoubleCutoffs(&'static [f64]),
    /// Real parameters, one value named `NAME_PARAMS` when given.
    Doubles(&'static [f64]),
    /// `level=gain` pairs, one value named `NAME_PARAMS` when given.
    Pairs,
}

macro_rules! kinds {
    ($($variant:ident = $name:literal, $shape:expr, $value:ident, $avg:ident, $per_query:literal;)*) => {
        /// A trec_eval measure, in trec_eval's order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum Kind { $($variant),* }

        impl Kind {
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),*];

            /// trec_eval's name.
            pub fn name(self) -> &'static str {
                match self { $(Kind::$variant => $name),* }
            }

            fn shape(self) -> Shape {
                match self { $(Kind::$variant => $shape),* }
            }

            pub fn value_type(self) -> ValueType {
                match self { $(Kind::$variant => ValueType::$value),* }
            }

            pub fn average(self) -> Average {
                match self { $(Kind::$variant => Average::$avg),* }
            }

            /// Whether `-q` prints a line per query for it.
            pub fn per_query(self) -> bool {
                match self { $(Kind::$variant => $per_query),* }
            }

            pub fn parse(name: &str) -> Option<Kind> {
                Kind::ALL.iter().copied().find(|k| k.name() == name)
            }
        }
    };
}

const CUTS: &[i64] = &[5, 10, 15, 20, 30, 100, 200, 500, 1000];
const RECALL_POINTS: &[f64] = &[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

kinds! {
    Runid = "runid", Shape::Plain, Text, None, false;
    NumQ = "num_q", Shape::Plain, Long, Count, false;
    NumRet = "num_ret", Shape::Plain, Long, Sum, true;
    NumRel = "num_rel", Shape::Plain, Long, NumRel, true;
    NumRelRet = "num_rel_ret", Shape::Plain, Long, Sum, true;
    Map = "map", Shape::Plain, Double, Mean, true;
    GmMap = "gm_map", Shape::Plain, Double, Geometric, false;
    Rprec = "Rprec", Shape::Plain, Double, Mean, true;
    Bpref = "bpref", Shape::Plain, Double, Mean, true;
    RecipRank = "recip_rank", Shape::Plain, Double, Mean, true;
    IprecAtRecall = "iprec_at_recall", Shape::DoubleCutoffs(RECALL_POINTS), Double, Mean, true;
    P = "P", Shape::LongCutoffs(CUTS), Double, Mean, true;
    Relstring = "relstring", Shape::Doubles(&[10.0]), Text, None, true;
    Recall = "recall", Shape::LongCutoffs(CUTS), Double, Mean, true;
    InfAp = "infAP", Shape::Plain, Double, Mean, true;
    GmBpref = "gm_bpref", Shape::Plain, Double, Geometric, false;
    RprecMult = "Rprec_mult", Shape::DoubleCutoffs(&[0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0]), Double, Mean, true;
    Utility = "utility", Shape::Doubles(&[1.0, -1.0, 0.0, 0.0]), Double, Mean, true;
    ElevenPtAvg = "11pt_avg", Shape::Doubles(RECALL_POINTS), Double, Mean, true;
    BinG = "binG", Shape::Plain, Double, Mean, true;
    G = "G", Shape::Pairs, Double, Mean, true;
    Dcg = "dcg", Shape::Pairs, Double, Mean, true;
    IdealDcg = "ideal_dcg", Shape::Pairs, Double, Mean, true;
    Ndcg = "ndcg", Shape::Pairs, Double, Mean, true;
    NdcgRel = "ndcg_rel", Shape::Pairs, Double, Mean, true;
    Rndcg = "Rndcg", Shape::Pairs, Double, Mean, true;
    NdcgCut = "ndcg_cut", Shape::LongCutoffs(CUTS), Double, Mean, true;
    MapCut = "map_cut", Shape::LongCutoffs(CUTS), Double, Mean, true;
    RelativeP = "relative_P", Shape::LongCutoffs(CUTS), Double, Mean, true;
    Success = "success", Shape::LongCutoffs(&[1, 5, 10]), Double, Mean, true;
    SetP = "set_P", Shape::Plain, Double, Mean, true;
    SetRelativeP = "set_relative_P", Shape::Plain, Double, Mean, true;
    SetRecall = "set_recall", Shape::Plain, Double, Mean, true;
    SetMap = "set_map", Shape::Plain, Double, Mean, true;
    SetF = "set_F", Shape::Doubles(&[1.0]), Double, Mean, true;
    NumNonrelJudgedRet = "num_nonrel_judged_ret", Shape::Plain, Long, Sum, true;
    Rbp = "rbp", Shape::Pairs, Double, Mean, true;
    RbpResid = "rbp_resid", Shape::Pairs, Double, Mean, true;
    Unj = "unj", Shape::LongCutoffs(&[5, 10, 20]), Double, Mean, true;
}

/// `official` (trec_eval's default when no `-m` is given).
pub const OFFICIAL: &[&str] = &[
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
];

/// `all_trec`: every measure computed from qrels and a TREC run: [`OFFICIAL`] and these.
pub const ALL_TREC_BEYOND_OFFICIAL: &[&str] = &[
    "relstring",
    "recall",
    "unj",
    "rbp",
    "rbp_resid",
    "infAP",
    "gm_bpref",
    "utility",
    "11pt_avg",
    "ndcg",
    "relative_P",
    "Rprec_mult",
    "success",
    "map_cut",
    "ndcg_cut",
    "ndcg_rel",
    "Rndcg",
    "binG",
    "G",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
    "num_nonrel_judged_ret",
];

/// `set`: the measures of the unranked retrieved set.
pub const SET: &[&str] = &[
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "utility",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
];

/// A measure's parameters, parsed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Params {
    None,
    Cutoffs(Vec<i64>),
    Points(Vec<f64>),
    Values(Vec<f64>),
    /// `level=gain` (or `p=0.8` for rbp) pairs.
    Pairs(Vec<(String, f64)>),
}

/// One selected measure with its parameters and the names of the values it prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measure {
    pub kind: Kind,
    pub params: Params,
    /// One name per value (`P_5`, `P_10`; `ndcg_1=3,2=9`; `map`).
    pub names: Vec<String>,
}

/// trec_eval's `atol` on a cutoff: an integer, or a number whose integer part is taken
/// (`23.4` → 23).
fn cutoff(text: &str, spec: &str) -> Result<i64> {
    let t = text.trim();
    if let Ok(v) = t.parse::<i64>() {
        return Ok(v);
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v.trunc() as i64),
        _ => Err(Error::setting("measure", format!("`{spec}`: cutoff `{text}` is not a number"))),
    }
}

fn real(text: &str, spec: &str) -> Result<f64> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(Error::setting("measure", format!("`{spec}`: parameter `{text}` is not a number"))),
    }
}

impl Measure {
    /// A measure with its default parameters.
    pub fn default_of(kind: Kind) -> Measure {
        let params = match kind.shape() {
            Shape::Plain => Params::None,
            Shape::LongCutoffs(c) => Params::Cutoffs(c.to_vec()),
            Shape::DoubleCutoffs(c) => Params::Points(c.to_vec()),
            Shape::Doubles(v) => Params::Values(v.to_vec()),
            Shape::Pairs => Params::Pairs(Vec::new()),
        };
        let names = Self::names(kind, &params, None);
        Measure { kind, params, names }
    }

    /// A measure with parameters as written after the `.` of `-m NAME.PARAMS`.
    pub fn with_params(kind: Kind, text: &str, spec: &str) -> Result<Measure> {
        if text.is_empty() {
            return Err(Error::setting(
                "measure",
                format!("`{spec}`: nothing after the `.` (give parameters or drop the `.`)"),
            ));
        }
        let parts: Vec<&str> = text.split(',').collect();
        let params = match kind.shape() {
            Shape::Plain => {
                return Err(Error::setting("measure", format!("`{spec}`: `{}` takes no parameters", kind.name())));
            }
            Shape::LongCutoffs(_) => {
                let mut c = parts.iter().map(|p| cutoff(p, spec)).collect::<Result<Vec<i64>>>()?;
                c.sort_unstable();
                if c[0] <= 0 {
                    return Err(Error::setting("measure", format!("`{spec}`: cutoffs must be positive")));
                }
                if c.windows(2).any(|w| w[0] == w[1]) {
                    return Err(Error::setting("measure", format!("`{spec}`: a cutoff is given twice")));
                }
                Params::Cutoffs(c)
            }
            Shape::DoubleCutoffs(_) => {
                let mut c = parts.iter().map(|p| real(p, spec)).collect::<Result<Vec<f64>>>()?;
                c.sort_by(f64::total_cmp);
                if c.windows(2).any(|w| w[0] == w[1]) {
                    return Err(Error::setting("measure", format!("`{spec}`: a cutoff is given twice")));
                }
                Params::Points(c)
            }
            Shape::Doubles(_) => {
                let v = parts.iter().map(|p| real(p, spec)).collect::<Result<Vec<f64>>>()?;
                if kind == Kind::Utility && v.len() != 4 {
                    return Err(Error::setting(
                        "measure",
                        format!(
                            "`{spec}`: utility takes 4 coefficients (relevant retrieved, nonrelevant retrieved, relevant missed, nonrelevant missed)"
                        ),
                    ));
                }
                Params::Values(v)
            }
            Shape::Pairs => {
                let mut pairs = Vec::with_capacity(parts.len());
                for p in &parts {
                    match p.split_once('=') {
                        Some((name, value)) if !name.is_empty() && !value.contains('=') => {
                            pairs.push((name.to_string(), real(value, spec)?))
                        }
                        _ => {
                            return Err(Error::setting(
                                "measure",
                                format!("`{spec}`: malformed pair `{p}` (write level=gain pairs such as 1=3,2=9)"),
                            ));
                        }
                    }
                }
                Params::Pairs(pairs)
            }
        };
        let names = Self::names(kind, &params, Some(text));
        Ok(Measure { kind, params, names })
    }

    fn names(kind: Kind, params: &Params, printable: Option<&str>) -> Vec<String> {
        let n = kind.name();
        match params {
            Params::Cutoffs(c) => c.iter().map(|c| format!("{n}_{c}")).collect(),
            Params::Points(c) => c.iter().map(|c| format!("{n}_{c:3.2}")).collect(),
            Params::None | Params::Values(_) | Params::Pairs(_) => {
                vec![printable.map(|p| format!("{n}_{p}")).unwrap_or_else(|| n.to_string())]
            }
        }
    }
}

/// The measures a list of `-m` options selects, in trec_eval's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Selection {
    pub measures: Vec<Measure>,
}

/// An ir-measures name: the trec_eval measure and parameters it stands for.
fn ir_measures_name(spec: &str) -> Option<Result<(Kind, Option<String>)>> {
    let (base, cut) = match spec.split_once('@') {
        Some((b, c)) => (b, Some(c)),
        None => (spec, None),
    };
    let with_cut = |k: Kind| -> Result<(Kind, Option<String>)> {
        match cut {
            Some(c) if !c.is_empty() => Ok((k, Some(c.to_string()))),
            _ => Err(Error::setting("measure", format!("`{spec}` needs a cutoff after `@`"))),
        }
    };
    let plain = |k: Kind| -> Result<(Kind, Option<String>)> {
        match cut {
            None => Ok((k, None)),
            Some(_) => Err(Error::setting("measure", format!("`{spec}`: trec_eval has no cutoff for `{base}`"))),
        }
    };
    if base.contains('(') {
        return Some(Err(Error::setting(
            "measure",
            format!(
                "`{spec}`: ir-measures parameters in parentheses are not supported (use -l for the relevance level)"
            ),
        )));
    }
    Some(match base {
        "nDCG" if cut.is_some() => with_cut(Kind::NdcgCut),
        "nDCG" => plain(Kind::Ndcg),
        "P" if cut.is_some() => with_cut(Kind::P),
        "R" => with_cut(Kind::Recall),
        "AP" if cut.is_some() => with_cut(Kind::MapCut),
        "AP" => plain(Kind::Map),
        "RR" => plain(Kind::RecipRank),
        "Success" => with_cut(Kind::Success),
        "Rprec" | "RPrec" => plain(Kind::Rprec),
        "Bpref" => plain(Kind::Bpref),
        "infAP" => plain(Kind::InfAp),
        "IPrec" => with_cut(Kind::IprecAtRecall),
        "NumQ" => plain(Kind::NumQ),
        "NumRet" => plain(Kind::NumRet),
        "NumRel" => plain(Kind::NumRel),
        "NumRelRet" => plain(Kind::NumRelRet),
        "SetP" => plain(Kind::SetP),
        "SetR" => plain(Kind::SetRecall),
        "SetF" => plain(Kind::SetF),
        "SetAP" => plain(Kind::SetMap),
        _ => return None,
    })
}

impl Selection {
    /// Parses `-m` options (none: `official`) for trec_eval `version`.
    pub fn parse(specs: &[String], version: TrecEvalVersion) -> Result<Selection> {
        let defaults = [String::from("official")];
        let specs = if specs.is_empty() { &defaults[..] } else { specs };
        let mut marked: Vec<Kind> = Vec::new();
        // (kind, params text) in the order given: the first one per kind is used.
        let mut params: Vec<(Kind, String, String)> = Vec::new();
        for spec in specs {
            let spec = spec.trim();
            if spec.is_empty() {
                return Err(Error::setting("measure", "an empty measure name"));
            }
            let (name, param_text) = match spec.split_once('.') {
                Some((n, p)) => (n, Some(p)),
                None => (spec, None),
            };
            let nickname = match name {
                "official" => Some(&[OFFICIAL][..]),
                "all_trec" => Some(&[OFFICIAL, ALL_TREC_BEYOND_OFFICIAL][..]),
                "set" => Some(&[SET][..]),
                _ => None,
            };
            if let Some(list) = nickname {
                if param_text.is_some_and(str::is_empty) {
                    return Err(Error::setting("measure", format!("`{spec}`: nothing after the `.`")));
                }
                let names = list.iter().flat_map(|l| l.iter());
                marked.extend(names.filter_map(|n| Kind::parse(n)).filter(|k| k.in_version(version)));
                continue;
            }
            if let Some(kind) = Kind::parse(name) {
                if !kind.in_version(version) {
                    return Err(Error::setting(
                        "measure",
                        format!("`{spec}`: trec_eval {version} has no `{name}` (it came with trec_eval 10)"),
                    ));
                }
                marked.push(kind);
                if let Some(p) = param_text {
                    params.push((kind, p.to_string(), spec.to_string()));
                }
                continue;
            }
            match ir_measures_name(spec) {
                Some(found) => {
                    let (kind, cut) = found?;
                    marked.push(kind);
                    if let Some(c) = cut {
                        params.push((kind, c, spec.to_string()));
                    }
                }
                None => {
                    return Err(Error::setting(
                        "measure",
                        format!(
                            "unknown measure `{spec}`: trec_eval names ({}), nicknames official, all_trec, set, \
                             or ir-measures names (nDCG@10, P@5, R@100, AP, AP@10, RR, Success@1, Rprec, Bpref, \
                             infAP, IPrec@0.5, NumQ, NumRet, NumRel, NumRelRet, SetP, SetR, SetF)",
                            Kind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
                        ),
                    ));
                }
            }
        }
        let mut measures = Vec::new();
        for &kind in Kind::ALL {
            if !marked.contains(&kind) {
                continue;
            }
            let m = match params.iter().find(|(k, _, _)| *k == kind) {
                Some((_, text, spec)) => Measure::with_params(kind, text, spec)?,
                None => Measure::default_of(kind),
            };
            measures.push(m);
        }
        Ok(Selection { measures })
    }

    /// Every value name, in print order.
    pub fn value_names(&self) -> impl Iterator<Item = &str> {
        self.measures.iter().flat_map(|m| m.names.iter().map(String::as_str))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(specs: &[&str]) -> Vec<String> {
        let s =
            Selection::parse(&specs.iter().map(|s| s.to_string()).collect::<Vec<_>>(), TrecEvalVersion::V10).unwrap();
        s.value_names().map(String::from).collect()
    }

    #[test]
    fn trec_eval_names_and_parameters() {
        assert_eq!(names(&["P.5,7,3"]), ["P_3", "P_5", "P_7"]);
        assert_eq!(names(&["ndcg_cut.10,20,23.4"]), ["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]);
        assert_eq!(names(&["Rprec_mult.5.0,0.2,0.35"]), ["Rprec_mult_0.20", "Rprec_mult_0.35", "Rprec_mult_5.00"]);
        assert_eq!(names(&["iprec_at_recall..10,.20"]), ["iprec_at_recall_0.10", "iprec_at_recall_0.20"]);
        assert_eq!(names(&["ndcg.1=3,2=9,4=4.5"]), ["ndcg_1=3,2=9,4=4.5"]);
        assert_eq!(names(&["11pt_avg..25,.5,.75"]), ["11pt_avg_.25,.5,.75"]);
        assert_eq!(names(&["utility.2,-1,0,0"]), ["utility_2,-1,0,0"]);
        // trec_eval's order, whatever the order given; the first parameters for a name win.
        assert_eq!(names(&["success.1", "map", "P.5", "P.10"]), ["map", "P_5", "success_1"]);
        let official = names(&[]);
        assert_eq!(official.len(), 10 + 11 + 9);
        assert_eq!(official[0], "runid");
    }

    #[test]
    fn ir_measures_names() {
        assert_eq!(
            names(&["nDCG@10", "P@5", "R@100", "AP", "RR", "Success@1"]),
            ["map", "recip_rank", "P_5", "recall_100", "ndcg_cut_10", "success_1"]
        );
        assert_eq!(names(&["AP@10", "nDCG"]), ["ndcg", "map_cut_10"]);
    }

    #[test]
    fn refusals() {
        for bad in ["P.0", "P.5,5", "map.3", "P.", "utility.1,2", "ndcg.1=", "nope", "nDCG(dupes=error)@10", "RR@10"] {
            assert!(Selection::parse(&[bad.to_string()], TrecEvalVersion::V10).is_err(), "{bad}");
        }
        assert!(Selection::parse(&["unj".to_string()], TrecEvalVersion::V9).is_err());
        let all9 = Selection::parse(&["all_trec".to_string()], TrecEvalVersion::V9).unwrap();
        assert!(all9.measures.iter().all(|m| !matches!(m.kind, Kind::Unj | Kind::Rbp | Kind::RbpResid)));
    }
}
