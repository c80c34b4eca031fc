"""asyncpg against ulid and tsid. asyncpg speaks the binary protocol; with no
codec it falls back to text for a bare ulid or tsid but cannot decode them
inside a composite or a ROW(), nor write them with copy_records_to_table. The
README's recipe maps them onto asyncpg's own uuid and int8 codecs."""
import asyncio
import io
import uuid

import asyncpg

from checks import Checks, crockford_to_int, int_to_crockford, main_guard, tsid_text_to_int8

# README asyncpg: begin
async def init_ulid_tsid(conn):
    """ulid as uuid.UUID, tsid as int: binary, like uuid and bigint."""
    await conn.set_builtin_type_codec("ulid", codec_name="uuid")
    await conn.set_builtin_type_codec("tsid", codec_name="int8")
# README asyncpg: end


async def expect_failure(t, what, coro):
    """Documents why the recipe is needed: this fails without it."""
    try:
        await coro
        t.ok(False, what, "it worked: the README's reason for the codec is out of date")
    except Exception as exc:  # noqa: BLE001 - asyncpg raises several kinds here
        t.ok(True, f"{what} ({type(exc).__name__})")


async def check(t, what, coro, expected):
    try:
        got = await coro
        t.ok(got == expected, what, got)
    except Exception as exc:  # noqa: BLE001 - the check's failure
        t.error(what, exc)


async def amain(t):
    plain = await asyncpg.connect()
    await plain.execute("DROP TABLE IF EXISTS orders, ku, ku_copy")
    await plain.execute("""CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT generate_ulid(),
                                                tid tsid UNIQUE DEFAULT generate_tsid(), item text)""")
    await plain.execute("CREATE TABLE ku (id ulid, tid tsid)")
    await plain.execute("CREATE TABLE ku_copy (LIKE ku)")

    # Without a codec: bare values arrive as text, so Crockford strings work
    # as parameters and results...
    text_id, text_tid = await plain.fetchrow("INSERT INTO orders (item) VALUES ('book') RETURNING id, tid")
    t.ok(isinstance(text_id, str) and len(text_id) == 26 and len(text_tid) == 13,
         "no codec: a default ulid and tsid read as their strings", (text_id, text_tid))
    await check(t, "no codec: Crockford strings work as parameters",
                plain.fetchval("SELECT item FROM orders WHERE id = $1 AND tid = $2", text_id, text_tid), "book")
    await plain.execute("INSERT INTO ku VALUES ($1, $2)", text_id, text_tid)
    # ...but not inside a composite or a ROW(), nor in copy_records_to_table.
    await expect_failure(t, "no codec: SELECT k FROM ku k fails", plain.fetchrow("SELECT k FROM ku k"))
    await expect_failure(t, "no codec: SELECT ROW(id, tid) fails", plain.fetchrow("SELECT ROW(id, tid) FROM ku"))
    await expect_failure(t, "no codec: copy_records_to_table fails",
                         plain.copy_records_to_table("ku", records=[(text_id, text_tid)]))
    await plain.close()

    # README asyncpg-usage: begin
    conn = await asyncpg.connect()   # or asyncpg.create_pool(init=init_ulid_tsid)
    await init_ulid_tsid(conn)
    row = await conn.fetchrow("INSERT INTO orders (item) VALUES ('pen') RETURNING id, tid")
    # <Record id=UUID('01a22df3-...') tid=915268788478279683>
    await conn.fetchval("SELECT item FROM orders WHERE id = $1 AND tid = $2", row["id"], row["tid"])
    await conn.copy_records_to_table("ku", records=[(row["id"], row["tid"])])
    # README asyncpg-usage: end

    made_id, made_tid = row["id"], row["tid"]
    texts = await conn.fetchrow("SELECT id::text, tid::text FROM orders WHERE item = 'pen'")
    t.ok(made_id == uuid.UUID(int=crockford_to_int(texts[0])), "codec: ulid reads as the uuid.UUID of its text's 128 bits", (made_id, texts))
    t.ok(made_tid == tsid_text_to_int8(texts[1]), "codec: tsid reads as the int of its text's 64 bits", (made_tid, texts))
    await check(t, "codec: uuid.UUID and int parameters find the row",
                conn.fetchval("SELECT item FROM orders WHERE id = $1 AND tid = $2", made_id, made_tid), "pen")

    client_id, client_tid = uuid.UUID("01890a5d-ac96-774b-bcce-b302099a8057"), 0x0CB5E3F2A1B2C3D4
    await conn.execute("INSERT INTO orders (id, tid, item) VALUES ($1, $2, 'client')", client_id, client_tid)
    await check(t, "codec: client-made uuid.UUID and int store the same bits",
                conn.fetchrow("SELECT id::text, tid::text FROM orders WHERE item = 'client'"),
                (int_to_crockford(client_id.int, 26), int_to_crockford(client_tid, 13)))

    # Parameters typed by the client as uuid and bigint (a uuid or bigint
    # column elsewhere, a query shared with one) compare with the key and use its index.
    await conn.execute("SET enable_seqscan = off")
    for what, q, arg in (("WHERE id = $1::uuid", "SELECT item FROM orders WHERE id = $1::uuid", client_id),
                         ("WHERE tid = $1::bigint", "SELECT item FROM orders WHERE tid = $1::bigint", client_tid)):
        await check(t, f"codec: {what} finds the row", conn.fetchval(q, arg), "client")
        try:
            plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN " + q, arg))
            t.ok("Index" in plan, f"codec: {what} uses the index", plan)
        except asyncpg.PostgresError as exc:
            t.error(f"codec: {what} uses the index", exc)
    await conn.execute("RESET enable_seqscan")

    rows = await conn.fetch("SELECT id, tid FROM orders ORDER BY id")
    ids, tids = [r["id"] for r in rows], [r["tid"] for r in rows]
    await check(t, "codec: ulid[] and tsid[] read as lists",
                conn.fetchrow("SELECT array_agg(id ORDER BY id), array_agg(tid ORDER BY id) FROM orders"), (ids, tids))
    await check(t, "codec: lists as ulid[] and tsid[] parameters",
                conn.fetchval("SELECT count(*) FROM orders WHERE id = ANY($1) AND tid = ANY($2)", ids, tids), len(ids))

    await conn.execute("TRUNCATE ku")
    await conn.copy_records_to_table("ku", records=[(r["id"], r["tid"]) for r in rows])
    await check(t, "codec: copy_records_to_table writes every row",
                conn.fetch("SELECT id, tid FROM ku ORDER BY id"), [tuple(r) for r in rows])
    await check(t, "codec: SELECT k FROM ku k reads the composite",
                conn.fetch("SELECT k FROM ku k ORDER BY id"), [(tuple(r),) for r in rows])
    await check(t, "codec: ROW(id, tid) reads",
                conn.fetch("SELECT ROW(id, tid) FROM ku ORDER BY id"), [(tuple(r),) for r in rows])
    await check(t, "codec: a composite as a parameter",
                conn.fetchval("SELECT count(*) FROM ku k WHERE k = $1::ku", tuple(rows[0])), 1)

    out = io.BytesIO()
    await conn.copy_from_query("SELECT id, tid FROM ku", output=out, format="binary")
    await conn.copy_to_table("ku_copy", source=io.BytesIO(out.getvalue()), format="binary")
    await check(t, "COPY BINARY out of one table and into another keeps every row",
                conn.fetch("SELECT id, tid FROM ku_copy ORDER BY id"), [tuple(r) for r in rows])
    await conn.close()


main_guard(Checks("asyncpg"), lambda t: asyncio.run(amain(t)))
