//! Numbers as printed in papers: `+4.76`, `−5.92` (U+2212), `34.00%`, `[+2.00, +15.00]`, with
//! the number of printed decimals (what "within rounding" means for each value).

/// A printed number and its decimals.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Printed {
    pub value: f64,
    pub decimals: u32,
}

impl Printed {
    /// Half a unit of the last printed decimal (0.005 for `34.92`).
    pub fn half_unit(&self) -> f64 {
        0.5 * 10f64.powi(-(self.decimals as i32))
    }
}

/// Parses one printed number (signs `+`, `-`, `−`, `–`; a trailing `%` or `pp` ignored).
pub fn parse_printed(text: &str) -> Option<Printed> {
    let t = text.trim().replace(['−', '–'], "-");
    let t = t.trim_end_matches('%').trim_end_matches("pp").trim();
    let body = t.trim_start_matches(['+', '-']);
    if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit() || c == '.') || body.matches('.').count() > 1 {
        return None;
    }
    let value: f64 = t.parse().ok().filter(|v: &f64| v.is_finite())?;
    let decimals = body.split_once('.').map_or(0, |(_, d)| d.len() as u32);
    Some(Printed { value, decimals })
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
pub fn parse_interval(text: &str) -> Option<(Printed, Printed)> {
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
        assert_eq!(parse_printed("−5.92"), Some(Printed { value: -5.92, decimals: 2 }));
        assert_eq!(parse_printed("+4.76"), Some(Printed { value: 4.76, decimals: 2 }));
        assert_eq!(parse_printed("34.00%"), Some(Printed { value: 34.0, decimals: 2 }));
        assert_eq!(parse_printed("57.3"), Some(Printed { value: 57.3, decimals: 1 }));
        assert_eq!(parse_printed("12"), Some(Printed { value: 12.0, decimals: 0 }));
        assert_eq!(parse_printed("1e5"), None);
        assert_eq!(parse_printed("abc"), None);
        assert_eq!(parse_printed("+"), None);
        let (a, b) = parse_interval("[−2.00, +12.00]").unwrap();
        assert_eq!((a.value, b.value, a.decimals), (-2.0, 12.0, 2));
        assert!(parse_interval("[1]").is_none());
        assert_eq!(Printed { value: 1.0, decimals: 2 }.half_unit(), 0.005);
        assert_eq!(decimals_of(0.125), 3);
    }
}
