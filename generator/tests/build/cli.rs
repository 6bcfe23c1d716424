//! The `kalendorius-generator` binary: what a maintainer types and reads.

use crate::helpers::{copy_tree, fixture_sources, generator};

#[test]
fn help_lists_the_commands() {
    let out = generator().arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("build") && text.contains("check"), "{text}");
    assert!(text.contains("diff"), "{text}");
    assert!(
        text.contains("rollback") && text.contains("versions"),
        "{text}"
    );
    let out = generator().args(["build", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("--sources")
            && text.contains("--out")
            && text.contains("--years")
            && text.contains("--keep"),
        "{text}"
    );
    let out = generator().args(["rollback", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("--to") && text.contains("SIGHUP"), "{text}");
}

#[test]
fn build_prints_a_summary_and_what_it_changes() {
    let out_dir = tempfile::tempdir().unwrap();
    let out = generator()
        .args(["build", "--years", "2020..2021", "--sources"])
        .arg(fixture_sources())
        .arg("--out")
        .arg(out_dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // The build's line, then what it changes against the version in service (none here),
    // and where the changes are.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[1].starts_with("changes against the version in service before this build: v")
            && lines[1].contains("nothing compared (none)"),
        "{text}"
    );
    assert!(lines[2].contains("changes.json"), "{text}");
    assert!(
        text.starts_with(&format!("built v{}-", kalendorius_dataset::SCHEMA_VERSION))
            && text.contains("years 2020..2021")
            && text.contains("731 days"),
        "{text}"
    );
    assert!(out_dir.path().join("current/years/2021.json").is_file());
    assert!(!out_dir.path().join("current/years/2022.json").exists());
}

#[test]
fn a_broken_source_exits_non_zero_with_file_and_line() {
    let sources = tempfile::tempdir().unwrap();
    copy_tree(&fixture_sources(), sources.path());
    let csv = sources.path().join("namedays.csv");
    let text = std::fs::read_to_string(&csv)
        .unwrap()
        .replace("6,24,Jonas,m", "6,24,Jonas,q");
    std::fs::write(&csv, text).unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let out = generator()
        .arg("build")
        .arg("--sources")
        .arg(sources.path())
        .arg("--out")
        .arg(out_dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("namedays.csv:10: gender: gender 'q' must be m or f"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(std::fs::read_dir(out_dir.path()).unwrap().count(), 0);
}

#[test]
fn bad_year_ranges_are_refused() {
    for years in ["2100..1583", "1500..2000", "2000", "a..b"] {
        let out = generator()
            .args([
                "build",
                "--out",
                "/nonexistent/never-written",
                "--years",
                years,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{years}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("invalid year range"),
            "{years}"
        );
    }
}

#[test]
fn check_writes_nothing() {
    let out = generator()
        .arg("check")
        .arg("--sources")
        .arg(fixture_sources())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with(&format!(
        "checked v{}-",
        kalendorius_dataset::SCHEMA_VERSION
    )));
}

#[test]
fn verify_checks_a_published_dataset() {
    let out_dir = tempfile::tempdir().unwrap();
    let build = generator()
        .args(["build", "--years", "2024..2025", "--sources"])
        .arg(fixture_sources())
        .arg("--out")
        .arg(out_dir.path())
        .output()
        .unwrap();
    assert!(build.status.success());
    let verify = || {
        generator()
            .arg("verify")
            .arg("--out")
            .arg(out_dir.path())
            .output()
            .unwrap()
    };
    let ok = verify();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains("731 days"));
    // A database whose content no longer matches is caught by content, not by file hash.
    let db = std::fs::read_link(out_dir.path().join("current")).unwrap();
    let db = out_dir.path().join(db).join("kalendorius.sled");
    std::fs::remove_dir_all(&db).unwrap();
    kalendorius_dataset::database::write_database(&db, "v1-000000000000", b"", &[]).unwrap();
    let bad = verify();
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("fails its manifest check"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
