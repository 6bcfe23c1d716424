//! `CHANGELOG.md` names the version the code carries: its newest release is the workspace
//! version, which the OpenAPI document gives as `info.version`.

#[test]
fn the_newest_release_is_the_version_of_the_code() {
    let text = std::fs::read_to_string(crate::root().join("CHANGELOG.md")).unwrap();
    let releases: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter(|h| h.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    let newest = releases.first().expect("a release in CHANGELOG.md");
    let (version, date) = newest.split_once(" - ").expect("## X.Y.Z - YYYY-MM-DD");
    assert_eq!(version, env!("CARGO_PKG_VERSION"), "{newest}");
    assert!(
        chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_ok(),
        "{newest}"
    );
    // Newest first.
    let numbers: Vec<Vec<u32>> = releases
        .iter()
        .map(|r| {
            r.split(' ')
                .next()
                .unwrap()
                .split('.')
                .map(|n| n.parse().unwrap())
                .collect()
        })
        .collect();
    assert!(numbers.windows(2).all(|w| w[0] > w[1]), "{releases:?}");
}
