//! Number strings in text, as reclaim-eval's `confab_audit.nums` finds them
//! (`\d+(?:\.\d+)?`, compared as strings, no numeric normalisation): what a memory note states
//! that its source does not (an invented number).

/// The distinct number strings of `text` in order of appearance. Hand-written: a regex for one
/// pattern is more code than the scan.
pub fn number_strings(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut found: Vec<String> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        }
        let n = &text[start..i];
        if !found.iter().any(|f| f == n) {
            found.push(n.to_string());
        }
    }
    found
}

/// The number strings of `text` that are not in `source`, distinct, in numeric order.
pub fn invented_numbers(text: &str, source: &[String]) -> Vec<String> {
    let mut found: Vec<String> = number_strings(text).into_iter().filter(|n| !source.contains(n)).collect();
    found.sort_by(|a, b| a.parse::<f64>().unwrap_or(0.0).total_cmp(&b.parse::<f64>().unwrap_or(0.0)));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invented_numbers_are_number_strings_absent_from_the_source() {
        let src = vec!["12".to_string(), "3.5".to_string()];
        assert_eq!(invented_numbers("12 pens at $3.50 and 13 more, 3.5.", &src), vec!["3.50", "13"]);
        assert!(invented_numbers("no numbers", &src).is_empty());
        // `\d+(?:\.\d+)?` stops at a trailing dot.
        assert_eq!(invented_numbers("total 7.", &[]), vec!["7"]);
        assert_eq!(number_strings("7 and 7.5 and 7"), vec!["7", "7.5"]);
    }
}
