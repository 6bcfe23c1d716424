//! `today` as a date parameter: the date in Europe/Vilnius at arrival, resolved at most once
//! and only when asked for. An answer that used it stops being true at midnight, so
//! [`Today::finish`] makes it cacheable for a minute only, with an ETag of the date, the dataset
//! and the request.

use std::cell::Cell;
use std::time::SystemTime;

use chrono::{DateTime, Utc};
use kalendorius_dataset::Date;
use poem::http::{header, HeaderValue, StatusCode};
use poem::{Request, Response};

use crate::catalog::Catalog;
use crate::http::caching;

pub const TODAY: &str = "today";

/// A shift of the clock `today` reads, for tests. Rate limits, key expiry and the log keep
/// the real clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TodayClock(chrono::TimeDelta);

impl TodayClock {
    /// A clock that reads `at` now and runs on from there.
    pub fn starting_at(at: SystemTime) -> TodayClock {
        TodayClock(DateTime::<Utc>::from(at) - DateTime::<Utc>::from(SystemTime::now()))
    }
}

pub struct Today {
    /// When the request arrived, on the clock `today` reads.
    received: SystemTime,
    /// The date once a parameter asked for it.
    resolved: Cell<Option<chrono::NaiveDate>>,
}

impl Today {
    pub fn at(received: SystemTime, clock: Option<TodayClock>) -> Today {
        let received = clock.map_or(received, |clock| {
            (DateTime::<Utc>::from(received) + clock.0).into()
        });
        Today {
            received,
            resolved: Cell::new(None),
        }
    }

    /// The date in Vilnius, remembered as used by the answer.
    pub fn date(&self) -> chrono::NaiveDate {
        let date = self.resolved.get().unwrap_or_else(|| self.current());
        self.resolved.set(Some(date));
        date
    }

    /// The date in Vilnius without marking it used: for answers whose own ETag already
    /// names the day (the pages, the feeds' Vilnius year).
    pub fn current(&self) -> chrono::NaiveDate {
        crate::clock::vilnius_date(self.received)
    }

    /// The cache headers of a success that used `today`; any other `response` unchanged.
    /// An answer without its own ETag gets one of the dataset, the date and `answered`, a
    /// digest of everything else its body depends on (the endpoint and its parameters), so
    /// no other query's answer can be revalidated by it or stand in for it in a cache.
    pub fn finish(
        &self,
        mut response: Response,
        req: &Request,
        catalog: &Catalog,
        keyed: bool,
        answered: impl FnOnce() -> Vec<u8>,
    ) -> Response {
        let date = self.resolved.get().and_then(|d| Date::from_naive(d).ok());
        let status = response.status();
        let (Some(date), StatusCode::OK | StatusCode::NOT_MODIFIED) = (date, status) else {
            return response;
        };
        let policy = if keyed {
            "private, max-age=60"
        } else {
            "public, max-age=60"
        };
        let etag = response.headers().get(header::ETAG).cloned();
        let etag = etag.unwrap_or_else(|| {
            let prefix = format!("{}-{}", catalog.etag_tag, date);
            caching::digest_etag(&prefix, &answered())
        });
        if status == StatusCode::OK && caching::not_modified(req.headers(), &etag) {
            response = Response::from(StatusCode::NOT_MODIFIED);
        }
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
        headers.insert(header::ETAG, etag);
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_is_resolved_on_first_use_from_the_shifted_clock() {
        let at: SystemTime = chrono::DateTime::parse_from_rfc3339("2026-12-31T23:30:00Z")
            .unwrap()
            .into();
        let today = Today::at(SystemTime::now(), Some(TodayClock::starting_at(at)));
        assert_eq!(today.resolved.get(), None, "nothing asked yet");
        assert_eq!(today.date().to_string(), "2027-01-01", "UTC+2 in Vilnius");
        assert_eq!(today.resolved.get(), Some(today.date()));
        // Without a shift, the arrival time itself.
        let real = Today::at(at, None);
        assert_eq!(real.date().to_string(), "2027-01-01");
    }
}
