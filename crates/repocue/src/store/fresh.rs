//! A new database is created at the current schema by one script, `schema.sql`, instead of
//! by every migration in turn (which moved data between tables that are empty, and re-read
//! the schema after each `ALTER TABLE`). The script is what the migrations build: its
//! statements are the `sqlite_schema` entries and table rows of a database migrated from
//! version 0, and `tests::the_schema_script_is_what_the_migrations_build` fails when they
//! differ (`REPOCUE_BLESS=1` rewrites it).

use rusqlite::Transaction;

use crate::error::Result;

/// The current schema, and the rows the migrations leave in a new database.
const SCHEMA: &str = include_str!("schema.sql");

/// Whether the database holds no schema object at all.
pub(super) fn is_empty(tx: &Transaction<'_>) -> Result<bool> {
    let n: i64 = tx.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
    Ok(n == 0)
}

/// Creates the current schema in an empty database, recording it as schema `version` (the
/// number of migrations it stands for).
pub(super) fn create(tx: &Transaction<'_>, version: i64) -> Result<()> {
    tx.execute_batch(SCHEMA)?;
    tx.pragma_update(None, "user_version", version)?;
    Ok(())
}

/// The statements that build a database's schema and rows, in creation order: what
/// `schema.sql` holds (after its comment lines). Objects SQLite creates by itself are left
/// out: `sqlite_*` tables, automatic indexes, and the shadow tables of virtual tables.
#[cfg(test)]
fn dump(conn: &rusqlite::Connection) -> String {
    let objects: Vec<(String, String, Option<String>)> = conn
        .prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY rowid")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let virtuals: Vec<String> = objects
        .iter()
        .filter(|(_, _, sql)| {
            sql.as_deref()
                .is_some_and(|s| s.starts_with("CREATE VIRTUAL"))
        })
        .map(|(_, name, _)| format!("{name}_"))
        .collect();
    let own = |name: &str| {
        !name.starts_with("sqlite_") && !virtuals.iter().any(|v| name.starts_with(v.as_str()))
    };
    let mut out = String::new();
    for (_, name, sql) in &objects {
        if let (true, Some(sql)) = (own(name), sql) {
            out.push_str(sql);
            out.push_str(";\n");
        }
    }
    for (kind, table, sql) in &objects {
        let plain = sql
            .as_deref()
            .is_some_and(|s| s.starts_with("CREATE TABLE"));
        if kind != "table" || !own(table) || !plain {
            continue;
        }
        let columns: Vec<String> = conn
            .prepare(&format!(
                "SELECT name FROM pragma_table_info('{table}') ORDER BY cid"
            ))
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let quoted: Vec<String> = columns.iter().map(|c| format!("quote(\"{c}\")")).collect();
        let rows: Vec<String> = conn
            .prepare(&format!(
                "SELECT {} FROM \"{table}\" ORDER BY 1",
                quoted.join(" || ', ' || ")
            ))
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        for row in rows {
            out.push_str(&format!(
                "INSERT INTO {table} ({}) VALUES ({row});\n",
                columns.join(", ")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SCHEMA_VERSION;
    use rusqlite::Connection;

    /// A connection to a new database, built by `build`.
    fn built(build: impl FnOnce(&Transaction<'_>)) -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::compact::register_functions(&conn).unwrap();
        conn.pragma_update(None, "foreign_keys", "ON").unwrap();
        let tx = conn.transaction().unwrap();
        build(&tx);
        tx.commit().unwrap();
        conn
    }

    #[test]
    fn the_schema_script_is_what_the_migrations_build() {
        let migrated = built(|tx| super::super::apply_migrations(tx, 0).unwrap());
        let script = dump(&migrated);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/store/schema.sql");
        let header = "-- The current schema, for new databases (store::fresh). Generated from the \
                      migrations:\n-- REPOCUE_BLESS=1 cargo test -p repocue --lib fresh\n";
        let want = format!("{header}{script}");
        if std::env::var_os("REPOCUE_BLESS").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        assert!(
            SCHEMA == want,
            "schema.sql differs from what the migrations build; \
             regenerate with REPOCUE_BLESS=1 cargo test -p repocue --lib fresh"
        );
        // And the script builds the same again (shadow tables and sequences included).
        let fresh = built(|tx| create(tx, SCHEMA_VERSION).unwrap());
        assert_eq!(dump(&fresh), script);
        let objects = |c: &Connection| -> Vec<(String, String)> {
            c.prepare("SELECT type, name FROM sqlite_schema ORDER BY name")
                .unwrap()
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        };
        assert_eq!(objects(&fresh), objects(&migrated));
        let version = |c: &Connection| -> i64 {
            c.query_row("PRAGMA user_version", [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!(
            (version(&fresh), version(&migrated)),
            (SCHEMA_VERSION, SCHEMA_VERSION)
        );
    }
}
