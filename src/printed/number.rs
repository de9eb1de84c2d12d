//! Numbers as papers print them, the one reading for every interface and check: `0.176`,
//! `.176`, `+4.76`, `−5.92` (U+2212), `34.00%`, `1,533`, an interval `[+2.00, +15.00]`, a
//! p-value `3.8×10⁻¹¹`, each with the decimals it was printed with (what "within rounding"
//! means for it).
//!
//! **Invariant**: a printed text reads the same wherever it is read (the claims, the linter,
//! the printed-numbers check).

use serde::{Deserialize, Serialize};

/// A printed number, as read from its text.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PrintedValue {
    /// The number on its printed scale (34.3 for `34.3%`).
    pub value: f64,
    /// Its decimals as printed.
    pub decimals: u32,
    /// Printed as a percentage (`%`, `pp`): compared with 100 × a recomputed fraction.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub percent: bool,
}

impl PrintedValue {
    /// Half a unit of the last printed decimal (0.005 for `34.92`).
    pub fn half_unit(&self) -> f64 {
        half_unit(self.decimals)
    }
}

/// Half a unit of the last of `decimals` printed decimals.
pub fn half_unit(decimals: u32) -> f64 {
    0.5 * 10f64.powi(-(decimals as i32))
}

/// A number as a paper prints it: a sign (`+`, `-`, `−`, `–`), digits with optional thousands
/// separators (`1,533`), an optional leading-dot fraction (`.176`), an optional `%` or `pp`
/// (percentage points). `None` for anything else.
pub fn parse_printed(text: &str) -> Option<PrintedValue> {
    let t = text.trim().replace(['\u{2212}', '\u{2013}'], "-");
    let (t, percent) = match t.strip_suffix('%').or_else(|| t.strip_suffix("pp")) {
        Some(s) => (s.trim_end().to_string(), true),
        None => (t, false),
    };
    let t = t.strip_prefix('+').unwrap_or(&t);
    let (sign, digits) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", t),
    };
    let (whole, fraction) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    // Thousands separators only in groups of three after one to three digits.
    let groups: Vec<&str> = whole.split(',').collect();
    let grouped_ok = groups.len() == 1
        || (!groups[0].is_empty() && groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3));
    let whole = groups.concat();
    let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if !grouped_ok
        || !all_digits(&whole)
        || fraction.is_some_and(|f| f.is_empty() || !all_digits(f))
        || (whole.is_empty() && fraction.is_none())
    {
        return None;
    }
    let number = format!("{sign}{}.{}", if whole.is_empty() { "0" } else { &whole }, fraction.unwrap_or("0"));
    Some(PrintedValue { value: number.parse().ok()?, decimals: fraction.map_or(0, |f| f.len() as u32), percent })
}

/// A printed p-value: `0.0768`, `9.67e-07`, `3.8×10⁻¹¹`, `3.8x10^-11`, or a bound `< 0.001`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PrintedP {
    pub value: f64,
    /// Half a unit of the last printed significant digit.
    pub half_unit: f64,
    /// Printed as an upper bound (`< t`, `≤ t`).
    pub below: bool,
}

/// Parses a printed p-value (see [`PrintedP`]); `None` when it is not one.
pub fn parse_p(text: &str) -> Option<PrintedP> {
    let mut t = text.trim().to_ascii_lowercase().replace(' ', "");
    t = t.trim_start_matches("p").trim_start_matches('=').to_string();
    let below = t.starts_with('<') || t.starts_with('≤');
    let t = t.trim_start_matches(['<', '≤', '=']).to_string();
    // 3.8×10⁻¹¹ / 3.8x10^-11 / 3.8·10^-11 → 3.8e-11
    let sup = |c: char| match c {
        '⁰' => Some('0'),
        '¹' => Some('1'),
        '²' => Some('2'),
        '³' => Some('3'),
        '⁴' => Some('4'),
        '⁵' => Some('5'),
        '⁶' => Some('6'),
        '⁷' => Some('7'),
        '⁸' => Some('8'),
        '⁹' => Some('9'),
        '⁻' => Some('-'),
        _ => None,
    };
    let mut normal = String::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '×' | 'x' | '·' | '*') {
            let rest: String = chars.by_ref().collect();
            let exp = rest.strip_prefix("10")?;
            let exp: String = exp.trim_start_matches('^').chars().map(|c| sup(c).unwrap_or(c)).collect();
            let exp = exp.replace(['−', '–'], "-");
            normal.push('e');
            normal.push_str(&exp);
            break;
        }
        normal.push(c);
    }
    let (mantissa, exp) = match normal.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse::<i32>().ok()?),
        None => (normal.clone(), 0),
    };
    if mantissa.is_empty()
        || !mantissa.chars().all(|c| c.is_ascii_digit() || c == '.')
        || mantissa.matches('.').count() > 1
    {
        return None;
    }
    let m: f64 = mantissa.parse().ok()?;
    let value = m * 10f64.powi(exp);
    if !(0.0..=1.0).contains(&value) {
        return None;
    }
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len() as i32);
    Some(PrintedP { value, half_unit: 0.5 * 10f64.powi(exp - decimals), below })
}

/// Parses a printed interval: `[2, 15]`, `(−2.00, +12.00)`, `2;15`, `2 to 15`.
pub fn parse_interval(text: &str) -> Option<(PrintedValue, PrintedValue)> {
    let t = text.trim().trim_start_matches(['[', '(']).trim_end_matches([']', ')']);
    let (a, b) = t.split_once([',', ';']).or_else(|| t.split_once(" to "))?;
    Some((parse_printed(a)?, parse_printed(b)?))
}

/// The decimals of a value given without its text (shortest round-trip representation, at
/// most 6).
pub fn decimals_of(v: f64) -> u32 {
    let s = format!("{v}");
    s.split_once('.').map_or(0, |(_, d)| (d.len() as u32).min(6))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_papers_print_them() {
        let p = |t: &str| parse_printed(t).map(|v| (v.value, v.decimals, v.percent));
        assert_eq!(p("0.176"), Some((0.176, 3, false)));
        assert_eq!(p(".176"), Some((0.176, 3, false)));
        assert_eq!(p("+0.168"), Some((0.168, 3, false)));
        assert_eq!(p("\u{2212}0.025"), Some((-0.025, 3, false)));
        assert_eq!(p("-.033"), Some((-0.033, 3, false)));
        assert_eq!(p("34.3%"), Some((34.3, 1, true)));
        assert_eq!(p("1,533"), Some((1533.0, 0, false)));
        assert_eq!(p("12,345.5"), Some((12345.5, 1, false)));
        for bad in ["", "n/a", "1,53", "1.2.3", "0.", "+", "1e-3", "[0.1, 0.2]", ",533"] {
            assert_eq!(p(bad), None, "{bad}");
        }
    }

    #[test]
    fn printed_p_values() {
        let p = parse_p("9.67e-07").unwrap();
        assert!((p.value - 9.67e-7).abs() < 1e-20 && (p.half_unit - 5e-10).abs() < 1e-22 && !p.below);
        let p = parse_p("3.8×10⁻¹¹").unwrap();
        assert!((p.value - 3.8e-11).abs() < 1e-24 && (p.half_unit - 5e-13).abs() < 1e-25);
        assert!((parse_p("3.8x10^-11").unwrap().value - 3.8e-11).abs() < 1e-24);
        let p = parse_p("0.0768").unwrap();
        assert!((p.half_unit - 5e-5).abs() < 1e-15);
        assert!(parse_p("< 0.001").unwrap().below);
        assert!(parse_p("p = 0.03").is_some());
        assert!(parse_p("1.5").is_none() && parse_p("n.s.").is_none());
    }

    #[test]
    fn printed_numbers() {
        assert_eq!(parse_printed("−5.92"), Some(PrintedValue { value: -5.92, decimals: 2, percent: false }));
        assert_eq!(parse_printed("+4.76"), Some(PrintedValue { value: 4.76, decimals: 2, percent: false }));
        assert_eq!(parse_printed("34.00%"), Some(PrintedValue { value: 34.0, decimals: 2, percent: true }));
        assert_eq!(parse_printed("57.3"), Some(PrintedValue { value: 57.3, decimals: 1, percent: false }));
        assert_eq!(parse_printed("12"), Some(PrintedValue { value: 12.0, decimals: 0, percent: false }));
        assert_eq!(parse_printed("1e5"), None);
        assert_eq!(parse_printed("abc"), None);
        assert_eq!(parse_printed("+"), None);
        let (a, b) = parse_interval("[−2.00, +12.00]").unwrap();
        assert_eq!((a.value, b.value, a.decimals), (-2.0, 12.0, 2));
        assert!(parse_interval("[1]").is_none());
        assert_eq!(half_unit(2), 0.005);
        assert_eq!(decimals_of(0.125), 3);
    }
}
