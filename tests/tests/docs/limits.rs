//! The table of docs/api.md, Rate limits: every public counter's row names each route it
//! counts and gives the counter's default limits.

use kalendorius_server::api::PREFIX;
use kalendorius_server::app::routes::{Answer, RouteAccess, RouteTable};
use kalendorius_server::app::ROUTES;
use kalendorius_server::limits::{LimitsConfig, PublicEndpoint};

/// The rows of the first table after `## Rate limits`, as their cells.
fn rate_limit_rows(api_md: &str) -> Vec<Vec<String>> {
    let section = api_md
        .split("\n## Rate limits\n")
        .nth(1)
        .expect("docs/api.md has a Rate limits section");
    let table = section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'));
    let cells = |line: &str| -> Vec<String> {
        let inner = line.trim().trim_matches('|');
        inner
            .split('|')
            .map(|cell| cell.trim().to_string())
            .collect()
    };
    // The header and the line under it.
    table.skip(2).map(cells).collect()
}

/// `n` as the docs write it: thousands set apart by a space (`10 000`).
fn spaced(n: i64) -> String {
    let digits = n.to_string();
    let head = digits.len() % 3;
    let mut parts = vec![&digits[..head]];
    parts.extend(
        (head..digits.len())
            .step_by(3)
            .map(|at| &digits[at..at + 3]),
    );
    parts.retain(|part| !part.is_empty());
    parts.join(" ")
}

#[test]
fn every_public_counter_has_its_row_with_its_default_limits() {
    let api_md = std::fs::read_to_string(crate::root().join("docs/api.md")).unwrap();
    let rows = rate_limit_rows(&api_md);
    let defaults = toml::Table::try_from(LimitsConfig::default()).unwrap();
    let routes = RouteTable::new(ROUTES);
    for &counter in PublicEndpoint::ALL {
        // An operation by its path; a page or a file by its label.
        let names: Vec<String> = (0..routes.other())
            .map(|index| &routes[index])
            .filter(|route| route.access == RouteAccess::Public(counter))
            .map(|route| match route.answer {
                Answer::Operation(operation) => format!("`{}`", operation.path),
                _ => route.label.to_string(),
            })
            .collect();
        let [minute, month] = counter
            .settings_keys()
            .map(|key| spaced(defaults[key].as_integer().unwrap()));
        let limits = format!("{minute} per minute, {month} per calendar month");
        let row = rows
            .iter()
            .find(|row| names.iter().any(|name| row[0].contains(name.as_str())))
            .unwrap_or_else(|| panic!("{counter:?}: no row of the table names {names:?}"));
        for name in &names {
            assert!(
                row[0].contains(name.as_str()),
                "{counter:?}: its row does not name {name}"
            );
        }
        assert_eq!(row[1], "client IP address", "{counter:?}");
        assert_eq!(row[2], limits, "{counter:?}");
    }
    assert!(
        !rows.iter().any(|row| row[0].contains(PREFIX)),
        "the table names paths under {PREFIX} without it"
    );
}

#[test]
fn numbers_are_spaced_by_thousands() {
    let shown = [0, 60, 999, 1_000, 20_000, 1_002_003].map(spaced);
    assert_eq!(shown, ["0", "60", "999", "1 000", "20 000", "1 002 003"]);
}
