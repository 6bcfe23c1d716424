//! The key tool against a Redis store: `kalendorius-server keys --state redis://... ...`
//! talks to Redis directly (no server needs to run), and every server using that Redis
//! honours the change within a second (`crate::state::redis`).
//!
//! One command is one transaction, with the same rules and messages as on sled: the key
//! records are read from Redis with their version token (atomically), loaded into a scratch
//! sled state in a temporary directory, and the request runs there through the very code
//! of the sled tool (`admin::execute`: id prefixes, validation, import merging). What it
//! changed is written back by a script that first compares the version token: if another
//! tool changed the keys in between, nothing is written and the command runs again on the
//! new records. Usage shown by `list`, `show` and `export --counters` is read from Redis.

use std::collections::HashMap;

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use redis::aio::ConnectionManager;

use crate::limits::LimitsConfig;
use crate::state::admin::{self, AdminRequest, AdminResponse, KeyView};
use crate::state::keys::KeyRecord;
use crate::state::redis::{
    client, key_hash, key_table, key_usage, keys_hash, keys_version, manager_config,
};
use crate::state::State;

/// Attempts before giving up when other tools keep changing the keys meanwhile.
const ATTEMPTS: usize = 5;

/// Writes key changes if the version token is still the one read. KEYS: the records hash,
/// the version token, then counter entries to delete. ARGV: the version read ('' when
/// none), the new version, the number of records to write, then id and JSON of each, then
/// the ids to remove. Returns 1 when written, 0 when the version had changed.
const WRITE_SCRIPT: &str = r"
local current = redis.call('GET', KEYS[2]) or ''
if current ~= ARGV[1] then return 0 end
local writes = tonumber(ARGV[3])
for i = 0, writes - 1 do
  redis.call('HSET', KEYS[1], ARGV[4 + 2 * i], ARGV[5 + 2 * i])
end
for i = 4 + 2 * writes, #ARGV do
  redis.call('HDEL', KEYS[1], ARGV[i])
end
for i = 3, #KEYS do
  redis.call('DEL', KEYS[i])
end
redis.call('SET', KEYS[2], ARGV[2])
return 1
";

/// Carries out `request` on the keys in the Redis at `url` at `now`.
pub fn execute(
    url: &str,
    limits: &LimitsConfig,
    request: AdminRequest,
    now: DateTime<Utc>,
) -> anyhow::Result<AdminResponse> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let mut conn = ConnectionManager::new_with_config(client(url)?, manager_config())
            .await
            .with_context(|| format!("cannot reach Redis at {url}"))?;
        for _ in 0..ATTEMPTS {
            if let Some(response) = attempt(&mut conn, limits, &request, now).await? {
                return with_usage(&mut conn, response, now).await;
            }
        }
        anyhow::bail!("the keys in Redis kept changing meanwhile; nothing was changed, try again")
    })
}

/// One try of [`execute`]: `None` when another tool changed the keys in between.
async fn attempt(
    conn: &mut ConnectionManager,
    limits: &LimitsConfig,
    request: &AdminRequest,
    now: DateTime<Utc>,
) -> anyhow::Result<Option<AdminResponse>> {
    let (version, records): (Option<String>, Vec<(String, String)>) = redis::pipe()
        .atomic()
        .get(keys_version())
        .hgetall(keys_hash())
        .query_async(conn)
        .await
        .context("cannot read the keys from Redis")?;
    let before: HashMap<String, KeyRecord> = key_table(records)
        .all()
        .into_iter()
        .map(|r| (r.id.clone(), r))
        .collect();
    let scratch_dir = tempfile::tempdir().context("cannot create a scratch directory")?;
    let scratch = State::open(&scratch_dir.path().join("state"), limits.clone())?;
    scratch.import_keys(before.values().cloned().collect(), false)?;
    let response = admin::execute(&scratch, request.clone(), now);
    let after = scratch.keys();
    drop(scratch);
    let writes: Vec<&KeyRecord> = after
        .iter()
        .filter(|r| before.get(&r.id) != Some(*r))
        .collect();
    let removed: Vec<&String> = before
        .keys()
        .filter(|id| !after.iter().any(|r| &r.id == *id))
        .collect();
    if writes.is_empty() && removed.is_empty() {
        return Ok(Some(response));
    }
    let write = redis::Script::new(WRITE_SCRIPT);
    let mut script = write.prepare_invoke();
    script.key(keys_hash()).key(keys_version());
    for id in &removed {
        script.key(key_hash(id));
    }
    script
        .arg(version.unwrap_or_default())
        .arg(hex::encode(rand::random::<[u8; 16]>()))
        .arg(writes.len());
    for r in &writes {
        script.arg(&r.id).arg(serde_json::to_string(r)?);
    }
    for id in &removed {
        script.arg(id.as_str());
    }
    let written: i64 = script
        .invoke_async(conn)
        .await
        .context("cannot write the keys to Redis")?;
    Ok((written == 1).then_some(response))
}

/// `response` with each key's usage as Redis counts it (the scratch state counted none).
async fn with_usage(
    conn: &mut ConnectionManager,
    mut response: AdminResponse,
    now: DateTime<Utc>,
) -> anyhow::Result<AdminResponse> {
    let mut views: Vec<&mut KeyView> = match &mut response {
        AdminResponse::Created { view, .. } | AdminResponse::Key { view, .. } => vec![view],
        AdminResponse::Keys { views } => views.iter_mut().collect(),
        AdminResponse::Exported { records } => {
            for r in records.iter_mut().filter(|r| r.used_minute.is_some()) {
                let (m, d) = key_usage(conn, &r.record.id, now).await?;
                (r.used_minute, r.used_day) = (Some(m), Some(d));
            }
            vec![]
        }
        _ => vec![],
    };
    for view in views.iter_mut() {
        (view.used_minute, view.used_day) = key_usage(conn, &view.id, now)
            .await
            .context("cannot read usage from Redis")?;
    }
    Ok(response)
}
