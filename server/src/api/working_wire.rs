//! Writing the bodies of the working-time endpoints (docs/api.md, Working time) straight
//! from the catalog's working-time index, into one buffer each: the counts come from
//! `Catalog::working_summary` (constant time), the date lists of `/working-time` from one
//! pass over the year's days. Field order is the order of the tables in docs/api.md.

use std::io::Write as _;

use kalendorius_dataset::working_time::{Week, HOURS_PER_WEEK};
use kalendorius_dataset::Date;

use super::working_params::week_number;
use crate::catalog::{push_date, Catalog, WorkingSummary};

/// A `/working-time` body is about 2 KiB; one allocation holds it.
const WORKING_TIME_CAPACITY: usize = 3072;

/// `/working-time?year=&week=`.
pub fn working_time(catalog: &Catalog, year: i32, week: Week) -> Vec<u8> {
    let mut out = Vec::with_capacity(WORKING_TIME_CAPACITY);
    let _ = write!(
        out,
        "{{\"year\":{year},\"week\":{},\"hours_per_week\":{HOURS_PER_WEEK},\"months\":[",
        week_number(week)
    );
    let mut total = WorkingSummary::default();
    let mut red_total = 0u32;
    for month in 1..=12 {
        let first = Date::from_ymd(year, month, 1).expect("a served year has every month");
        let mut last = first;
        while let Some(next) = last.succ().filter(|d| d.month() == month) {
            last = next;
        }
        let summary = catalog.working_summary(first, last, week);
        if month > 1 {
            out.push(b',');
        }
        let _ = write!(
            out,
            "{{\"month\":{month},\"calendar_days\":{},\"working_days\":{},\"non_working_days\":{},\"red_holidays\":",
            summary.calendar_days, summary.working_days, summary.non_working_days
        );
        red_total += dates_where(&mut out, first, last, |d| catalog.working_day(d).is_red());
        out.extend_from_slice(b",\"shortened_days\":");
        dates_where(&mut out, first, last, |d| {
            catalog.working_day(d).is_shortened(week)
        });
        let _ = write!(out, ",\"working_hours\":{}}}", summary.working_hours);
        total.calendar_days += summary.calendar_days;
        total.working_days += summary.working_days;
        total.non_working_days += summary.non_working_days;
        total.shortened_days += summary.shortened_days;
        total.working_hours += summary.working_hours;
    }
    let _ = write!(
        out,
        "],\"total\":{{\"calendar_days\":{},\"working_days\":{},\"non_working_days\":{},\"red_holidays\":{red_total},\"shortened_days\":{},\"working_hours\":{}}},\"average_month\":{{\"working_days\":",
        total.calendar_days,
        total.working_days,
        total.non_working_days,
        total.shortened_days,
        total.working_hours
    );
    push_tenths(&mut out, average_month_tenths(total.working_days));
    out.extend_from_slice(b",\"working_hours\":");
    push_tenths(&mut out, average_month_tenths(total.working_hours));
    out.extend_from_slice(b"}}");
    out
}

/// The JSON array of the dates of `first..=last` that `keep` accepts; how many.
fn dates_where(out: &mut Vec<u8>, first: Date, last: Date, keep: impl Fn(Date) -> bool) -> u32 {
    out.push(b'[');
    let mut count = 0;
    let mut date = Some(first);
    while let Some(d) = date.filter(|d| *d <= last) {
        if keep(d) {
            if count > 0 {
                out.push(b',');
            }
            out.push(b'"');
            push_date(out, d);
            out.push(b'"');
            count += 1;
        }
        date = d.succ();
    }
    out.push(b']');
    count
}

/// `total / 12` rounded half up to one decimal (as the minister's annual order publishes
/// the average month), in tenths: `floor(10 * total / 12 + 1/2)`.
pub fn average_month_tenths(total: u32) -> u32 {
    (20 * total + 12) / 24
}

/// A number of tenths as a JSON number with one decimal (`1674` is `167.4`, `210` is
/// `21.0`).
fn push_tenths(out: &mut Vec<u8>, tenths: u32) {
    let _ = write!(out, "{}.{}", tenths / 10, tenths % 10);
}

/// `/working-days?from=&to=&week=`.
pub fn working_days(from: Date, to: Date, week: Week, summary: WorkingSummary) -> Vec<u8> {
    let mut out = Vec::with_capacity(200);
    out.extend_from_slice(b"{\"from\":\"");
    push_date(&mut out, from);
    out.extend_from_slice(b"\",\"to\":\"");
    push_date(&mut out, to);
    let _ = write!(
        out,
        "\",\"week\":{},\"calendar_days\":{},\"working_days\":{},\"non_working_days\":{},\"shortened_days\":{},\"working_hours\":{}}}",
        week_number(week),
        summary.calendar_days,
        summary.working_days,
        summary.non_working_days,
        summary.shortened_days,
        summary.working_hours
    );
    out
}

/// `/working-days/add?date=&days=&week=`.
pub fn working_days_added(date: Date, days: i64, week: Week, result: Date) -> Vec<u8> {
    let mut out = Vec::with_capacity(80);
    out.extend_from_slice(b"{\"date\":\"");
    push_date(&mut out, date);
    let _ = write!(
        out,
        "\",\"days\":{days},\"week\":{},\"result\":\"",
        week_number(week)
    );
    push_date(&mut out, result);
    out.extend_from_slice(b"\"}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_round_half_up_to_tenths() {
        // The minister's order A1-1274 for 2021: 252 days, 2009 hours (5-day week), 302
        // days, 2004 hours (6-day week).
        assert_eq!(average_month_tenths(252), 210);
        assert_eq!(average_month_tenths(2009), 1674);
        assert_eq!(average_month_tenths(302), 252);
        assert_eq!(average_month_tenths(2004), 1670);
        // 0.05 exactly rounds up: 3 / 12 = 0.25 -> 0.3.
        assert_eq!(average_month_tenths(3), 3);
        let mut out = Vec::new();
        push_tenths(&mut out, 1674);
        push_tenths(&mut out, 210);
        assert_eq!(out, b"167.421.0");
    }
}
