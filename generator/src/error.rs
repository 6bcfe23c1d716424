//! Errors of the generator: every problem in a source names its file, its line and (for
//! TOML) its key, so a maintainer can go straight to it.

use std::fmt;
use std::path::PathBuf;

/// What is wrong with a source. Each kind is one class of maintainer mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SourceErrorKind {
    /// Not valid TOML/CSV, or a value of the wrong TOML type.
    Syntax,
    /// A key or column the format does not have.
    UnknownField,
    /// A required key or column is absent.
    MissingField,
    /// `type` is not one of the five holiday types.
    UnknownType,
    /// A `name` table has a language other than lt, en, pl, ru.
    UnknownLanguage,
    /// A `name` table lacks a language, or has it empty.
    MissingTranslation,
    /// A `rule` does not parse.
    MalformedRule,
    /// A date that does not exist (Feb 30) or is not `YYYY-MM-DD`.
    ImpossibleDate,
    /// A range or value out of bounds (`from` after `to`, a year outside 1583..2100,
    /// a red period outside the observed years, a bad `labour_code_item`).
    OutOfRange,
    /// Two red periods (or observed ranges) of one holiday overlap.
    OverlappingPeriods,
    /// An id used twice.
    DuplicateId,
    /// Two transfers on one date, or a name twice on one day.
    Duplicate,
    /// `gender` is not `m` or `f`.
    BadGender,
    /// A name that is empty or not a single capitalised word.
    BadName,
    /// A bad enumerated value (`kind`, `confidence`) or an empty `source`.
    BadValue,
    /// A `basis` names an act that `acts.toml` does not list.
    UnknownAct,
    /// A transfer that contradicts the calendar (a day off on a weekend or holiday, a
    /// working day on a weekday).
    TransferConflict,
}

/// One problem in one source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceError {
    /// The file, as given (relative to the working directory when the sources dir is).
    pub file: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// The TOML key path (`holiday[3].red[0].from`) or CSV column, when known.
    pub key: Option<String>,
    /// The class of problem.
    pub kind: SourceErrorKind,
    /// One sentence for the maintainer.
    pub message: String,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": {key}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Why a build or check failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The sources have problems; nothing was written.
    #[error("{} problem(s) in the sources, nothing written:\n{}", .0.len(), list(.0))]
    Invalid(Vec<SourceError>),
    /// A file or directory could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// What was being read.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file or directory could not be written; the previous dataset is untouched.
    #[error("cannot write {path}: {source}")]
    Write {
        /// What was being written.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// sled failed while writing the database; the previous dataset is untouched.
    #[error("cannot write the database {path}: {source}")]
    Database {
        /// The database directory.
        path: PathBuf,
        /// The cause.
        source: sled::Error,
    },
    /// `--years` is not `A..B` within 1583..2100 with A <= B.
    #[error("invalid year range '{0}': expected A..B with 1583 <= A <= B <= 2100")]
    YearRange(String),
}

fn list(errors: &[SourceError]) -> String {
    errors
        .iter()
        .map(|e| format!("  {e}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl BuildError {
    /// The source problems, when that is what failed.
    pub fn source_errors(&self) -> &[SourceError] {
        match self {
            BuildError::Invalid(errors) => errors,
            _ => &[],
        }
    }
}
