//! What the OpenAPI document says beyond the route table: the published files under `/data`
//! (`crate::published`; their schemas are the dataset types' own, under `Dataset*` names),
//! the probes (`crate::health::PROBES`) and the metrics (`crate::metrics`), from the
//! constants they answer with.

use serde_json::{json, Map, Value};

use crate::api::endpoint::Kind;
use crate::api::openapi::{
    self, common_headers, error_response, header, invalid_host, param_schema, too_many_requests,
    MorePaths,
};
use crate::health::{self, ProbeOk, PROBES};
use crate::http::errors::{ErrorCode, JSON_CONTENT_TYPE};
use crate::metrics;
use crate::published;

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
    let mut generator = openapi::generator();
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
