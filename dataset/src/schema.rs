//! The JSON Schemas (draft 2020-12) of the published files: `manifest.json`,
//! `years/YYYY.json` and `school_holidays.json`.
//!
//! Generated from the Rust types the generator writes and the server reads ([`Manifest`],
//! [`YearFile`]) with `schemars`, so the schemas cannot drift from the files: a field added
//! to a type is in its schema. Their `title` names [`crate::SCHEMA_VERSION`]; the server
//! publishes them under `/data/schema/`, and a test validates every file of a full build
//! against them.

use serde_json::Value;

use crate::{Manifest, PublishedYearFile, SchoolHolidaysFile, SCHEMA_VERSION};

/// The schema of `manifest.json`.
pub fn manifest_schema() -> Value {
    schema_of::<Manifest>(
        "manifest",
        "The manifest of a kalendorius dataset: versions, year range, file checksums and counts.",
    )
}

/// The schema of `years/YYYY.json`.
pub fn year_schema() -> Value {
    schema_of::<PublishedYearFile>(
        "year",
        "One year of a kalendorius dataset: the pupils' holidays overlapping the year, and \
         every day of the year, January 1 first.",
    )
}

/// The schema of `school_holidays.json`.
pub fn school_holidays_schema() -> Value {
    schema_of::<SchoolHolidaysFile>(
        "school holidays",
        "The pupils' holidays of a kalendorius dataset: the school years in the data and \
         every holiday period of them.",
    )
}

fn schema_of<T: schemars::JsonSchema>(name: &str, description: &str) -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    if let Some(object) = schema.as_object_mut() {
        object.insert(
            "title".into(),
            Value::String(format!(
                "kalendorius {name} file, schema version {SCHEMA_VERSION}"
            )),
        );
        object.insert("description".into(), Value::String(description.into()));
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_are_draft_2020_12_and_name_the_fields() {
        let manifest = manifest_schema();
        assert_eq!(
            manifest["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert!(manifest["properties"]["dataset_version"].is_object());
        assert_eq!(manifest["additionalProperties"], false);
        let year = year_schema();
        assert!(year["properties"]["days"].is_object());
        assert!(year["$defs"]["Day"]["properties"]["laisvadienis"].is_object());
        assert!(year["properties"]["school_holidays"].is_object());
        let school = school_holidays_schema();
        assert!(school["properties"]["school_years"].is_object());
        assert_eq!(school["additionalProperties"], false);
    }
}
