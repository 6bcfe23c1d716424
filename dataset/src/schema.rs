//! The JSON Schemas (draft 2020-12) of the published files: `manifest.json`,
//! `years/YYYY.json`, `school_holidays.json` and `changes.json` (also the output of
//! `kalendorius-generator diff --json`).
//!
//! Generated from the Rust types the generator writes and the server reads ([`Manifest`],
//! [`YearFile`], [`Changes`]) with `schemars`, so the schemas cannot drift from the files: a field added
//! to a type is in its schema. Their `title` names [`crate::SCHEMA_VERSION`]; the server
//! publishes them under `/data/schema/`, and a test validates every file of a full build
//! against them.
//!
//! They hold to what strict validators (ajv in its default strict mode, the `jsonschema`
//! crate) accept and check: only standard `format`s (schemars writes `uint8`, `int32` and
//! the like for Rust integers; [`StandardFormats`] turns them into `minimum`/`maximum`),
//! every object closed (`additionalProperties: false`, [`CloseObjects`]: the files carry
//! no field their types do not declare), and a checksum is 64 lower-case hex digits
//! ([`SHA256_PATTERN`], on the fields themselves).

use schemars::transform::{transform_subschemas, Transform};
use serde_json::Value;

use crate::{Changes, Manifest, PlacesFile, PublishedYearFile, SchoolHolidaysFile, SCHEMA_VERSION};

/// The pattern of a SHA-256 in the files: 64 lower-case hex digits
/// ([`crate::digest::sha256_hex`]).
pub const SHA256_PATTERN: &str = "^[0-9a-f]{64}$";

/// `Ok` when a published file's `schema_version` is this crate's [`SCHEMA_VERSION`].
pub fn check_version(found: u32) -> Result<(), String> {
    if found == SCHEMA_VERSION {
        Ok(())
    } else {
        Err(format!("schema version {found}, expected {SCHEMA_VERSION}"))
    }
}

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

/// The schema of `places.json`.
pub fn places_schema() -> Value {
    schema_of::<PlacesFile>(
        "places",
        "The places of a kalendorius dataset whose sun is computed: the centres of \
         Lithuania's municipalities, with their names and coordinates.",
    )
}

/// The schema of `changes.json` and of `kalendorius-generator diff --json`.
pub fn changes_schema() -> Value {
    schema_of::<Changes>(
        "changes",
        "What a kalendorius dataset version changes against another: every date whose answer differs, grouped by kind.",
    )
}

/// The settings the schemas are generated with: draft 2020-12, standard formats only,
/// closed objects. The server's OpenAPI document uses them too.
pub fn settings() -> schemars::generate::SchemaSettings {
    schemars::generate::SchemaSettings::draft2020_12()
        .with_transform(StandardFormats)
        .with_transform(CloseObjects)
        .with_transform(PlainEnums)
}

fn schema_of<T: schemars::JsonSchema>(name: &str, description: &str) -> Value {
    let generator = settings().into_generator();
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

/// Replaces the non-standard `format`s schemars writes for Rust number types: an integer's
/// (`uint8`, `int32`, `uint64`, ...) by the type's range as `minimum` and `maximum`
/// (keeping a narrower bound already there); a float's (`double`, `float`) is dropped.
#[derive(Debug, Clone, Copy)]
pub struct StandardFormats;

impl Transform for StandardFormats {
    fn transform(&mut self, schema: &mut schemars::Schema) {
        let range = schema
            .get("format")
            .and_then(Value::as_str)
            .and_then(integer_range);
        if matches!(
            schema.get("format").and_then(Value::as_str),
            Some("double" | "float")
        ) {
            schema.remove("format");
        }
        if let Some((min, max)) = range {
            schema.remove("format");
            let own =
                |schema: &schemars::Schema, key: &str| schema.get(key).and_then(Value::as_f64);
            if own(schema, "minimum").is_none_or(|m| m < min.as_f64().unwrap_or(f64::MIN)) {
                schema.insert("minimum".into(), min);
            }
            if own(schema, "maximum").is_none_or(|m| m > max.as_f64().unwrap_or(f64::MAX)) {
                schema.insert("maximum".into(), max);
            }
        }
        transform_subschemas(self, schema);
    }
}

/// The range of a schemars integer format, `None` for any other format.
fn integer_range(format: &str) -> Option<(Value, Value)> {
    let signed = |min: i64, max: i64| Some((Value::from(min), Value::from(max)));
    let unsigned = |max: u64| Some((Value::from(0), Value::from(max)));
    match format {
        "int8" => signed(i8::MIN.into(), i8::MAX.into()),
        "int16" => signed(i16::MIN.into(), i16::MAX.into()),
        "int32" => signed(i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => signed(i64::MIN, i64::MAX),
        "uint8" => unsigned(u8::MAX.into()),
        "uint16" => unsigned(u16::MAX.into()),
        "uint32" => unsigned(u32::MAX.into()),
        "uint64" | "uint" => unsigned(u64::MAX),
        _ => None,
    }
}

/// Writes a choice of strings as an `enum` of them: schemars writes an enum whose variants
/// have documentation as a `oneOf` of `const` schemas, which generated clients handle badly
/// (openapi-python-client's parser stops at the first `const` that does not match). The
/// variants' documentation moves into the description, one line each.
#[derive(Debug, Clone, Copy)]
pub struct PlainEnums;

impl Transform for PlainEnums {
    fn transform(&mut self, schema: &mut schemars::Schema) {
        let choices: Option<Vec<(String, Option<String>)>> = schema
            .get("oneOf")
            .and_then(Value::as_array)
            .and_then(|variants| {
                variants
                    .iter()
                    .map(|v| {
                        let object = v.as_object()?;
                        let value = object.get("const")?.as_str()?.to_string();
                        let plain = object
                            .keys()
                            .all(|k| matches!(k.as_str(), "const" | "description" | "type"));
                        plain.then(|| {
                            let text = object.get("description").and_then(Value::as_str);
                            (value, text.map(str::to_string))
                        })
                    })
                    .collect()
            });
        if let Some(choices) = choices.filter(|c| !c.is_empty()) {
            schema.remove("oneOf");
            let mut description = schema
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            for (value, text) in &choices {
                if let Some(text) = text {
                    description.push_str(&format!("\n- `{value}`: {text}"));
                }
            }
            if !description.is_empty() {
                schema.insert("description".into(), description.trim_start().into());
            }
            schema.insert("type".into(), "string".into());
            let values: Vec<Value> = choices.into_iter().map(|(v, _)| v.into()).collect();
            schema.insert("enum".into(), values.into());
        }
        transform_subschemas(self, schema);
    }
}

/// Closes every object schema that lists its properties: no undeclared field.
#[derive(Debug, Clone, Copy)]
pub struct CloseObjects;

impl Transform for CloseObjects {
    fn transform(&mut self, schema: &mut schemars::Schema) {
        if schema.get("properties").is_some() && schema.get("additionalProperties").is_none() {
            schema.insert("additionalProperties".into(), Value::Bool(false));
        }
        transform_subschemas(self, schema);
    }
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

    /// Every subschema of `schema` with where it is.
    fn walk<'a>(schema: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
        match schema {
            Value::Object(map) => {
                out.push((at.clone(), schema));
                for (k, v) in map {
                    walk(v, format!("{at}/{k}"), out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn schemas_use_standard_formats_closed_objects_and_checksum_patterns() {
        for (name, schema) in [
            ("manifest", manifest_schema()),
            ("year", year_schema()),
            ("changes", changes_schema()),
        ] {
            let mut all = Vec::new();
            walk(&schema, String::new(), &mut all);
            for (at, sub) in &all {
                if let Some(format) = sub.get("format").and_then(Value::as_str) {
                    assert!(
                        ["date", "date-time", "uri", "email"].contains(&format),
                        "{name}{at}: format {format}"
                    );
                }
                if sub.get("properties").is_some() {
                    assert_eq!(sub["additionalProperties"], false, "{name}{at}");
                }
                if sub.get("type") == Some(&Value::from("integer")) {
                    assert!(sub["minimum"].is_number(), "{name}{at}: no minimum");
                    assert!(sub["maximum"].is_number(), "{name}{at}: no maximum");
                }
            }
        }
        let manifest = manifest_schema();
        let defs = &manifest["$defs"];
        for (def, field) in [
            ("FileEntry", "sha256"),
            ("StoredValue", "sha256"),
            ("DatabaseValue", "sha256"),
            ("DatabaseEntry", "content_sha256"),
        ] {
            assert_eq!(
                defs[def]["properties"][field]["pattern"], SHA256_PATTERN,
                "{def}.{field}"
            );
        }
        assert_eq!(defs["FileEntry"]["properties"]["bytes"]["minimum"], 0);
        // Choices of strings are plain enums.
        let reason = &year_schema()["$defs"]["Reason"];
        assert_eq!(
            reason["enum"],
            serde_json::json!(["saturday", "sunday", "public_holiday"])
        );
        assert!(reason.get("oneOf").is_none());
        assert_eq!(
            year_schema()["$defs"]["Day"]["properties"]["iso_week"]["maximum"],
            53
        );
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
