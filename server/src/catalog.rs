//! The dataset in memory, laid out so that a request is a lookup and a copy: one 16-byte
//! [`DayInfo`] per date; holiday records, names and their lists interned in shared tables
//! (189 000 days in a few tens of MiB); each year's `/days` body prebuilt with per-day
//! offsets; the declared transfers; the pupils' holidays; the places whose sun is computed. Only `/data` reads the published
//! files. One function writes a day for `/laisvadienis` and `/days`, so they cannot disagree.

use std::borrow::Cow;
use std::io::Write as _;
use std::sync::OnceLock;

use bytes::Bytes;
use chrono::Datelike as _;
use indexmap::{IndexMap, IndexSet};
use kalendorius_dataset::{
    Basis, Confidence, DatasetDir, Date, Day, HolidayType, Lang, LoadError, PlacesFile, Reason,
    SchoolHolidaysFile, Transfer,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::http::cache::{self, AnswerKey, AnswerKeyRef, ByteCache};
use crate::metrics::CacheMetrics;
use crate::name_index::NameIndex;

mod planning;
mod working_index;
pub use planning::{HolidayScope, Period, MAX_LEAVE_DAYS};
pub use working_index::{WorkingDay, WorkingSummary};

/// Why a dataset that passed its manifest checks still cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("dataset {path}: day {date} is inconsistent: {reason}")]
    Inconsistent {
        path: String,
        date: Date,
        reason: &'static str,
    },
}

/// Bytes of built answers kept per dataset: a thousand or more answers of 1-10 KiB, and
/// about thirty years' whole `/days` bodies (32 KiB each).
const ANSWERS_BUDGET: usize = 3 << 20;

/// The key (with the year) of a year's whole `/days` body in the answers cache.
const YEAR_DAYS: &str = "days_of_year";

/// A smaller answer costs as much to keep (key and bookkeeping, about 300 bytes unweighed).
const MIN_KEPT_ANSWER: usize = 512;

/// One date, as indices into [`Tables`]. Invariant (checked at load): `reason` is set exactly
/// on a laisvadienis, `holiday_name` exactly on a public holiday, `shorter_workday` on neither.
#[derive(Debug, Clone, Copy)]
struct DayInfo {
    reason: Option<Reason>,
    shorter_workday: bool,
    is_weekend: bool,
    /// 0 = Sunday ... 6 = Saturday.
    day_of_week: u8,
    iso_week: u8,
    /// Its [`StatusJson`].
    status: u16,
    holidays: u32,
    name_days: u32,
}

const _: () = assert!(std::mem::size_of::<DayInfo>() == 16);

/// One holiday as it stands on a date.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HolidayRecord {
    /// Stable across dataset versions: the feeds build their event UIDs from it.
    pub id: Box<str>,
    pub kind: HolidayType,
    /// Non-working under the law in force on that date.
    pub is_red: bool,
    /// In [`Lang::ALL`] order.
    names: [Box<str>; 4],
    /// When red: how sure it is that the day is non-working.
    pub confidence: Option<Confidence>,
    /// When red: the provisions that make it so on that date.
    pub basis: Box<[Basis]>,
}

impl HolidayRecord {
    pub fn name(&self, lang: Lang) -> &str {
        &self.names[lang as usize]
    }
}

/// A name day. Names are Lithuanian calendar names whatever `lang`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[schemars(rename = "NameDay")]
pub struct NameDayRecord {
    /// The name celebrated.
    pub name: Box<str>,
    /// `m` or `f`.
    #[schemars(with = "kalendorius_dataset::Gender")]
    pub gender: &'static str,
}

// The one status type: the pages and `/day` read it; the catalog keeps its JSON after the
// date, as serde writes it, per distinct status. (Its doc is the document's description.)
/// The answer: the status of one date. (The catalog writes it from precomputed parts; a
/// test holds those bytes to this type's JSON.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DayStatus<'a> {
    /// The date.
    pub date: Date,
    /// True on every Saturday (unless declared a working day), Sunday, red holiday and
    /// declared extra day off.
    pub laisvadienis: bool,
    /// `public_holiday` when a red holiday or declared day off falls on the date (even on a
    /// weekend), else `sunday`, else `saturday`, else null.
    pub reason: Option<Reason>,
    /// Lithuanian name(s) of the red holiday(s) on the date, joined with ", " in Labour Code
    /// order; null exactly when `reason` is not `public_holiday`.
    #[serde(borrow)]
    pub holiday_name: Option<Cow<'a, str>>,
    /// True exactly when the day is a workday and the next calendar day carries a red
    /// holiday (the workday is one hour shorter).
    pub shorter_workday: bool,
}

// The catalog keeps its JSON after the date per distinct status, as serde writes it.
/// One day of `/days`; agrees field by field with `/laisvadienis`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DayEntry<'a> {
    /// The date.
    pub date: Date,
    /// As in `/laisvadienis` (Saturdays are non-working).
    pub laisvadienis: bool,
    /// As in `/laisvadienis`.
    #[serde(borrow)]
    pub holiday_name: Option<Cow<'a, str>>,
    /// As in `/laisvadienis`.
    pub shorter_workday: bool,
}

/// What tells a status from another: its holiday name, reason and shortening.
type StatusKey = (Option<Box<str>>, Option<Reason>, bool);

/// A distinct status a date can have: its holiday name, and the JSON after the date of its
/// [`DayStatus`] and of its [`DayEntry`].
#[derive(PartialEq, Eq, Hash)]
struct StatusJson {
    holiday_name: Option<Box<str>>,
    status_tail: Box<[u8]>,
    entry_tail: Box<[u8]>,
}

impl StatusJson {
    /// Serializes both answers of a date of this status, and keeps what follows the date.
    fn of(status: &DayStatus) -> StatusJson {
        let tail = |json: Vec<u8>| {
            debug_assert!(
                json.starts_with(DATE_HEAD),
                "the date first, then the quote"
            );
            json[DATE_HEAD.len() + DATE_LEN..].into()
        };
        let entry = DayEntry {
            date: status.date,
            laisvadienis: status.laisvadienis,
            holiday_name: status.holiday_name.clone(),
            shorter_workday: status.shorter_workday,
        };
        StatusJson {
            holiday_name: status.holiday_name.as_deref().map(Into::into),
            status_tail: tail(serde_json::to_vec(status).expect("a status serializes")),
            entry_tail: tail(serde_json::to_vec(&entry).expect("an entry serializes")),
        }
    }
}

/// How serde begins both answers, and how long the date after it is (its closing quote
/// starts the tail).
const DATE_HEAD: &[u8] = b"{\"date\":\"";
const DATE_LEN: usize = 10;

/// Where a date falls in its week and year ([`Catalog::calendar_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CalendarPlace {
    /// 0 = Sunday ... 6 = Saturday.
    pub day_of_week: u8,
    /// ISO 8601 week number.
    pub iso_week: u8,
    /// Saturday or Sunday.
    pub is_weekend: bool,
}

/// Where each day's entry starts in its year's whole `/days` body: entry `i` is
/// `body[offsets[i]..offsets[i + 1] - 1]` (the byte after it is a `,` or the closing `]`).
/// Kept for every year; the bodies (17 MB for 518 years, a quarter of the memory budget)
/// are built when asked for and kept in the answers cache.
struct YearOffsets(Box<[u32]>);

impl YearOffsets {
    /// The entries of days `from..=to` of the year (January 1 = 0) in its `body`, joined
    /// by commas.
    fn entries<'a>(&self, body: &'a [u8], from: usize, to: usize) -> &'a [u8] {
        &body[self.0[from] as usize..self.0[to + 1] as usize - 1]
    }

    fn last_day(&self) -> usize {
        self.0.len() - 2
    }
}

/// An immutable, fully precomputed dataset; a reload builds a new one and swaps it in.
pub struct Catalog {
    pub version: &'static str,
    /// As the `X-Dataset-Version` header; static, so a copy touches no reference count.
    pub version_header: poem::http::HeaderValue,
    /// Short, header-safe digest of `version` used in ETags.
    pub etag_tag: String,
    pub first: Date,
    pub last: Date,
    /// One entry per date from `first` to `last`.
    days: Vec<DayInfo>,
    years: Vec<YearOffsets>,
    tables: Tables,
    working: working_index::WorkingIndex,
    /// The declared transfers, in date order (a few dozen in 500 years).
    transfers: Vec<(Date, Transfer)>,
    /// The eve rule's provisions from each date on which they change (a handful).
    eve_bases: Vec<(Date, Box<[Basis]>)>,
    pub name_index: NameIndex,
    /// Built answers, by what was asked.
    answers: ByteCache<AnswerKey, Bytes>,
    /// Per [`HolidayScope`], the sorted day positions of its holiday dates (`planning`).
    holiday_dates: OnceLock<[Box<[u32]>; 2]>,
    /// Per served year: its periods with up to [`MAX_LEAVE_DAYS`] leave days (`planning`).
    periods: Box<[OnceLock<Box<[Period]>>]>,
    pub school_holidays: SchoolHolidaysFile,
    /// The places whose sun is computed (`places.json`).
    pub places: PlacesFile,
}

/// The values [`DayInfo`] points to, each kept once, its index its id.
#[derive(Default)]
struct Tables {
    /// The distinct statuses.
    statuses: IndexMap<StatusKey, StatusJson>,
    holidays: IndexSet<HolidayRecord>,
    /// Lists of `holidays` ids in holiday order ([`Catalog::holidays_on`]).
    holiday_lists: IndexSet<Box<[u32]>>,
    names: IndexSet<NameDayRecord>,
    /// Lists of `names` ids.
    name_day_lists: IndexSet<Box<[u32]>>,
}

fn intern<T: std::hash::Hash + Eq>(set: &mut IndexSet<T>, value: T) -> u32 {
    u32::try_from(set.insert_full(value).0).expect("fewer than 2^32 distinct values")
}

impl Tables {
    /// Packs one [`Day`], checking the invariants the server relies on.
    fn day_info(&mut self, day: &Day) -> Result<DayInfo, &'static str> {
        if day.laisvadienis != day.reason.is_some() {
            return Err("laisvadienis disagrees with reason");
        }
        if day.holiday_name.is_some() != (day.reason == Some(Reason::PublicHoliday)) {
            return Err("holiday_name is set exactly when reason is public_holiday");
        }
        if day.shorter_workday && day.laisvadienis {
            return Err("shorter_workday on a non-working day");
        }
        if day.day_of_week > 6 || !(1..=53).contains(&day.iso_week) {
            return Err("day_of_week or iso_week out of range");
        }
        if (day.shorter_workday || day.shorter_workday_6) == day.shorter_workday_basis.is_empty() {
            return Err("a shortened day without the eve rule's basis, or another day with it");
        }
        if day
            .holidays
            .iter()
            .any(|h| h.is_red == h.basis.is_empty() || h.is_red == h.confidence.is_none())
        {
            return Err("a red holiday without basis and confidence, or another one with them");
        }
        // Serialized once per distinct status (a few hundred), not per day.
        let key = (
            day.holiday_name.as_deref().map(Box::from),
            day.reason,
            day.shorter_workday,
        );
        let entry = self.statuses.entry(key);
        let status = entry.index();
        entry.or_insert_with(|| {
            StatusJson::of(&DayStatus {
                date: day.date,
                laisvadienis: day.laisvadienis,
                reason: day.reason,
                holiday_name: day.holiday_name.as_deref().map(Cow::Borrowed),
                shorter_workday: day.shorter_workday,
            })
        });
        let holiday_ids: Box<[u32]> = day
            .holidays
            .iter()
            .map(|h| {
                let record = HolidayRecord {
                    id: h.id.as_str().into(),
                    kind: h.kind,
                    is_red: h.is_red,
                    names: Lang::ALL.map(|lang| Box::<str>::from(h.name(lang))),
                    confidence: h.confidence,
                    basis: h.basis.as_slice().into(),
                };
                intern(&mut self.holidays, record)
            })
            .collect();
        let name_ids: Box<[u32]> = day
            .name_days
            .iter()
            .map(|n| {
                let record = NameDayRecord {
                    name: n.name.as_str().into(),
                    gender: n.gender.as_str(),
                };
                intern(&mut self.names, record)
            })
            .collect();
        Ok(DayInfo {
            reason: day.reason,
            shorter_workday: day.shorter_workday,
            is_weekend: day.is_weekend,
            day_of_week: day.day_of_week,
            iso_week: day.iso_week,
            status: u16::try_from(status).expect("fewer than 2^16 statuses"),
            holidays: intern(&mut self.holiday_lists, holiday_ids),
            name_days: intern(&mut self.name_day_lists, name_ids),
        })
    }
}

impl Catalog {
    /// Reads and checks every day of a dataset directory's sled database.
    pub fn load(dir: &DatasetDir, answers_metrics: CacheMetrics) -> Result<Catalog, CatalogError> {
        let manifest = &dir.manifest;
        let path = dir.path.display().to_string();
        let inconsistent = |date: Date, reason: &'static str| CatalogError::Inconsistent {
            path: path.clone(),
            date,
            reason,
        };
        let first = Date::from_ymd(manifest.first_year, 1, 1).map_err(|_| {
            inconsistent(Date::first(), "manifest first_year is outside 1583..2100")
        })?;
        let last = Date::from_ymd(manifest.last_year, 12, 31)
            .map_err(|_| inconsistent(Date::last(), "manifest last_year is outside 1583..2100"))?;

        let mut tables = Tables::default();
        let day_count = usize::try_from(first.days_until(last) + 1).unwrap_or(0);
        let mut days: Vec<DayInfo> = Vec::with_capacity(day_count);
        let mut working: Vec<WorkingDay> = Vec::with_capacity(day_count);
        let mut transfers: Vec<(Date, Transfer)> = Vec::new();
        let mut eve_bases: Vec<(Date, Box<[Basis]>)> = Vec::new();
        let mut checked: Result<(), CatalogError> = Ok(());
        dir.read_database(|day: Day| {
            if checked.is_err() {
                return;
            }
            match tables.day_info(&day) {
                Ok(info) => days.push(info),
                Err(reason) => {
                    checked = Err(inconsistent(day.date, reason));
                    return;
                }
            }
            if let Some(t) = &day.transfer {
                transfers.push((day.date, t.clone()));
            }
            let eve = &day.shorter_workday_basis;
            if !eve.is_empty() && eve_bases.last().is_none_or(|(_, last)| **last != **eve) {
                eve_bases.push((day.date, eve.as_slice().into()));
            }
            working.push(WorkingDay::of(&day));
        })?;
        checked?;
        // `read_database` guarantees every day of the range, once and in order.
        debug_assert_eq!(days.len(), day_count);

        let year_count = (last.year() - first.year() + 1) as usize;
        poem::http::HeaderValue::from_str(&manifest.dataset_version)
            .map_err(|_| inconsistent(first, "dataset_version is not a valid header value"))?;
        let version = interned(&manifest.dataset_version);
        let mut catalog = Catalog {
            etag_tag: kalendorius_dataset::digest::short_sha256_hex(version.as_bytes()),
            version,
            version_header: poem::http::HeaderValue::from_static(version),
            first,
            last,
            days,
            years: Vec::new(),
            tables,
            working: working_index::WorkingIndex::new(working),
            transfers,
            eve_bases,
            name_index: NameIndex::default(),
            answers: ByteCache::new(ANSWERS_BUDGET, answers_metrics),
            holiday_dates: OnceLock::new(),
            periods: (0..year_count).map(|_| OnceLock::new()).collect(),
            school_holidays: dir.read_school_holidays()?,
            places: dir.read_places()?,
        };
        catalog.years = catalog
            .years()
            .map(|year| YearOffsets(catalog.year_json(year).1.into_boxed_slice()))
            .collect();
        // One year's names: a served leap year's (with February 29), else the first year's.
        let year = catalog
            .years()
            .find(|&y| Date::from_ymd(y, 2, 29).is_ok())
            .unwrap_or(first.year());
        catalog.name_index = NameIndex::build(catalog.dates_of_year(year).flat_map(|date| {
            catalog
                .name_days_on(date)
                .map(move |record| (date, &*record.name, record.gender))
        }));
        Ok(catalog)
    }

    /// The `/days` body of the whole served `year`, with its entries' offsets.
    fn year_json(&self, year: i32) -> (Vec<u8>, Vec<u32>) {
        let start = Date::from_ymd(year, 1, 1).expect("a served year");
        let end = Date::from_ymd(year, 12, 31).expect("a served year");
        let mut json = Vec::new();
        let mut offsets = Vec::new();
        days_head(&mut json, start, end, start.days_until(end) + 1);
        for date in self.dates_of_year(year) {
            if !offsets.is_empty() {
                json.push(b',');
            }
            offsets.push(json.len() as u32);
            json.extend_from_slice(DATE_HEAD);
            json.extend_from_slice(&date.iso_bytes());
            json.extend_from_slice(&self.status_json_of(date).entry_tail);
        }
        offsets.push(json.len() as u32 + 1);
        json.extend_from_slice(DAYS_TAIL);
        (json, offsets)
    }

    /// The whole `/days` body of the served `year`, from the answers cache.
    fn year_days_json(&self, year: i32) -> Bytes {
        self.answer(YEAR_DAYS, &year, || self.year_json(year).0)
    }

    pub fn years(&self) -> std::ops::RangeInclusive<i32> {
        self.first.year()..=self.last.year()
    }

    pub fn contains(&self, date: Date) -> bool {
        self.first <= date && date <= self.last
    }

    fn info(&self, date: Date) -> DayInfo {
        // Callers check `contains` first; a date outside is a bug, answered as a JSON 500.
        self.days[self.first.days_until(date) as usize]
    }

    fn date_at(&self, i: usize) -> Date {
        Date::from_naive(self.first.naive() + chrono::Days::new(i as u64))
            .expect("a position inside the served range")
    }

    /// The `/laisvadienis` body of a served `date`: the JSON of its [`DayStatus`], sized
    /// exactly (spare capacity costs a second allocation when it becomes the body).
    pub fn status_json(&self, date: Date) -> Vec<u8> {
        let tail = &self.status_json_of(date).status_tail;
        let mut body = Vec::with_capacity(DATE_HEAD.len() + DATE_LEN + tail.len());
        body.extend_from_slice(DATE_HEAD);
        body.extend_from_slice(&date.iso_bytes());
        body.extend_from_slice(tail);
        body
    }

    fn status_json_of(&self, date: Date) -> &StatusJson {
        &self.tables.statuses[self.info(date).status as usize]
    }

    /// The `/days` body for `from..=to` (served, at most 366 days); a whole year is shared.
    pub fn days_json(&self, from: Date, to: Date) -> Bytes {
        let offsets_of = |date: Date| &self.years[(date.year() - self.first.year()) as usize];
        let day_of_year = |date: Date| date.naive().ordinal0() as usize;
        let (offsets, start, end) = (offsets_of(from), day_of_year(from), day_of_year(to));
        let body = self.year_days_json(from.year());
        if from.year() == to.year() && start == 0 && end == offsets.last_day() {
            return body;
        }
        let next_body;
        let slices = if from.year() != to.year() {
            next_body = self.year_days_json(to.year());
            [
                offsets.entries(&body, start, offsets.last_day()),
                offsets_of(to).entries(&next_body, 0, end),
            ]
        } else {
            [offsets.entries(&body, start, end), &[]]
        };
        let mut out = Vec::with_capacity(slices[0].len() + slices[1].len() + 81);
        days_head(&mut out, from, to, from.days_until(to) + 1);
        out.extend_from_slice(slices[0]);
        if !slices[1].is_empty() {
            out.push(b',');
            out.extend_from_slice(slices[1]);
        }
        out.extend_from_slice(DAYS_TAIL);
        Bytes::from(out)
    }

    /// The holidays on `date`: red first, then by type, then by Lithuanian name.
    pub fn holidays_on(&self, date: Date) -> impl Iterator<Item = &HolidayRecord> + '_ {
        self.tables.holiday_lists[self.info(date).holidays as usize]
            .iter()
            .map(|&i| &self.tables.holidays[i as usize])
    }

    pub fn name_days_on(&self, date: Date) -> impl Iterator<Item = &NameDayRecord> + '_ {
        self.tables.name_day_lists[self.info(date).name_days as usize]
            .iter()
            .map(|&i| &self.tables.names[i as usize])
    }

    /// Where `date` falls in its week and year.
    pub fn calendar_of(&self, date: Date) -> CalendarPlace {
        let info = self.info(date);
        CalendarPlace {
            day_of_week: info.day_of_week,
            iso_week: info.iso_week,
            is_weekend: info.is_weekend,
        }
    }

    pub fn status_of(&self, date: Date) -> DayStatus<'_> {
        let info = self.info(date);
        let holiday_name = self.tables.statuses[info.status as usize]
            .holiday_name
            .as_deref();
        DayStatus {
            date,
            laisvadienis: info.reason.is_some(),
            reason: info.reason,
            holiday_name: holiday_name.map(Cow::Borrowed),
            shorter_workday: info.shorter_workday,
        }
    }

    pub fn transfer_on(&self, date: Date) -> Option<&Transfer> {
        let found = self.transfers.binary_search_by_key(&date, |(d, _)| *d);
        found.ok().map(|i| &self.transfers[i].1)
    }

    /// The provisions that decide `date`'s status in the 5-day week, each once: those of its
    /// red holidays, of a declared transfer and of the eve rule on a shortened day.
    pub fn bases_of(&self, date: Date) -> Vec<&Basis> {
        let red = self.holidays_on(date).filter(|h| h.is_red);
        let red = red.flat_map(|h| h.basis.iter());
        let declared = self
            .transfer_on(date)
            .into_iter()
            .flat_map(|t| t.basis.iter());
        // Those of the nearest change on or before it.
        let eve = (self.status_of(date).shorter_workday)
            .then(|| self.eve_bases.partition_point(|(d, _)| *d <= date))
            .and_then(|i| i.checked_sub(1));
        let eve = eve.into_iter().flat_map(|i| &*self.eve_bases[i].1);
        let mut bases: Vec<&Basis> = Vec::new();
        for b in red.chain(declared).chain(eve) {
            if !bases.contains(&b) {
                bases.push(b);
            }
        }
        bases
    }

    /// The eve rule's provisions in force over `from..=to` (those of its eve days, as the
    /// data gives them), each once, in date order; empty before the first eve day served.
    pub fn eve_bases_in(&self, from: Date, to: Date) -> Vec<&Basis> {
        let since = |date: Date| self.eve_bases.partition_point(|(d, _)| *d <= date);
        let first = since(from).saturating_sub(1);
        let mut bases: Vec<&Basis> = Vec::new();
        for (_, list) in &self.eve_bases[first..since(to)] {
            for b in list.iter() {
                if !bases.contains(&b) {
                    bases.push(b);
                }
            }
        }
        bases
    }

    /// The answer to `key` (its parameters as resolved: `today` as its date), built by
    /// `build` on first use. Kept with the dataset, so a reload never serves an old one.
    pub fn answer<P: std::hash::Hash + Eq + Clone + Send + Sync + 'static>(
        &self,
        operation: &'static str,
        params: &P,
        build: impl FnOnce() -> Vec<u8>,
    ) -> Bytes {
        if let Some(body) = self.answers.get(&AnswerKeyRef { operation, params }) {
            return body;
        }
        let body = cache::exact(build());
        if body.len() >= MIN_KEPT_ANSWER {
            let key = AnswerKey::new(operation, params.clone());
            self.answers.insert(key, body.clone());
        }
        body
    }

    /// Every served date of `year`, in order (empty when the year is not served).
    pub fn dates_of_year(&self, year: i32) -> impl Iterator<Item = Date> {
        let start = Date::from_ymd(year, 1, 1)
            .ok()
            .filter(|d| self.contains(*d));
        std::iter::successors(start, move |d| d.succ().filter(|d| d.year() == year))
    }
}

/// The start of a `/days` body, up to the opening of the list.
fn days_head(out: &mut Vec<u8>, from: Date, to: Date, count: i64) {
    // The dates without `core::fmt` (this runs on every `/days` request).
    out.extend_from_slice(b"{\"from\":\"");
    out.extend_from_slice(&from.iso_bytes());
    out.extend_from_slice(b"\",\"to\":\"");
    out.extend_from_slice(&to.iso_bytes());
    let _ = write!(out, "\",\"count\":{count},\"days\":[");
}

const DAYS_TAIL: &[u8] = b"]}";

/// `text` leaked once per distinct text per process (dataset versions: 16 bytes each).
fn interned(text: &str) -> &'static str {
    static SEEN: parking_lot::Mutex<Vec<&'static str>> = parking_lot::Mutex::new(Vec::new());
    let mut seen = SEEN.lock();
    if let Some(&known) = seen.iter().find(|&&known| known == text) {
        return known;
    }
    let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
    seen.push(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_zero_padded() {
        let date = Date::parse("1583-01-09").unwrap();
        assert_eq!(&date.iso_bytes(), b"1583-01-09");
    }

    #[test]
    fn short_digest_is_stable_hex() {
        let short_digest = |s: &str| kalendorius_dataset::digest::short_sha256_hex(s.as_bytes());
        let tag = short_digest("v1-abc");
        assert_eq!(tag.len(), 16);
        assert!(tag.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(tag, short_digest("v1-abc"));
        assert_ne!(tag, short_digest("v1-abd"));
    }
}
