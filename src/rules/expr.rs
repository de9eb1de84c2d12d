//! The rule language's expressions (grammar in `docs/rules.md`), parsed from JSON with the
//! JSON path of every error, and evaluated against named values into a tree of results with
//! margins.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A named value: a number, or an estimate with its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Quantity {
    pub estimate: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The file the value comes from.
    pub source: Option<String>,
    /// When the value was produced (RFC 3339), if the file says.
    pub created_at: Option<String>,
    /// The commit that produced the value, if known.
    pub commit: Option<String>,
}

/// An operand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Operand {
    Number(f64),
    /// A named value (its estimate), `{d}` replaced inside counts.
    Value(String),
    /// The lower or upper bound of a named value's interval.
    Low(String),
    High(String),
    Abs(Box<Operand>),
    Sub(Box<Operand>, Box<Operand>),
    Add(Box<Operand>, Box<Operand>),
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Op {
    fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "<" => Op::Lt,
            "<=" | "≤" => Op::Le,
            ">" => Op::Gt,
            ">=" | "≥" => Op::Ge,
            "==" | "=" => Op::Eq,
            "!=" | "≠" => Op::Ne,
            _ => return None,
        })
    }
    fn symbol(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
        }
    }
}

/// A test on an interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CiTest {
    LowerGt0,
    UpperLt0,
    Excludes0,
    /// 0 inside the interval (with `touch_counts`, a bound at 0 also overlaps).
    Overlaps0,
    Touches0,
}

/// A predicate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Pred {
    Cmp(Operand, Op, Operand),
    In { x: Operand, low: f64, high: f64, closed: bool },
    Within { a: Operand, b: Operand, slack: f64 },
    Ci { name: String, test: CiTest, touch_counts: bool },
    All(Vec<Pred>),
    Any(Vec<Pred>),
    Not(Box<Pred>),
    Count { over: Vec<String>, pred: Box<Pred>, at_least: usize },
}

/// A parse error: the JSON path and what is wrong.
pub type ParseError = (String, String);

/// The most predicate evaluations one rule may need: a `count` evaluates its predicate once per
/// name, so nested counts multiply (a 1 kB rule file could otherwise ask for billions).
pub const MAX_EVALUATIONS: u64 = 1_000_000;

impl Pred {
    /// How many predicate nodes evaluating this one visits (saturating).
    pub fn evaluations(&self) -> u64 {
        match self {
            Pred::All(c) | Pred::Any(c) => c.iter().fold(1u64, |n, p| n.saturating_add(p.evaluations())),
            Pred::Not(p) => p.evaluations().saturating_add(1),
            Pred::Count { over, pred, .. } => (over.len() as u64).saturating_mul(pred.evaluations()).saturating_add(1),
            _ => 1,
        }
    }
}

/// Refuses a predicate over [`MAX_EVALUATIONS`] before anything is evaluated.
fn bounded(p: Pred, path: &str) -> Result<Pred, ParseError> {
    let n = p.evaluations();
    if n > MAX_EVALUATIONS {
        return err(
            path,
            format!(
                "this predicate needs {} evaluations (each count multiplies its predicate by its names), \
                 more than the {MAX_EVALUATIONS} allowed: use fewer names or fewer nested counts",
                if n == u64::MAX { "more than 18446744073709551614".to_string() } else { n.to_string() }
            ),
        );
    }
    Ok(p)
}

fn err<T>(path: &str, msg: impl Into<String>) -> Result<T, ParseError> {
    Err((path.to_string(), msg.into()))
}

fn f64_at(v: &Value, path: &str) -> Result<f64, ParseError> {
    v.as_f64().filter(|x| x.is_finite()).map_or_else(|| err(path, format!("expected a number, found {v}")), Ok)
}

/// Parses an operand: a number, a value name, `{"value": n}`, `{"low": n}`, `{"high": n}`,
/// `{"abs": x}`, `{"sub": [x, y]}`, `{"add": [x, y]}`.
pub fn parse_operand(v: &Value, path: &str) -> Result<Operand, ParseError> {
    match v {
        Value::Number(_) => Ok(Operand::Number(f64_at(v, path)?)),
        Value::String(s) => Ok(Operand::Value(s.clone())),
        Value::Object(m) if m.len() == 1 => {
            let (k, x) = m.iter().next().map_or_else(|| err(path, "empty object"), Ok)?;
            let sub = format!("{path}.{k}");
            let name =
                |x: &Value| x.as_str().map(str::to_string).map_or_else(|| err(&sub, "expected a value name"), Ok);
            let pair = |x: &Value| -> Result<(Operand, Operand), ParseError> {
                match x.as_array().map(Vec::as_slice) {
                    Some([a, b]) => {
                        Ok((parse_operand(a, &format!("{sub}[0]"))?, parse_operand(b, &format!("{sub}[1]"))?))
                    }
                    _ => err(&sub, "expected two operands [x, y]"),
                }
            };
            match k.as_str() {
                "value" => Ok(Operand::Value(name(x)?)),
                "low" => Ok(Operand::Low(name(x)?)),
                "high" => Ok(Operand::High(name(x)?)),
                "abs" => Ok(Operand::Abs(Box::new(parse_operand(x, &sub)?))),
                "sub" => pair(x).map(|(a, b)| Operand::Sub(Box::new(a), Box::new(b))),
                "add" => pair(x).map(|(a, b)| Operand::Add(Box::new(a), Box::new(b))),
                _ => err(path, format!("unknown operand `{k}` (value, low, high, abs, sub, add)")),
            }
        }
        _ => err(path, format!("expected a number, a value name or an operand object, found {v}")),
    }
}

fn preds(v: &Value, path: &str) -> Result<Vec<Pred>, ParseError> {
    let Some(a) = v.as_array() else { return err(path, "expected an array of predicates") };
    a.iter().enumerate().map(|(i, p)| parse_pred(p, &format!("{path}[{i}]"))).collect()
}

/// Parses a predicate (grammar in `docs/rules.md`).
pub fn parse_pred(v: &Value, path: &str) -> Result<Pred, ParseError> {
    let Some(m) = v.as_object() else { return err(path, format!("expected a predicate object, found {v}")) };
    let get = |k: &str| m.get(k);
    if let Some(x) = get("cmp") {
        let sub = format!("{path}.cmp");
        let Some([a, op, b]) = x.as_array().map(Vec::as_slice) else {
            return err(&sub, "expected [left, operator, right]");
        };
        let op_s = op.as_str().unwrap_or_default();
        let op = Op::parse(op_s)
            .map_or_else(|| err(&format!("{sub}[1]"), format!("`{op}` is not <, <=, >, >=, == or !=")), Ok)?;
        return Ok(Pred::Cmp(parse_operand(a, &format!("{sub}[0]"))?, op, parse_operand(b, &format!("{sub}[2]"))?));
    }
    if let Some(x) = get("in") {
        let sub = format!("{path}.interval");
        let Some([lo, hi]) = get("interval").and_then(Value::as_array).map(Vec::as_slice) else {
            return err(&sub, "expected \"interval\": [low, high]");
        };
        let (low, high) = (f64_at(lo, &format!("{sub}[0]"))?, f64_at(hi, &format!("{sub}[1]"))?);
        if low > high {
            return err(&sub, "low > high");
        }
        let closed = get("closed").and_then(Value::as_bool).unwrap_or(true);
        return Ok(Pred::In { x: parse_operand(x, &format!("{path}.in"))?, low, high, closed });
    }
    if let Some(x) = get("within") {
        let sub = format!("{path}.within");
        let Some([a, b]) = x.as_array().map(Vec::as_slice) else { return err(&sub, "expected [x, y]") };
        let slack = f64_at(get("slack").unwrap_or(&Value::Null), &format!("{path}.slack"))?;
        if slack < 0.0 {
            return err(&format!("{path}.slack"), "the slack must be ≥ 0");
        }
        return Ok(Pred::Within {
            a: parse_operand(a, &format!("{sub}[0]"))?,
            b: parse_operand(b, &format!("{sub}[1]"))?,
            slack,
        });
    }
    if let Some(x) = get("ci") {
        let name = x.as_str().map_or_else(|| err(&format!("{path}.ci"), "expected a value name"), Ok)?.to_string();
        let t = get("test").and_then(Value::as_str).unwrap_or_default();
        let test = match t {
            "lower_gt_0" => CiTest::LowerGt0,
            "upper_lt_0" => CiTest::UpperLt0,
            "excludes_0" => CiTest::Excludes0,
            "overlaps_0" => CiTest::Overlaps0,
            "touches_0" => CiTest::Touches0,
            _ => {
                return err(
                    &format!("{path}.test"),
                    format!("`{t}` is not lower_gt_0, upper_lt_0, excludes_0, overlaps_0 or touches_0"),
                );
            }
        };
        let touch_counts = get("touch_counts").and_then(Value::as_bool).unwrap_or(false);
        return Ok(Pred::Ci { name, test, touch_counts });
    }
    if let Some(x) = get("all") {
        return bounded(Pred::All(preds(x, &format!("{path}.all"))?), path);
    }
    if let Some(x) = get("any") {
        return bounded(Pred::Any(preds(x, &format!("{path}.any"))?), path);
    }
    if let Some(x) = get("not") {
        return Ok(Pred::Not(Box::new(parse_pred(x, &format!("{path}.not"))?)));
    }
    if let Some(x) = get("count") {
        let sub = format!("{path}.count");
        let Some(c) = x.as_object() else { return err(&sub, "expected {\"over\": [...], \"pred\": {...}}") };
        let over: Vec<String> = match c.get("over").and_then(Value::as_array) {
            Some(a) => a
                .iter()
                .map(|s| s.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .map_or_else(|| err(&format!("{sub}.over"), "expected names"), Ok)?,
            None => return err(&format!("{sub}.over"), "expected \"over\": [names]"),
        };
        let pred = parse_pred(c.get("pred").unwrap_or(&Value::Null), &format!("{sub}.pred"))?;
        let k = get("at_least")
            .and_then(Value::as_u64)
            .map_or_else(|| err(&format!("{path}.at_least"), "expected a whole number"), Ok)?;
        return bounded(Pred::Count { over, pred: Box::new(pred), at_least: k as usize }, path);
    }
    err(path, "unknown predicate (cmp, in, within, ci, all, any, not, count)")
}

/// The result of one predicate node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Eval {
    pub fired: bool,
    /// Distance to the threshold in the firing direction (positive: fired with room; negative:
    /// missed by that much). all: the smallest child margin; any: the largest; count: passes − k.
    pub margin: Option<f64>,
    /// What was tested, with the numbers.
    pub detail: String,
    pub children: Vec<Eval>,
}

/// Values by name, with the names actually read.
pub struct Env<'a> {
    pub values: &'a BTreeMap<String, Quantity>,
    pub used: Vec<String>,
    /// Values an exclusion withdraws: a `count` leaves out the items that read one; anywhere
    /// else reading one is an error ([`WITHDRAWN`]).
    pub withdrawn: &'a [String],
}

/// How an error of reading a withdrawn value begins.
pub const WITHDRAWN: &str = "withdrawn by an exclusion: ";

impl<'a> Env<'a> {
    /// An environment over `values`, nothing withdrawn.
    pub fn new(values: &'a BTreeMap<String, Quantity>) -> Self {
        Env { values, used: Vec::new(), withdrawn: &[] }
    }

    fn get(&mut self, name: &str) -> Result<&Quantity, String> {
        if !self.used.iter().any(|u| u == name) {
            self.used.push(name.to_string());
        }
        if self.withdrawn.iter().any(|w| w == name) {
            return Err(format!("{WITHDRAWN}`{name}`"));
        }
        self.values.get(name).ok_or_else(|| format!("no value `{name}`"))
    }

    fn operand(&mut self, o: &Operand, d: Option<&str>) -> Result<f64, String> {
        let sub = |s: &str| d.map_or_else(|| s.to_string(), |d| s.replace("{d}", d));
        match o {
            Operand::Number(x) => Ok(*x),
            Operand::Value(n) => Ok(self.get(&sub(n))?.estimate),
            Operand::Low(n) => self.get(&sub(n))?.low.ok_or_else(|| format!("`{}` has no interval", sub(n))),
            Operand::High(n) => self.get(&sub(n))?.high.ok_or_else(|| format!("`{}` has no interval", sub(n))),
            Operand::Abs(x) => Ok(self.operand(x, d)?.abs()),
            Operand::Sub(a, b) => Ok(self.operand(a, d)? - self.operand(b, d)?),
            Operand::Add(a, b) => Ok(self.operand(a, d)? + self.operand(b, d)?),
        }
    }

    /// Evaluates a predicate; `d` replaces `{d}` in names (inside a count).
    pub fn eval(&mut self, p: &Pred, d: Option<&str>) -> Result<Eval, String> {
        let leaf = |fired: bool, margin: f64, detail: String| Eval {
            fired,
            margin: Some(margin),
            detail,
            children: Vec::new(),
        };
        Ok(match p {
            Pred::Cmp(a, op, b) => {
                let (x, y) = (self.operand(a, d)?, self.operand(b, d)?);
                let (fired, margin) = match op {
                    Op::Gt => (x > y, x - y),
                    Op::Ge => (x >= y, x - y),
                    Op::Lt => (x < y, y - x),
                    Op::Le => (x <= y, y - x),
                    Op::Eq => (x == y, -(x - y).abs()),
                    Op::Ne => (x != y, (x - y).abs()),
                };
                leaf(fired, margin, format!("{x} {} {y}", op.symbol()))
            }
            Pred::In { x, low, high, closed } => {
                let v = self.operand(x, d)?;
                let m = (v - low).min(high - v);
                let fired = if *closed { m >= 0.0 } else { m > 0.0 };
                let (l, r) = if *closed { ('[', ']') } else { ('(', ')') };
                leaf(fired, m, format!("{v} in {l}{low}, {high}{r}"))
            }
            Pred::Within { a, b, slack } => {
                let (x, y) = (self.operand(a, d)?, self.operand(b, d)?);
                let gap = (x - y).abs();
                leaf(gap <= *slack + 1e-12, slack - gap, format!("|{x} − {y}| = {gap} ≤ {slack}"))
            }
            Pred::Ci { name, test, touch_counts } => {
                let n = d.map_or_else(|| name.clone(), |d| name.replace("{d}", d));
                let q = self.get(&n)?.clone();
                let (Some(lo), Some(hi)) = (q.low, q.high) else { return Err(format!("`{n}` has no interval")) };
                let (fired, margin, what) = match test {
                    CiTest::LowerGt0 => (lo > 0.0, lo, "lower > 0"),
                    CiTest::UpperLt0 => (hi < 0.0, -hi, "upper < 0"),
                    CiTest::Excludes0 => (lo > 0.0 || hi < 0.0, lo.max(-hi), "excludes 0"),
                    CiTest::Overlaps0 => {
                        let m = (-lo).min(hi);
                        (
                            if *touch_counts { m >= 0.0 } else { m > 0.0 },
                            m,
                            if *touch_counts { "overlaps or touches 0" } else { "overlaps 0" },
                        )
                    }
                    CiTest::Touches0 => (lo == 0.0 || hi == 0.0, -(lo.abs().min(hi.abs())), "touches 0"),
                };
                leaf(fired, margin, format!("{n} [{lo}, {hi}] {what}"))
            }
            Pred::All(ps) | Pred::Any(ps) => {
                let all = matches!(p, Pred::All(_));
                let children = ps.iter().map(|c| self.eval(c, d)).collect::<Result<Vec<_>, _>>()?;
                let fired = if all { children.iter().all(|c| c.fired) } else { children.iter().any(|c| c.fired) };
                let ms = children.iter().filter_map(|c| c.margin);
                let margin = if all {
                    ms.fold(None, |a: Option<f64>, m| Some(a.map_or(m, |a| a.min(m))))
                } else {
                    ms.fold(None, |a: Option<f64>, m| Some(a.map_or(m, |a| a.max(m))))
                };
                Eval { fired, margin, detail: if all { "all of".into() } else { "any of".into() }, children }
            }
            Pred::Not(x) => {
                let c = self.eval(x, d)?;
                Eval { fired: !c.fired, margin: c.margin.map(|m| -m), detail: "not".into(), children: vec![c] }
            }
            Pred::Count { over, pred, at_least } => {
                let mut children = Vec::new();
                let mut left_out = Vec::new();
                for item in over {
                    match self.eval(pred, Some(item)) {
                        Ok(mut e) => {
                            e.detail = format!("{item}: {}", e.detail);
                            children.push(e);
                        }
                        Err(e) if e.starts_with(WITHDRAWN) => left_out.push(item.as_str()),
                        Err(e) => return Err(e),
                    }
                }
                let passes = children.iter().filter(|c| c.fired).count();
                let withdrawn = if left_out.is_empty() {
                    String::new()
                } else {
                    format!(" ({} withdrawn: {})", left_out.len(), left_out.join(", "))
                };
                Eval {
                    fired: passes >= *at_least,
                    margin: Some(passes as f64 - *at_least as f64),
                    detail: format!("{passes} of {} pass{withdrawn}, at least {at_least} required", children.len()),
                    children,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested_counts(levels: usize, names: usize) -> Value {
        let over: Vec<String> = (0..names).map(|i| format!("x{i}")).collect();
        let mut p = serde_json::json!({"cmp": [1, "<", 2]});
        for _ in 0..levels {
            p = serde_json::json!({"count": {"over": over, "pred": p}, "at_least": 1});
        }
        p
    }

    #[test]
    fn nested_counts_are_refused_before_they_are_evaluated() {
        // 100 × (100 × (1) + 1) + 1 = 10,101 evaluations: accepted.
        assert_eq!(parse_pred(&nested_counts(2, 100), "rules[0].when").unwrap().evaluations(), 10_101);
        // A third level needs 1,010,101: refused at the outermost count that crosses the limit.
        let (path, message) = parse_pred(&nested_counts(3, 100), "rules[0].when").unwrap_err();
        assert_eq!(path, "rules[0].when");
        assert!(message.contains("1010101 evaluations"), "{message}");
        // Twenty levels: refused at the third, never built further.
        let (path, _) = parse_pred(&nested_counts(20, 100), "r").unwrap_err();
        assert_eq!(path, format!("r{}", ".count.pred".repeat(17)));
    }
}
