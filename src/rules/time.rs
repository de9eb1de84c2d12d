//! Timestamps of registrations and data: RFC 3339 / ISO 8601 as `git log --format=%cI` prints
//! them (`2026-05-30T14:02:11+02:00`), with `Z`, a `±HH:MM` or `±HHMM` offset or none (UTC),
//! a space instead of `T`, optional seconds and fraction, or a bare date (midnight UTC).
//! Converted to seconds since 1970-01-01 UTC with the days-from-civil formula of Howard
//! Hinnant (proleptic Gregorian calendar).

/// Days since 1970-01-01 of a civil date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn num(s: &str) -> Option<i64> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Seconds since the epoch (UTC), or `None` when `s` is not such a timestamp.
pub fn parse_time(s: &str) -> Option<i64> {
    let s = s.trim();
    let date = s.get(..10)?;
    let (y, m, d) = (num(date.get(..4)?)?, num(date.get(5..7)?)?, num(date.get(8..10)?)?);
    if date.as_bytes()[4] != b'-'
        || date.as_bytes()[7] != b'-'
        || !(1..=12).contains(&m)
        || d < 1
        || d > days_in_month(y, m)
    {
        return None;
    }
    let mut secs = days_from_civil(y, m, d) * 86_400;
    let rest = &s[10..];
    if rest.is_empty() {
        return Some(secs);
    }
    let rest = rest.strip_prefix(['T', 't', ' '])?;
    // time part up to the zone
    let zone_at = rest.find(['Z', 'z', '+', '-']).unwrap_or(rest.len());
    let (clock, zone) = rest.split_at(zone_at);
    let mut parts = clock.split(':');
    let h = num(parts.next()?)?;
    let mi = num(parts.next()?)?;
    let sec = match parts.next() {
        Some(x) => num(x.split('.').next()?)?,
        None => 0,
    };
    if parts.next().is_some() || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    secs += h * 3600 + mi * 60 + sec;
    let offset = match zone {
        "" | "Z" | "z" => 0,
        z => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let body = z[1..].replace(':', "");
            if body.len() != 4 {
                return None;
            }
            let (oh, om) = (num(&body[..2])?, num(&body[2..])?);
            sign * (oh * 3600 + om * 60)
        }
    };
    Some(secs - offset)
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (civil-from-days, Hinnant).
pub fn format_time(t: i64) -> String {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs % 3600 / 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        // date -d '2026-05-30T14:02:11+02:00' +%s = 1780142531
        assert_eq!(parse_time("2026-05-30T14:02:11+02:00"), Some(1_780_142_531));
        assert_eq!(parse_time("2026-05-30T12:02:11Z"), Some(1_780_142_531));
        assert_eq!(parse_time("2026-05-30 12:02:11.250"), Some(1_780_142_531));
        assert_eq!(parse_time("2026-05-30T10:02:11-0200"), Some(1_780_142_531));
        assert_eq!(parse_time("1970-01-01"), Some(0));
        assert_eq!(parse_time("2024-02-29"), Some(1_709_164_800));
        for t in [0, 1_709_164_800, 1_780_142_531, -86_400] {
            assert_eq!(parse_time(&format_time(t)), Some(t));
        }
        for bad in ["2023-02-29", "2026-13-01", "2026-05-30T25:00", "yesterday", "2026-05-30T12", "2026-05-30T12:00+5"]
        {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }
}
