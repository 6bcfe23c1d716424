//! Collecting source problems with their file, line and key.

use std::path::Path;

use crate::error::{BuildError, SourceError, SourceErrorKind};

/// The problems found so far.
#[derive(Debug, Default)]
pub struct Diagnostics {
    errors: Vec<SourceError>,
}

impl Diagnostics {
    /// Records a problem at a byte offset of a file's text.
    pub fn at_offset(
        &mut self,
        file: &Path,
        text: &str,
        offset: usize,
        key: impl Into<Option<String>>,
        kind: SourceErrorKind,
        message: impl Into<String>,
    ) {
        self.at_line(file, line_of(text, offset), key, kind, message);
    }

    /// Records a problem at a line.
    pub fn at_line(
        &mut self,
        file: &Path,
        line: usize,
        key: impl Into<Option<String>>,
        kind: SourceErrorKind,
        message: impl Into<String>,
    ) {
        self.errors.push(SourceError {
            file: file.to_path_buf(),
            line: Some(line),
            key: key.into(),
            kind,
            message: message.into(),
        });
    }

    /// The records of a CSV file with their 1-based lines; a record that does not parse is
    /// recorded as a syntax problem and left out.
    pub fn csv_records(
        &mut self,
        file: &Path,
        reader: &mut csv::Reader<&[u8]>,
    ) -> Vec<(usize, csv::StringRecord)> {
        let line_of = |p: Option<&csv::Position>| p.map_or(0, |p| p.line() as usize);
        let mut records = Vec::new();
        for record in reader.records() {
            match record {
                Ok(r) => records.push((line_of(r.position()), r)),
                Err(e) => {
                    let line = line_of(e.position());
                    self.at_line(file, line, None, SourceErrorKind::Syntax, e.to_string());
                }
            }
        }
        records
    }

    /// Records a ready-made problem.
    pub fn push(&mut self, error: SourceError) {
        self.errors.push(error);
    }

    /// How many problems were recorded.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// `Ok` when nothing was recorded, else every problem.
    pub fn into_result(self) -> Result<(), BuildError> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(BuildError::Invalid(self.errors))
        }
    }
}

/// The 1-based line of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}
