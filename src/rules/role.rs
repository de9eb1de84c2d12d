//! What a file of `memaudit rules` is, from its content: the rule registry (`--rules`), named
//! values (`--values`), a `git log` export (`--git-log`), else a data file to fingerprint
//! (`--data`). The viewer takes files in any order and asks this.

use serde_json::Value;

use super::registry::commit_line;
use crate::file_role::FileRole;
use crate::ingest::InputFile;

/// The role of a file by its content: [`FileRole::Rules`] for `{"rules": …}` or an array whose
/// first element is a rule (an `id` and `when`, `tiers` or `vote`); [`FileRole::Values`] for
/// `{"values": {…}}`; [`FileRole::GitLog`] when the first non-blank line is a commit line
/// `<hash> <ISO time>`; anything else (other JSON, other text, bytes that are not text) is
/// [`FileRole::Data`].
pub fn detect_file_role(f: &InputFile) -> FileRole {
    let Ok((text, _)) = f.text() else { return FileRole::Data };
    if let Ok(doc) = serde_json::from_str::<Value>(&text) {
        let rule_like =
            |v: &Value| v.get("id").is_some() && ["when", "tiers", "vote"].iter().any(|k| v.get(k).is_some());
        if doc.get("rules").is_some() || doc.as_array().and_then(|a| a.first()).is_some_and(rule_like) {
            return FileRole::Rules;
        }
        if doc.get("values").is_some_and(Value::is_object) {
            return FileRole::Values;
        }
        let ledger_like = |v: &Value| v.get("reason").is_some() && v.get("item").is_some();
        if doc.get("exclusions").is_some_and(Value::is_array)
            || doc.as_array().and_then(|a| a.first()).is_some_and(ledger_like)
        {
            return FileRole::Exclusions;
        }
        return FileRole::Data;
    }
    match text.lines().find(|l| !l.trim().is_empty()) {
        Some(first) if commit_line(first).is_some() => FileRole::GitLog,
        _ if super::exclusions::looks_like_ledger_table(f) => FileRole::Exclusions,
        _ => FileRole::Data,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(name: &str, bytes: &[u8]) -> FileRole {
        detect_file_role(&InputFile::new(name, bytes.to_vec()))
    }

    #[test]
    fn registries_values_git_logs_and_data_by_content() {
        assert_eq!(role("r.json", br#"{"rules": [{"id": "a", "when": {"cmp": ["x", ">=", 1]}}]}"#), FileRole::Rules);
        assert_eq!(role("r.json", br#"[{"id": "a", "tiers": []}]"#), FileRole::Rules);
        assert_eq!(role("r.json", br#"[{"id": "a", "vote": {}}]"#), FileRole::Rules);
        assert_eq!(role("v.json", br#"{"values": {"x": 2}}"#), FileRole::Values);
        assert_eq!(role("e.json", br#"{"exclusions": []}"#), FileRole::Exclusions);
        assert_eq!(role("e.json", br#"[{"item": "a", "reason": "b"}]"#), FileRole::Exclusions);
        assert_eq!(
            role(
                "e.csv",
                b"item,reason,excluded_at
a,b,2026-01-01
"
            ),
            FileRole::Exclusions
        );
        let log = b"\n  c0ffee1111aa 2026-05-15T12:00:00+02:00\n\nresults/run/x.json\n";
        assert_eq!(role("log.txt", log), FileRole::GitLog);
        // Other JSON, text and bytes are data to fingerprint.
        assert_eq!(role("x.json", br#"{"anything": 1}"#), FileRole::Data);
        assert_eq!(role("x.json", br#"[{"id": "a"}]"#), FileRole::Data);
        assert_eq!(role("v.json", br#"{"values": [1, 2]}"#), FileRole::Data);
        assert_eq!(role("notes.txt", b"c0ffee not a time\n"), FileRole::Data);
        assert_eq!(role("short.txt", b"abc 2026-05-15T12:00:00Z\n"), FileRole::Data);
        assert_eq!(role("blob.bin", &[0xff, 0xfe, 0x00, 0x81]), FileRole::Data);
        assert_eq!(role("empty.txt", b""), FileRole::Data);
    }
}
