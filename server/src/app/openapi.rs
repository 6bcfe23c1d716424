//! The OpenAPI 3.1 document, written from the route table's [`Endpoint`]s: their paths,
//! words, parameters, access and answer types. Nothing here describes an endpoint by hand,
//! so the document cannot drift from what answers.
//!
//! Answer schemas come from the answer types' `JsonSchema` (schemars, which reads the same
//! serde attributes the JSON is written with); OpenAPI 3.1 schemas are JSON Schema 2020-12,
//! so they go into `components/schemas` as they are, generated with the settings of the
//! published JSON Schemas (`kalendorius_dataset::schema::settings`: standard formats only,
//! every object closed, as the service never sends an undeclared field).
//!
//! The caller adds what lies outside the route table ([`MorePaths`]: the app adds the
//! published files and the probes), built with the helpers here.
//!
//! Beyond the route table, the document describes the published files under `/data`
//! (`crate::published`; their schemas are the dataset types' own, under `Dataset*` names),
//! the probes (`crate::health::PROBES`) and the metrics (`crate::metrics`), from the
//! constants they answer with.

use schemars::generate::Contract;
use serde_json::{json, Map, Value};

use crate::api::endpoint::{Access, AnswerKind, Endpoint, Kind};
use crate::api::PREFIX;
use crate::feeds::CONTENT_TYPE;
use crate::health::{self, ProbeOk, PROBES};
use crate::http::errors::{ErrorCode, JSON_CONTENT_TYPE};
use crate::metrics;
use crate::published;

/// The document's opening words.
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

/// The message of the error examples.
const EXAMPLE_MESSAGE: &str =
    "one English sentence naming the parameter, if any, and the accepted form";

/// The three ways to send a key, as alternatives.
const SECURITY_SCHEMES: [&str; 3] = ["HeaderKey", "BearerKey", "QueryKey"];

/// What the document says beyond the route table (the caller's: the paths outside `/api`).
#[derive(Default)]
pub struct MorePaths {
    /// Tags of their operations: `{name, description}`.
    pub tags: Vec<Value>,
    /// Path items by path.
    pub paths: Map<String, Value>,
    /// Schemas they refer to (`#/components/schemas/NAME`).
    pub schemas: Map<String, Value>,
}

/// The generator of answer schemas: the settings of the published JSON Schemas, definitions
/// in the document's components, the serialized form.
pub fn generator() -> schemars::SchemaGenerator {
    kalendorius_dataset::schema::settings()
        .with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.contract = Contract::Serialize;
            s.meta_schema = None;
        })
        .into_generator()
}

/// The document of `endpoints` and `more`, as JSON text.
pub fn document(endpoints: &[&Endpoint], more: MorePaths) -> String {
    let mut generator = generator();
    let mut paths = Map::new();
    for endpoint in endpoints {
        let operation = operation(endpoint, &mut generator);
        paths.insert(
            format!("{PREFIX}{}", endpoint.path),
            json!({ "get": operation }),
        );
    }
    paths.extend(more.paths);
    let mut schemas = generator.take_definitions(true);
    schemas.extend(more.schemas);
    let mut tags = vec![
        json!({ "name": "Public", "description": "Working-day status and the calendar feeds; no key, limited per client IP." }),
        json!({ "name": "Keyed", "description": "Holidays, name days, day details and working time; API key required, limited per key." }),
    ];
    tags.extend(more.tags);
    let document = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "kalendorius",
            "version": env!("CARGO_PKG_VERSION"),
            "description": DESCRIPTION,
        },
        "servers": [{ "url": "/", "description": "This server." }],
        "tags": tags,
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

/// One operation.
fn operation(endpoint: &Endpoint, generator: &mut schemars::SchemaGenerator) -> Value {
    let keyed = endpoint.access == Access::Keyed;
    let parameters: Vec<Value> = endpoint
        .params
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "in": "query",
                "required": p.required,
                "description": p.description,
                "schema": param_schema(p.kind),
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
    let mut headers = common_headers(keyed);
    let mut cache_headers = headers.clone();
    cache_headers.insert(
        "ETag".into(),
        header("string", "Strong validator of the answer."),
    );
    cache_headers.insert(
        "Cache-Control".into(),
        header("string", "How long the answer may be kept."),
    );
    let ok_headers = if keyed && !endpoint.revalidates() {
        headers.insert("Cache-Control".into(), header("string", "`private`."));
        headers.clone()
    } else {
        cache_headers.clone()
    };
    let mut responses = Map::new();
    let ok_description = match endpoint.access {
        Access::Public(_) => "Success. Cacheable: `Cache-Control: public, max-age=3600` and a strong ETag (`max-age=60` when a date parameter was `today`).",
        Access::Keyed if endpoint.revalidates() => "Success (`Cache-Control: private`). When a date parameter was `today`: `Cache-Control: private, max-age=60` and an `ETag` of the resolved date.",
        Access::Keyed => "Success (`Cache-Control: private`).",
    };
    responses.insert(
        "200".into(),
        json!({ "description": ok_description, "headers": ok_headers, "content": ok_content }),
    );
    if endpoint.revalidates() {
        let description = if keyed {
            "Only when a date parameter was `today`: `If-None-Match` matched the ETag of the resolved date."
        } else {
            "`If-None-Match` matched the current ETag."
        };
        responses.insert(
            "304".into(),
            json!({ "description": description, "headers": cache_headers }),
        );
    }
    let bad_request: Vec<ErrorCode> = endpoint
        .bad_request
        .iter()
        .copied()
        .chain([ErrorCode::InvalidHost])
        .collect();
    responses.insert(
        "400".into(),
        error_response(
            "A parameter is missing, repeated or malformed (see the codes), or the `Host` header is missing or repeated.",
            &bad_request,
            None,
        ),
    );
    if keyed {
        responses.insert(
            "401".into(),
            error_response(
                "No key, an unknown or revoked key, or an expired one.",
                &[
                    ErrorCode::MissingKey,
                    ErrorCode::InvalidKey,
                    ErrorCode::ExpiredKey,
                ],
                None,
            ),
        );
    }
    responses.insert("429".into(), too_many_requests(keyed));
    if keyed {
        responses.insert(
            "503".into(),
            error_response(
                "The key cannot be checked now: the shared state store (Redis, when several server processes share keys and limits) cannot be reached. Uses no quota; retry shortly.",
                &[ErrorCode::StateUnavailable],
                None,
            ),
        );
    }
    let mut operation = json!({
        "tags": [if keyed { "Keyed" } else { "Public" }],
        "summary": endpoint.summary,
        "description": endpoint.description,
        "operationId": endpoint.operation_id,
        "parameters": parameters,
        "responses": responses,
    });
    if keyed {
        operation["security"] = SECURITY_SCHEMES
            .iter()
            .map(|scheme| json!({ *scheme: [] }))
            .collect();
    }
    operation
}

/// The 429 of a keyed or a public (per-IP) operation.
pub fn too_many_requests(keyed: bool) -> Value {
    let (whose, windows) = if keyed {
        (
            "A window of the key is exhausted. Uses no quota.",
            [ErrorCode::RateLimitMinute, ErrorCode::RateLimitDay],
        )
    } else {
        (
            "A per-IP window is exhausted. Uses no quota.",
            [ErrorCode::RateLimitMinute, ErrorCode::RateLimitMonth],
        )
    };
    error_response(whose, &windows, Some(("Retry-After", "Seconds to wait.")))
}

/// The 400 of a request whose `Host` header is missing or repeated (on any path).
pub fn invalid_host() -> Value {
    error_response(
        "The `Host` header is missing or repeated.",
        &[ErrorCode::InvalidHost],
        None,
    )
}

/// The schema of a query parameter of `kind`.
pub fn param_schema(kind: Kind) -> Value {
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
        Kind::Year => json!({ "type": "integer", "minimum": FIRST_YEAR, "maximum": LAST_YEAR }),
        // A pattern, not an enum: the value is case-insensitive and may be empty.
        Kind::Lang => json!({
            "type": "string",
            "pattern": "^([lL][tT]|[eE][nN]|[pP][lL]|[rR][uU])?$",
            "default": "lt",
        }),
        // A range, not an enum, so that generated clients take a plain number.
        Kind::Week => json!({ "type": "integer", "minimum": 5, "maximum": 6, "default": 5 }),
        Kind::Integer { min, max } => json!({ "type": "integer", "minimum": min, "maximum": max }),
        Kind::Text { max_chars } => {
            json!({ "type": "string", "minLength": 1, "maxLength": max_chars })
        }
        Kind::Choice { values, default } => {
            json!({ "type": "string", "enum": values, "default": values[default] })
        }
    }
}

/// The headers every answer of the API carries.
pub fn common_headers(keyed: bool) -> Map<String, Value> {
    let whose = if keyed { "of the key" } else { "(per IP)" };
    let mut headers = Map::new();
    headers.insert(
        "X-Dataset-Version".into(),
        header("string", "Version of the dataset that answered."),
    );
    headers.insert(
        "RateLimit-Limit".into(),
        header("integer", &format!("Limit of the tightest window {whose}.")),
    );
    headers.insert(
        "RateLimit-Remaining".into(),
        header("integer", "Requests left in that window."),
    );
    headers.insert(
        "RateLimit-Reset".into(),
        header("integer", "Seconds until that window frees capacity."),
    );
    headers
}

pub fn header(ty: &str, description: &str) -> Value {
    json!({ "description": description, "schema": { "type": ty } })
}

/// An error response carrying one of `codes`, with an extra header if any. Its example
/// (what Swagger UI shows) carries the first code.
pub fn error_response(
    description: &str,
    codes: &[ErrorCode],
    extra: Option<(&str, &str)>,
) -> Value {
    let example = json!({ "error": codes[0], "message": EXAMPLE_MESSAGE });
    let codes: Vec<Value> = codes
        .iter()
        .map(|c| serde_json::to_value(c).expect("codes serialize"))
        .collect();
    let mut response = json!({
        "description": description,
        "headers": { "X-Dataset-Version": header("string", "Version of the dataset that answered.") },
        "content": { JSON_CONTENT_TYPE: { "schema": {
            "type": "object",
            "required": ["error", "message"],
            "additionalProperties": false,
            "example": example,
            "properties": {
                "error": { "type": "string", "enum": codes, "description": "Machine-readable code." },
                "message": { "type": "string", "description": "One English sentence naming the parameter (if any) and the accepted form." },
            },
        }}},
    });
    if let Some((name, text)) = extra {
        response["headers"][name] = header("integer", text);
    }
    response
}

/// The published files, the probes and the metrics.
pub fn more_paths() -> MorePaths {
    let mut more = MorePaths::default();
    more.tags.push(json!({ "name": "Data", "description": "The published dataset files and their JSON Schemas; no key, limited per client IP." }));
    more.tags.push(json!({ "name": "Probes", "description": "Liveness, readiness and metrics for supervisors, load balancers and monitoring; no key, never counted." }));
    published_paths(&mut more);
    probe_paths(&mut more);
    metrics_path(&mut more);
    more
}

/// The published files (`crate::published`): the manifest, the year files and their JSON
/// Schemas, public and counted per IP. The files' schemas are the dataset types' own,
/// generated with the settings of the published schemas and named `Dataset*` here (the API's
/// answer types have names of their own, `Holiday` among them).
fn published_paths(more: &mut MorePaths) {
    use kalendorius_dataset::layout::{
        CHANGES_FILE, MANIFEST_FILE, SCHOOL_HOLIDAYS_FILE, YEARS_DIR,
    };
    use kalendorius_dataset::{Changes, Manifest, PublishedYearFile, SchoolHolidaysFile};
    use published::{CACHE_CONTROL, PREFIX, SCHEMA_CONTENT_TYPE, SCHEMA_DIR, SCHEMA_FILES};

    let mut generator = kalendorius_dataset::schema::settings()
        .with(|s| {
            s.definitions_path = "/components/schemas".into();
            s.meta_schema = None;
        })
        .into_generator();
    let mut files = [
        generator.subschema_for::<Manifest>().to_value(),
        generator.subschema_for::<PublishedYearFile>().to_value(),
        generator.subschema_for::<SchoolHolidaysFile>().to_value(),
        generator.subschema_for::<Changes>().to_value(),
    ];
    let own = generator.take_definitions(true);
    for (name, mut schema) in own {
        prefix_refs(&mut schema);
        more.schemas.insert(format!("{DATASET}{name}"), schema);
    }
    files.iter_mut().for_each(prefix_refs);
    let [manifest, year, school_holidays, changes] = files;

    let mut ok_headers = common_headers(false);
    ok_headers.insert(
        "ETag".into(),
        header("string", "Strong validator: the file's SHA-256 in quotes."),
    );
    ok_headers.insert(
        "Cache-Control".into(),
        header("string", &format!("`{CACHE_CONTROL}`.")),
    );
    let not_modified = json!({
        "description": "`If-None-Match` matched the current ETag.",
        "headers": ok_headers,
    });
    let operation = |id: &str,
                     summary: &str,
                     description: &str,
                     parameter: Option<Value>,
                     content_type: &str,
                     schema: Value,
                     not_found: Option<&str>| {
        let mut responses = Map::new();
        responses.insert(
            "200".into(),
            json!({
                "description": format!("The file (`Cache-Control: {CACHE_CONTROL}`)."),
                "headers": ok_headers,
                "content": { content_type: { "schema": schema } },
            }),
        );
        responses.insert("304".into(), not_modified.clone());
        responses.insert("400".into(), invalid_host());
        if let Some(text) = not_found {
            responses.insert(
                "404".into(),
                error_response(text, &[ErrorCode::NotFound], None),
            );
        }
        responses.insert("429".into(), too_many_requests(false));
        json!({ "get": {
            "tags": ["Data"],
            "summary": summary,
            "description": description,
            "operationId": id,
            "parameters": parameter.into_iter().collect::<Vec<_>>(),
            "responses": responses,
        }})
    };
    more.paths.insert(
        format!("{PREFIX}/{MANIFEST_FILE}"),
        operation(
            "data_manifest",
            "The manifest of the dataset in service",
            "The dataset's `manifest.json` byte for byte: versions, year range, and the size and \
             SHA-256 of every year file, so a download can be checked against it.",
            None,
            JSON_CONTENT_TYPE,
            manifest,
            None,
        ),
    );
    more.paths.insert(
        format!("{PREFIX}/{YEARS_DIR}/{{year}}.json"),
        operation(
            "data_year",
            "One year file of the dataset in service",
            "The dataset's year file byte for byte (every day of the year), checked against \
             the manifest's SHA-256, which is also its ETag.",
            Some(json!({
                "name": "year",
                "in": "path",
                "required": true,
                "description": "The year, four digits.",
                "schema": param_schema(Kind::Year),
            })),
            JSON_CONTENT_TYPE,
            year,
            Some(
                "The year is not in the dataset in service (its range is in the manifest), or \
                 its file is missing on this server.",
            ),
        ),
    );
    more.paths.insert(
        format!("{PREFIX}/{SCHOOL_HOLIDAYS_FILE}"),
        operation(
            "data_school_holidays",
            "The pupils' holidays of the dataset in service",
            "The dataset's `school_holidays.json` byte for byte (the school years and their \
             holiday periods), checked against the manifest's SHA-256, which is also its ETag.",
            None,
            JSON_CONTENT_TYPE,
            school_holidays,
            None,
        ),
    );
    more.paths.insert(
        format!("{PREFIX}/{CHANGES_FILE}"),
        operation(
            "data_changes",
            "What the dataset in service changes",
            "The dataset's `changes.json` byte for byte: every date whose answer differs from \
             the dataset version it replaced, grouped by kind (status, shortened, working \
             hours, holidays, name days, transfers), checked against the manifest's SHA-256, \
             which is also its ETag.",
            None,
            JSON_CONTENT_TYPE,
            changes,
            None,
        ),
    );
    more.paths.insert(
        format!("{PREFIX}/{SCHEMA_DIR}/{{name}}"),
        operation(
            "data_schema",
            "A JSON Schema of the published files",
            "The JSON Schema (draft 2020-12) of the manifest, a year file, the school \
             holidays or the changes.",
            Some(json!({
                "name": "name",
                "in": "path",
                "required": true,
                "description": "The schema's file name.",
                "schema": { "type": "string", "enum": SCHEMA_FILES },
            })),
            SCHEMA_CONTENT_TYPE,
            json!({ "type": "object", "description": "A JSON Schema, draft 2020-12." }),
            Some("No schema of that name."),
        ),
    );
}

/// The prefix of the published files' schema names in the document.
const DATASET: &str = "Dataset";

/// Every `$ref` to `#/components/schemas/X` in `value` made one to `DatasetX`.
fn prefix_refs(value: &mut Value) {
    const AT: &str = "#/components/schemas/";
    match value {
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                match item {
                    Value::String(target) if key == "$ref" && target.starts_with(AT) => {
                        *target = format!("{AT}{DATASET}{}", &target[AT.len()..]);
                    }
                    other => prefix_refs(other),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(prefix_refs),
        _ => {}
    }
}

/// The probes (`crate::health`): no key, never counted, `no-store`.
fn probe_paths(more: &mut MorePaths) {
    let mut generator = generator();
    let ok = generator.subschema_for::<ProbeOk>().to_value();
    more.schemas.extend(generator.take_definitions(true));
    for probe in &PROBES {
        let mut responses = Map::new();
        responses.insert(
            "200".into(),
            json!({
                "description": "Fine.",
                "headers": uncached_headers(),
                "content": { JSON_CONTENT_TYPE: { "schema": ok } },
            }),
        );
        responses.insert("400".into(), invalid_host());
        if probe.may_be_unready {
            responses.insert(
                "503".into(),
                error_response(
                    "Not ready: the state database cannot be used (the log says why).",
                    &[ErrorCode::NotReady],
                    None,
                ),
            );
        }
        more.paths.insert(
            probe.path.into(),
            json!({ "get": {
                "tags": ["Probes"],
                "summary": probe.summary,
                "description": probe.description,
                "operationId": probe.operation_id,
                "parameters": [],
                "responses": responses,
            }}),
        );
    }
}

/// The headers of a probe's or the metrics' 200: the dataset version, and no caching.
fn uncached_headers() -> Map<String, Value> {
    let mut headers = Map::new();
    headers.insert(
        "X-Dataset-Version".into(),
        header("string", "Version of the dataset in service."),
    );
    headers.insert(
        "Cache-Control".into(),
        header("string", &format!("`{}`.", health::CACHE_CONTROL)),
    );
    headers
}

/// `/metrics` (`crate::metrics`): the Prometheus text format, to the client addresses of
/// `metrics_allow` only.
fn metrics_path(more: &mut MorePaths) {
    let text = metrics::CONTENT_TYPE;
    let mut responses = Map::new();
    responses.insert(
        "200".into(),
        json!({
            "description": "Every metric in the Prometheus text format 0.0.4 (README, Metrics).",
            "headers": uncached_headers(),
            "content": { text: { "schema": { "type": "string" } } },
        }),
    );
    responses.insert("400".into(), invalid_host());
    more.paths.insert(
        metrics::PATH.into(),
        json!({ "get": {
            "tags": ["Probes"],
            "summary": "Metrics",
            "description": "The service's metrics for Prometheus: requests by route and status class, \
                            latencies, rate-limit refusals, key failures, connections, caches, the \
                            dataset and the state store (README, Metrics). Answered only to the \
                            client addresses of the `metrics_allow` setting (by default this \
                            machine's loopback addresses); to any other it is an unknown path, a \
                            404 `not_found`. Never counted or rate-limited, no key, \
                            `Cache-Control: no-store`.",
            "operationId": "metrics",
            "parameters": [],
            "responses": responses,
        }}),
    );
}
