//! tokio-postgres against ulid, tsid, uuid (UUIDv7) and bigint (TSID) keys: docs/clients.md's
//! Rust recipes, run for real. Prints "ok N" / "not ok N" lines (scripts/suites/clients.sh).
//! Build with Debian's librust-tokio-postgres-dev, offline (.cargo/config.toml points cargo
//! at /usr/share/cargo/registry): `cargo build --offline`. Run with PGHOST, PGPORT, PGUSER,
//! PGDATABASE set (a socket directory works for PGHOST).
//! tokio-postgres reads every result in binary and checks each Rust type against the column's
//! type: a ulid or tsid reads through two newtypes over uuid's 16 bytes and int8's 8, or as text.
use std::fmt::Debug;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio_postgres::error::{DbError, SqlState};
use tokio_postgres::{Client, NoTls, SimpleQueryMessage};
use uuid::Uuid;

// README rust: begin
use std::error::Error;

use bytes::BytesMut;
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};

/// A ulid in binary: uuid's 16 bytes, held as a uuid::Uuid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ulid(pub Uuid);

/// A tsid in binary: int8's 8 bytes, held as an i64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tsid(pub i64);

impl<'a> FromSql<'a> for Ulid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        Ok(Ulid(Uuid::from_slice(raw)?))
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid"
    }
}

impl ToSql for Ulid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(self.0.as_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid"
    }
    to_sql_checked!();
}

impl<'a> FromSql<'a> for Tsid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        Ok(Tsid(i64::from_be_bytes(raw.try_into()?)))
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "tsid"
    }
}

impl ToSql for Tsid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.0.to_be_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "tsid"
    }
    to_sql_checked!();
}
// README rust: end

/// Prints one "ok N - tokio-postgres: what" or "not ok N ..." line per check.
struct Checks {
    count: u32,
    failed: u32,
}

impl Checks {
    fn ok(&mut self, cond: bool, what: &str, detail: impl Debug) -> bool {
        self.count += 1;
        if cond {
            println!("ok {} - tokio-postgres: {}", self.count, what);
        } else {
            self.failed += 1;
            println!("not ok {} - tokio-postgres: {}", self.count, what);
            println!("#   got: {}", format!("{:?}", detail).replace("\\n", "\n#   "));
        }
        cond
    }
}

const CROCKFORD: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The number a ulid's (26) or tsid's (13) text stands for, decoded here: the oracle for
/// text against binary.
fn crockford(text: &str) -> Option<u128> {
    text.bytes().try_fold(0u128, |n, c| {
        CROCKFORD.iter().position(|&d| d == c).map(|d| n << 5 | d as u128)
    })
}

fn ulid_text(u: Uuid) -> String {
    let n = u.as_u128();
    (0..26)
        .map(|i| CROCKFORD[(n >> (125 - 5 * i) & 31) as usize] as char)
        .collect()
}

fn millis(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH).unwrap().as_millis() as i64
}

/// The server's config from PGHOST, PGPORT, PGUSER, PGDATABASE (tokio-postgres reads none).
fn config() -> tokio_postgres::Config {
    let mut config = tokio_postgres::Config::new();
    let env = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.to_string());
    config
        .host(&env("PGHOST", "/var/run/postgresql")) // a directory: its Unix socket
        .port(env("PGPORT", "5432").parse().expect("PGPORT"))
        .user(&env("PGUSER", "postgres"))
        .dbname(&env("PGDATABASE", "postgres"));
    config
}

/// The EXPLAIN of query with params, sequential scans off (the table is small).
async fn plan(client: &Client, query: &str, params: &[&(dyn ToSql + Sync)]) -> Result<String, tokio_postgres::Error> {
    client.batch_execute("SET enable_seqscan = off").await?;
    let rows = client.query(format!("EXPLAIN {}", query).as_str(), params).await;
    client.batch_execute("RESET enable_seqscan").await?;
    Ok(rows?
        .iter()
        .map(|r| r.get::<_, String>(0))
        .collect::<Vec<_>>()
        .join("\n"))
}

/// Keyset pages of `size` on column col, each page's last key (read as T) the next one's
/// parameter: the sizes of the pages up to the first empty one, and the keys as text.
async fn pages<T>(
    client: &Client,
    col: &str,
    first: T,
    size: i64,
) -> Result<(Vec<usize>, Vec<String>), tokio_postgres::Error>
where
    T: ToSql + Sync + for<'a> FromSql<'a>,
{
    let query = format!(
        "SELECT {0}, {0}::text AS t FROM orders WHERE {0} > $1 ORDER BY {0} LIMIT $2",
        col
    );
    let (mut sizes, mut keys, mut after) = (vec![], vec![], first);
    for _ in 0..5 {
        let rows = client.query(query.as_str(), &[&after, &size]).await?;
        sizes.push(rows.len());
        match rows.last() {
            None => break,
            Some(last) => after = last.get(0),
        }
        keys.extend(rows.iter().map(|r| r.get::<_, String>(1)));
    }
    Ok((sizes, keys))
}

async fn column(client: &Client, col: &str) -> Result<Vec<String>, tokio_postgres::Error> {
    let rows = client
        .query(format!("SELECT {0}::text FROM orders ORDER BY {0}", col).as_str(), &[])
        .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
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

async fn body(t: &mut Checks) -> Result<(), Box<dyn Error>> {
    let (client, connection) = config().connect(NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            eprintln!("connection error: {}", e);
        }
    });
    t.ok(true, "connects through PGHOST and friends", ());
    client
        .batch_execute(
            "CREATE TABLE orders (
                 id  ulid   PRIMARY KEY DEFAULT generate_ulid(),
                 tid tsid   UNIQUE DEFAULT generate_tsid(),
                 uid uuid   UNIQUE DEFAULT generate_uuidv7(),
                 big bigint UNIQUE DEFAULT generate_tsid(),
                 item text)",
        )
        .await?;

    // What tokio-postgres does with a type it has no Rust type for.
    let row = client.query_one("SELECT generate_ulid(), generate_tsid()", &[]).await?;
    let as_string = row.try_get::<_, String>(0);
    t.ok(
        as_string.is_err(),
        "a ulid result does not read as String (binary results, type checked)",
        &as_string,
    );
    let as_i64 = row.try_get::<_, i64>(1);
    t.ok(
        as_i64.is_err(),
        "a tsid result does not read as i64 (it is not int8)",
        &as_i64,
    );
    let bare = client.query("SELECT $1::ulid", &[&"01JE7Q9AQZ1C7T3Y8V2W4M6N0P"]).await;
    t.ok(
        matches!(&bare, Err(err) if err.code().is_none() && err.to_string().contains("`&str`")),
        "a &str for a bare ulid parameter is refused by the client, before the server (it is not text)",
        bare.map(|_| ()),
    );

    let start: SystemTime = client.query_one("SELECT clock_timestamp()", &[]).await?.get(0);
    let before = SystemTime::now();
    // README rust-insert: begin
    let row = client
        .query_one(
            "INSERT INTO orders (item) VALUES ($1) RETURNING id, tid, uid, big",
            &[&"book"],
        )
        .await?;
    let (id, tid): (Ulid, Tsid) = (row.get("id"), row.get("tid"));
    let (uid, big): (Uuid, i64) = (row.get("uid"), row.get("big"));
    // binary: Ulid(16 bytes), Tsid(i64), a uuid::Uuid, an i64
    let text: Vec<_> = client
        .simple_query("SELECT id, tid, uid, big FROM orders WHERE item = 'book'")
        .await?
        .into_iter()
        .filter_map(|m| match m {
            SimpleQueryMessage::Row(row) => Some(row),
            _ => None,
        })
        .collect();
    // text (simple_query): text[0].get("id") is Some("01JE7Q..."), 26 characters;
    // text[0].get("tid") is Some("0K8ZP2X3W1A5C"), 13
    // README rust-insert: end
    if let Some(row) = text.first() {
        let (id_text, tid_text) = (row.get("id"), row.get("tid"));
        let near = |ms: i64| ms >= millis(before) - 1000 && ms <= millis(SystemTime::now()) + 1000;
        t.ok(
            near((id.0.as_u128() >> 80) as i64),
            "INSERT RETURNING a ulid key reads as Ulid, its first 48 bits the time",
            id,
        );
        t.ok(
            near((tid.0 >> 22) + 1577836800000),
            "INSERT RETURNING a tsid key reads as Tsid(i64), its top 42 bits ms since 2020",
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
            id_text.map(|s| s.len() == 26 && crockford(s) == Some(id.0.as_u128())) == Some(true),
            "the ulid in text format is the Crockford string of the same 128 bits",
            (id_text, id),
        );
        t.ok(
            tid_text.map(|s| s.len() == 13 && crockford(s) == Some(tid.0 as u64 as u128)) == Some(true),
            "the tsid in text format is the Crockford string of the same i64",
            (tid_text, tid),
        );
        t.ok(
            row.get("uid") == Some(uid.to_string().as_str()),
            "the uuid in text format is the same uuid",
            (row.get("uid"), uid),
        );
        t.ok(
            row.get("big") == Some(big.to_string().as_str()),
            "the bigint in text format is the same i64",
            (row.get("big"), big),
        );
    } else {
        t.ok(false, "simple_query gives the row in text", &text.len());
    }
    let cast: String = client
        .query_one("SELECT id::text FROM orders WHERE id = $1", &[&id])
        .await?
        .get(0);
    t.ok(cast == ulid_text(id.0), "id::text reads as String", (&cast, id));

    // Parameters as Rust's own types, and as the newtypes.
    let id_text = ulid_text(id.0);
    let id_text = id_text.as_str();
    let tid_i64 = tid.0;
    let found = {
        // README rust-find: begin
        // &str, i64 and uuid::Uuid parameters: the SQL names their types, the operators do the rest
        let found = client
            .query_opt(
                "SELECT item FROM orders WHERE id = $1::text::ulid AND tid = $2::bigint AND uid = $3 AND big = $4",
                &[&id_text, &tid_i64, &uid, &big],
            )
            .await?;
        // the newtypes need no cast: WHERE id = $1 AND tid = $2 with &id (Ulid) and &tid (Tsid)
        // README rust-find: end
        found
    };
    t.ok(
        found.map(|r| r.get::<_, String>(0)) == Some("book".into()),
        "&str ulid, i64 tsid, uuid::Uuid and i64 bigint parameters find the row",
        (),
    );
    let found = client
        .query_opt(
            "SELECT item FROM orders WHERE id = $1 AND tid = $2 AND id = $3::uuid",
            &[&id, &tid, &id.0],
        )
        .await?;
    t.ok(
        found.is_some(),
        "Ulid and Tsid parameters, and a uuid::Uuid compared as uuid, find the row",
        (),
    );
    for (what, query, param) in [
        (
            "WHERE id = $1 with a Ulid",
            "SELECT item FROM orders WHERE id = $1",
            &id as &(dyn ToSql + Sync),
        ),
        (
            "WHERE id = $1::uuid with a uuid::Uuid",
            "SELECT item FROM orders WHERE id = $1::uuid",
            &id.0,
        ),
        (
            "WHERE id = $1::text::ulid with a &str",
            "SELECT item FROM orders WHERE id = $1::text::ulid",
            &id_text,
        ),
        (
            "WHERE tid = $1 with a Tsid",
            "SELECT item FROM orders WHERE tid = $1",
            &tid,
        ),
        (
            "WHERE tid = $1::bigint with an i64",
            "SELECT item FROM orders WHERE tid = $1::bigint",
            &tid_i64,
        ),
    ] {
        let p = plan(&client, query, &[param]).await;
        t.ok(
            matches!(&p, Ok(p) if p.contains("Index Cond")),
            &format!("{} uses the index", what),
            &p,
        );
    }

    // Client-made values in binary.
    let made = Uuid::parse_str("01890a5d-ac96-774b-bcce-b302099a8057")?;
    let made_tsid = 0x0CB5E3F2A1B2C3D4i64;
    client
        .execute(
            "INSERT INTO orders (id, tid, uid, big, item) VALUES ($1, $2, $3, $4, 'made')",
            &[&Ulid(made), &Tsid(made_tsid), &made, &made_tsid],
        )
        .await?;
    let row = client
        .query_one("SELECT id::text, tid::text FROM orders WHERE item = 'made'", &[])
        .await?;
    let (a, b): (String, String) = (row.get(0), row.get(1));
    t.ok(
        a == ulid_text(made) && crockford(&b) == Some(made_tsid as u64 as u128),
        "Ulid and Tsid parameters store the same bits",
        (a, b),
    );
    client.execute("DELETE FROM orders WHERE item = 'made'", &[]).await?;

    // Two batches, a server time between them: keyset pages and time windows.
    let insert = "INSERT INTO orders (item) SELECT 'row ' || g FROM generate_series(1, $1) g";
    client.execute(insert, &[&14i32]).await?;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mid: SystemTime = client.query_one("SELECT clock_timestamp()", &[]).await?.get(0);
    tokio::time::sleep(Duration::from_millis(20)).await;
    client.execute(insert, &[&15i32]).await?;
    let end: SystemTime = client
        .query_one("SELECT clock_timestamp() + interval '1 ms'", &[])
        .await?
        .get(0);

    const PAGE_SIZE: i64 = 10;
    for col in ["id", "tid", "uid", "big"] {
        let want = column(&client, col).await?;
        let got = match col {
            "id" => pages(&client, col, Ulid(Uuid::nil()), PAGE_SIZE).await,
            "tid" => pages(&client, col, Tsid(i64::MIN), PAGE_SIZE).await,
            "uid" => pages(&client, col, Uuid::nil(), PAGE_SIZE).await,
            _ => pages(&client, col, i64::MIN, PAGE_SIZE).await,
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
        // README rust-pages: begin
        let after = Ulid(Uuid::nil()); // below every ulid; then the last id of the page before
        let page: Vec<Ulid> = client
            .query(
                "SELECT id FROM orders WHERE id > $1 ORDER BY id LIMIT $2",
                &[&after, &PAGE_SIZE],
            )
            .await?
            .iter()
            .map(|row| row.get(0))
            .collect();
        // README rust-pages: end
        page
    };
    t.ok(page.len() == 10, "the recipe's first keyset page", page.len());

    let (from, to) = (mid, end);
    // README rust-window: begin
    // the rows made in [from, to): SystemTime parameters, the key's own index answers
    let window = "SELECT id FROM orders WHERE id >= ulid_lower_bound($1) AND id < ulid_lower_bound($2)";
    let rows = client.query(window, &[&from, &to]).await?;
    // tsid: tsid_lower_bound($1); uuid: uuidv7_lower_bound($1); bigint: tsid_lower_bound($1)::bigint
    // README rust-window: end
    t.ok(
        rows.len() == 15,
        "the recipe's window [mid, end) holds the second batch's 15 rows",
        rows.len(),
    );
    let p = plan(&client, window, &[&from, &to]).await;
    t.ok(
        matches!(&p, Ok(p) if p.contains(" orders_pkey ") && p.contains("Index Cond: ((id >= ")),
        "the recipe's window reads the primary key's index",
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
            (end, end + Duration::from_secs(3600)),
        ] {
            counts.push(client.query_one(q.as_str(), &[&a, &b]).await?.get::<_, i64>(0));
        }
        t.ok(
            counts == [30, 15, 15, 0],
            &format!(
                "time windows on {} by {}(SystemTime){}: all, second batch, first batch, later",
                col, lower, cast
            ),
            &counts,
        );
        let p = plan(&client, &q, &[&mid, &end]).await;
        t.ok(
            matches!(&p, Ok(p) if p.contains(&format!(" {} ", index)) && p.contains("Index Cond")),
            &format!("the window on {} is an index scan of {}", col, index),
            &p,
        );
    }
    let natural = "SELECT count(*) FROM orders WHERE ulid_timestamp(id) >= $1 AND ulid_timestamp(id) < $2";
    let n: i64 = client.query_one(natural, &[&mid, &end]).await?.get(0);
    let p = plan(&client, natural, &[&mid, &end]).await;
    t.ok(
        n == 15 && matches!(&p, Ok(p) if p.contains(" orders_pkey ") && p.contains("Index Cond: ((id >= ")),
        "ulid_timestamp(id) >= $1 AND < $2 with SystemTime counts the same rows through the index",
        (n, &p),
    );

    // Bad text: the server's 22P02 as a tokio_postgres::Error.
    // README rust-error: begin
    let bad = "01JE7Q-not-a-ulid";
    let refused: Option<DbError> = match client
        .query("SELECT item FROM orders WHERE id = $1::text::ulid", &[&bad])
        .await
    {
        Err(err) if err.code() == Some(&SqlState::INVALID_TEXT_REPRESENTATION) => err.as_db_error().cloned(),
        _ => None,
    };
    // refused.message(): invalid input syntax for type ulid: "01JE7Q-not-a-ulid"
    // refused.detail(): Some("Character \"-\" at position 7 is not a Crockford base32 symbol.")
    // README rust-error: end
    t.ok(matches!(&refused, Some(db) if db.code().code() == "22P02"
            && db.message() == "invalid input syntax for type ulid: \"01JE7Q-not-a-ulid\""
            && db.detail() == Some("Character \"-\" at position 7 is not a Crockford base32 symbol.")),
        "a bad ulid string is a tokio_postgres::Error with SqlState::INVALID_TEXT_REPRESENTATION, the message and detail the recipe shows", &refused);
    for (what, query, arg, hint) in [
        (
            "a decimal string as a tsid",
            "SELECT item FROM orders WHERE tid = $1::text::tsid",
            "915268788478279683",
            "::bigint",
        ),
        (
            "a bad uuid string",
            "SELECT item FROM orders WHERE uid = $1::text::uuid",
            "01JE7Q-not-a-uuid",
            "",
        ),
    ] {
        let got = client.query(query, &[&arg]).await;
        let ok = matches!(&got, Err(err) if err.code() == Some(&SqlState::INVALID_TEXT_REPRESENTATION)
            && err.as_db_error().and_then(|d| d.hint()).unwrap_or("").contains(hint));
        let with_hint = if hint.is_empty() {
            String::new()
        } else {
            format!(" and a hint to use {}", hint)
        };
        t.ok(
            ok,
            &format!("{} is a tokio_postgres::Error with SQLSTATE 22P02{}", what, with_hint),
            got.map(|r| r.len()),
        );
    }
    let n: i64 = client.query_one("SELECT count(*) FROM orders", &[]).await?.get(0);
    t.ok(n == 30, "the connection serves the next query after the errors", n);
    Ok(())
}
