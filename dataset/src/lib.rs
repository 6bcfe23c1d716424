//! The kalendorius dataset format, defined once and shared.
//!
//! The generator writes a dataset and the server reads it; both depend on this crate and
//! nothing else of each other, so the server never links CSV or TOML parsing. The crate owns:
//!
//! - the boundary newtypes every layer uses ([`Date`], [`Year`], [`Lang`]);
//! - the records of a dataset ([`Day`], [`Holiday`], [`Transfer`], [`NameDay`]), with the
//!   legal [`basis`] of what makes a day non-working or shorter, and the
//!   per-year file that holds them ([`YearFile`], published as [`PublishedYearFile`]);
//! - the pupils' holidays ([`school`]): the periods of each school year in the data;
//! - the [`Manifest`] (versions, year range, checksums, counts);
//! - the on-disk layout ([`layout`]): file names, the sled trees and keys, and the content
//!   digest that verifies a sled database by content (its files are not byte-stable);
//! - the compact binary form of a year that the sled database holds ([`encoding`]);
//! - loading a dataset back with every manifest check ([`load`]);
//! - the JSON Schemas of the published files, generated from those types ([`schema`]);
//! - what changed between two datasets, the shape of `changes.json` ([`changes`]);
//! - the working-time rules of the 40-hour week, which decide each day's working hours
//!   ([`working_time`]);
//! - folding calendar names for case- and diacritic-blind matching ([`names`]);
//! - the long weekends of a year, from which days are non-working and marked ([`planning`]);
//! - the sky: the places whose sun is computed ([`places`]), Lithuania's legal time and its
//!   clock changes ([`civil_time`]), the sun's day ([`sun`]) and the moon's phases ([`moon`]);
//! - a shift split for a timesheet by date, kind of day and night, in Lithuanian local time
//!   ([`shift`]).

pub mod basis;
pub mod changes;
pub mod civil_time;
pub mod contract;
pub mod database;
pub mod date;
pub mod digest;
pub mod encoding;
pub mod lang;
pub mod layout;
pub mod leave;
pub mod load;
pub mod manifest;
pub mod model;
pub mod moon;
pub mod names;
pub mod places;
pub mod planning;
pub mod schema;
pub mod school;
pub mod shift;
pub mod sun;
pub mod working_index;
pub mod working_time;

pub use basis::{Basis, Confidence};
pub use changes::{compare, Changes, DatasetRef, Differ};
pub use date::{Date, DateError, Year, YearError};
pub use lang::{Lang, LangError};
pub use load::{open_dataset, open_days, open_manifest, DatasetDir, DaysDir, LoadError};
pub use manifest::{Counts, DatabaseEntry, DatabaseValue, FileEntry, Manifest, StoredValue};
pub use model::{
    Day, Gender, Holiday, HolidayType, NameDay, PublishedYearFile, Reason, Transfer, TransferKind,
    YearFile,
};
pub use places::{Place, PlaceNames, PlacesFile};
pub use school::{SchoolHoliday, SchoolHolidayKind, SchoolHolidaysFile, SchoolYear};
pub use working_time::Week;

/// Version of the dataset's shape. Bump it whenever a field of [`Day`], [`Manifest`] or the
/// sled layout changes meaning, and whenever a field is added that this crate requires when
/// reading (a reader of the new shape cannot read the old files: the version check says so
/// before a parse error would); the server refuses a dataset of another schema version.
///
/// 2: the working-time fields of [`Day`] (`working_hours_5`, `working_hours_6`,
/// `shorter_workday_6`).
/// 3: the sled database holds each year in the binary form of [`encoding`] (not its JSON),
/// and the manifest's `database` entry gains `format` and each value's size and SHA-256.
/// 4: [`Transfer::six_day_week`] (whether the 6-day week follows a transfer), and with it
/// binary format 2 of [`encoding`].
/// 5: the pupils' holidays: `school_holidays.json` ([`SchoolHolidaysFile`], listed in the
/// manifest's `files` and required) and the `school_holidays` of each year file
/// ([`PublishedYearFile`]); the days and the sled database are unchanged.
/// 6: the legal bases (E12): a red [`Holiday`] and a [`Transfer`] gain `confidence` and
/// `basis`, a [`Day`] `shorter_workday_basis` ([`Basis`]), and with them binary format 3
/// of [`encoding`].
/// 7: each dataset directory holds `changes.json` ([`Changes`]: what it changes against the
/// version it replaced), and the manifest gains its `changes` entry (size and SHA-256). The
/// days are unchanged ([`DAYS_SHAPE_SINCE`]).
/// 8: a [`Basis`] gains `url` (the act's official text in the register), with binary
/// format 5 of [`encoding`]; a [`SchoolHoliday`] gains `confidence` (extension E19). Older
/// files read as having no `url`, and their periods as confirmed.
/// 9: `places.json` ([`PlacesFile`]: the municipalities' centres whose sun is computed),
/// listed in the manifest's `files` and required; the days are unchanged.
pub const SCHEMA_VERSION: u32 = 9;

/// The oldest schema version whose days ([`Day`] in [`YearFile`]) this version reads: what
/// [`open_days`] accepts, so a new build can be compared with the version in service across
/// a schema change. Version 4 gave the days their shape; the legal bases of version 6
/// (`confidence`, `basis`, `shorter_workday_basis`) read as absent from older files.
pub const DAYS_SHAPE_SINCE: u32 = 4;

/// First year the service covers: the first full year of the Gregorian calendar.
pub const FIRST_YEAR: i32 = 1583;

/// Last year the service covers.
pub const LAST_YEAR: i32 = 2100;
