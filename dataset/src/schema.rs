//! The JSON Schemas (draft 2020-12) of the published files: `manifest.json`,
//! `years/YYYY.json` and `changes.json` (also the output of `kalendorius-generator diff
//! --json`).
//!
//! Generated from the Rust types the generator writes and the server reads ([`Manifest`],
//! [`YearFile`], [`Changes`]) with `schemars`, so the schemas cannot drift from the files: a field added
//! to a type is in its schema. Their `title` names [`crate::SCHEMA_VERSION`]; the server
//! publishes them under `/data/schema/`, and a test validates every file of a full build
//! against them.

use serde_json::Value;

use crate::{Changes, Manifest, YearFile, SCHEMA_VERSION};

/// The schema of `manifest.json`.
pub fn manifest_schema() -> Value {
    schema_of::<Manifest>(
        "manifest",
        "The manifest of a kalendorius dataset: versions, year range, file checksums and counts.",
    )
}

/// The schema of `years/YYYY.json`.
pub fn year_schema() -> Value {
    schema_of::<YearFile>(
        "year",
        "One year of a kalendorius dataset: every day of the year, January 1 first.",
    )
}

/// The schema of `changes.json` and of `kalendorius-generator diff --json`.
pub fn changes_schema() -> Value {
    schema_of::<Changes>(
        "changes",
        "What a kalendorius dataset version changes against another: every date whose answer differs, grouped by kind.",
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
        assert!(manifest["required"]
            .as_array()
            .unwrap()
            .contains(&"changes".into()));
        let changes = changes_schema();
        assert_eq!(changes["additionalProperties"], false);
        for kind in [
            "status",
            "shortened",
            "working_hours",
            "holidays",
            "name_days",
            "transfers",
        ] {
            assert!(changes["properties"][kind].is_object(), "{kind}");
        }
        assert!(changes["$defs"]["HolidayChange"]["properties"]["aspects"].is_object());
    }
}
