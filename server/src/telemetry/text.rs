//! The text log format away from a terminal, as `tracing_subscriber::fmt`'s default without
//! colours: `2026-11-21T15:17:52.718629Z  INFO access: method="GET" path="/" status=200 ...`.
//! Its writers avoid `core::fmt` (which cost as much as the rest of a small request) for
//! `super::access`. Strings are quoted and escaped as `Debug` does, so no value can start a
//! line or forge a field.

use std::cell::Cell;
use std::fmt;
use std::time::SystemTime;

use chrono::{DateTime, Datelike, Timelike, Utc};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::{FormatEvent, FormatFields, Writer};
use tracing_subscriber::fmt::FmtContext;
use tracing_subscriber::registry::LookupSpan;

pub struct PlainText;

impl<S, N> FormatEvent<S, N> for PlainText
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        write_head(&mut writer, SystemTime::now(), *meta.level(), meta.target())?;
        event.record(&mut Fields(writer.by_ref()));
        writer.write_char('\n')
    }
}

/// Writes `<timestamp> <LEVEL> <target>:`, the start of every line.
pub fn write_head(
    out: &mut impl fmt::Write,
    now: SystemTime,
    level: Level,
    target: &str,
) -> fmt::Result {
    let mut stamp = [0u8; 27];
    out.write_str(timestamp(now, &mut stamp))?;
    let name = level.as_str();
    // Right-aligned in five columns.
    out.write_str(if name.len() == 4 { "  " } else { " " })?;
    out.write_str(name)?;
    out.write_char(' ')?;
    out.write_str(target)?;
    out.write_char(':')
}

/// Writes ` name="value"`, escaped as `Debug` escapes a string, without its machinery when
/// nothing needs escaping (printable ASCII, no quote or backslash).
pub fn write_str_field(out: &mut impl fmt::Write, name: &str, value: &str) -> fmt::Result {
    write_name(out, name)?;
    // No early exit, so the compiler checks 32 bytes at a time: values are short and plain.
    let plain = value.bytes().fold(true, |plain, b| {
        plain & (b' '..=b'~').contains(&b) & (b != b'"') & (b != b'\\')
    });
    if plain {
        out.write_char('"')?;
        out.write_str(value)?;
        out.write_char('"')
    } else {
        write!(out, "{value:?}")
    }
}

pub fn write_u64_field(out: &mut impl fmt::Write, name: &str, value: u64) -> fmt::Result {
    write_name(out, name)?;
    out.write_str(itoa::Buffer::new().format(value))
}

fn write_name(out: &mut impl fmt::Write, name: &str) -> fmt::Result {
    out.write_char(' ')?;
    out.write_str(name)?;
    out.write_char('=')
}

/// `now` as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, its part down to the second kept per thread.
fn timestamp(now: SystemTime, buf: &mut [u8; 27]) -> &str {
    thread_local! {
        static SECOND: Cell<(i64, [u8; 20])> = const { Cell::new((i64::MIN, [0; 20])) };
    }
    let (second, micros) = match now.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(since) => (
            i64::try_from(since.as_secs()).unwrap_or(i64::MAX),
            since.subsec_micros(),
        ),
        Err(_) => {
            let t = DateTime::<Utc>::from(now);
            (t.timestamp(), t.timestamp_subsec_micros().min(999_999))
        }
    };
    let (cached, mut prefix) = SECOND.get();
    if cached != second {
        let now = DateTime::<Utc>::from(now);
        let (date, time) = (now.date_naive(), now.time());
        prefix = *b"0000-00-00T00:00:00.";
        // Years 0..=9999 only; a clock outside them is not worth a log line's branch.
        put_digits(&mut prefix[0..4], date.year().clamp(0, 9999) as u32);
        put_digits(&mut prefix[5..7], date.month());
        put_digits(&mut prefix[8..10], date.day());
        put_digits(&mut prefix[11..13], time.hour());
        put_digits(&mut prefix[14..16], time.minute());
        put_digits(&mut prefix[17..19], time.second().min(59));
        SECOND.set((second, prefix));
    }
    buf[..20].copy_from_slice(&prefix);
    put_digits(&mut buf[20..26], micros);
    buf[26] = b'Z';
    std::str::from_utf8(buf).expect("digits and separators")
}

/// Writes the last `out.len()` decimal digits of `value`, zero-padded.
fn put_digits(out: &mut [u8], mut value: u32) {
    for digit in out.iter_mut().rev() {
        *digit = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

/// A log buffer as the writers' target (they write whole `str`s, so it stays UTF-8).
pub struct LineBuffer<'a>(pub &'a mut Vec<u8>);

impl fmt::Write for LineBuffer<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Writes each field as ` name=value`, `message` as its bare text, values as `Debug` does.
/// The fmt layer formats into a `String`, so writing cannot fail.
struct Fields<'w>(Writer<'w>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            let _ = write!(self.0, " {value}");
        } else {
            let _ = write_str_field(&mut self.0, field.name(), value);
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let _ = match field.name() {
            "message" => write!(self.0, " {value:?}"),
            name => write!(self.0, " {name}={value:?}"),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_rfc3339_with_microseconds() {
        let at = DateTime::parse_from_rfc3339("2026-01-02T03:04:05.000678Z").unwrap();
        let mut buf = [0u8; 27];
        assert_eq!(
            timestamp(SystemTime::from(at.with_timezone(&Utc)), &mut buf),
            "2026-01-02T03:04:05.000678Z"
        );
        // The same second again (from the per-thread prefix), then the next one.
        let later = at + chrono::Duration::microseconds(999_000);
        assert_eq!(
            timestamp(SystemTime::from(later.with_timezone(&Utc)), &mut buf),
            "2026-01-02T03:04:05.999678Z"
        );
        let next = later + chrono::Duration::microseconds(1_000);
        assert_eq!(
            timestamp(SystemTime::from(next.with_timezone(&Utc)), &mut buf),
            "2026-01-02T03:04:06.000678Z"
        );
    }
}
