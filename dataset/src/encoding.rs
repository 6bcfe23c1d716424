//! The compact binary form of the dataset, as the sled database holds it.
//!
//! The per-year JSON files are the published form; the server loads this one. A year's
//! JSON repeats every holiday's four names and source on each date it falls on and every
//! field name on every day (about 170 KiB for 2026). Here every distinct string of the
//! dataset is stored once, in one string table, and a year refers to strings by index
//! (about 9 KiB for 2026), so the database stays a fraction of the JSON it mirrors and
//! decodes in milliseconds. Decoding gives back exactly the [`YearFile`] the JSON holds
//! (`kalendorius-generator verify` compares them).
//!
//! Format version [`FORMAT_VERSION`]: each value is a 4-byte header (magic `KDS` or `KDY`,
//! then the format as one byte) followed by one [postcard] 1.x message: the string table
//! as a sequence of strings, a year as the serde struct `YearValue` below. postcard does
//! the byte work: integers as LEB128 varints (`u8` as a plain byte, `i32` zigzagged),
//! lengths before sequences and strings, `Option` and `bool` as one byte that must be 0 or
//! 1, enums as their variant's index, UTF-8 checked; its wire format is documented and
//! stable across 1.x. A value that ends early or holds a bad varint, code or UTF-8 is
//! refused ([`DecodeError::Malformed`]), and so are bytes left after the message.
//!
//! What stays by hand, and why (postcard only writes what it is given):
//! - the header: postcard has no magic or version of its own, and the header lets a value
//!   of another kind or format be named as such rather than misread;
//! - the interning: a year refers to strings of the shared table, and to the legal basis
//!   and holiday records of its own tables, by index (postcard of the plain [`YearFile`]s
//!   would spell out every name, source and citation on each date it falls on: several
//!   times the size);
//! - a day's four flags and its reason packed into one byte, and each name-day reference
//!   carrying its gender in its low bit: postcard writes a `bool` as a whole byte, and
//!   these two are a third of the years' size;
//! - holiday names, transfers and the bases of shortened days, on a few days of a year,
//!   listed once per year by the day's position rather than as an `Option` or a list on
//!   every day (one byte each per day);
//! - resolving the indices and positions back into records, refusing one that points past
//!   its table or its year, and checking the year and its days.
//!
//! A change to this layout bumps [`FORMAT_VERSION`], which the manifest records and a
//! reader checks before it reads a value (format 3 and before: a hand-written LEB128 form).

use indexmap::IndexSet;
use serde::{Deserialize, Serialize};

use crate::{
    Basis, Confidence, Date, Day, Gender, Holiday, HolidayType, NameDay, Reason, Transfer,
    TransferKind, YearFile,
};

/// Version of the binary layout described in the module documentation (4: postcard; 5: a
/// basis carries its act's `url`).
pub const FORMAT_VERSION: u32 = 5;

/// The first bytes of every encoded year.
const YEAR_MAGIC: &[u8; 3] = b"KDY";

/// The first bytes of the string table.
const STRINGS_MAGIC: &[u8; 3] = b"KDS";

/// Why bytes are not an encoded year. Any of these means the database is damaged or was
/// written by another version: regenerate it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The value does not start with the magic bytes of what it should be.
    #[error("not an encoded {0} (bad magic bytes)")]
    BadMagic(&'static str),
    /// The value is of another format version.
    #[error("format version {found}, this program reads version {FORMAT_VERSION}")]
    FormatVersion {
        /// Version found in the value.
        found: u8,
    },
    /// postcard refuses the message: it ends early, or holds a bad varint, bool, option,
    /// enum code or UTF-8.
    #[error("malformed value: {0}")]
    Malformed(#[from] postcard::Error),
    /// Bytes are left after the message.
    #[error("{0} bytes after the value")]
    TrailingBytes(usize),
    /// A reference points past the end of its table.
    #[error("{table} index {index} out of range (table of {len})")]
    BadIndex {
        /// Which table.
        table: &'static str,
        /// The index.
        index: u32,
        /// The table's length.
        len: usize,
    },
    /// Something listed for a day past the year's end, or out of order.
    #[error("{what} listed for day {day} of the year, past its end or out of order")]
    Misplaced {
        /// What is listed.
        what: &'static str,
        /// The day's position (0 is January 1).
        day: u16,
    },
    /// The year or the day count is impossible.
    #[error("year {year} with {days} days")]
    BadYear {
        /// The year.
        year: i32,
        /// The day count.
        days: usize,
    },
}

/// A year after its header.
#[derive(Serialize, Deserialize)]
struct YearValue {
    schema_version: u32,
    year: i32,
    /// The distinct legal bases of the year, in order of first use.
    bases: Vec<BasisRecord>,
    /// The distinct holiday records of the year, in order of first use.
    holidays: Vec<HolidayRecord>,
    /// Every day, January 1 first (the date is implied by the position).
    days: Vec<DayRecord>,
    /// The days that have a holiday name (a few a year), by position, in order: the name's
    /// string index.
    holiday_names: Vec<(u16, u32)>,
    /// The days that have a transfer (none in most years), by position, in order.
    transfers: Vec<(u16, TransferRecord)>,
    /// The shortened days' bases (a few a year), by position, in order: basis indices.
    shorter_workday_bases: Vec<(u16, Vec<u32>)>,
}

/// A [`Basis`] with its strings as string-table indices.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct BasisRecord {
    confidence: Confidence,
    act: u32,
    number: Option<u32>,
    article: Option<u32>,
    part: Option<u32>,
    item: Option<u32>,
    amended_by: Option<u32>,
    url: Option<u32>,
    /// text_lt, text_en, text_pl, text_ru.
    texts: [u32; 4],
}

/// A [`Holiday`] with its strings as string-table indices (id, name_lt, name_en, name_pl,
/// name_ru, source) and its bases as indices into the year's.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct HolidayRecord {
    kind: HolidayType,
    is_red: bool,
    confidence: Option<Confidence>,
    strings: [u32; 6],
    basis: Vec<u32>,
}

/// A [`Transfer`] with its strings as string-table indices (name_lt, name_en, name_pl,
/// name_ru, source) and its bases as indices into the year's.
#[derive(Serialize, Deserialize)]
struct TransferRecord {
    kind: TransferKind,
    six_day_week: bool,
    confidence: Confidence,
    strings: [u32; 5],
    basis: Vec<u32>,
}

/// A [`Day`] without its date and what [`YearValue`] lists by position.
#[derive(Serialize, Deserialize)]
struct DayRecord {
    /// [`flag`] bits and the reason.
    flags: u8,
    day_of_week: u8,
    iso_week: u8,
    working_hours_5: u8,
    working_hours_6: u8,
    /// Indices into the year's holiday records.
    holidays: Vec<u32>,
    /// Per name: string index << 1, | 1 if feminine.
    name_days: Vec<u32>,
}

/// Bits of [`DayRecord::flags`]; bits 6-7 hold the reason: 0 none, 1 saturday, 2 sunday,
/// 3 public_holiday.
mod flag {
    pub const WEEKEND: u8 = 1;
    pub const LAISVADIENIS: u8 = 1 << 1;
    pub const SHORTER: u8 = 1 << 2;
    pub const SHORTER_6: u8 = 1 << 3;
    pub const REASON_SHIFT: u8 = 6;
}

/// Encodes years one after the other, collecting the strings they use into one table.
#[derive(Default)]
pub struct Encoder {
    strings: Table<String>,
}

impl Encoder {
    /// A new encoder with an empty string table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Encodes a year (its days must start on January 1 and follow each other); its strings
    /// join the table ([`Encoder::string_table`]).
    pub fn year(&mut self, file: &YearFile) -> Vec<u8> {
        let strings = &mut self.strings;
        let mut bases = Table::<BasisRecord>::default();
        let mut basis_list = |strings: &mut Table<String>, list: &[Basis]| -> Vec<u32> {
            list.iter()
                .map(|b| {
                    let mut optional =
                        |v: &Option<String>| v.as_deref().map(|v| strings.intern_str(v));
                    let (number, article, amended_by, url) = (
                        optional(&b.number),
                        optional(&b.article),
                        optional(&b.amended_by),
                        optional(&b.url),
                    );
                    bases.intern(BasisRecord {
                        confidence: b.confidence,
                        act: strings.intern_str(&b.act),
                        number,
                        article,
                        part: b.part,
                        item: b.item,
                        amended_by,
                        url,
                        texts: strings
                            .intern_each([&b.text_lt, &b.text_en, &b.text_pl, &b.text_ru]),
                    })
                })
                .collect()
        };
        let mut holidays = Table::<HolidayRecord>::default();
        let (mut holiday_names, mut transfers, mut shorter_workday_bases) =
            (Vec::new(), Vec::new(), Vec::new());
        let days = (0u16..)
            .zip(&file.days)
            .map(|(position, day)| {
                if let Some(name) = &day.holiday_name {
                    holiday_names.push((position, strings.intern_str(name)));
                }
                if let Some(t) = &day.transfer {
                    let record = TransferRecord {
                        kind: t.kind,
                        six_day_week: t.six_day_week,
                        confidence: t.confidence,
                        strings: strings.intern_each([
                            &t.name_lt, &t.name_en, &t.name_pl, &t.name_ru, &t.source,
                        ]),
                        basis: basis_list(strings, &t.basis),
                    };
                    transfers.push((position, record));
                }
                if !day.shorter_workday_basis.is_empty() {
                    let list = basis_list(strings, &day.shorter_workday_basis);
                    shorter_workday_bases.push((position, list));
                }
                let reason = match day.reason {
                    None => 0,
                    Some(Reason::Saturday) => 1,
                    Some(Reason::Sunday) => 2,
                    Some(Reason::PublicHoliday) => 3,
                };
                let flags = [
                    (day.is_weekend, flag::WEEKEND),
                    (day.laisvadienis, flag::LAISVADIENIS),
                    (day.shorter_workday, flag::SHORTER),
                    (day.shorter_workday_6, flag::SHORTER_6),
                ]
                .into_iter()
                .filter(|&(set, _)| set)
                .fold(reason << flag::REASON_SHIFT, |flags, (_, bit)| flags | bit);
                DayRecord {
                    flags,
                    day_of_week: day.day_of_week,
                    iso_week: day.iso_week,
                    working_hours_5: day.working_hours_5,
                    working_hours_6: day.working_hours_6,
                    holidays: day
                        .holidays
                        .iter()
                        .map(|h| {
                            let record = HolidayRecord {
                                kind: h.kind,
                                is_red: h.is_red,
                                confidence: h.confidence,
                                strings: strings.intern_each([
                                    &h.id, &h.name_lt, &h.name_en, &h.name_pl, &h.name_ru,
                                    &h.source,
                                ]),
                                basis: basis_list(strings, &h.basis),
                            };
                            holidays.intern(record)
                        })
                        .collect(),
                    name_days: day
                        .name_days
                        .iter()
                        .map(|n| {
                            strings.intern_str(&n.name) << 1 | u32::from(n.gender == Gender::Female)
                        })
                        .collect(),
                }
            })
            .collect();
        let value = YearValue {
            schema_version: file.schema_version,
            year: file.year,
            bases: bases.into_vec(),
            holidays: holidays.into_vec(),
            days,
            holiday_names,
            transfers,
            shorter_workday_bases,
        };
        encode(YEAR_MAGIC, &value, file.days.len() * 16)
    }

    /// The string table of every year encoded so far, in order of first use (so the same
    /// years always give the same bytes: the manifest records their SHA-256).
    pub fn string_table(&self) -> Vec<u8> {
        encode(
            STRINGS_MAGIC,
            &self.strings.0.iter().collect::<Vec<_>>(),
            64 * 1024,
        )
    }
}

/// The header, then `value` as postcard writes it.
fn encode(magic: &[u8; 3], value: &impl Serialize, capacity: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity);
    out.extend_from_slice(magic);
    out.push(FORMAT_VERSION as u8);
    postcard::to_extend(value, out).expect("postcard writes any value into a Vec")
}

/// Checks the header, then reads one postcard message that must end the value.
fn decode<'a, T: Deserialize<'a>>(
    bytes: &'a [u8],
    magic: &[u8; 3],
    what: &'static str,
) -> Result<T, DecodeError> {
    let [m0, m1, m2, format, body @ ..] = bytes else {
        return Err(postcard::Error::DeserializeUnexpectedEnd.into());
    };
    if [*m0, *m1, *m2] != *magic {
        return Err(DecodeError::BadMagic(what));
    }
    if u32::from(*format) != FORMAT_VERSION {
        return Err(DecodeError::FormatVersion { found: *format });
    }
    match postcard::take_from_bytes(body)? {
        (value, []) => Ok(value),
        (_, left) => Err(DecodeError::TrailingBytes(left.len())),
    }
}

/// The decoded string table that years refer to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strings(Vec<Box<str>>);

impl Strings {
    /// The string at `index`, copied (`str::to_owned`: `to_string` on a `Box<str>` goes
    /// through `Display`, which cost an eighth of the decoding time).
    fn get(&self, index: u32) -> Result<String, DecodeError> {
        lookup(&self.0, index, "string").map(|s| s[..].to_owned())
    }

    fn each<const N: usize>(&self, indices: [u32; N]) -> Result<[String; N], DecodeError> {
        let mut out: [String; N] = std::array::from_fn(|_| String::new());
        for (slot, index) in out.iter_mut().zip(indices) {
            *slot = self.get(index)?;
        }
        Ok(out)
    }
}

/// Decodes the string table.
pub fn decode_strings(bytes: &[u8]) -> Result<Strings, DecodeError> {
    decode(bytes, STRINGS_MAGIC, "string table").map(Strings)
}

/// Decodes an encoded year against the string table it was encoded with, refusing anything
/// that is not exactly what [`Encoder::year`] writes (unknown codes, dangling references,
/// misplaced days, trailing bytes).
pub fn decode_year(bytes: &[u8], strings: &Strings) -> Result<YearFile, DecodeError> {
    let value: YearValue = decode(bytes, YEAR_MAGIC, "year")?;
    let bad_year = || DecodeError::BadYear {
        year: value.year,
        days: value.days.len(),
    };
    let first = Date::from_ymd(value.year, 1, 1).map_err(|_| bad_year())?;
    let optional = |index: Option<u32>| index.map(|i| strings.get(i)).transpose();
    let bases = value
        .bases
        .iter()
        .map(|b| {
            let act = strings.get(b.act)?;
            let [text_lt, text_en, text_pl, text_ru] = strings.each(b.texts)?;
            Ok(Basis {
                act,
                number: optional(b.number)?,
                article: optional(b.article)?,
                part: b.part,
                item: b.item,
                amended_by: optional(b.amended_by)?,
                url: optional(b.url)?,
                confidence: b.confidence,
                text_lt,
                text_en,
                text_pl,
                text_ru,
            })
        })
        .collect::<Result<Vec<_>, DecodeError>>()?;
    let basis_list = |indices: &[u32]| -> Result<Vec<Basis>, DecodeError> {
        indices
            .iter()
            .map(|&i| lookup(&bases, i, "basis").cloned())
            .collect()
    };
    let holidays = value
        .holidays
        .iter()
        .map(|record| {
            let [id, name_lt, name_en, name_pl, name_ru, source] = strings.each(record.strings)?;
            Ok(Holiday {
                id,
                kind: record.kind,
                is_red: record.is_red,
                name_lt,
                name_en,
                name_pl,
                name_ru,
                source,
                confidence: record.confidence,
                basis: basis_list(&record.basis)?,
            })
        })
        .collect::<Result<Vec<_>, DecodeError>>()?;
    let transfer = |record: &TransferRecord| {
        let [name_lt, name_en, name_pl, name_ru, source] = strings.each(record.strings)?;
        Ok::<_, DecodeError>(Transfer {
            kind: record.kind,
            six_day_week: record.six_day_week,
            name_lt,
            name_en,
            name_pl,
            name_ru,
            source,
            confidence: record.confidence,
            basis: basis_list(&record.basis)?,
        })
    };

    let mut days = Vec::with_capacity(value.days.len());
    let mut date = Some(first);
    let mut names = value.holiday_names.iter().peekable();
    let mut transfers = value.transfers.iter().peekable();
    let mut shortened = value.shorter_workday_bases.iter().peekable();
    for (position, day) in (0u16..).zip(&value.days) {
        let day_date = date
            .filter(|d| d.year() == first.year())
            .ok_or_else(bad_year)?;
        date = day_date.succ();
        let flags = day.flags;
        days.push(Day {
            date: day_date,
            day_of_week: day.day_of_week,
            iso_week: day.iso_week,
            is_weekend: flags & flag::WEEKEND != 0,
            laisvadienis: flags & flag::LAISVADIENIS != 0,
            reason: match flags >> flag::REASON_SHIFT {
                0 => None,
                1 => Some(Reason::Saturday),
                2 => Some(Reason::Sunday),
                _ => Some(Reason::PublicHoliday),
            },
            holiday_name: names
                .next_if(|(at, _)| *at == position)
                .map(|&(_, i)| strings.get(i))
                .transpose()?,
            shorter_workday: flags & flag::SHORTER != 0,
            working_hours_5: day.working_hours_5,
            working_hours_6: day.working_hours_6,
            shorter_workday_6: flags & flag::SHORTER_6 != 0,
            shorter_workday_basis: match shortened.next_if(|(at, _)| *at == position) {
                Some((_, list)) => basis_list(list)?,
                None => Vec::new(),
            },
            holidays: day
                .holidays
                .iter()
                .map(|&i| lookup(&holidays, i, "holiday").cloned())
                .collect::<Result<_, _>>()?,
            transfer: transfers
                .next_if(|(at, _)| *at == position)
                .map(|(_, record)| transfer(record))
                .transpose()?,
            name_days: day
                .name_days
                .iter()
                .map(|&reference| {
                    Ok(NameDay {
                        name: strings.get(reference >> 1)?,
                        gender: if reference & 1 == 1 {
                            Gender::Female
                        } else {
                            Gender::Male
                        },
                    })
                })
                .collect::<Result<_, DecodeError>>()?,
        });
    }
    // A listed day not taken above is past the year's end, listed twice or out of order.
    let misplaced = names
        .next()
        .map(|&(day, _)| ("holiday name", day))
        .or(transfers.next().map(|&(day, _)| ("transfer", day)))
        .or(shortened
            .next()
            .map(|&(day, _)| ("shortened day's basis", day)));
    if let Some((what, day)) = misplaced {
        return Err(DecodeError::Misplaced { what, day });
    }
    Ok(YearFile {
        schema_version: value.schema_version,
        year: value.year,
        days,
    })
}

/// `table[index]`, or which reference dangles.
fn lookup<'t, T>(table: &'t [T], index: u32, name: &'static str) -> Result<&'t T, DecodeError> {
    usize::try_from(index)
        .ok()
        .and_then(|i| table.get(i))
        .ok_or(DecodeError::BadIndex {
            table: name,
            index,
            len: table.len(),
        })
}

/// Distinct values in order of first appearance, so that the same year always encodes to
/// the same bytes (the manifest records their SHA-256).
struct Table<T>(IndexSet<T>);

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table(IndexSet::new())
    }
}

impl Table<String> {
    /// Interns a string, copying it only the first time it is seen.
    fn intern_str(&mut self, value: &str) -> u32 {
        match self.0.get_index_of(value) {
            Some(i) => i as u32,
            None => self.intern(value.to_string()),
        }
    }

    /// Interns several strings, giving their indices in the same order.
    fn intern_each<const N: usize>(&mut self, values: [&String; N]) -> [u32; N] {
        values.map(|value| self.intern_str(value))
    }
}

impl<T: std::hash::Hash + Eq> Table<T> {
    fn intern(&mut self, value: T) -> u32 {
        self.0.insert_full(value).0 as u32
    }

    fn into_vec(self) -> Vec<T> {
        self.0.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holiday(id: &str, red: bool) -> Holiday {
        Holiday {
            id: id.into(),
            kind: HolidayType::Public,
            is_red: red,
            name_lt: format!("{id} lt"),
            name_en: format!("{id}, en"),
            name_pl: "Święto".into(),
            name_ru: "Праздник".into(),
            source: "Law I-1".into(),
            confidence: red.then_some(Confidence::Derived),
            basis: if red { vec![basis(id)] } else { vec![] },
        }
    }

    fn basis(act: &str) -> Basis {
        Basis {
            act: act.into(),
            number: act.len().is_multiple_of(2).then(|| format!("No. {act}")),
            article: Some("162¹".into()),
            part: Some(1),
            item: None,
            amended_by: Some("X-458".into()),
            url: act
                .len()
                .is_multiple_of(3)
                .then(|| format!("https://e-seimas.lrs.lt/{act}")),
            confidence: Confidence::Uncertain,
            text_lt: format!("{act} lt"),
            text_en: format!("{act} en"),
            text_pl: format!("{act} pl"),
            text_ru: format!("{act} ru"),
        }
    }

    /// A year whose days exercise every field: reasons, holiday names, several holidays,
    /// transfers of both kinds, name days of both genders.
    fn sample_year() -> YearFile {
        let mut days = Vec::new();
        let mut date = Date::from_ymd(2024, 1, 1).unwrap();
        for i in 0..366u32 {
            let reason = [None, Some(Reason::Saturday), Some(Reason::Sunday)][i as usize % 3];
            let public = i % 50 == 0;
            days.push(Day {
                date,
                day_of_week: (i % 7) as u8,
                iso_week: (i / 7 % 53 + 1) as u8,
                is_weekend: i % 7 >= 5,
                laisvadienis: reason.is_some() || public,
                reason: if public {
                    Some(Reason::PublicHoliday)
                } else {
                    reason
                },
                holiday_name: public.then(|| format!("Šventė {i}")),
                shorter_workday: i % 11 == 0,
                working_hours_5: (i % 9) as u8,
                working_hours_6: (i % 8) as u8,
                shorter_workday_6: i % 13 == 0,
                holidays: (0..i % 4)
                    .map(|k| holiday(&format!("h{}", (i + k) % 17), k == 0))
                    .collect(),
                transfer: (i % 90 == 1).then(|| Transfer {
                    kind: if i % 180 == 1 {
                        TransferKind::DayOff
                    } else {
                        TransferKind::WorkingDay
                    },
                    six_day_week: i % 360 == 1,
                    name_lt: "Perkelta".into(),
                    name_en: "Moved".into(),
                    name_pl: "Przeniesiony".into(),
                    name_ru: "Перенесённый".into(),
                    source: format!("Resolution {i}"),
                    confidence: Confidence::Confirmed,
                    basis: vec![basis("gov")],
                }),
                shorter_workday_basis: if i % 11 == 0 || i % 13 == 0 {
                    vec![basis("eve"), basis("eve2")]
                } else {
                    vec![]
                },
                name_days: (0..i % 6)
                    .map(|k| NameDay {
                        name: format!("Vardas{}", (i * 7 + k) % 400),
                        gender: if k % 2 == 0 {
                            Gender::Male
                        } else {
                            Gender::Female
                        },
                    })
                    .collect(),
            });
            date = date.succ().unwrap();
        }
        YearFile {
            schema_version: crate::SCHEMA_VERSION,
            year: 2024,
            days,
        }
    }

    /// Encodes `year`, returning its bytes and the string table's.
    fn encode(year: &YearFile) -> (Vec<u8>, Vec<u8>) {
        let mut encoder = Encoder::new();
        let bytes = encoder.year(year);
        (bytes, encoder.string_table())
    }

    #[test]
    fn a_year_round_trips_exactly() {
        let year = sample_year();
        let (bytes, table) = encode(&year);
        let strings = decode_strings(&table).unwrap();
        assert_eq!(decode_year(&bytes, &strings).unwrap(), year);
        // The same year always gives the same bytes (the manifest records their SHA-256).
        assert_eq!(encode(&year), (bytes.clone(), table.clone()));
        let json = serde_json::to_vec(&year).unwrap();
        assert!(
            (bytes.len() + table.len()) * 3 < json.len(),
            "{} + {} bytes encoded, {} as JSON",
            bytes.len(),
            table.len(),
            json.len()
        );
    }

    #[test]
    fn years_share_one_string_table() {
        let mut encoder = Encoder::new();
        let first = sample_year();
        let mut second = sample_year();
        second.year = 2025;
        second.days.truncate(365);
        let mut date = Date::from_ymd(2025, 1, 1).unwrap();
        for day in &mut second.days {
            day.date = date;
            date = date.succ().unwrap();
        }
        second.days[0].name_days.push(NameDay {
            name: "Naujas".into(),
            gender: Gender::Female,
        });
        let (a, b) = (encoder.year(&first), encoder.year(&second));
        let strings = decode_strings(&encoder.string_table()).unwrap();
        assert_eq!(decode_year(&a, &strings).unwrap(), first);
        assert_eq!(decode_year(&b, &strings).unwrap(), second);
    }

    #[test]
    fn every_truncation_and_trailing_byte_is_refused() {
        let (bytes, table) = encode(&sample_year());
        let strings = decode_strings(&table).unwrap();
        for len in 0..bytes.len() {
            assert!(
                decode_year(&bytes[..len], &strings).is_err(),
                "accepted {len} bytes"
            );
        }
        for len in 0..table.len() {
            assert!(
                decode_strings(&table[..len]).is_err(),
                "accepted {len} bytes"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            decode_year(&longer, &strings),
            Err(DecodeError::TrailingBytes(1))
        );
    }

    #[test]
    fn a_year_refers_only_to_strings_of_its_table() {
        let (bytes, _) = encode(&sample_year());
        let other = decode_strings(&Encoder::new().string_table()).unwrap();
        assert!(matches!(
            decode_year(&bytes, &other),
            Err(DecodeError::BadIndex {
                table: "string",
                ..
            })
        ));
    }

    #[test]
    fn bad_magic_version_and_codes_are_named() {
        let (bytes, table) = encode(&sample_year());
        let strings = decode_strings(&table).unwrap();
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(
            decode_year(&bad, &strings),
            Err(DecodeError::BadMagic("year"))
        );
        assert_eq!(
            decode_strings(&bytes),
            Err(DecodeError::BadMagic("string table"))
        );
        let mut bad = bytes.clone();
        bad[3] = 9;
        assert_eq!(
            decode_year(&bad, &strings),
            Err(DecodeError::FormatVersion { found: 9 })
        );
        // The first basis record's confidence follows the header, the schema version (1
        // byte), the year (2 bytes) and the basis count (1 byte); the first holiday record's
        // type, is_red and confidence follow the bases and the holiday count (1 byte).
        let value = postcard::from_bytes::<YearValue>(&bytes[4..]).unwrap();
        let before_holidays = (value.schema_version, value.year, &value.bases);
        let kind_at = 4 + postcard::to_allocvec(&before_holidays).unwrap().len() + 1;
        for (at, code) in [
            (4 + 1 + 2 + 1, 9),
            (kind_at, 9),
            (kind_at + 1, 2),
            (kind_at + 2, 2),
        ] {
            let mut bad = bytes.clone();
            bad[at] = code;
            assert!(
                matches!(decode_year(&bad, &strings), Err(DecodeError::Malformed(_))),
                "accepted code {code} at byte {at}"
            );
        }
    }

    #[test]
    fn listed_days_must_be_in_the_year_and_in_order() {
        let (bytes, table) = encode(&sample_year());
        let strings = decode_strings(&table).unwrap();
        let value = || postcard::from_bytes::<YearValue>(&bytes[4..]).unwrap();
        let mut reversed = value();
        reversed.holiday_names.reverse();
        let mut past_the_end = value();
        past_the_end.transfers.last_mut().unwrap().0 = 366;
        let mut twice = value();
        let first = twice.shorter_workday_bases[0].clone();
        twice.shorter_workday_bases.insert(0, first);
        for (bad, what) in [
            (reversed, "holiday name"),
            (past_the_end, "transfer"),
            (twice, "shortened day's basis"),
        ] {
            let err = decode_year(&super::encode(YEAR_MAGIC, &bad, 0), &strings);
            let placed = matches!(err, Err(DecodeError::Misplaced { what: w, .. }) if w == what);
            assert!(placed, "{what}: {err:?}");
        }
    }
}
