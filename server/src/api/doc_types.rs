//! Schema-only types for the OpenAPI document.
//!
//! The request rules are ours (`crate::api::params`) and the public bodies are precomputed bytes
//! (`crate::catalog`), so these types exist to *describe* the wire format precisely: a date is
//! `string/date`, `reason` is a nullable enum that is always present, a query parameter's
//! extractor never rejects anything (it only puts the parameter into the document), a date
//! parameter states its form and range, and an error response lists only its own codes. The
//! integration test `openapi` checks every real response against these schemas.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::OnceLock;

use kalendorius_dataset::{Date, FIRST_YEAR, LAST_YEAR};
use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{
    ParseError, ParseFromJSON, ParseFromParameter, ParseResult, ToJSON, Type,
};
use serde_json::Value;

use crate::http::errors::{ApiError, ErrorCode};

/// The `Type` methods of a type that is its own raw value (`RawValueType = Self`).
macro_rules! own_raw_value {
    () => {
        fn as_raw_value(&self) -> Option<&Self::RawValueType> {
            Some(self)
        }

        fn raw_element_iter<'a>(
            &'a self,
        ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
            Box::new(self.as_raw_value().into_iter())
        }
    };
}

/// The schema of one documented string-like value.
pub trait StringDoc: Send + Sync + 'static {
    /// Type name in the document.
    const NAME: &'static str;
    /// Whether a query parameter of this type is required.
    const REQUIRED: bool = true;
    /// The inline schema.
    fn schema() -> MetaSchema;
}

/// A string value described by `D`. Parsing never fails: the value is only carried.
pub struct DocString<D>(pub String, PhantomData<D>);

impl<D: StringDoc> Type for DocString<D> {
    const IS_REQUIRED: bool = D::REQUIRED;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        D::NAME.into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(D::schema()))
    }

    own_raw_value!();
}

impl<D: StringDoc> ToJSON for DocString<D> {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.0.clone()))
    }
}

impl<D: StringDoc> ParseFromJSON for DocString<D> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            Some(Value::String(s)) => Ok(DocString(s, PhantomData)),
            other => Err(ParseError::expected_type(other.unwrap_or_default())),
        }
    }
}

impl<D> DocString<D> {
    /// A value described by `D` (for examples in the document).
    pub fn new(value: impl Into<String>) -> Self {
        DocString(value.into(), PhantomData)
    }
}

impl<D: StringDoc> ParseFromParameter for DocString<D> {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        Ok(DocString(value.to_string(), PhantomData))
    }

    /// Absent is not an error here: `crate::api::params` decides, with the API's error code.
    fn parse_from_parameters<I: IntoIterator<Item = A>, A: AsRef<str>>(
        iter: I,
    ) -> ParseResult<Self> {
        let first = iter.into_iter().next();
        Ok(DocString(
            first.map(|v| v.as_ref().to_string()).unwrap_or_default(),
            PhantomData,
        ))
    }
}

/// A value that is always present and may be `null` (OpenAPI 3.0 `nullable`, required).
pub struct Nullable<T>(pub Option<T>);

impl<T: Type> Type for Nullable<T> {
    const IS_REQUIRED: bool = true;
    type RawValueType = T::RawValueType;
    type RawElementValueType = T::RawElementValueType;

    fn name() -> Cow<'static, str> {
        format!("Nullable<{}>", T::name()).into()
    }

    fn schema_ref() -> MetaSchemaRef {
        match T::schema_ref() {
            MetaSchemaRef::Inline(schema) => MetaSchemaRef::Inline(Box::new(MetaSchema {
                nullable: true,
                ..*schema
            })),
            reference => reference,
        }
    }

    fn as_raw_value(&self) -> Option<&Self::RawValueType> {
        self.0.as_ref().and_then(|v| v.as_raw_value())
    }

    fn raw_element_iter<'a>(
        &'a self,
    ) -> Box<dyn Iterator<Item = &'a Self::RawElementValueType> + 'a> {
        match &self.0 {
            Some(v) => v.raw_element_iter(),
            None => Box::new(std::iter::empty()),
        }
    }
}

impl<T: ToJSON> ToJSON for Nullable<T> {
    fn to_json(&self) -> Option<Value> {
        Some(
            self.0
                .as_ref()
                .and_then(ToJSON::to_json)
                .unwrap_or(Value::Null),
        )
    }
}

impl<T: ParseFromJSON> ParseFromJSON for Nullable<T> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value {
            None | Some(Value::Null) => Ok(Nullable(None)),
            v => T::parse_from_json(v)
                .map(|t| Nullable(Some(t)))
                .map_err(ParseError::propagate),
        }
    }
}

fn string_enum(values: &[&str]) -> MetaSchema {
    MetaSchema {
        enum_items: values.iter().map(|v| Value::String((*v).into())).collect(),
        ..MetaSchema::new("string")
    }
}

/// `YYYY-MM-DD`.
pub struct IsoDate;
impl StringDoc for IsoDate {
    const NAME: &'static str = "date";
    fn schema() -> MetaSchema {
        MetaSchema {
            description: Some("A date in YYYY-MM-DD form."),
            ..MetaSchema::new_with_format("string", "date")
        }
    }
}

/// Why a day is non-working.
pub struct ReasonCode;
impl StringDoc for ReasonCode {
    const NAME: &'static str = "reason";
    fn schema() -> MetaSchema {
        string_enum(&["saturday", "sunday", "public_holiday"])
    }
}

/// Holiday category.
pub struct HolidayKind;
impl StringDoc for HolidayKind {
    const NAME: &'static str = "holiday_type";
    fn schema() -> MetaSchema {
        string_enum(&["public", "traditional", "religious", "school", "other"])
    }
}

/// Name-day gender.
pub struct GenderCode;
impl StringDoc for GenderCode {
    const NAME: &'static str = "gender";
    fn schema() -> MetaSchema {
        string_enum(&["m", "f"])
    }
}

/// A language as echoed in responses (always lower-case).
pub struct LangCode;
impl StringDoc for LangCode {
    const NAME: &'static str = "lang";
    fn schema() -> MetaSchema {
        string_enum(&["lt", "en", "pl", "ru"])
    }
}

/// The `lang` query parameter: optional, case-insensitive, default `lt`.
pub struct LangParam;
impl StringDoc for LangParam {
    const NAME: &'static str = "lang_param";
    const REQUIRED: bool = false;
    fn schema() -> MetaSchema {
        MetaSchema {
            description: Some("Case-insensitive; an empty value counts as absent (so `lt`)."),
            default: Some(Value::String("lt".into())),
            // Case-insensitive (`EN` is `en`, echoed lower-case), and empty allowed.
            pattern: Some("^([lL][tT]|[eE][nN]|[pP][lL]|[rR][uU])?$".into()),
            ..MetaSchema::new("string")
        }
    }
}

/// The form of a date parameter. A string schema has no `minimum` or `maximum`, so the range
/// is stated in words (see [`date_param_schema`]).
const DATE_PATTERN: &str = r"^\d{4}-\d{2}-\d{2}$";

/// The schema of a date query parameter: its form, and the range of dates served.
fn date_param_schema() -> MetaSchema {
    static DESCRIPTION: OnceLock<String> = OnceLock::new();
    let description = DESCRIPTION.get_or_init(|| {
        format!(
            "A real calendar date, YYYY-MM-DD, from {} to {} (if the dataset served covers \
             fewer years, `invalid_date` names its range).",
            Date::first(),
            Date::last()
        )
    });
    MetaSchema {
        description: Some(description),
        pattern: Some(DATE_PATTERN.into()),
        ..MetaSchema::new_with_format("string", "date")
    }
}

/// A required date query parameter.
pub struct DateParam;
impl StringDoc for DateParam {
    const NAME: &'static str = "date_param";
    fn schema() -> MetaSchema {
        date_param_schema()
    }
}

/// An optional date query parameter (`/holidays`: one of date or year).
pub struct OptionalDateParam;
impl StringDoc for OptionalDateParam {
    const NAME: &'static str = "optional_date_param";
    const REQUIRED: bool = false;
    fn schema() -> MetaSchema {
        date_param_schema()
    }
}

/// The `year` query parameter of `/holidays`.
pub struct YearParam;
impl StringDoc for YearParam {
    const NAME: &'static str = "year_param";
    const REQUIRED: bool = false;
    fn schema() -> MetaSchema {
        MetaSchema {
            description: Some("In plain digits: no sign, no leading zero."),
            minimum: Some(f64::from(FIRST_YEAR)),
            maximum: Some(f64::from(LAST_YEAR)),
            ..MetaSchema::new_with_format("integer", "int32")
        }
    }
}

/// The error codes one error response can carry.
pub trait ErrorCodes: Send + Sync + 'static {
    /// Schema name in the document.
    const NAME: &'static str;
    /// What the response means.
    const DESCRIPTION: &'static str;
    /// Every code the response can carry.
    const CODES: &'static [ErrorCode];
    /// A real refusal with one of [`ErrorCodes::CODES`], the schema's example.
    fn example() -> ApiError;
}

/// The body of one error response: the one error shape, its `error` narrowed to the codes
/// that response can carry, and an example with one of them (a generated example would show
/// the first code of all, whatever the status).
pub struct ErrorDoc<C>(PhantomData<C>);

impl<C: ErrorCodes> Type for ErrorDoc<C> {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        C::NAME.into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Reference(C::NAME.to_string())
    }

    fn register(registry: &mut Registry) {
        registry.create_schema::<Self, _>(C::NAME.to_string(), |_| {
            let code = |c: &ErrorCode| serde_json::to_value(c).expect("a code serializes");
            let example = C::example();
            debug_assert!(C::CODES.contains(&example.code), "{}", C::NAME);
            let error = MetaSchema {
                description: Some("Machine-readable code."),
                enum_items: C::CODES.iter().map(code).collect(),
                ..MetaSchema::new("string")
            };
            let message = MetaSchema {
                description: Some(
                    "One English sentence naming the parameter (if any) and the accepted form.",
                ),
                ..MetaSchema::new("string")
            };
            MetaSchema {
                description: Some(C::DESCRIPTION),
                required: vec!["error", "message"],
                properties: vec![
                    ("error", MetaSchemaRef::Inline(Box::new(error))),
                    ("message", MetaSchemaRef::Inline(Box::new(message))),
                ],
                example: Some(serde_json::json!({
                    "error": code(&example.code),
                    "message": example.message,
                })),
                ..MetaSchema::new("object")
            }
        });
    }

    own_raw_value!();
}
