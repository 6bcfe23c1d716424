//! `kalendorius-server ready-check`, the health check of the container image: exit 0 while
//! the real server is ready, 1 with the reason when it is not or cannot be reached.

use std::process::Output;

use crate::helpers::*;
use crate::process::{command, start};

fn ready_check(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = command();
    cmd.arg("ready-check").args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the server binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn ready_check_is_zero_while_ready_and_one_with_the_reason_when_not() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("state");
    let server = start(dataset(), &state, &[]);
    let addr = server.base.strip_prefix("http://").unwrap().to_string();
    let port = addr.rsplit(':').next().unwrap();

    // By --url, by --listen, by KALENDORIUS_LISTEN (the unspecified address on loopback).
    let url = format!("{}/ready", server.base);
    let unspecified = format!("0.0.0.0:{port}");
    for (args, env) in [
        (vec!["--url", url.as_str()], vec![]),
        (vec!["--listen", addr.as_str()], vec![]),
        (vec![], vec![("KALENDORIUS_LISTEN", unspecified.as_str())]),
    ] {
        let out = ready_check(&args, &env);
        assert_eq!(out.status.code(), Some(0), "{args:?} {env:?}: {out:?}");
        let stdout = text(&out.stdout);
        assert!(stdout.starts_with("HTTP/1.1 200"), "{stdout}");
        assert!(stdout.contains(r#"{"status":"ok"}"#), "{stdout}");
    }

    // Not ready: the state database is gone, /ready answers 503.
    std::fs::remove_dir_all(&state).unwrap();
    let out = ready_check(&["--url", &url], &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("not ready") && stderr.contains("503"),
        "{stderr}"
    );

    // Nobody listening.
    drop(server);
    let out = ready_check(&["--listen", &addr, "--timeout", "2"], &[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(text(&out.stderr).contains("not ready"), "{out:?}");
}
