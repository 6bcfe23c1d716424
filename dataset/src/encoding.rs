//! The compact binary form of the dataset, as the sled database holds it.
//!
//! The per-year JSON files are the published form; the server loads this one. A year's
//! JSON repeats every holiday's four names and source on each date it falls on and every
//! field name on every day (about 160 KiB for 2026). Here every distinct string of the
//! dataset is stored once, in one string table, and a year refers to strings by index
//! (about 9 KiB for 2026), so the database stays a fraction of the JSON it mirrors and
//! decodes in milliseconds. Decoding gives back exactly the [`YearFile`] the JSON holds
//! (`kalendorius-generator verify` compares them).
//!
//! Format version [`FORMAT_VERSION`] (integers are LEB128 varints unless sized; a string
//! reference is an index into the string table):
//!
//! ```text
//! string table: magic "KDS" | format u8 | count, then per string: byte length, UTF-8
//! year:         magic "KDY" | format u8 | schema_version | year | day count
//!   bases:     count, then per record: confidence u8 (1 confirmed, 2 derived, 3
//!              uncertain), act, number, article, part, item, amended_by, text_lt,
//!              text_en, text_pl, text_ru (an optional string is its reference + 1, 0 for
//!              none; part and item are 0 for none)
//!   holidays:  count, then per record: type u8, is_red u8, confidence u8 (0 none), id,
//!              name_lt, name_en, name_pl, name_ru, source (string references), basis
//!              count, basis indices
//!   transfers: count, then per record: kind u8 (bit 0: 0 day_off, 1 working_day; bit 1:
//!              six_day_week), confidence u8, name_lt, name_en, name_pl, name_ru, source,
//!              basis count, basis indices
//!   days, January 1 first (the date is implied by the position):
//!     flags u8 (bit 0 is_weekend, 1 laisvadienis, 2 shorter_workday, 3 shorter_workday_6,
//!     4 has holiday_name, 5 has transfer, bits 6-7 reason: 0 none, 1 saturday, 2 sunday,
//!     3 public_holiday), day_of_week u8, iso_week u8, working_hours_5 u8,
//!     working_hours_6 u8, [holiday_name], holiday count, holiday indices,
//!     [transfer index], [when shortened (bit 2 or 3): basis count, basis indices],
//!     name-day count, per name (string reference << 1 | 1 if feminine)
//! ```
//!
//! A change to this layout bumps [`FORMAT_VERSION`] (recorded in the manifest) and the
//! dataset's schema version.

use std::collections::HashMap;

use crate::{
    Basis, Confidence, Date, Day, Gender, Holiday, HolidayType, NameDay, Reason, Transfer,
    TransferKind, YearFile,
};

/// Version of the binary layout described in the module documentation (3: the legal bases).
pub const FORMAT_VERSION: u32 = 3;

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
    /// The value ends in the middle of a field.
    #[error("truncated at byte {at}")]
    Truncated {
        /// Offset where more bytes were needed.
        at: usize,
    },
    /// Bytes are left after the last day.
    #[error("{0} bytes after the last day")]
    TrailingBytes(usize),
    /// A varint does not fit its field.
    #[error("integer out of range at byte {at}")]
    Overflow {
        /// Offset of the integer.
        at: usize,
    },
    /// A string of the string table is not UTF-8.
    #[error("string {index} is not UTF-8")]
    BadUtf8 {
        /// Its index in the table.
        index: usize,
    },
    /// A reference points past the end of its table.
    #[error("{table} index {index} out of range (table of {len})")]
    BadIndex {
        /// Which table.
        table: &'static str,
        /// The index.
        index: u64,
        /// The table's length.
        len: usize,
    },
    /// An enumeration code that means nothing.
    #[error("unknown {what} code {code}")]
    BadCode {
        /// Which field.
        what: &'static str,
        /// The code.
        code: u8,
    },
    /// The year or the day count is impossible.
    #[error("year {year} with {days} days")]
    BadYear {
        /// The year.
        year: u64,
        /// The day count.
        days: u64,
    },
}

mod flag {
    pub const WEEKEND: u8 = 1;
    pub const LAISVADIENIS: u8 = 1 << 1;
    pub const SHORTER: u8 = 1 << 2;
    pub const SHORTER_6: u8 = 1 << 3;
    pub const HOLIDAY_NAME: u8 = 1 << 4;
    pub const TRANSFER: u8 = 1 << 5;
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
        let mut bases = Table::<[u32; 11]>::default();
        // Fixed fields, then the basis indices.
        let mut holidays = Table::<Vec<u32>>::default();
        let mut transfers = Table::<Vec<u32>>::default();
        let mut basis_list = |strings: &mut Table<String>, list: &[Basis]| -> Vec<u32> {
            list.iter()
                .map(|b| bases.intern(basis_record(strings, b)))
                .collect()
        };
        let mut days = Vec::with_capacity(file.days.len() * 12);
        for day in &file.days {
            let reason = match day.reason {
                None => 0,
                Some(Reason::Saturday) => 1,
                Some(Reason::Sunday) => 2,
                Some(Reason::PublicHoliday) => 3,
            };
            let mut flags = reason << flag::REASON_SHIFT;
            for (set, bit) in [
                (day.is_weekend, flag::WEEKEND),
                (day.laisvadienis, flag::LAISVADIENIS),
                (day.shorter_workday, flag::SHORTER),
                (day.shorter_workday_6, flag::SHORTER_6),
                (day.holiday_name.is_some(), flag::HOLIDAY_NAME),
                (day.transfer.is_some(), flag::TRANSFER),
            ] {
                if set {
                    flags |= bit;
                }
            }
            days.extend_from_slice(&[
                flags,
                day.day_of_week,
                day.iso_week,
                day.working_hours_5,
                day.working_hours_6,
            ]);
            if let Some(name) = &day.holiday_name {
                put(&mut days, strings.intern_str(name).into());
            }
            put(&mut days, day.holidays.len() as u64);
            for h in &day.holidays {
                let [id, lt, en, pl, ru, source] = strings.intern_each([
                    &h.id, &h.name_lt, &h.name_en, &h.name_pl, &h.name_ru, &h.source,
                ]);
                let mut record = vec![
                    h.kind as u32,
                    u32::from(h.is_red),
                    confidence_code(h.confidence),
                    id,
                    lt,
                    en,
                    pl,
                    ru,
                    source,
                ];
                record.extend(basis_list(strings, &h.basis));
                put(&mut days, holidays.intern(record).into());
            }
            if let Some(t) = &day.transfer {
                let [lt, en, pl, ru, source] = strings
                    .intern_each([&t.name_lt, &t.name_en, &t.name_pl, &t.name_ru, &t.source]);
                let mut record = vec![
                    t.kind as u32 | u32::from(t.six_day_week) << 1,
                    confidence_code(Some(t.confidence)),
                    lt,
                    en,
                    pl,
                    ru,
                    source,
                ];
                record.extend(basis_list(strings, &t.basis));
                put(&mut days, transfers.intern(record).into());
            }
            if day.shorter_workday || day.shorter_workday_6 {
                let list = basis_list(strings, &day.shorter_workday_basis);
                put(&mut days, list.len() as u64);
                list.into_iter().for_each(|i| put(&mut days, i.into()));
            }
            put(&mut days, day.name_days.len() as u64);
            for n in &day.name_days {
                let feminine = u64::from(n.gender == Gender::Female);
                put(
                    &mut days,
                    u64::from(strings.intern_str(&n.name)) << 1 | feminine,
                );
            }
        }

        let mut out = Vec::with_capacity(days.len() + 1024);
        out.extend_from_slice(YEAR_MAGIC);
        out.push(FORMAT_VERSION as u8);
        put(&mut out, file.schema_version.into());
        put(&mut out, file.year as u64);
        put(&mut out, file.days.len() as u64);
        put(&mut out, bases.values.len() as u64);
        for [confidence, refs @ ..] in &bases.values {
            out.push(*confidence as u8);
            refs.iter().for_each(|&r| put(&mut out, r.into()));
        }
        // Fixed fields: a holiday's three bytes and six strings, a transfer's two bytes and
        // five strings; then the basis indices.
        for (table, bytes, fixed) in [(&holidays, 3, 9), (&transfers, 2, 7)] {
            put(&mut out, table.values.len() as u64);
            for record in &table.values {
                out.extend(record[..bytes].iter().map(|&b| b as u8));
                record[bytes..fixed]
                    .iter()
                    .for_each(|&r| put(&mut out, r.into()));
                put(&mut out, (record.len() - fixed) as u64);
                record[fixed..]
                    .iter()
                    .for_each(|&r| put(&mut out, r.into()));
            }
        }
        out.extend_from_slice(&days);
        out
    }

    /// The string table of every year encoded so far, in order of first use (so the same
    /// years always give the same bytes: the manifest records their SHA-256).
    pub fn string_table(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 * 1024);
        out.extend_from_slice(STRINGS_MAGIC);
        out.push(FORMAT_VERSION as u8);
        put(&mut out, self.strings.values.len() as u64);
        for s in &self.strings.values {
            put(&mut out, s.len() as u64);
            out.extend_from_slice(s.as_bytes());
        }
        out
    }
}

/// The decoded string table that years refer to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strings(Vec<Box<str>>);

/// Decodes the string table.
pub fn decode_strings(bytes: &[u8]) -> Result<Strings, DecodeError> {
    let mut r = Reader { bytes, at: 0 };
    r.header(STRINGS_MAGIC, "string table")?;
    let count = r.count()?;
    let mut strings = Vec::with_capacity(count);
    for index in 0..count {
        let len = r.count()?;
        let text = std::str::from_utf8(r.take(len)?).map_err(|_| DecodeError::BadUtf8 { index })?;
        strings.push(text.into());
    }
    r.end()?;
    Ok(Strings(strings))
}

/// Decodes an encoded year against the string table it was encoded with, refusing anything
/// that is not exactly what [`Encoder::year`] writes (unknown codes, dangling references,
/// trailing bytes).
pub fn decode_year(bytes: &[u8], strings: &Strings) -> Result<YearFile, DecodeError> {
    let strings = &strings.0;
    let mut r = Reader { bytes, at: 0 };
    r.header(YEAR_MAGIC, "year")?;
    let schema_version = r.int::<u32>()?;
    let (year, day_count) = (r.varint()?, r.varint()?);
    let bad_year = || DecodeError::BadYear {
        year,
        days: day_count,
    };
    let first = i32::try_from(year)
        .ok()
        .and_then(|y| Date::from_ymd(y, 1, 1).ok())
        .ok_or_else(bad_year)?;
    if day_count > 366 {
        return Err(bad_year());
    }

    let basis_count = r.count()?;
    let mut bases = Vec::with_capacity(basis_count);
    for _ in 0..basis_count {
        let confidence = r.confidence()?.ok_or(DecodeError::BadCode {
            what: "confidence",
            code: 0,
        })?;
        let [act] = r.strings(strings)?;
        let number = r.optional_string(strings)?;
        let article = r.optional_string(strings)?;
        let part = Some(r.int::<u32>()?).filter(|&p| p != 0);
        let item = Some(r.int::<u32>()?).filter(|&i| i != 0);
        let amended_by = r.optional_string(strings)?;
        let [text_lt, text_en, text_pl, text_ru] = r.strings(strings)?;
        bases.push(Basis {
            act,
            number,
            article,
            part,
            item,
            amended_by,
            confidence,
            text_lt,
            text_en,
            text_pl,
            text_ru,
        });
    }

    let holiday_count = r.count()?;
    let mut holidays = Vec::with_capacity(holiday_count);
    for _ in 0..holiday_count {
        let kind = match r.byte()? {
            0 => HolidayType::Public,
            1 => HolidayType::Traditional,
            2 => HolidayType::Religious,
            3 => HolidayType::School,
            4 => HolidayType::Other,
            code => return Err(DecodeError::BadCode { what: "type", code }),
        };
        let is_red = match r.byte()? {
            0 => false,
            1 => true,
            code => {
                return Err(DecodeError::BadCode {
                    what: "is_red",
                    code,
                })
            }
        };
        let confidence = r.confidence()?;
        let [id, name_lt, name_en, name_pl, name_ru, source] = r.strings(strings)?;
        holidays.push(Holiday {
            id,
            kind,
            is_red,
            name_lt,
            name_en,
            name_pl,
            name_ru,
            source,
            confidence,
            basis: r.basis_list(&bases)?,
        });
    }

    let transfer_count = r.count()?;
    let mut transfers = Vec::with_capacity(transfer_count);
    for _ in 0..transfer_count {
        let code = r.byte()?;
        let kind = match code {
            0 | 2 => TransferKind::DayOff,
            1 => TransferKind::WorkingDay,
            code => {
                return Err(DecodeError::BadCode {
                    what: "transfer kind",
                    code,
                })
            }
        };
        let confidence = r.confidence()?.ok_or(DecodeError::BadCode {
            what: "confidence",
            code: 0,
        })?;
        let [name_lt, name_en, name_pl, name_ru, source] = r.strings(strings)?;
        transfers.push(Transfer {
            kind,
            six_day_week: code & 2 != 0,
            name_lt,
            name_en,
            name_pl,
            name_ru,
            source,
            confidence,
            basis: r.basis_list(&bases)?,
        });
    }

    let mut days = Vec::with_capacity(day_count as usize);
    let mut date = Some(first);
    for _ in 0..day_count {
        let day_date = date
            .filter(|d| d.year() == first.year())
            .ok_or_else(bad_year)?;
        date = day_date.succ();
        let [flags, day_of_week, iso_week, working_hours_5, working_hours_6] = r.array()?;
        let reason = match flags >> flag::REASON_SHIFT {
            0 => None,
            1 => Some(Reason::Saturday),
            2 => Some(Reason::Sunday),
            _ => Some(Reason::PublicHoliday),
        };
        let holiday_name = if flags & flag::HOLIDAY_NAME != 0 {
            let [name] = r.strings(strings)?;
            Some(name)
        } else {
            None
        };
        let on_day = r.count()?;
        let mut day_holidays = Vec::with_capacity(on_day.min(holidays.len()));
        for _ in 0..on_day {
            day_holidays.push(r.index(&holidays, "holiday")?.clone());
        }
        let transfer = if flags & flag::TRANSFER != 0 {
            Some(r.index(&transfers, "transfer")?.clone())
        } else {
            None
        };
        let shorter_workday_basis = if flags & (flag::SHORTER | flag::SHORTER_6) != 0 {
            r.basis_list(&bases)?
        } else {
            Vec::new()
        };
        let name_count = r.count()?;
        let mut name_days = Vec::with_capacity(name_count.min(64));
        for _ in 0..name_count {
            let at = r.at;
            let reference = r.varint()?;
            let name = strings
                .get(usize::try_from(reference >> 1).map_err(|_| DecodeError::Overflow { at })?)
                .ok_or(DecodeError::BadIndex {
                    table: "string",
                    index: reference >> 1,
                    len: strings.len(),
                })?;
            name_days.push(NameDay {
                name: name.to_string(),
                gender: if reference & 1 == 1 {
                    Gender::Female
                } else {
                    Gender::Male
                },
            });
        }
        days.push(Day {
            date: day_date,
            day_of_week,
            iso_week,
            is_weekend: flags & flag::WEEKEND != 0,
            laisvadienis: flags & flag::LAISVADIENIS != 0,
            reason,
            holiday_name,
            shorter_workday: flags & flag::SHORTER != 0,
            working_hours_5,
            working_hours_6,
            shorter_workday_6: flags & flag::SHORTER_6 != 0,
            shorter_workday_basis,
            holidays: day_holidays,
            transfer,
            name_days,
        });
    }
    r.end()?;
    Ok(YearFile {
        schema_version,
        year: first.year(),
        days,
    })
}

/// A [`Basis`] as the references of its basis record (the module documentation).
fn basis_record(strings: &mut Table<String>, b: &Basis) -> [u32; 11] {
    let mut optional = |v: &Option<String>| v.as_ref().map_or(0, |v| strings.intern_str(v) + 1);
    let (number, article, amended_by) = (
        optional(&b.number),
        optional(&b.article),
        optional(&b.amended_by),
    );
    let [act, lt, en, pl, ru] =
        strings.intern_each([&b.act, &b.text_lt, &b.text_en, &b.text_pl, &b.text_ru]);
    [
        confidence_code(Some(b.confidence)),
        act,
        number,
        article,
        b.part.unwrap_or(0),
        b.item.unwrap_or(0),
        amended_by,
        lt,
        en,
        pl,
        ru,
    ]
}

/// The byte of an optional confidence: 0 none, 1 confirmed, 2 derived, 3 uncertain.
fn confidence_code(c: Option<Confidence>) -> u32 {
    match c {
        None => 0,
        Some(Confidence::Confirmed) => 1,
        Some(Confidence::Derived) => 2,
        Some(Confidence::Uncertain) => 3,
    }
}

/// Distinct values in order of first appearance, so that the same year always encodes to
/// the same bytes (the manifest records their SHA-256).
struct Table<T> {
    index: HashMap<T, u32>,
    values: Vec<T>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            index: HashMap::new(),
            values: Vec::new(),
        }
    }
}

impl Table<String> {
    /// Interns a string, copying it only the first time it is seen.
    fn intern_str(&mut self, value: &str) -> u32 {
        if let Some(&i) = self.index.get(value) {
            return i;
        }
        self.intern(value.to_string())
    }

    /// Interns several strings, giving their indices in the same order.
    fn intern_each<const N: usize>(&mut self, values: [&String; N]) -> [u32; N] {
        values.map(|value| self.intern_str(value))
    }
}

impl<T: std::hash::Hash + Eq + Clone> Table<T> {
    fn intern(&mut self, value: T) -> u32 {
        let next = self.values.len() as u32;
        *self.index.entry(value.clone()).or_insert_with(|| {
            self.values.push(value);
            next
        })
    }
}

/// Appends `value` as an LEB128 varint.
fn put(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A cursor over an encoded year.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize) -> Result<&'a [u8], DecodeError> {
        let end = self
            .at
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len())
            .ok_or(DecodeError::Truncated { at: self.at })?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    /// Checks the magic bytes and the format version.
    fn header(&mut self, magic: &[u8; 3], what: &'static str) -> Result<(), DecodeError> {
        if self.take(magic.len())? != magic {
            return Err(DecodeError::BadMagic(what));
        }
        let format = self.byte()?;
        if u32::from(format) != FORMAT_VERSION {
            return Err(DecodeError::FormatVersion { found: format });
        }
        Ok(())
    }

    /// Checks that nothing follows.
    fn end(&self) -> Result<(), DecodeError> {
        match self.bytes.len() - self.at {
            0 => Ok(()),
            left => Err(DecodeError::TrailingBytes(left)),
        }
    }

    fn byte(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        Ok(self.take(N)?.try_into().expect("took N bytes"))
    }

    fn varint(&mut self) -> Result<u64, DecodeError> {
        let start = self.at;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(DecodeError::Overflow { at: start })
    }

    fn int<T: TryFrom<u64>>(&mut self) -> Result<T, DecodeError> {
        let at = self.at;
        T::try_from(self.varint()?).map_err(|_| DecodeError::Overflow { at })
    }

    /// A count of things that follow, each at least one byte long: bounded by what is left,
    /// so a damaged count cannot make the decoder reserve memory it will never fill.
    fn count(&mut self) -> Result<usize, DecodeError> {
        let at = self.at;
        let count: usize = self.int()?;
        if count > self.bytes.len() - self.at {
            return Err(DecodeError::Truncated { at });
        }
        Ok(count)
    }

    /// An optional confidence ([`confidence_code`]).
    fn confidence(&mut self) -> Result<Option<Confidence>, DecodeError> {
        match self.byte()? {
            0 => Ok(None),
            1 => Ok(Some(Confidence::Confirmed)),
            2 => Ok(Some(Confidence::Derived)),
            3 => Ok(Some(Confidence::Uncertain)),
            code => Err(DecodeError::BadCode {
                what: "confidence",
                code,
            }),
        }
    }

    /// An optional string: its reference + 1, or 0.
    fn optional_string(&mut self, table: &[Box<str>]) -> Result<Option<String>, DecodeError> {
        let at = self.at;
        match self.varint()? {
            0 => Ok(None),
            reference => {
                let index = reference - 1;
                usize::try_from(index)
                    .ok()
                    .and_then(|i| table.get(i))
                    .map(|s| Some(s.to_string()))
                    .ok_or(if index > u64::from(u32::MAX) {
                        DecodeError::Overflow { at }
                    } else {
                        DecodeError::BadIndex {
                            table: "string",
                            index,
                            len: table.len(),
                        }
                    })
            }
        }
    }

    /// A count of basis indices, then the indices, resolved in `bases`.
    fn basis_list(&mut self, bases: &[Basis]) -> Result<Vec<Basis>, DecodeError> {
        let count = self.count()?;
        (0..count)
            .map(|_| self.index(bases, "basis").cloned())
            .collect()
    }

    /// `N` string references in a row, resolved in `table`.
    fn strings<const N: usize>(&mut self, table: &[Box<str>]) -> Result<[String; N], DecodeError> {
        let mut out: [String; N] = std::array::from_fn(|_| String::new());
        for slot in &mut out {
            *slot = self.index(table, "string")?.to_string();
        }
        Ok(out)
    }

    fn index<'t, T>(&mut self, table: &'t [T], name: &'static str) -> Result<&'t T, DecodeError> {
        let index = self.varint()?;
        usize::try_from(index)
            .ok()
            .and_then(|i| table.get(i))
            .ok_or(DecodeError::BadIndex {
                table: name,
                index,
                len: table.len(),
            })
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
    }
}
