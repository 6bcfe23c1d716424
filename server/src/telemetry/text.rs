//! The text log format for files and collectors: one line per event,
//! `2026-11-21T15:17:52.718629Z  INFO access: method="GET" path="/api/v1/day" status=200 ...`.
//!
//! This is the default format of `tracing_subscriber::fmt` without colours, written without
//! going through `core::fmt` for the common field types. The access line is written once per
//! request, and the general-purpose formatter cost about as much as the rest of a small
//! `/laisvadienis` request (README, Performance). At a terminal the server keeps the default
//! formatter, with colours.
//!
//! Strings are quoted and escaped as `Debug` does, so no field value (a key owner, say) can
//! start a new line or forge a field.

use std::fmt;
use std::time::SystemTime;

use chrono::{DateTime, Datelike, Timelike, Utc};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::{FormatEvent, FormatFields, Writer};
use tracing_subscriber::fmt::FmtContext;
use tracing_subscriber::registry::LookupSpan;

/// The event formatter (see the module documentation).
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
        let mut head = [0u8; 27];
        writer.write_str(timestamp(SystemTime::now(), &mut head))?;
        writer.write_str(match *meta.level() {
            Level::ERROR => " ERROR ",
            Level::WARN => "  WARN ",
            Level::INFO => "  INFO ",
            Level::DEBUG => " DEBUG ",
            Level::TRACE => " TRACE ",
        })?;
        writer.write_str(meta.target())?;
        writer.write_char(':')?;
        let mut fields = Fields {
            out: writer.by_ref(),
            result: Ok(()),
        };
        event.record(&mut fields);
        fields.result?;
        writer.write_char('\n')
    }
}

/// `YYYY-MM-DDTHH:MM:SS.ffffffZ` of `now`, written into `buf`.
fn timestamp(now: SystemTime, buf: &mut [u8; 27]) -> &str {
    let now = DateTime::<Utc>::from(now);
    let (date, time) = (now.date_naive(), now.time());
    let micros = (time.nanosecond() % 1_000_000_000) / 1000;
    let mut at = 0;
    let mut put = |value: u32, digits: u32, then: u8| {
        for i in (0..digits).rev() {
            buf[at + i as usize] = b'0' + (value / 10u32.pow(digits - 1 - i) % 10) as u8;
        }
        at += digits as usize;
        buf[at] = then;
        at += 1;
    };
    // Years 0..=9999 only; a clock outside them is not worth a log line's branch.
    put(date.year().clamp(0, 9999) as u32, 4, b'-');
    put(date.month(), 2, b'-');
    put(date.day(), 2, b'T');
    put(time.hour(), 2, b':');
    put(time.minute(), 2, b':');
    put(time.second(), 2, b'.');
    put(micros, 6, b'Z');
    std::str::from_utf8(&buf[..]).expect("digits and separators")
}

/// Writes each field as ` name=value`, the `message` field as its bare text.
struct Fields<'w> {
    out: Writer<'w>,
    result: fmt::Result,
}

impl Fields<'_> {
    fn name(&mut self, field: &Field) -> fmt::Result {
        self.out.write_char(' ')?;
        if field.name() != "message" {
            self.out.write_str(field.name())?;
            self.out.write_char('=')?;
        }
        Ok(())
    }

    fn record_with(&mut self, field: &Field, value: impl FnOnce(&mut Writer<'_>) -> fmt::Result) {
        if self.result.is_ok() {
            self.result = self.name(field).and_then(|()| value(&mut self.out));
        }
    }
}

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        let is_message = field.name() == "message";
        self.record_with(field, |out| {
            if is_message {
                out.write_str(value)
            } else if value
                .bytes()
                .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\')
            {
                // Nothing to escape: what `Debug` would write, without its machinery.
                out.write_char('"')?;
                out.write_str(value)?;
                out.write_char('"')
            } else {
                write!(out, "{value:?}")
            }
        });
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.record_with(field, |out| {
            out.write_str(itoa::Buffer::new().format(value))
        });
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.record_with(field, |out| {
            out.write_str(itoa::Buffer::new().format(value))
        });
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.record_with(field, |out| {
            out.write_str(if value { "true" } else { "false" })
        });
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.record_with(field, |out| write!(out, "{value:?}"));
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
    }
}
