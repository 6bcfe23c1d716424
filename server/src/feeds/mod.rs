//! Calendar feeds: the holidays, the name days, the pupils' holidays and the moon's phases
//! as iCalendar files
//! (`ics` writes the text). A feed is a pure function of its parameters, the dataset version
//! and the year in Vilnius, so it is built once per such key, tagged with a digest of its
//! bytes, and cached: equal keys give equal bytes on every server.

pub mod holidays;
pub mod ics;
pub mod moon;
pub mod name_days;
pub mod school_holidays;

use std::ops::RangeInclusive;
use std::sync::Arc;

use bytes::Bytes;
use kalendorius_dataset::{Date, Lang};
use poem::http::HeaderValue;

use crate::catalog::{Catalog, HolidayScope};
use crate::http::cache::{self, ByteCache, Weighed};
use crate::http::errors::{ApiError, ErrorCode};
use crate::metrics::CacheMetrics;

/// The default feeds (20-90 KB) of every language and scope many times over, or a few of
/// the longest (30 years of every holiday, up to 1 MB).
pub const CACHE_BUDGET: usize = 4 << 20;

pub const CONTENT_TYPE: &str = "text/calendar; charset=utf-8";

pub const PRODID: &str = "-//kalendorius//Lithuanian calendar feeds//EN";

pub struct Feed {
    pub body: Bytes,
    pub etag: HeaderValue,
}

impl Weighed for Feed {
    fn bytes(&self) -> usize {
        self.body.len()
    }
}

pub struct Feeds {
    /// By request, dataset version and Vilnius year: all a feed is a function of.
    cache: ByteCache<(FeedRequest, &'static str, i32), Arc<Feed>>,
}

impl Feeds {
    pub fn new(cache_metrics: CacheMetrics) -> Feeds {
        Feeds {
            cache: ByteCache::new(CACHE_BUDGET, cache_metrics),
        }
    }

    pub fn feed(&self, request: FeedRequest, catalog: &Catalog, vilnius_year: i32) -> Arc<Feed> {
        let key = (request, catalog.version, vilnius_year);
        if let Some(feed) = self.cache.get(&key) {
            return feed;
        }
        // `DTSTAMP`: midnight UTC opening the Vilnius year, so the bytes depend only on the key.
        let stamp = format!("{vilnius_year:04}0101T000000Z");
        let text = match &key.0 {
            FeedRequest::Holidays(holidays) => holidays::build(holidays, catalog, &stamp),
            FeedRequest::NameDays { lang } => {
                name_days::build(*lang, catalog, vilnius_year, &stamp)
            }
            FeedRequest::SchoolHolidays { grade, lang } => {
                school_holidays::build(*grade, *lang, catalog, &stamp)
            }
            FeedRequest::Moon { first, last, lang } => moon::build(*first, *last, *lang, &stamp),
        };
        let feed = Arc::new(Feed {
            etag: crate::http::caching::digest_etag("feed", text.as_bytes()),
            body: cache::exact(text.into_bytes()),
        });
        self.cache.insert(key, feed.clone());
        feed
    }
}

pub const UID_DOMAIN: &str = "kalendorius";

pub const MAX_YEARS: i32 = 30;

/// The default window: `YEARS_BEFORE` years before the current one to `YEARS_AFTER` after.
pub const YEARS_BEFORE: i32 = 1;
pub const YEARS_AFTER: i32 = 5;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HolidayFeedRequest {
    pub lang: Lang,
    pub scope: HolidayScope,
    pub shortened: bool,
    /// May be empty when the dataset ends before the default window.
    pub years: RangeInclusive<i32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FeedRequest {
    Holidays(HolidayFeedRequest),
    NameDays {
        lang: Lang,
    },
    SchoolHolidays {
        grade: Option<u8>,
        lang: Lang,
    },
    /// The phases whose date in Vilnius is in `first..=last`.
    Moon {
        first: Date,
        last: Date,
        lang: Lang,
    },
}

/// The years of a holiday feed: the default window clipped to the dataset; a missing bound is
/// the default one, moved to the given bound when it would otherwise cross it.
pub fn window(
    catalog: &Catalog,
    this_year: i32,
    from: Option<i32>,
    to: Option<i32>,
) -> Result<RangeInclusive<i32>, ApiError> {
    let (first, last) = (catalog.first.year(), catalog.last.year());
    let default_from = (this_year - YEARS_BEFORE).max(first);
    let default_to = (this_year + YEARS_AFTER).min(last);
    let (from, to) = match (from, to) {
        (None, None) => return Ok(default_from..=default_to),
        (Some(from), None) => (from, default_to.max(from)),
        (None, Some(to)) => (default_from.min(to), to),
        (Some(from), Some(to)) => (from, to),
    };
    let span = to - from + 1;
    let message = if from > to {
        format!("parameter 'from_year' ({from}) must not be later than parameter 'to_year' ({to})")
    } else if span > MAX_YEARS {
        format!("the feed from {from} to {to} spans {span} years; at most {MAX_YEARS} years are allowed (set 'from_year' and 'to_year')")
    } else {
        return Ok(from..=to);
    };
    Err(ApiError::new(ErrorCode::InvalidYear, message))
}
