//! How numbers appear on screen: four decimals for reading, the full-precision value (the
//! shortest text that round-trips, as in the CLI's CSV and JSON) in a `data-value` attribute
//! of every numeric cell, so tests and users can check a number exactly.

use yew::prelude::*;

use crate::report::num;

/// Four decimals (the CLI's text tables use the same), `—` for no value.
pub fn fmt4(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.4}")).unwrap_or_else(|| "—".into())
}

/// A percentage with one decimal.
pub fn pct(v: Option<f64>) -> String {
    v.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_default()
}

/// A count with thousands separators (`1 234 567`, thin spaces).
pub fn count(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

/// Milliseconds as `812 ms` or `2.41 s`.
pub fn duration(ms: f64) -> String {
    if ms < 1000.0 { format!("{ms:.0} ms") } else { format!("{:.2} s", ms / 1000.0) }
}

/// A numeric table cell: `data-col` names the column (the CSV header), `data-value` holds
/// the full-precision value.
pub fn num_cell(col: &'static str, v: Option<f64>) -> Html {
    html! {
        <td class="num" data-col={col} data-value={num(v)}>{ fmt4(v) }</td>
    }
}

/// An integer table cell.
pub fn int_cell(col: &'static str, v: usize) -> Html {
    html! {
        <td class="num" data-col={col} data-value={v.to_string()}>{ v.to_string() }</td>
    }
}

/// A p-value as the CLI's text tables print it: 4 decimals, scientific below 1e-4, `< 1e-16`
/// below that (no test has the resolution; the exact value is in `data-value`).
pub fn p_text(v: Option<f64>) -> String {
    v.map_or_else(|| "—".into(), crate::report::p_value)
}

/// A p-value cell: full precision in `data-value`, [`p_text`] shown.
pub fn p_cell(col: &'static str, v: Option<f64>) -> Html {
    html! {
        <td class="num" data-col={col} data-value={num(v)}>{ p_text(v) }</td>
    }
}

/// A signed number cell (`+0.0521`), full precision in `data-value`.
pub fn signed_cell(col: &'static str, v: Option<f64>) -> Html {
    let text = v.filter(|x| x.is_finite()).map(|x| format!("{x:+.4}")).unwrap_or_else(|| fmt4(v));
    html! {
        <td class="num" data-col={col} data-value={num(v)}>{ text }</td>
    }
}

/// Enter or space on a focused clickable row (`tabindex="0"`) acts as a click.
pub fn on_enter(cb: Callback<()>) -> Callback<KeyboardEvent> {
    Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            cb.emit(());
        }
    })
}

/// A text table cell.
pub fn text_cell(col: &'static str, v: impl Into<String>) -> Html {
    let v: String = v.into();
    html! { <td data-col={col}>{ v }</td> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(fmt4(Some(0.123456)), "0.1235");
        assert_eq!(fmt4(None), "—");
        assert_eq!(count(1234567), "1\u{202f}234\u{202f}567");
        assert_eq!(count(12), "12");
        assert_eq!(duration(2410.0), "2.41 s");
        assert_eq!(p_text(Some(3.2e-9)), "3.2e-9");
        // Below 1e-16 no test has the resolution: `< 1e-16`.
        assert_eq!(p_text(Some(7.57e-29)), "< 1e-16");
        assert_eq!(p_text(Some(0.0)), "< 1e-16");
        assert_eq!(p_text(Some(0.0625)), "0.0625");
    }
}
