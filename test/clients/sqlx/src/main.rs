//! sqlx against ulid, tsid, uuid (UUIDv7) and bigint (TSID) keys: docs/clients.md's sqlx
//! recipes, run for real. Prints "ok N" / "not ok N" lines (scripts/suites/clients.sh).
//! Build with Debian's librust-sqlx-dev (sid's 0.9), offline (.cargo/config.toml points cargo
//! at /usr/share/cargo/registry): `cargo build --offline`. Run with PGHOST, PGPORT, PGUSER,
//! PGDATABASE set (sqlx's PgConnectOptions::new() reads them; a socket directory works).
//! sqlx asks for every result of a prepared query in binary (a ulid is uuid's 16 bytes, a tsid
//! int8's 8) and checks each Rust type against the column's type by name; sqlx::raw_sql's
//! results are text (the 26 and 13 Crockford characters). The newtypes read both.
use std::fmt::Debug;
use std::time::Duration;

use sqlx::postgres::{PgArguments, PgConnectOptions, PgConnection, PgDatabaseError, PgRow};
use sqlx::types::chrono::{DateTime, Utc};
use sqlx::{Arguments, AssertSqlSafe, Connection, Row};

// README sqlx: begin
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgTypeInfo, PgValueFormat, PgValueRef, Postgres};
use sqlx::types::Uuid;
use sqlx::{Decode, Encode, Type};

/// A ulid: uuid's 16 bytes, held as a uuid::Uuid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ulid(pub Uuid);

/// A tsid: int8's 8 bytes, held as an i64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tsid(pub i64);

/// Crockford base32 (a ulid's 26 characters, a tsid's 13) as the number it stands for.
fn crockford(text: &str) -> Result<u128, BoxDynError> {
    text.bytes().try_fold(0u128, |n, c| {
        let digit = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ".iter().position(|&d| d == c.to_ascii_uppercase());
        Ok(n << 5 | digit.ok_or("not a Crockford base32 symbol")? as u128)
    })
}

impl Type<Postgres> for Ulid {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("ulid")
    }
}

impl Encode<'_, Postgres> for Ulid {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(self.0.as_bytes());
        Ok(IsNull::No)
    }
}

impl Decode<'_, Postgres> for Ulid {
    fn decode(value: PgValueRef<'_>) -> Result<Self, BoxDynError> {
        match value.format() {
            PgValueFormat::Binary => Ok(Ulid(Uuid::from_slice(value.as_bytes()?)?)),
            PgValueFormat::Text => Ok(Ulid(Uuid::from_u128(crockford(value.as_str()?)?))),
        }
    }
}

impl Type<Postgres> for Tsid {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("tsid")
    }
}

impl Encode<'_, Postgres> for Tsid {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(&self.0.to_be_bytes());
        Ok(IsNull::No)
    }
}

impl Decode<'_, Postgres> for Tsid {
    fn decode(value: PgValueRef<'_>) -> Result<Self, BoxDynError> {
        match value.format() {
            PgValueFormat::Binary => Ok(Tsid(i64::from_be_bytes(value.as_bytes()?.try_into()?))),
            PgValueFormat::Text => Ok(Tsid(crockford(value.as_str()?)? as i64)),
        }
    }
}
// README sqlx: end

/// Prints one "ok N - sqlx: what" or "not ok N ..." line per check.
struct Checks {
    count: u32,
    failed: u32,
}

impl Checks {
    fn ok(&mut self, cond: bool, what: &str, detail: impl Debug) -> bool {
        self.count += 1;
        if cond {
            println!("ok {} - sqlx: {}", self.count, what);
        } else {
            self.failed += 1;
            println!("not ok {} - sqlx: {}", self.count, what);
            println!("#   got: {}", format!("{:?}", detail).replace("\\n", "\n#   "));
        }
        cond
    }
}

const CROCKFORD: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A ulid's 26 characters, encoded here (the oracle for binary against text: the recipe
/// decodes, this encodes).
fn ulid_text(u: Uuid) -> String {
    let n = u.as_u128();
    (0..26)
        .map(|i| CROCKFORD[(n >> (125 - 5 * i) & 31) as usize] as char)
        .collect()
}

fn tsid_text(n: i64) -> String {
    (0..13)
        .map(|i| CROCKFORD[((n as u64) >> (60 - 5 * i) & 31) as usize] as char)
        .collect()
}

fn sql(text: String) -> AssertSqlSafe<String> {
    AssertSqlSafe(text)
}

/// The EXPLAIN of query with args, sequential scans off (the table is small).
async fn plan(conn: &mut PgConnection, query: &str, args: PgArguments) -> Result<String, sqlx::Error> {
    sqlx::raw_sql("SET enable_seqscan = off").execute(&mut *conn).await?;
    let rows = sqlx::query_with(sql(format!("EXPLAIN {}", query)), args).fetch_all(&mut *conn).await;
    sqlx::raw_sql("RESET enable_seqscan").execute(&mut *conn).await?;
    Ok(rows?
        .iter()
        .map(|r| r.get::<String, _>(0))
        .collect::<Vec<_>>()
        .join("\n"))
}

fn args1<T>(value: T) -> PgArguments
where
    T: for<'a> Encode<'a, Postgres> + Type<Postgres>,
{
    let mut args = PgArguments::default();
    args.add(value).expect("a parameter");
    args
}

fn args2<A, B>(a: A, b: B) -> PgArguments
where
    A: for<'a> Encode<'a, Postgres> + Type<Postgres>,
    B: for<'a> Encode<'a, Postgres> + Type<Postgres>,
{
    let mut args = args1(a);
    args.add(b).expect("a parameter");
    args
}

/// Keyset pages of `size` on column col, each page's last key (read as T) the next one's
/// parameter: the sizes of the pages up to the first empty one, and the keys as text.
async fn pages<T>(
    conn: &mut PgConnection,
    col: &str,
    first: T,
    size: i64,
) -> Result<(Vec<usize>, Vec<String>), sqlx::Error>
where
    T: for<'a> Encode<'a, Postgres> + for<'r> Decode<'r, Postgres> + Type<Postgres> + Clone,
{
    let query = format!(
        "SELECT {0}, {0}::text AS t FROM orders WHERE {0} > $1 ORDER BY {0} LIMIT $2",
        col
    );
    let (mut sizes, mut keys, mut after) = (vec![], vec![], first);
    for _ in 0..5 {
        let rows = sqlx::query(sql(query.clone()))
            .bind(after.clone())
            .bind(size)
            .fetch_all(&mut *conn)
            .await?;
        sizes.push(rows.len());
        match rows.last() {
            None => break,
            Some(last) => after = last.try_get(0)?,
        }
        for r in &rows {
            keys.push(r.try_get::<String, _>(1)?);
        }
    }
    Ok((sizes, keys))
}

async fn column(conn: &mut PgConnection, col: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(sql(format!("SELECT {0}::text FROM orders ORDER BY {0}", col)))
        .fetch_all(conn)
        .await
}

async fn count(conn: &mut PgConnection, query: &str, args: PgArguments) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar_with(sql(query.to_string()), args).fetch_one(conn).await
}

async fn now(conn: &mut PgConnection) -> Result<DateTime<Utc>, sqlx::Error> {
    sqlx::query_scalar("SELECT clock_timestamp()").fetch_one(conn).await
}

/// The SQLSTATE and the PostgreSQL error of an sqlx::Error, when the server sent one.
fn db_error(err: &sqlx::Error) -> Option<(String, &PgDatabaseError)> {
    match err {
        sqlx::Error::Database(db) => Some((db.code()?.into_owned(), db.try_downcast_ref::<PgDatabaseError>()?)),
        _ => None,
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut t = Checks { count: 0, failed: 0 };
    if let Err(err) = body(&mut t).await {
        t.ok(false, "the program ran to its end", err);
    }
    println!("1..{}", t.count);
    std::process::exit(if t.failed > 0 { 1 } else { 0 });
}

async fn body(t: &mut Checks) -> Result<(), BoxDynError> {
    let mut conn = PgConnection::connect_with(&PgConnectOptions::new()).await?;
    let conn = &mut conn;
    t.ok(true, "connects through PgConnectOptions::new() (PGHOST and friends)", ());
    sqlx::raw_sql(
        "CREATE TABLE orders (
             id  ulid   PRIMARY KEY DEFAULT generate_ulid(),
             tid tsid   UNIQUE DEFAULT generate_tsid(),
             uid uuid   UNIQUE DEFAULT generate_uuidv7(),
             big bigint UNIQUE DEFAULT generate_tsid(),
             item text)",
    )
    .execute(&mut *conn)
    .await?;

    // What sqlx does with a type it has no Rust type for: checked by the column's type name.
    let row = sqlx::query("SELECT generate_ulid() AS id, generate_tsid() AS tid")
        .fetch_one(&mut *conn)
        .await?;
    let refused = |r: &Result<String, sqlx::Error>| {
        matches!(r, Err(sqlx::Error::ColumnDecode { source, .. }) if source.to_string().contains("mismatched types"))
    };
    let as_uuid = row.try_get::<Uuid, _>("id").map(|u| u.to_string());
    t.ok(
        refused(&as_uuid),
        "a ulid result does not read as uuid::Uuid (mismatched types: sqlx checks the type's name)",
        &as_uuid,
    );
    let as_string = row.try_get::<String, _>("id");
    t.ok(refused(&as_string), "a ulid result does not read as String", &as_string);
    let as_i64 = row.try_get::<i64, _>("tid").map(|n| n.to_string());
    t.ok(
        refused(&as_i64),
        "a tsid result does not read as i64 (it is not int8)",
        &as_i64,
    );
    let bare = sqlx::query("SELECT count(*) FROM orders WHERE id = $1")
        .bind("01JE7Q9AQZ1C7T3Y8V2W4M6N0P")
        .fetch_one(&mut *conn)
        .await;
    t.ok(
        matches!(&bare, Err(e) if db_error(e).map(|(code, _)| code) == Some("42883".into())),
        "a String parameter against a ulid column unconverted is ERROR 42883 (sqlx sends it as text, not unknown)",
        bare.map(|_| ()),
    );

    let start = now(conn).await?;
    // README sqlx-insert: begin
    let row = sqlx::query("INSERT INTO orders (item) VALUES ($1) RETURNING id, tid, uid, big")
        .bind("book")
        .fetch_one(&mut *conn)
        .await?;
    let (id, tid): (Ulid, Tsid) = (row.try_get("id")?, row.try_get("tid")?);
    let (uid, big): (Uuid, i64) = (row.try_get("uid")?, row.try_get("big")?);
    // binary: Ulid(16 bytes), Tsid(i64), a uuid::Uuid, an i64; and without the newtypes:
    let bytes: Vec<u8> = row.try_get_unchecked("id")?; // the 16 bytes
    let as_uuid: Uuid = row.try_get_unchecked("id")?; // the same bits as a uuid::Uuid
    let text = sqlx::raw_sql("SELECT id, tid, uid, big FROM orders WHERE item = 'book'")
        .fetch_one(&mut *conn)
        .await?;
    // text (raw_sql): text.try_get_unchecked::<String, _>("id") is "01JE7Q...", 26 characters;
    // text.try_get::<Ulid, _>("id") decodes them to the same Ulid
    // README sqlx-insert: end
    let end_insert = now(conn).await?;
    let ms = |d: DateTime<Utc>| d.timestamp_millis();
    let near = |t_ms: i64| t_ms >= ms(start) - 1000 && t_ms <= ms(end_insert) + 1000;
    t.ok(
        near((id.0.as_u128() >> 80) as i64),
        "INSERT RETURNING a ulid key reads as Ulid (binary), its first 48 bits the time",
        id,
    );
    t.ok(
        near((tid.0 >> 22) + 1577836800000),
        "INSERT RETURNING a tsid key reads as Tsid(i64) (binary), its top 42 bits ms since 2020",
        tid,
    );
    t.ok(
        near((uid.as_u128() >> 80) as i64) && uid.get_version_num() == 7,
        "INSERT RETURNING a generate_uuidv7() uuid key reads as a version-7 uuid::Uuid",
        uid,
    );
    t.ok(
        near((big >> 22) + 1577836800000),
        "INSERT RETURNING a bigint generate_tsid() key reads as i64",
        big,
    );
    t.ok(
        bytes.as_slice() == id.0.as_bytes() && as_uuid == id.0,
        "the binary ulid read unchecked is 16 bytes, and as uuid::Uuid the same bits",
        (&bytes, as_uuid, id),
    );
    let id_text: String = text.try_get_unchecked("id")?;
    let tid_text: String = text.try_get_unchecked("tid")?;
    t.ok(
        text.try_get_unchecked::<String, _>("id").is_ok() && id_text == ulid_text(id.0) && id_text.len() == 26,
        "the ulid in text (raw_sql) is the Crockford string of the binary 16 bytes",
        (&id_text, ulid_text(id.0)),
    );
    t.ok(
        tid_text == tsid_text(tid.0) && tid_text.len() == 13,
        "the tsid in text (raw_sql) is the Crockford string of the binary i64",
        (&tid_text, tsid_text(tid.0)),
    );
    let (text_id, text_tid) = (text.try_get::<Ulid, _>("id"), text.try_get::<Tsid, _>("tid"));
    t.ok(
        matches!((&text_id, &text_tid), (Ok(a), Ok(b)) if *a == id && *b == tid),
        "the text form decodes (the newtypes' text branch) to the binary values",
        (&text_id, &text_tid),
    );
    let text_uid: Uuid = text.try_get("uid")?;
    let text_big: i64 = text.try_get("big")?;
    t.ok(
        text_uid == uid && text_big == big,
        "the uuid and the bigint in text are the binary ones",
        (text_uid, text_big),
    );
    let text_as_uuid = text.try_get_unchecked::<Uuid, _>("id");
    t.ok(
        text_as_uuid.is_err(),
        "a text-format ulid does not read as uuid::Uuid (26 characters are no uuid): only binary gives the bytes",
        &text_as_uuid,
    );
    let cast: Uuid = sqlx::query_scalar("SELECT id::uuid FROM orders WHERE id = $1")
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
    t.ok(cast == id.0, "id::uuid reads as uuid::Uuid (checked), the same bits", (cast, id));

    // Parameters as Rust's own types, and as the newtypes.
    let id_string = ulid_text(id.0);
    let tid_i64 = tid.0;
    // README sqlx-find: begin
    // String, i64 and uuid::Uuid parameters: sqlx sends them as text, int8 and uuid;
    // the cross-type operators compare int8 and uuid with the keys, text needs ::ulid
    let found: Option<String> =
        sqlx::query_scalar("SELECT item FROM orders WHERE id = $1::ulid AND tid = $2 AND uid = $3 AND big = $4")
            .bind(&id_string)
            .bind(tid_i64)
            .bind(uid)
            .bind(big)
            .fetch_optional(&mut *conn)
            .await?;
    // the newtypes need no cast: WHERE id = $1 AND tid = $2 with .bind(id) (Ulid) and .bind(tid) (Tsid)
    // README sqlx-find: end
    t.ok(
        found.as_deref() == Some("book"),
        "String ulid, i64 tsid, uuid::Uuid and i64 bigint parameters find the row",
        &found,
    );
    let found: Option<String> = sqlx::query_scalar("SELECT item FROM orders WHERE id = $1 AND tid = $2 AND id = $3")
        .bind(id)
        .bind(tid)
        .bind(id.0)
        .fetch_optional(&mut *conn)
        .await?;
    t.ok(
        found.is_some(),
        "Ulid and Tsid parameters, and a uuid::Uuid against the ulid column, find the row",
        &found,
    );
    for (what, query, args) in [
        ("WHERE id = $1 with a Ulid", "SELECT item FROM orders WHERE id = $1", args1(id)),
        ("WHERE id = $1 with a uuid::Uuid", "SELECT item FROM orders WHERE id = $1", args1(id.0)),
        (
            "WHERE id = $1::ulid with a String",
            "SELECT item FROM orders WHERE id = $1::ulid",
            args1(id_string.clone()),
        ),
        ("WHERE tid = $1 with a Tsid", "SELECT item FROM orders WHERE tid = $1", args1(tid)),
        ("WHERE tid = $1 with an i64", "SELECT item FROM orders WHERE tid = $1", args1(tid_i64)),
    ] {
        let p = plan(conn, query, args).await;
        t.ok(
            matches!(&p, Ok(p) if p.contains("Index Cond")),
            &format!("{} uses the index", what),
            &p,
        );
    }

    // Client-made values in binary.
    let made = Uuid::parse_str("01890a5d-ac96-774b-bcce-b302099a8057")?;
    let made_tsid = 0x0CB5E3F2A1B2C3D4i64;
    sqlx::query("INSERT INTO orders (id, tid, uid, big, item) VALUES ($1, $2, $3, $4, 'made')")
        .bind(Ulid(made))
        .bind(Tsid(made_tsid))
        .bind(made)
        .bind(made_tsid)
        .execute(&mut *conn)
        .await?;
    let row = sqlx::query("SELECT id::text, tid::text FROM orders WHERE item = 'made'")
        .fetch_one(&mut *conn)
        .await?;
    let (a, b): (String, String) = (row.try_get(0)?, row.try_get(1)?);
    t.ok(
        a == ulid_text(made) && b == tsid_text(made_tsid),
        "Ulid and Tsid parameters store the same bits",
        (a, b),
    );
    sqlx::raw_sql("DELETE FROM orders WHERE item = 'made'").execute(&mut *conn).await?;

    // Two batches, a server time between them: keyset pages and time windows.
    let insert = "INSERT INTO orders (item) SELECT 'row ' || g FROM generate_series(1, $1) g";
    sqlx::query(insert).bind(14i32).execute(&mut *conn).await?;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mid = now(conn).await?;
    tokio::time::sleep(Duration::from_millis(20)).await;
    sqlx::query(insert).bind(15i32).execute(&mut *conn).await?;
    let end: DateTime<Utc> = sqlx::query_scalar("SELECT clock_timestamp() + interval '1 ms'")
        .fetch_one(&mut *conn)
        .await?;

    const PAGE_SIZE: i64 = 10;
    for col in ["id", "tid", "uid", "big"] {
        let want = column(conn, col).await?;
        let got = match col {
            "id" => pages(conn, col, Ulid(Uuid::nil()), PAGE_SIZE).await,
            "tid" => pages(conn, col, Tsid(i64::MIN), PAGE_SIZE).await,
            "uid" => pages(conn, col, Uuid::nil(), PAGE_SIZE).await,
            _ => pages(conn, col, i64::MIN, PAGE_SIZE).await,
        };
        t.ok(
            matches!(&got, Ok((sizes, keys)) if want.len() == 30 && sizes == &[10, 10, 10, 0] && keys == &want),
            &format!(
                "keyset pages on {}: 3 pages of {} hold every row once, in key order",
                col, PAGE_SIZE
            ),
            got.map(|g| g.0),
        );
    }
    let page = {
        // README sqlx-pages: begin
        let after = Ulid(Uuid::nil()); // below every ulid; then the last id of the page before
        let page: Vec<Ulid> = sqlx::query_scalar("SELECT id FROM orders WHERE id > $1 ORDER BY id LIMIT $2")
            .bind(after)
            .bind(PAGE_SIZE)
            .fetch_all(&mut *conn)
            .await?;
        // README sqlx-pages: end
        page
    };
    t.ok(page.len() == 10, "the recipe's first keyset page", page.len());

    let (from, to) = (mid, end);
    // README sqlx-window: begin
    // the rows made in [from, to): chrono DateTime<Utc> parameters, the key's own index answers
    let window = "SELECT id FROM orders WHERE id >= ulid_lower_bound($1) AND id < ulid_lower_bound($2)";
    let rows: Vec<Ulid> = sqlx::query_scalar(window).bind(from).bind(to).fetch_all(&mut *conn).await?;
    // tsid: tsid_lower_bound($1); uuid: uuidv7_lower_bound($1); bigint: tsid_lower_bound($1)::bigint
    // README sqlx-window: end
    t.ok(
        rows.len() == 15,
        "the recipe's window [mid, end) holds the second batch's 15 rows",
        rows.len(),
    );
    let p = plan(conn, window, args2(from, to)).await;
    t.ok(
        matches!(&p, Ok(p) if p.contains(" orders_pkey ") && p.contains("Index Cond: ((id >= ")),
        "the recipe's window reads the primary key's index, a range condition",
        &p,
    );
    for (col, lower, index) in [
        ("id", "ulid_lower_bound", "orders_pkey"),
        ("tid", "tsid_lower_bound", "orders_tid_key"),
        ("uid", "uuidv7_lower_bound", "orders_uid_key"),
        ("big", "tsid_lower_bound", "orders_big_key"),
    ] {
        let cast = if col == "big" { "::bigint" } else { "" };
        let q = format!(
            "SELECT count(*) FROM orders WHERE {0} >= {1}($1){2} AND {0} < {1}($2){2}",
            col, lower, cast
        );
        let mut counts = vec![];
        for (a, b) in [
            (start, end),
            (mid, end),
            (start, mid),
            (end, chrono_hours(end, 1)),
        ] {
            counts.push(count(conn, &q, args2(a, b)).await?);
        }
        t.ok(
            counts == [30, 15, 15, 0],
            &format!(
                "time windows on {} by {}(DateTime<Utc>){}: all, second batch, first batch, later",
                col, lower, cast
            ),
            &counts,
        );
        let p = plan(conn, &q, args2(mid, end)).await;
        t.ok(
            matches!(&p, Ok(p) if p.contains(&format!(" {} ", index)) && p.contains(&format!("Index Cond: (({} >= ", col))),
            &format!("the window on {} is an index scan of {}, a range condition", col, index),
            &p,
        );
    }
    let natural = "SELECT count(*) FROM orders WHERE ulid_timestamp(id) >= $1 AND ulid_timestamp(id) < $2";
    let n = count(conn, natural, args2(mid, end)).await?;
    let p = plan(conn, natural, args2(mid, end)).await;
    t.ok(
        n == 15 && matches!(&p, Ok(p) if p.contains(" orders_pkey ") && p.contains("Index Cond: ((id >= ")),
        "ulid_timestamp(id) >= $1 AND < $2 with DateTime<Utc> counts the same rows through the index",
        (n, &p),
    );

    // Bad text: the server's 22P02 as an sqlx::Error::Database.
    // README sqlx-error: begin
    let bad = "01JE7Q-not-a-ulid";
    let refused = match sqlx::query("SELECT item FROM orders WHERE id = $1::ulid")
        .bind(bad)
        .fetch_all(&mut *conn)
        .await
    {
        Err(sqlx::Error::Database(db)) if db.code().as_deref() == Some("22P02") => {
            db.try_downcast::<PgDatabaseError>().ok()
        }
        _ => None,
    };
    // refused.message(): invalid input syntax for type ulid: "01JE7Q-not-a-ulid"
    // refused.detail(): Some("Character \"-\" at position 7 is not a Crockford base32 symbol.")
    // README sqlx-error: end
    t.ok(matches!(&refused, Some(db) if db.code() == "22P02"
            && db.message() == "invalid input syntax for type ulid: \"01JE7Q-not-a-ulid\""
            && db.detail() == Some("Character \"-\" at position 7 is not a Crockford base32 symbol.")),
        "a bad ulid string is an sqlx::Error::Database with code 22P02, the message and detail the recipe shows", &refused);
    for (what, query, arg, hint) in [
        (
            "a decimal string as a tsid",
            "SELECT item FROM orders WHERE tid = $1::tsid",
            "915268788478279683",
            "::bigint",
        ),
        (
            "a bad uuid string",
            "SELECT item FROM orders WHERE uid = $1::uuid",
            "01JE7Q-not-a-uuid",
            "",
        ),
    ] {
        let got = sqlx::query(query).bind(arg).fetch_all(&mut *conn).await;
        let ok = matches!(&got, Err(e) if matches!(db_error(e), Some((code, db)) if code == "22P02"
            && db.hint().unwrap_or("").contains(hint)));
        let with_hint = if hint.is_empty() {
            String::new()
        } else {
            format!(" and a hint to use {}", hint)
        };
        t.ok(
            ok,
            &format!("{} is an sqlx::Error::Database with SQLSTATE 22P02{}", what, with_hint),
            got.map(|r: Vec<PgRow>| r.len()),
        );
    }
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM orders").fetch_one(&mut *conn).await?;
    t.ok(n == 30, "the connection serves the next query after the errors", n);
    Ok(())
}
/// h hours after d (sqlx re-exports chrono's DateTime, not its durations).
fn chrono_hours(d: DateTime<Utc>, h: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(d.timestamp_millis() + h * 3_600_000).expect("a time")
}
