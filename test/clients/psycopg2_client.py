"""psycopg2 against ulid and tsid. psycopg2 puts parameters into the query
text as literals (a str quoted, an int bare, a uuid.UUID as '...'::uuid) and
reads text: a ulid is its string; the README's typecaster reads a tsid as an int."""
import io
import uuid

import psycopg2
import psycopg2.extras

from checks import Checks, crockford_to_int, int_to_crockford, main_guard, tsid_text_to_int8

# README psycopg2: begin
import psycopg2.extensions
import psycopg2.extras

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def tsid_to_int(text, cur):
    """A tsid's 13 characters as the signed 64-bit int it is stored as."""
    if text is None:
        return None
    n = 0
    for c in text:
        n = n * 32 + CROCKFORD.index(c)
    return n - (1 << 64) if n >= 1 << 63 else n


def register_ulid_tsid(conn):
    """tsid and tsid[] read as int, ulid[] as a list of str; uuid.UUID parameters go as uuid."""
    psycopg2.extras.register_uuid(conn_or_curs=conn)
    cur = conn.cursor()
    cur.execute("SELECT 'tsid'::regtype::oid, 'tsid[]'::regtype::oid, 'ulid[]'::regtype::oid")
    tsid_oid, tsid_array_oid, ulid_array_oid = cur.fetchone()
    tsid = psycopg2.extensions.new_type((tsid_oid,), "TSID", tsid_to_int)
    for caster in (tsid, psycopg2.extensions.new_array_type((tsid_array_oid,), "TSID[]", tsid),
                   psycopg2.extensions.new_array_type((ulid_array_oid,), "ULID[]", psycopg2.STRING)):
        psycopg2.extensions.register_type(caster, conn)
# README psycopg2: end


def body(t):
    conn = psycopg2.connect("")   # PGHOST, PGPORT, ... as libpq reads them
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS orders, ku, ku_copy")
    cur.execute("""CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT generate_ulid(),
                                        tid tsid UNIQUE DEFAULT generate_tsid(), item text)""")
    cur.execute("CREATE TABLE ku (id ulid, tid tsid)")
    cur.execute("CREATE TABLE ku_copy (LIKE ku)")

    row = found = None
    try:
        # README psycopg2-usage: begin
        register_ulid_tsid(conn)
        cur = conn.cursor()
        cur.execute("INSERT INTO orders (item) VALUES ('book') RETURNING id, tid")
        row = cur.fetchone()         # ('01M8PZ...', 915268788478279683)
        cur.execute("SELECT item FROM orders WHERE id = %s AND tid = %s", row)
        found = cur.fetchone()       # a str and an int; a uuid.UUID works too
        # README psycopg2-usage: end
    except psycopg2.Error as exc:
        t.error("the README's usage lines run", exc)
    else:
        t.ok(True, "the README's usage lines run")
    cur = conn.cursor()
    cur.execute("SELECT id::uuid, tid::bigint FROM orders WHERE item = 'book'")
    as_uuid, as_int = cur.fetchone()
    t.ok(row is not None and isinstance(row[0], str) and uuid.UUID(int=crockford_to_int(row[0])) == as_uuid,
         "a default ulid reads as its 26-char string, the same 128 bits as its uuid", (row, as_uuid))
    t.ok(row is not None and row[1] == as_int, "a default tsid reads as the int of its int8 value", (row, as_int))
    t.ok(found == ("book",), "WHERE id = %s AND tid = %s with a str and an int finds the row", found)

    cur.execute("SET enable_seqscan = off")
    for what, q, arg in (("WHERE id = uuid.UUID", "SELECT item FROM orders WHERE id = %s", as_uuid),
                         ("WHERE tid = int", "SELECT item FROM orders WHERE tid = %s", as_int),
                         ("WHERE id = str", "SELECT item FROM orders WHERE id = %s", row and row[0])):
        try:
            cur.execute(q, [arg])
            got = cur.fetchall()
            cur.execute("EXPLAIN " + q, [arg])
            plan = "\n".join(r[0] for r in cur.fetchall())
            t.ok(got == [("book",)] and "Index" in plan, f"{what} finds the row and uses the index", (got, plan))
        except psycopg2.Error as exc:
            t.error(f"{what} finds the row and uses the index", exc)
    cur.execute("RESET enable_seqscan")

    made_uuid, made_int = uuid.UUID("01890a5d-ac96-774b-bcce-b302099a8057"), 0x0CB5E3F2A1B2C3D4
    cur.execute("INSERT INTO orders (id, tid, item) VALUES (%s, %s, 'made') RETURNING id, tid", [made_uuid, made_int])
    got = cur.fetchone()
    t.ok(got == (int_to_crockford(made_uuid.int, 26), made_int), "a uuid.UUID and an int inserted keep their bits", got)
    text_ulid, text_tsid = "01HQ3K9V8WZ1Y2X3W4V5T6S7R8", "0DXBG0DVMS8ER"
    cur.execute("INSERT INTO orders (id, tid, item) VALUES (%s, %s, 'text') RETURNING id, tid::text", [text_ulid, text_tsid])
    got = cur.fetchone()
    t.ok(got == (text_ulid, text_tsid), "Crockford strings as parameters round-trip", got)

    cur.execute("SELECT id, tid FROM orders ORDER BY id")
    rows = cur.fetchall()
    cur.execute("SELECT array_agg(id ORDER BY id), array_agg(tid ORDER BY id) FROM orders")
    got = cur.fetchone()
    t.ok(got == ([r[0] for r in rows], [r[1] for r in rows]), "ulid[] and tsid[] read as lists of str and int", got)
    try:
        cur.execute("SELECT count(*) FROM orders WHERE id = ANY(%s) AND tid = ANY(%s)",
                    [[uuid.UUID(int=crockford_to_int(r[0])) for r in rows], [r[1] for r in rows]])
        got = cur.fetchone()
        t.ok(got == (len(rows),), "= ANY(list of uuid.UUID) and = ANY(list of int)", got)
    except psycopg2.Error as exc:
        t.error("= ANY(list of uuid.UUID) and = ANY(list of int)", exc)

    cur.execute("INSERT INTO ku SELECT id, tid FROM orders")
    psycopg2.extras.register_composite("ku", conn)
    cur.execute("SELECT k FROM ku k ORDER BY id")
    got = [tuple(r[0]) for r in cur.fetchall()]
    t.ok(got == rows, "a composite row reads with its fields' typecasters", got)

    out = io.BytesIO()
    cur.copy_expert("COPY (SELECT id, tid FROM ku ORDER BY id) TO STDOUT (FORMAT BINARY)", out)
    data = out.getvalue()
    at, decoded = 19 + int.from_bytes(data[15:19], "big"), []
    while int.from_bytes(data[at:at + 2], "big", signed=True) == 2:
        at += 2
        fields = []
        for _ in range(2):
            n = int.from_bytes(data[at:at + 4], "big"); at += 4
            fields.append(data[at:at + n]); at += n
        decoded.append((int_to_crockford(int.from_bytes(fields[0], "big"), 26), int.from_bytes(fields[1], "big", signed=True)))
    t.ok(decoded == rows, "COPY TO STDOUT (FORMAT BINARY) gives 16 and 8 big-endian bytes per row", decoded)
    cur.copy_expert("COPY ku_copy FROM STDIN (FORMAT BINARY)", io.BytesIO(data))
    cur.execute("SELECT id, tid FROM ku_copy ORDER BY id")
    got = cur.fetchall()
    t.ok(got == rows, "COPY FROM STDIN (FORMAT BINARY) of those bytes writes the same rows", got)
    conn.close()


main_guard(Checks("psycopg2"), body)
