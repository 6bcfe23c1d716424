//! The OpenAPI 3.1 document, written from the route table's [`Endpoint`]s and the constants
//! the published files, probes and metrics answer with, so it cannot drift from what answers.
//! Schemas are the answer types' `JsonSchema` (as serde writes them) with the settings of the
//! published JSON Schemas (every object closed), as they are: OpenAPI 3.1's is JSON Schema 2020-12.

use schemars::generate::{Contract, SchemaSettings};
use schemars::transform::RecursiveTransform;
use schemars::{Schema, SchemaGenerator};
use serde_json::{json, Map, Value};

use crate::api::endpoint::{Access, AnswerKind, Endpoint};
use crate::api::params::Kind;
use crate::api::PREFIX;
use crate::feeds::CONTENT_TYPE;
use crate::health::{self, ProbeOk, PROBES};
use crate::http::errors::{ErrorCode, JSON_CONTENT_TYPE};
use crate::metrics;
use crate::published;

use super::{KEY_FAILURES, ROUTES};

const DESCRIPTION: &str = "Lithuanian calendar data: working-day status, public and other \
holidays, and name days for every date from 1583 to 2100. All responses are JSON (the \
calendar feeds under `/feeds` answer `text/calendar`); answers of 1 KiB or more are gzip- or \
brotli-compressed as `Accept-Encoding` allows, with an ETag per encoding; every non-2xx \
response is `{\"error\": code, \"message\": sentence}`, except the empty-bodied 400, \
414 and 431 the HTTP layer sends itself for a request it cannot parse (a malformed request \
line or header, a target longer than 65 534 bytes, more than 100 headers). An HTTP/1.1 \
request needs exactly one `Host` header (else 400 `invalid_host`). GET and HEAD on every \
endpoint (HEAD counts like GET), OPTIONS answers CORS preflight without key or quota. \
Unknown query parameters are ignored; a parameter sent twice is `invalid_param`; an empty \
value counts as absent. Rate-limited responses carry `RateLimit-Limit`, \
`RateLimit-Remaining` and `RateLimit-Reset` (seconds) for the tightest window; a 429 adds \
`Retry-After` and uses no quota. Keyed endpoints check the key (401) before the limits \
(429) before the parameters (400), so a 400 counts against the key's quota.";

/// The settings of the published JSON Schemas, definitions in the document's components.
fn settings(contract: Contract) -> SchemaSettings {
    kalendorius_dataset::schema::settings().with(|s| {
        s.definitions_path = "/components/schemas".into();
        s.contract = contract;
        s.meta_schema = None;
    })
}

impl super::App {
    /// The OpenAPI document as JSON (the bytes `/api/v1/openapi.json` serves).
    pub fn openapi_json() -> String {
        let mut generator = settings(Contract::Serialize).into_generator();
        let mut paths = Map::new();
        for endpoint in ROUTES {
            let path_item = operation(endpoint, &mut generator);
            paths.insert(format!("{PREFIX}{}", endpoint.path), path_item);
        }
        let mut schemas = published_paths(&mut paths);
        probe_paths(&mut paths, &mut generator);
        schemas.extend(generator.take_definitions(true));
        let document = json!({
            "openapi": "3.1.0",
            "info": {
                "title": "kalendorius",
                "version": env!("CARGO_PKG_VERSION"),
                "description": DESCRIPTION,
            },
            "servers": [{ "url": "/", "description": "This server." }],
            "tags": [
                { "name": "Public", "description": "Working-day status and the calendar feeds; no key, limited per client IP." },
                { "name": "Keyed", "description": "Holidays, name days, day details and working time; API key required, limited per key." },
                { "name": "Data", "description": "The published dataset files and their JSON Schemas; no key, limited per client IP." },
                { "name": "Probes", "description": "Liveness, readiness and metrics for supervisors, load balancers and monitoring; no key, never counted." },
            ],
            "paths": paths,
            "components": {
                "schemas": schemas,
                "securitySchemes": {
                    "HeaderKey": { "type": "apiKey", "in": "header", "name": "X-API-Key", "description": "Recommended: the key in the `X-API-Key` header." },
                    "BearerKey": { "type": "http", "scheme": "bearer", "description": "Allowed: `Authorization: Bearer <key>`." },
                    "QueryKey": { "type": "apiKey", "in": "query", "name": "api_key", "description": "Testing only: the `api_key` query parameter (it ends up in proxy logs)." },
                },
            },
        });
        serde_json::to_string(&document).expect("a JSON value always serializes")
    }
}

/// The path item of a GET operation.
fn get(
    tag: &str,
    id: &str,
    summary: &str,
    description: &str,
    parameters: Value,
    responses: Value,
) -> Value {
    json!({ "get": {
        "tags": [tag],
        "summary": summary,
        "description": description,
        "operationId": id,
        "parameters": parameters,
        "responses": responses,
    }})
}

fn operation(endpoint: &Endpoint, generator: &mut SchemaGenerator) -> Value {
    let keyed = endpoint.access == Access::Keyed;
    let revalidates = endpoint.revalidates();
    let parameters: Vec<Value> = endpoint
        .params
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "in": "query",
                "required": p.required,
                "description": p.description,
                "schema": param_schema(&p.kind),
            })
        })
        .collect();
    let ok_content = match &endpoint.answer {
        AnswerKind::Json(schema) => json!({
            JSON_CONTENT_TYPE: { "schema": schema(generator) }
        }),
        AnswerKind::Calendar => json!({
            CONTENT_TYPE: { "schema": { "type": "string", "description": "An iCalendar (RFC 5545) calendar." } }
        }),
    };
    let mut ok_headers = common_headers(keyed);
    if revalidates {
        ok_headers["ETag"] = header("string", "Strong validator of the answer.");
        ok_headers["Cache-Control"] = header("string", "How long the answer may be kept.");
    } else {
        ok_headers["Cache-Control"] = header("string", "`private`.");
    }
    let ok_description = match endpoint.access {
        Access::Public(_) => "Success. Cacheable: `Cache-Control: public, max-age=3600` and a strong ETag (`max-age=60` when a date parameter was `today`).",
        Access::Keyed if revalidates => "Success (`Cache-Control: private`). When a date parameter was `today`: `Cache-Control: private, max-age=60` and an `ETag` of the resolved date and the request's parameters.",
        Access::Keyed => "Success (`Cache-Control: private`).",
    };
    let mut responses = json!({
        "200": { "description": ok_description, "headers": ok_headers, "content": ok_content },
        "400": error_response(
            "A parameter is missing, repeated or malformed (see the codes), or the `Host` header is missing or repeated.",
            &[endpoint.bad_request, &[ErrorCode::InvalidHost]].concat(),
        ),
        "429": too_many_requests(keyed),
    });
    if revalidates {
        let description = if keyed {
            "Only when a date parameter was `today`: `If-None-Match` matched the ETag of the resolved date and the same parameters."
        } else {
            "`If-None-Match` matched the current ETag."
        };
        responses["304"] = json!({ "description": description, "headers": ok_headers });
    }
    if keyed {
        responses["401"] = error_response(
            "No key, an unknown or revoked key, or an expired one.",
            &KEY_FAILURES.map(|(code, _)| code),
        );
        responses["503"] = error_response(
            "The key cannot be checked now: the shared state store (Redis, when several server processes share keys and limits) cannot be reached. Uses no quota; retry shortly.",
            &[ErrorCode::StateUnavailable],
        );
    }
    let (tag, description) = match endpoint.access {
        Access::Keyed => ("Keyed", endpoint.description.to_string()),
        // The limits as the counter declares them (`crate::limits`), not restated per endpoint.
        Access::Public(counter) => (
            "Public",
            format!("{} {}", endpoint.description, counter.limits_sentence()),
        ),
    };
    let mut item = get(
        tag,
        endpoint.operation_id,
        endpoint.summary,
        &description,
        parameters.into(),
        responses,
    );
    if keyed {
        item["get"]["security"] =
            json!([{ "HeaderKey": [] }, { "BearerKey": [] }, { "QueryKey": [] }]);
    }
    item
}

fn too_many_requests(keyed: bool) -> Value {
    let (whose, longest) = if keyed {
        ("A window of the key", ErrorCode::RateLimitDay)
    } else {
        ("A per-IP window", ErrorCode::RateLimitMonth)
    };
    let description = format!("{whose} is exhausted. Uses no quota.");
    let mut response = error_response(&description, &[ErrorCode::RateLimitMinute, longest]);
    response["headers"]["Retry-After"] = header("integer", "Seconds to wait.");
    response
}

fn invalid_host() -> Value {
    error_response(
        "The `Host` header is missing or repeated.",
        &[ErrorCode::InvalidHost],
    )
}

/// A weekly schedule as `query::schedule` reads it: 5 or 6 `H:MM`.
const SCHEDULE_PATTERN: &str = r"^\d{1,2}:[0-5]\d(,\d{1,2}:[0-5]\d){4,5}$";

fn param_schema(kind: &Kind) -> Value {
    use kalendorius_dataset::{FIRST_YEAR, LAST_YEAR};
    match kind {
        Kind::Date => json!({
            "type": "string",
            "description": format!(
                "A real date `YYYY-MM-DD` from {} to {}, or `today` (the date in Europe/Vilnius).",
                kalendorius_dataset::Date::first(),
                kalendorius_dataset::Date::last()
            ),
            "pattern": r"^(\d{4}-\d{2}-\d{2}|today)$",
        }),
        Kind::LocalTime => json!({
            "type": "string",
            "description": "A time in Lithuania to the minute: `YYYY-MM-DDTHH:MM` local \
                            (Europe/Vilnius), or with its offset (`+02:00`, `+03:00`, `Z`); \
                            seconds, if given, are `:00`.",
            "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:00)?(Z|[+-]\d{2}:\d{2})?$",
        }),
        Kind::Year => json!({ "type": "integer", "minimum": FIRST_YEAR, "maximum": LAST_YEAR }),
        // A pattern, not an enum: the value is case-insensitive and may be empty.
        Kind::Lang => json!({
            "type": "string",
            "pattern": "^([lL][tT]|[eE][nN]|[pP][lL]|[rR][uU])?$",
            "default": "lt",
        }),
        // A range, not an enum, so that generated clients take a plain number.
        Kind::Week => json!({ "type": "integer", "minimum": 5, "maximum": 6, "default": 5 }),
        Kind::Integer { range, .. } => {
            json!({ "type": "integer", "minimum": range.start(), "maximum": range.end() })
        }
        Kind::Text { max_chars } => {
            json!({ "type": "string", "minLength": 1, "maxLength": max_chars })
        }
        Kind::Place => json!({
            "type": "string",
            "pattern": "^[a-z]+(-[a-z]+)*$",
            "default": kalendorius_dataset::places::DEFAULT_PLACE,
        }),
        Kind::Choice {
            values,
            default: Some(default),
        } => json!({ "type": "string", "enum": values, "default": values[*default] }),
        Kind::Choice {
            values,
            default: None,
        } => json!({ "type": "string", "enum": values }),
        // A number, so that generated clients take one; the parser holds it to 2 decimals.
        Kind::HoursPerWeek => json!({ "type": "number", "exclusiveMinimum": 0, "maximum": 40 }),
        Kind::Schedule => json!({ "type": "string", "pattern": SCHEDULE_PATTERN }),
    }
}

/// The headers every answer of the API carries.
fn common_headers(keyed: bool) -> Value {
    let whose = if keyed { "of the key" } else { "(per IP)" };
    json!({
        "X-Dataset-Version": header("string", "Version of the dataset that answered."),
        "RateLimit-Limit": header("integer", &format!("Limit of the tightest window {whose}.")),
        "RateLimit-Remaining": header("integer", "Requests left in that window."),
        "RateLimit-Reset": header("integer", "Seconds until that window frees capacity."),
    })
}

fn header(ty: &str, description: &str) -> Value {
    json!({ "description": description, "schema": { "type": ty } })
}

/// An error response carrying one of `codes`; its example (shown by Swagger UI), the first.
fn error_response(description: &str, codes: &[ErrorCode]) -> Value {
    json!({
        "description": description,
        "headers": { "X-Dataset-Version": header("string", "Version of the dataset that answered.") },
        "content": { JSON_CONTENT_TYPE: { "schema": {
            "type": "object",
            "required": ["error", "message"],
            "additionalProperties": false,
            "example": { "error": codes[0], "message": "one English sentence naming the parameter, if any, and the accepted form" },
            "properties": {
                "error": { "type": "string", "enum": codes, "description": "Machine-readable code." },
                "message": { "type": "string", "description": "One English sentence naming the parameter (if any) and the accepted form." },
            },
        }}},
    })
}

/// The published files (`crate::published`), public and counted per IP; gives their schemas,
/// the dataset types' own, named `Dataset*` (the answer types have names of their own).
fn published_paths(paths: &mut Map<String, Value>) -> Map<String, Value> {
    use kalendorius_dataset::layout::{
        CHANGES_FILE, MANIFEST_FILE, PLACES_FILE, SCHOOL_HOLIDAYS_FILE, YEARS_DIR,
    };
    use kalendorius_dataset::{
        Changes, Manifest, PlacesFile, PublishedYearFile, SchoolHolidaysFile,
    };
    use published::{CACHE_CONTROL, PREFIX, SCHEMA_CONTENT_TYPE, SCHEMA_DIR, SCHEMA_FILES};

    let mut generator = settings(Contract::Deserialize)
        .with_transform(RecursiveTransform(prefix_ref))
        .into_generator();
    let files = [
        generator.subschema_for::<Manifest>(),
        generator.subschema_for::<PublishedYearFile>(),
        generator.subschema_for::<SchoolHolidaysFile>(),
        generator.subschema_for::<PlacesFile>(),
        generator.subschema_for::<Changes>(),
    ];
    let definitions = generator.take_definitions(true).into_iter();
    let schemas = definitions
        .map(|(name, schema)| (format!("Dataset{name}"), schema))
        .collect();
    let [manifest, year, school_holidays, places, changes] = files.map(|mut file| {
        prefix_ref(&mut file);
        file.to_value()
    });

    let mut ok_headers = common_headers(false);
    ok_headers["ETag"] = header("string", "Strong validator: the file's SHA-256 in quotes.");
    ok_headers["Cache-Control"] = header("string", &format!("`{CACHE_CONTROL}`."));
    // `by_name`: the path parameter (name, description, schema) and the 404 of a value not served.
    let mut file = |path: String,
                    id: &str,
                    summary: &str,
                    description: &str,
                    content_type: &str,
                    schema: Value,
                    by_name: Option<(&str, &str, Value, &str)>| {
        let mut responses = json!({
            "200": {
                "description": format!("The file (`Cache-Control: {CACHE_CONTROL}`)."),
                "headers": ok_headers,
                "content": { content_type: { "schema": schema } },
            },
            "304": {
                "description": "`If-None-Match` matched the current ETag.",
                "headers": ok_headers,
            },
            "400": invalid_host(),
            "429": too_many_requests(false),
        });
        let mut parameters = json!([]);
        if let Some((name, about, schema, not_found)) = by_name {
            parameters = json!([{ "name": name, "in": "path", "required": true, "description": about, "schema": schema }]);
            responses["404"] = error_response(not_found, &[ErrorCode::NotFound]);
        }
        let item = get("Data", id, summary, description, parameters, responses);
        paths.insert(path, item);
    };
    file(
        format!("{PREFIX}/{MANIFEST_FILE}"),
        "data_manifest",
        "The manifest of the dataset in service",
        "The dataset's `manifest.json` byte for byte: versions, year range, and the size and \
         SHA-256 of every year file, so a download can be checked against it.",
        JSON_CONTENT_TYPE,
        manifest,
        None,
    );
    file(
        format!("{PREFIX}/{YEARS_DIR}/{{year}}.json"),
        "data_year",
        "One year file of the dataset in service",
        "The dataset's year file byte for byte (every day of the year), checked against the \
         manifest's SHA-256, which is also its ETag.",
        JSON_CONTENT_TYPE,
        year,
        Some((
            "year",
            "The year, four digits.",
            param_schema(&Kind::Year),
            "The year is not in the dataset in service (its range is in the manifest), or its \
             file is missing on this server.",
        )),
    );
    file(
        format!("{PREFIX}/{SCHOOL_HOLIDAYS_FILE}"),
        "data_school_holidays",
        "The pupils' holidays of the dataset in service",
        "The dataset's `school_holidays.json` byte for byte (the school years and their \
         holiday periods), checked against the manifest's SHA-256, which is also its ETag.",
        JSON_CONTENT_TYPE,
        school_holidays,
        None,
    );
    file(
        format!("{PREFIX}/{PLACES_FILE}"),
        "data_places",
        "The places whose sun is computed",
        "The dataset's `places.json` byte for byte (the centres of the 60 municipalities: \
         slug, names, coordinates, source), checked against the manifest's SHA-256, which is \
         also its ETag.",
        JSON_CONTENT_TYPE,
        places,
        None,
    );
    file(
        format!("{PREFIX}/{CHANGES_FILE}"),
        "data_changes",
        "What the dataset in service changes",
        "The dataset's `changes.json` byte for byte: every date whose answer differs from the \
         dataset version it replaced, grouped by kind (status, shortened, working hours, \
         holidays, name days, transfers), checked against the manifest's SHA-256, which is \
         also its ETag.",
        JSON_CONTENT_TYPE,
        changes,
        None,
    );
    file(
        format!("{PREFIX}/{SCHEMA_DIR}/{{name}}"),
        "data_schema",
        "A JSON Schema of the published files",
        "The JSON Schema (draft 2020-12) of the manifest, a year file, the school holidays, \
         the places or the changes.",
        SCHEMA_CONTENT_TYPE,
        json!({ "type": "object", "description": "A JSON Schema, draft 2020-12." }),
        Some((
            "name",
            "The schema's file name.",
            json!({ "type": "string", "enum": SCHEMA_FILES }),
            "No schema of that name.",
        )),
    );
    schemas
}

/// A `$ref` to `#/components/schemas/X` made one to `DatasetX`.
fn prefix_ref(schema: &mut Schema) {
    const AT: &str = "#/components/schemas/";
    if let Some(Value::String(target)) = schema.get_mut("$ref") {
        if let Some(name) = target.strip_prefix(AT) {
            *target = format!("{AT}Dataset{name}");
        }
    }
}

/// The probes (`crate::health`) and `/metrics`: no key, never counted, `no-store`.
fn probe_paths(paths: &mut Map<String, Value>, generator: &mut SchemaGenerator) {
    let path_item = |id, summary, description, mut ok: Value| {
        ok["headers"] = json!({
            "X-Dataset-Version": header("string", "Version of the dataset in service."),
            "Cache-Control": header("string", &format!("`{}`.", health::CACHE_CONTROL)),
        });
        let responses = json!({ "200": ok, "400": invalid_host() });
        get("Probes", id, summary, description, json!([]), responses)
    };
    let schema = generator.subschema_for::<ProbeOk>().to_value();
    for probe in &PROBES {
        let ok = json!({ "description": "Fine.", "content": { JSON_CONTENT_TYPE: { "schema": schema } } });
        let mut item = path_item(probe.operation_id, probe.summary, probe.description, ok);
        if probe.may_be_unready {
            item["get"]["responses"]["503"] = error_response(
                "Not ready: the state database cannot be used (the log says why).",
                &[ErrorCode::NotReady],
            );
        }
        paths.insert(probe.path.into(), item);
    }
    let ok = json!({
        "description": "Every metric in the Prometheus text format 0.0.4 (docs/operations.md#metrics).",
        "content": { metrics::CONTENT_TYPE: { "schema": { "type": "string" } } },
    });
    let description = "The service's metrics for Prometheus: requests by route and status \
                       class, latencies, rate-limit refusals, key failures, connections, \
                       caches, the dataset and the state store (docs/operations.md#metrics). Answered \
                       only to the client addresses of the `metrics_allow` setting (by default \
                       this machine's loopback addresses); to any other it is an unknown \
                       path, a 404 `not_found`. Never counted or rate-limited, no key, \
                       `Cache-Control: no-store`.";
    let item = path_item("metrics", "Metrics", description, ok);
    paths.insert(metrics::PATH.into(), item);
}
