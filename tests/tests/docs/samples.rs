//! The sample answers shown in the documents are real: each is replayed against the server
//! over the dataset built from the repository's `sources/`, and the answer must equal the
//! sample as JSON.
//!
//! A sample is marked in Markdown by an HTML comment followed by two fenced blocks:
//!
//! ````text
//! <!-- sample -->              (or `<!-- sample: 400 -->` for another expected status)
//! ```sh
//! curl -s -H "X-API-Key: $KEY" 'http://127.0.0.1:8080/api/v1/day?date=2026-12-24'
//! ```
//! ```json
//! {"date": "2026-12-24", ...}
//! ```
//! ````
//!
//! The command is run as written (its URL and `-H` headers, `$KEY` being a key of the test
//! server); a sample of status 429 repeats it until the limit is reached. The 429 samples
//! run last, so the others see fresh limits.
//!
//! An answer that is not JSON (an iCalendar feed) is shown in a ```text block instead: the
//! answer, its CRLF line ends read as LF, must start with that text.
//!
//! `<!-- sample: dataset -->` followed by a ```json block is one day of the published year
//! files instead: it must equal the entry of its `date` in `years/YYYY.json`.

use std::net::SocketAddr;
use std::path::Path;

use kalendorius_server::config::Settings;
use kalendorius_server::server::Server;
use kalendorius_server::state::key_admin::{AdminResponse, CreateArgs, KeysCommand};
use serde_json::Value;

use crate::markdown::{self, Fence};

/// Where the samples say the server is (`make run`'s default).
const SAMPLE_ORIGIN: &str = "http://127.0.0.1:8080";

/// One sample of a document.
#[derive(Debug)]
struct Sample {
    /// `file:line` of the marker.
    at: String,
    status: u16,
    /// The URL, relative to the origin, with `$KEY` unreplaced.
    path: String,
    /// `-H` headers as (name, value), `$KEY` unreplaced.
    headers: Vec<(String, String)>,
    expected: Value,
}

/// A day of the published dataset shown in a document.
#[derive(Debug)]
struct DaySample {
    /// `file:line` of the marker.
    at: String,
    expected: Value,
}

/// The samples of one document: answers, and days of the dataset.
#[derive(Debug, Default)]
struct Samples {
    answers: Vec<Sample>,
    days: Vec<DaySample>,
}

/// The words of a shell command: quotes removed, `\` line continuations joined, and
/// nothing after an unquoted `#` comment.
fn shell_words(command: &str) -> Vec<String> {
    let joined = command.replace("\\\n", " ");
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in joined.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '#') if word.is_none() => break,
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// Parses the `curl` command of a sample into (path, headers).
fn parse_curl(command: &str, at: &str) -> (String, Vec<(String, String)>) {
    let words = shell_words(command.trim());
    assert_eq!(
        words.first().map(String::as_str),
        Some("curl"),
        "{at}: a sample's command is one curl: {command}"
    );
    let mut path = None;
    let mut headers = Vec::new();
    let mut words = words.iter().skip(1);
    while let Some(word) = words.next() {
        if word == "-H" {
            let header = words
                .next()
                .unwrap_or_else(|| panic!("{at}: -H without a header"));
            let (name, value) = header
                .split_once(':')
                .unwrap_or_else(|| panic!("{at}: header {header}"));
            headers.push((name.trim().to_string(), value.trim().to_string()));
        } else if let Some(rest) = word.strip_prefix(SAMPLE_ORIGIN) {
            assert!(path.is_none(), "{at}: one URL per sample");
            path = Some(rest.to_string());
        } else {
            assert!(
                matches!(word.as_str(), "-s" | "-sS"),
                "{at}: curl option {word} is not understood by this test"
            );
        }
    }
    let path = path.unwrap_or_else(|| panic!("{at}: no URL on {SAMPLE_ORIGIN} in: {command}"));
    (path, headers)
}

/// The samples of one document.
fn samples_of(file: &Path, text: &str) -> Samples {
    let fences = markdown::fences(text);
    let mut samples = Samples::default();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        let Some(marker) = line
            .strip_prefix("<!-- sample")
            .and_then(|m| m.strip_suffix("-->"))
        else {
            continue;
        };
        let at = format!("{}:{}", file.display(), n + 1);
        if marker.trim() == ": dataset" {
            let body = fences
                .iter()
                .find(|f| f.line == n + 1 && f.lang == "json")
                .unwrap_or_else(|| panic!("{at}: a ```json block follows the marker"));
            let expected = serde_json::from_str(&body.text)
                .unwrap_or_else(|e| panic!("{at}: the sample is not JSON ({e})"));
            samples.days.push(DaySample { at, expected });
            continue;
        }
        let status = match marker.trim().strip_prefix(':') {
            Some(status) => status
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{at}: marker {line}")),
            None => {
                assert!(marker.trim().is_empty(), "{at}: marker {line}");
                200
            }
        };
        let mut next = fences.iter().filter(|f| f.line > n);
        let (command, body): (&Fence, &Fence) = match (next.next(), next.next()) {
            (Some(c), Some(b))
                if c.line == n + 1 && c.lang == "sh" && (b.lang == "json" || b.lang == "text") =>
            {
                (c, b)
            }
            _ => panic!(
                "{at}: a sample marker is followed by a ```sh block and a ```json (or ```text) block"
            ),
        };
        let (path, headers) = parse_curl(&command.text, &at);
        // A text sample is the start of the answer, kept as a JSON string.
        let expected = if body.lang == "text" {
            Value::String(body.text.clone())
        } else {
            serde_json::from_str(&body.text)
                .unwrap_or_else(|e| panic!("{at}: the sample is not JSON ({e})"))
        };
        samples.answers.push(Sample {
            at,
            status,
            path,
            headers,
            expected,
        });
    }
    samples
}

/// The samples of every document, the 429 answers last.
fn all_samples() -> Samples {
    let mut all = Samples::default();
    for (file, text) in crate::markdown_files() {
        let samples = samples_of(&file, &text);
        all.answers.extend(samples.answers);
        all.days.extend(samples.days);
    }
    all.answers.sort_by_key(|s| s.status == 429);
    all
}

/// A server over the dataset built from the repository's sources into `out`, with the
/// default limits.
async fn start(dir: &Path, out: &Path) -> (String, String) {
    let out = out.to_path_buf();
    kalendorius_generator::build(&kalendorius_generator::BuildOptions {
        sources: crate::root().join("sources"),
        out: out.clone(),
        years: None,
        keep: kalendorius_generator::versions::DEFAULT_KEEP,
    })
    .expect("the repository's sources build");
    let settings = Settings {
        listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        data: out,
        state: dir.join("state").into(),
        ..Settings::default()
    };
    let server = Server::bind(settings).await.expect("the server starts");
    let create = KeysCommand::Create(CreateArgs {
        owner: "docs-samples".into(),
        per_minute: None,
        per_day: None,
        expires: None,
    });
    let Ok(AdminResponse::Created { key, .. }) = server.state().execute(create, chrono::Utc::now())
    else {
        panic!("no key");
    };
    let base = format!("http://{}", server.local_addr());
    tokio::spawn(server.run(std::future::pending(), |_| {}));
    (base, key)
}

#[tokio::test]
async fn every_sample_is_what_the_server_answers() {
    let Samples { answers, days } = all_samples();
    assert!(answers.len() >= 7, "samples found: {}", answers.len());
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("output");
    let (base, key) = start(tmp.path(), &out).await;
    let mut wrong = Vec::new();
    for sample in &days {
        let date = sample.expected["date"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: a day has a date", sample.at));
        let file = out.join(format!("current/years/{}.json", &date[..4]));
        let year: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let actual = year["days"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["date"] == date);
        if actual != Some(&sample.expected) {
            wrong.push(format!(
                "{}: {} holds\n{}",
                sample.at,
                file.display(),
                actual.map(Value::to_string).unwrap_or_default()
            ));
        }
    }
    let client = reqwest::Client::new();
    for sample in &answers {
        let url = format!("{base}{}", sample.path.replace("$KEY", &key));
        let tries = if sample.status == 429 { 1000 } else { 1 };
        let mut answer = None;
        for _ in 0..tries {
            let mut request = client.get(&url);
            for (name, value) in &sample.headers {
                request = request.header(name, value.replace("$KEY", &key));
            }
            let resp = request.send().await.unwrap();
            let status = resp.status().as_u16();
            let body = resp.bytes().await.unwrap();
            answer = Some((status, body));
            if status == sample.status {
                break;
            }
        }
        let (status, body) = answer.unwrap();
        let actual: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let same = match &sample.expected {
            Value::String(head) => String::from_utf8_lossy(&body)
                .replace("\r\n", "\n")
                .starts_with(head.as_str()),
            expected => &actual == expected,
        };
        if status != sample.status || !same {
            wrong.push(format!(
                "{} (GET {}): the server answers {status}\n{}",
                sample.at,
                sample.path,
                String::from_utf8_lossy(&body)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "samples that differ:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_documents_show_an_answer_of_every_endpoint() {
    let shown: Vec<String> = crate::markdown_files()
        .iter()
        .flat_map(|(file, text)| samples_of(file, text).answers)
        .filter(|s| s.status == 200)
        .map(|s| s.path.split('?').next().unwrap().to_string())
        .collect();
    let spec: Value = serde_json::from_str(&kalendorius_server::app::App::openapi_json()).unwrap();
    // Every path of the document (the API and the probes), but the published files: a year
    // file is 130 KiB, and docs/dataset.md describes them in words.
    let endpoints = spec["paths"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|path| !path.starts_with("/data/"));
    for endpoint in endpoints {
        assert!(
            shown.contains(endpoint),
            "no document shows an answer of {endpoint}"
        );
    }
}

#[test]
fn commands_are_read_as_a_shell_would() {
    assert_eq!(
        shell_words("curl -s -H \"X-API-Key: $KEY\" 'http://x/a?b=1&c=2'   # a comment"),
        ["curl", "-s", "-H", "X-API-Key: $KEY", "http://x/a?b=1&c=2"]
    );
    assert_eq!(shell_words("curl \\\n  'u'"), ["curl", "u"]);
}
