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
