//! The example settings file and the systemd files of `deploy/`.

use std::collections::BTreeSet;

use kalendorius_server::config::Settings;
use kalendorius_server::state::store::location::StateLocation;

/// Every key of a TOML table, dotted (`connections.idle_timeout_secs`).
fn keys(table: &toml::Table, prefix: &str, out: &mut BTreeSet<String>) {
    for (key, value) in table {
        let name = format!("{prefix}{key}");
        match value {
            toml::Value::Table(inner) => keys(inner, &format!("{name}."), out),
            _ => {
                out.insert(name);
            }
        }
    }
}

#[test]
fn the_example_settings_are_the_defaults_with_every_key() {
    let path = crate::root().join("kalendorius.example.toml");
    let parsed = Settings::from_file(&path).expect("the example is valid settings");
    assert_eq!(
        parsed,
        Settings::default(),
        "the example shows the defaults"
    );

    let text = std::fs::read_to_string(&path).unwrap();
    let mut shown = BTreeSet::new();
    keys(&text.parse::<toml::Table>().unwrap(), "", &mut shown);
    let mut all = BTreeSet::new();
    keys(
        &toml::Table::try_from(Settings::default()).unwrap(),
        "",
        &mut all,
    );
    // An empty list serializes like any other value; a key the defaults leave out (an
    // `Option` at `None`) would be missing here, and is not expected.
    assert_eq!(
        shown, all,
        "every settings key is in the example, and only those"
    );
}

/// The value of `Key=` in a systemd unit (the last one, as systemd reads it).
fn unit_value<'a>(unit: &'a str, key: &str) -> Option<&'a str> {
    unit.lines()
        .filter_map(|l| l.trim().strip_prefix(key)?.strip_prefix('='))
        .next_back()
}

#[test]
fn the_systemd_unit_and_its_settings_agree() {
    let deploy = crate::root().join("deploy");
    let settings = Settings::from_file(&deploy.join("kalendorius.toml"))
        .expect("deploy/kalendorius.toml is valid settings");
    let unit = std::fs::read_to_string(deploy.join("kalendorius.service")).unwrap();

    let exec = unit_value(&unit, "ExecStart").expect("ExecStart");
    assert_eq!(
        exec,
        "/usr/local/bin/kalendorius-server serve --config /etc/kalendorius/kalendorius.toml"
    );
    assert_eq!(
        unit_value(&unit, "ExecReload"),
        Some("/bin/kill -HUP $MAINPID")
    );
    // The one directory the service writes is the state directory, and only that.
    let StateLocation::Directory(state) = &settings.state else {
        panic!("the deployed state is a directory");
    };
    assert_eq!(
        unit_value(&unit, "ReadWritePaths").map(std::path::Path::new),
        Some(state.as_path())
    );
    assert!(state.is_absolute() && settings.data.is_absolute());
    assert!(!settings.data.starts_with(state));
    for hardening in [
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "PrivateTmp=yes",
    ] {
        assert!(unit.lines().any(|l| l.trim() == hardening), "{hardening}");
    }
    assert_eq!(unit_value(&unit, "User"), Some("kalendorius"));
    // The stop timeout leaves the server its own drain time and the final flush.
    let stop: u64 = unit_value(&unit, "TimeoutStopSec")
        .unwrap()
        .parse()
        .unwrap();
    assert!(stop >= settings.shutdown_timeout_secs + 10);
}
