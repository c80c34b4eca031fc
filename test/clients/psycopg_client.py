"""psycopg 3 against ulid and tsid: what the README's psycopg recipe promises,
run for real. Text format is psycopg's default: ulid and tsid come back as
their Crockford strings. With the recipe's binary loaders, a binary cursor
gives uuid.UUID and int; the dumpers let COPY BINARY write them."""
import datetime
import uuid

import psycopg
from psycopg.types.composite import CompositeInfo, register_composite

from checks import Checks, crockford_to_int, int_to_crockford, main_guard, tsid_text_to_int8

# README psycopg: begin
from psycopg.types import TypeInfo
from psycopg.types.numeric import Int8BinaryDumper, Int8BinaryLoader
from psycopg.types.uuid import UUIDBinaryDumper, UUIDBinaryLoader


def register_ulid_tsid(conn):
    """Binary results: ulid as uuid.UUID, tsid as int; COPY BINARY writes them."""
    for name, loader, dumper in (("ulid", UUIDBinaryLoader, UUIDBinaryDumper),
                                 ("tsid", Int8BinaryLoader, Int8BinaryDumper)):
        info = TypeInfo.fetch(conn, name)
        info.register(conn)  # the name and its array type
        conn.adapters.register_loader(info.oid, loader)
        conn.adapters.register_dumper(None, type(name, (dumper,), {"oid": info.oid}))
# README psycopg: end


def check_index(t, conn, what, query, params):
    """The query runs with these parameters and its plan reads the index."""
    try:
        conn.execute("SET enable_seqscan = off")
        plan = "\n".join(r[0] for r in conn.execute("EXPLAIN " + query, params))
        t.ok("Index" in plan, what, plan)
    except psycopg.Error as exc:
        t.error(what, exc)
    finally:
        conn.execute("RESET enable_seqscan")


def body(t):
    conn = psycopg.connect(autocommit=True)   # PGHOST, PGPORT, ... as libpq reads them
    conn.execute("DROP TABLE IF EXISTS lines, orders, ku, bag")

    found = None
    try:
        # README psycopg-usage: begin
        register_ulid_tsid(conn)
        conn.execute("""CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT generate_ulid(),
                                             tid tsid UNIQUE DEFAULT generate_tsid(), item text)""")
        text_row = conn.execute("INSERT INTO orders (item) VALUES ('book') RETURNING id, tid").fetchone()
        # ('01M8...', '0SCZ...'): text format, the Crockford strings
        binary_row = conn.cursor(binary=True).execute("SELECT id, tid FROM orders").fetchone()
        # (UUID('01a22df3-...'), 915268788478279683): uuid.UUID and int
        found = conn.execute("SELECT item FROM orders WHERE id = %s AND tid = %s", binary_row).fetchone()
        # a uuid.UUID and an int as parameters: the index is used
        # README psycopg-usage: end
    except psycopg.Error as exc:
        t.error("the README's usage lines run", exc)
    else:
        t.ok(True, "the README's usage lines run")

    t.ok(isinstance(text_row[0], str) and len(text_row[0]) == 26, "default ulid read in text format is its 26-char string", text_row)
    t.ok(isinstance(text_row[1], str) and len(text_row[1]) == 13, "default tsid read in text format is its 13-char string", text_row)
    t.ok(binary_row[0] == uuid.UUID(int=crockford_to_int(text_row[0])),
         "binary ulid loads as the uuid.UUID of the same 128 bits as its text", (text_row, binary_row))
    t.ok(binary_row[1] == tsid_text_to_int8(text_row[1]),
         "binary tsid loads as the int of the same 64 bits as its text", (text_row, binary_row))
    t.ok(found == ("book",), "WHERE id = uuid.UUID AND tid = int finds the row", found)

    for label, fmt in (("text", "%s"), ("binary", "%b")):
        check_index(t, conn, f"WHERE id = uuid.UUID as a {label} parameter uses the index",
                    f"SELECT item FROM orders WHERE id = {fmt}", [binary_row[0]])
        check_index(t, conn, f"WHERE tid = int as a {label} parameter uses the index",
                    f"SELECT item FROM orders WHERE tid = {fmt}", [binary_row[1]])

    # psycopg sends a small int as int2; the operator must exist for it too.
    t.run("a small int (sent as int2) compares with tsid", lambda: t.ok(
        conn.execute("SELECT count(*) FROM orders WHERE tid > %s", [5]).fetchone() == (1,),
        "a small int (sent as int2) compares with tsid"))

    # Client-made values: Crockford strings as text parameters, uuid.UUID and
    # int as binary parameters.
    made_ulid = uuid.UUID("01890a5d-ac96-774b-bcce-b302099a8057")
    made_tsid = 0x0CB5E3F2A1B2C3D4
    ulid_text, tsid_text = int_to_crockford(made_ulid.int, 26), int_to_crockford(made_tsid, 13)
    conn.execute("INSERT INTO orders (id, tid, item) VALUES (%s, %s, 'text params')", [ulid_text, tsid_text])
    got = conn.execute("SELECT id, tid FROM orders WHERE item = 'text params'").fetchone()
    t.ok(got == (ulid_text, tsid_text), "Crockford strings as text parameters round-trip", got)
    conn.execute("DELETE FROM orders WHERE item = 'text params'")
    conn.execute("INSERT INTO orders (id, tid, item) VALUES (%b, %b, 'binary params')", [made_ulid, made_tsid])
    got = conn.execute("SELECT id, tid FROM orders WHERE item = 'binary params'").fetchone()
    t.ok(got == (ulid_text, tsid_text), "uuid.UUID and int as binary parameters store the same bits", got)
    got = conn.cursor(binary=True).execute("SELECT id, tid FROM orders WHERE item = 'binary params'").fetchone()
    t.ok(got == (made_ulid, made_tsid), "and read back in binary as the same uuid.UUID and int", got)

    # Arrays, both directions.
    ids = [r for r in conn.cursor(binary=True).execute("SELECT id, tid FROM orders ORDER BY id")]
    arr = conn.cursor(binary=True).execute("SELECT array_agg(id ORDER BY id), array_agg(tid ORDER BY id) FROM orders").fetchone()
    t.ok(arr == ([r[0] for r in ids], [r[1] for r in ids]), "binary ulid[] and tsid[] load as lists of uuid.UUID and int", arr)
    arr = conn.execute("SELECT array_agg(id ORDER BY id), array_agg(tid ORDER BY id) FROM orders").fetchone()
    t.ok(arr == ([int_to_crockford(r[0].int, 26) for r in ids], [int_to_crockford(r[1] % (1 << 64), 13) for r in ids]),
         "text ulid[] and tsid[] load as lists of strings", arr)
    t.run("WHERE id = ANY(list of uuid.UUID) and tid = ANY(list of int)", lambda: t.ok(
        conn.execute("SELECT count(*) FROM orders WHERE id = ANY(%s) AND tid = ANY(%s)",
                     [[r[0] for r in ids], [r[1] for r in ids]]).fetchone() == (len(ids),),
        "WHERE id = ANY(list of uuid.UUID) and tid = ANY(list of int)"))
    conn.execute("CREATE TABLE bag (ids ulid[], tids tsid[])")
    conn.execute("INSERT INTO bag VALUES (%b, %b)", [[r[0] for r in ids], [r[1] for r in ids]])
    got = conn.cursor(binary=True).execute("SELECT ids, tids FROM bag").fetchone()
    t.ok(got == ([r[0] for r in ids], [r[1] for r in ids]), "lists of uuid.UUID and int stored into ulid[] and tsid[]", got)

    # A composite row holding both.
    conn.execute("CREATE TABLE ku (id ulid, tid tsid)")
    conn.execute("INSERT INTO ku SELECT id, tid FROM orders")
    register_composite(CompositeInfo.fetch(conn, "ku"), conn)
    rows = conn.cursor(binary=True).execute("SELECT k FROM ku k ORDER BY id").fetchall()
    t.ok([tuple(r[0]) for r in rows] == [tuple(r) for r in ids], "binary composite row loads its ulid and tsid fields", rows)
    rows = conn.execute("SELECT k FROM ku k ORDER BY id").fetchall()
    t.ok([(r[0].id, r[0].tid) for r in rows] == [(int_to_crockford(a.int, 26), int_to_crockford(b % (1 << 64), 13)) for a, b in ids],
         "text composite row loads its fields as strings", rows)

    # COPY BINARY both ways.
    conn.execute("TRUNCATE ku")
    with conn.cursor().copy("COPY ku (id, tid) FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(["ulid", "tsid"])
        for r in ids:
            copy.write_row(r)
    got = conn.execute("SELECT id, tid FROM ku ORDER BY id").fetchall()
    t.ok(got == [(int_to_crockford(a.int, 26), int_to_crockford(b % (1 << 64), 13)) for a, b in ids],
         "COPY FROM STDIN (FORMAT BINARY) writes uuid.UUID and int rows", got)
    with conn.cursor().copy("COPY ku (id, tid) TO STDOUT (FORMAT BINARY)") as copy:
        copy.set_types(["ulid", "tsid"])
        got = sorted(copy.rows())
    t.ok(got == sorted(ids), "COPY TO STDOUT (FORMAT BINARY) reads them back", got)

    # Existing uuid and bigint columns may reference the keys; a client's
    # uuid.UUID and int fill them.
    try:
        conn.execute("CREATE TABLE lines (order_id uuid REFERENCES orders (id), order_tid bigint REFERENCES orders (tid))")
        conn.execute("INSERT INTO lines VALUES (%s, %s)", ids[0])
        t.ok(conn.execute("SELECT count(*) FROM lines JOIN orders ON id = order_id AND tid = order_tid").fetchone() == (1,),
             "uuid and bigint foreign keys to ulid and tsid keys take uuid.UUID and int values")
        try:
            conn.execute("INSERT INTO lines VALUES (%s, NULL)", [uuid.UUID(int=1)])
            t.ok(False, "a uuid.UUID with no matching ulid is refused (23503)", "accepted")
        except psycopg.errors.ForeignKeyViolation:
            t.ok(True, "a uuid.UUID with no matching ulid is refused (23503)")
    except psycopg.Error as exc:
        t.error("uuid and bigint foreign keys to ulid and tsid keys take uuid.UUID and int values", exc)

    # A timestamp parameter as a key bound (timestamptz -> ulid and -> tsid).
    since = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)
    t.run("timestamptz parameter cast to ulid and tsid bounds a time window", lambda: t.ok(
        conn.execute("SELECT count(*) FROM orders WHERE id >= %s::ulid AND tid >= %s::tsid", [since, since]).fetchone() == (1,),
        "timestamptz parameter cast to ulid and tsid bounds a time window"))
    t.run("timestamptz::tsid is tsid_lower_bound", lambda: t.ok(
        conn.execute("SELECT %s::tsid = tsid_lower_bound(%s)", [since, since]).fetchone() == (True,),
        "timestamptz::tsid is tsid_lower_bound"))
    conn.close()


main_guard(Checks("psycopg"), body)
