"""SQLAlchemy and Alembic (Debian's python3-sqlalchemy, python3-alembic: 1.4 on
bookworm, 2.0 on trixie and sid) against ulid_tsid's keys: the tables made by an
Alembic migration (migrations/versions), a key the database makes read back by the
INSERT itself, finds, joins, keyset pages, a time window through func with its index,
serialisation round trips, reflection, and the types' edge cases; on 2.0, the same
tables in the typed mapping (models_typed.py). Prints "ok N" / "not ok N" lines
(scripts/suites/orms.sh counts them).
  PGHOST=... PGPORT=... PGUSER=... PGDATABASE=... /usr/bin/python3 sqlalchemy_orm.py"""
import datetime
import json
import pathlib
import sys
import uuid
import warnings

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "clients"))
from checks import Checks, main_guard  # noqa: E402

import sqlalchemy  # noqa: E402
from alembic import command  # noqa: E402
from alembic.autogenerate import compare_metadata  # noqa: E402
from alembic.config import Config  # noqa: E402
from alembic.migration import MigrationContext  # noqa: E402
from sqlalchemy import (BigInteger, Column, MetaData, Table, Text, cast, create_engine, event, exc,  # noqa: E402
                        func, inspect, select, text)
from sqlalchemy.dialects.postgresql.base import ischema_names  # noqa: E402
from sqlalchemy.orm import Session, declarative_base  # noqa: E402
from sqlalchemy.orm import exc as orm_exc  # noqa: E402
from sqlalchemy.schema import CreateTable  # noqa: E402
from sqlalchemy.types import NullType  # noqa: E402

from keytypes import Tsid, Ulid  # noqa: E402
from models import (Base, BigintLine, BigintOrder, TsidLine, TsidOrder, UlidLine,  # noqa: E402
                    UlidOrder, UuidLine, UuidOrder)

SQLALCHEMY_2 = int(sqlalchemy.__version__.split(".")[0]) >= 2
# libpq reads PGHOST, PGPORT, PGUSER, PGDATABASE
engine = create_engine("postgresql+psycopg2://", future=True)
statements = []
event.listen(engine, "before_cursor_execute", lambda conn, cur, stmt, *rest: statements.append(stmt))


def is_uuidv7(v):
    return isinstance(v, uuid.UUID) and v.version == 7


# kind, order model, line model, generator, the key's time as an SQL function of the key, value check
KINDS = [
    ("ulid", UlidOrder, UlidLine, "generate_ulid()", lambda c: func.ulid_timestamp(c),
     lambda v: isinstance(v, str) and len(v) == 26),
    ("tsid", TsidOrder, TsidLine, "generate_tsid()", lambda c: func.tsid_timestamp(c),
     lambda v: isinstance(v, str) and len(v) == 13),
    ("bigint", BigintOrder, BigintLine, "generate_tsid()", lambda c: func.tsid_timestamp(cast(c, Tsid)),
     lambda v: isinstance(v, int) and v > 0),
    ("uuid", UuidOrder, UuidLine, "generate_uuidv7()", lambda c: func.uuidv7_timestamp(c), is_uuidv7),
]


def sql(session, query, **params):
    return [tuple(r) for r in session.execute(text(query), params)]


def check_migration(t):
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    with engine.connect() as conn:
        t.ok(conn.execute(text("SELECT extname FROM pg_extension WHERE extname = 'ulid_tsid'")).all() == [("ulid_tsid",)],
             "alembic upgrade head makes the tables (CREATE EXTENSION included)")
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
        t.ok(diff == [], "Alembic's autogenerate compare finds the migration and the models alike (compare_type on)", diff)


def to_dict(obj):
    return {a.key: getattr(obj, a.key) for a in inspect(obj).mapper.column_attrs}


def explain(session, stmt):
    compiled = stmt.compile(dialect=engine.dialect)
    session.execute(text("SET LOCAL enable_seqscan = off"))
    rows = session.connection().exec_driver_sql("EXPLAIN " + str(compiled), compiled.params).all()
    return "\n".join(r[0] for r in rows)


def check_kind(t, kind, Order, Line, generator, timefn, value_ok):
    table = Order.__tablename__
    with Session(engine, future=True) as s:
        col = sql(s, "SELECT udt_name, column_default FROM information_schema.columns"
                     " WHERE table_name = :t AND column_name = 'id'", t=table)
        t.ok(col == [("int8" if kind == "bigint" else kind, generator)],
             f"{kind}: the migration gives {table}.id the type and DEFAULT {generator}", col)
        fk = sql(s, "SELECT confrelid::regclass::text FROM pg_constraint WHERE conrelid = :t ::regclass AND contype = 'f'",
                 t=Line.__tablename__)
        t.ok(fk == [(table,)], f"{kind}: {Line.__tablename__} has a foreign key to {table}", fk)

        # (2) insert without a key: the database's key comes back from the INSERT itself
        order = Order(item=f"{kind} book")
        s.add(order)
        del statements[:]
        s.flush()
        t.ok(len(statements) == 1 and "RETURNING" in statements[0] and "(id," not in statements[0],
             f"{kind}: flush() is one INSERT without the key ... RETURNING id", statements)
        t.ok(value_ok(order.id), f"{kind}: the flush reads back the key the database made ({type(order.id).__name__})",
             order.id)
        s.commit()
        db_key = sql(s, f"SELECT id FROM {table} WHERE item = :i", i=f"{kind} book")
        t.ok(db_key == [(order.id,)], f"{kind}: the key read back is the row's", (db_key, order.id))
        key = order.id

    with Session(engine, future=True) as s:
        # (3) find by key, join, keyset pages, a time window with its index
        t.ok(s.get(Order, key).item == f"{kind} book", f"{kind}: session.get() finds it by its {type(key).__name__}")
        if kind == "tsid":
            as_int = sql(s, "SELECT CAST(:k AS tsid)::bigint", k=key)[0][0]
            t.ok(s.execute(select(Order.id).where(Order.id == as_int)).scalar() == key,
                 "tsid: where(id == int) finds it too (tsid = bigint)")
        if kind == "ulid":
            as_uuid = uuid.UUID(sql(s, "SELECT CAST(:k AS ulid)::uuid::text", k=key)[0][0])
            t.ok(s.execute(select(Order.id).where(Order.id == as_uuid)).scalar() == key,
                 "ulid: where(id == uuid.UUID) finds it too (ulid = uuid)")
        s.add(Line(order=s.get(Order, key), note="first line"))
        s.commit()
        rows = s.execute(select(Line.note, Order.item).join(Line.order).where(Order.id == key)).all()
        t.ok(rows == [("first line", f"{kind} book")], f"{kind}: select(...).join(Line.order) joins line to order", rows)
        t.ok([ln.note for ln in s.get(Order, key).lines] == ["first line"], f"{kind}: the relationship loads the lines")

        for i in range(4):
            s.add(Order(item=f"{kind} page {i}"))
        s.commit()
        every = list(s.execute(select(Order.id).order_by(Order.id)).scalars())
        pages, last = [], None
        while True:
            page = select(Order.id).order_by(Order.id).limit(2)
            if last is not None:
                page = page.where(Order.id > last)
            keys = list(s.execute(page).scalars())
            if not keys:
                break
            pages.append(keys)
            last = keys[-1]
        t.ok([k for p in pages for k in p] == every and len(every) == 5 and len(pages) == 3,
             f"{kind}: keyset pages where(id > last).order_by(id).limit(2) walk all 5 rows in key order", pages)
        page_plan = explain(s, select(Order.id).where(Order.id > last).order_by(Order.id).limit(2))
        t.ok(f"{table}_pkey" in page_plan, f"{kind}: a keyset page reads the key's index", page_plan)

        now = s.execute(select(func.now())).scalar()
        made = timefn(Order.id)
        window = select(Order.id).where(made >= now - datetime.timedelta(minutes=1),
                                        made < now + datetime.timedelta(minutes=1))
        got = list(s.execute(window).scalars())
        t.ok(sorted(got) == every, f"{kind}: the time window on {made} holds the 5 rows", got)
        plan = explain(s, window)
        print("# " + plan.replace("\n", "\n# "))
        t.ok("Index" in plan and f"{table}_pkey" in plan, f"{kind}: the time window's plan uses the key's index", plan)
        s.rollback()

        # (4) serialisation: model to dict to JSON holds the value to_json gives, and finds the row
        order = s.get(Order, key)
        as_json = json.dumps(to_dict(order), default=str)
        loaded = json.loads(as_json)
        db_json = sql(s, f"SELECT to_json(id)::text FROM {table} WHERE id = :k", k=key)[0][0]
        t.ok(loaded["id"] == json.loads(db_json), f"{kind}: the dict's JSON key is what PostgreSQL's to_json(id) gives",
             (as_json, db_json))
        again = s.get(Order, loaded["id"] if kind != "uuid" else uuid.UUID(loaded["id"]))
        t.ok(again is order and json.dumps(to_dict(again), default=str) == as_json,
             f"{kind}: dict -> JSON -> the key finds the same row, which serialises the same", loaded)


def check_usage(t):
    with Session(engine, future=True) as session:
        since = session.execute(text("SELECT now() - interval '1 hour'")).scalar()
        # README sqlalchemy-usage: begin
        order = UlidOrder(item="book", lines=[UlidLine(note="gift wrap")])
        session.add(order)
        session.flush()                       # INSERT ... RETURNING ulid_orders.id
        found = session.get(UlidOrder, order.id)   # order.id: '01M8...', the database's key
        next_page = session.scalars(
            select(UlidOrder).where(UlidOrder.id > order.id).order_by(UlidOrder.id).limit(50)).all()
        recent = session.scalars(select(UlidOrder).where(func.ulid_timestamp(UlidOrder.id) >= since)).all()
        # README sqlalchemy-usage: end
        t.ok(found is order and isinstance(order.id, str) and len(order.id) == 26,
             "the README's usage lines: the key comes back and finds the row", order.id)
        t.ok(next_page == [] and order in recent and [ln.order_id for ln in order.lines] == [order.id],
             "the README's usage lines: the keyset page, the time window and the line's key", recent)
        session.commit()


def check_reflection(t):
    cols = {c["name"]: c["type"] for c in inspect(engine).get_columns("ulid_orders")}
    tsid_cols = {c["name"]: c["type"] for c in inspect(engine).get_columns("tsid_orders")}
    print(f"# reflection with keytypes: ulid_orders.id {cols['id']!r}, tsid_orders.id {tsid_cols['id']!r}")
    t.ok(isinstance(cols["id"], Ulid) and isinstance(cols["replaces"], Ulid) and isinstance(tsid_cols["id"], Tsid),
         "with keytypes' ischema_names entries reflection reads ulid and tsid columns as Ulid and Tsid", cols)
    saved = {k: ischema_names.pop(k) for k in ("ulid", "tsid")}
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            bare = Table("ulid_orders", MetaData(), autoload_with=engine)
        print(f"# reflection without them: ulid_orders.id {bare.c.id.type!r}; {[str(w.message) for w in seen]}")
        t.ok(isinstance(bare.c.id.type, NullType) and any("Did not recognize type 'ulid'" in str(w.message) for w in seen),
             "without them reflection warns and gives NullType", [str(w.message) for w in seen])
    finally:
        ischema_names.update(saved)
    default = str(bare.c.id.server_default.arg)
    t.ok(default == "generate_ulid()", "reflection shows the key's server_default", default)


def check_edges(t):
    with Session(engine, future=True) as s:
        first = UlidOrder(item="no predecessor")
        s.add(first)
        s.commit()
        t.ok(s.execute(select(UlidOrder.replaces).where(UlidOrder.id == first.id)).scalar() is None and
             s.execute(select(UlidOrder.id).where(UlidOrder.replaces.is_(None), UlidOrder.id == first.id)).scalar() == first.id,
             "a NULL Ulid column reads as None and filters with is_(None)")
        second = UlidOrder(item="successor", replaces=first.id)
        s.add(second)
        s.commit()
        t.ok(s.execute(select(UlidOrder.replaces).where(UlidOrder.id == second.id)).scalar() == first.id,
             "a Ulid column stores and reads a ulid's text")
        given = s.execute(select(func.generate_ulid())).scalar()
        s.add(UlidOrder(id=given, item="given"))
        s.commit()
        t.ok(s.get(UlidOrder, given).item == "given", "a key the application gives is inserted as given")
        for what, stmt in (("where(id == 'not a ulid')", select(UlidOrder).where(UlidOrder.id == "not a ulid")),
                           ("tsid where(id == '12345') (decimal text)", select(TsidOrder).where(TsidOrder.id == "12345"))):
            try:
                s.execute(stmt).all()
                t.ok(False, f"{what} is DataError 22P02", "no error")
            except exc.DataError as err:
                t.ok(err.orig.pgcode == "22P02", f"{what} is DataError 22P02", err.orig.pgcode)
            s.rollback()
        s.add(UlidOrder(item="x", replaces="01ARZ3NDEKTSV4RRFFQ69G5FAU"))
        try:
            s.commit()
            t.ok(False, "a bad ulid in a flush is DataError 22P02", "no error")
        except exc.DataError as err:
            t.ok(err.orig.pgcode == "22P02", "a bad ulid in a flush is DataError 22P02", err.orig.pgcode)
        s.rollback()
        t.ok(s.get(UlidOrder, first.id) is not None, "the session works after those errors (rollback)")


def check_without(t):
    """What goes wrong without the recipe's server_default on a BigInteger key."""
    bare = Table("t", MetaData(), Column("id", BigInteger, primary_key=True))
    ddl = str(CreateTable(bare).compile(dialect=engine.dialect))
    t.ok("BIGSERIAL" in ddl, "without server_default a BigInteger primary key is made BIGSERIAL", ddl)
    keyed = BigintOrder.__table__
    ddl = str(CreateTable(keyed).compile(dialect=engine.dialect))
    t.ok("BIGSERIAL" not in ddl and "DEFAULT generate_tsid()" in ddl, "with it, BIGINT DEFAULT generate_tsid()", ddl)

    class NoServerDefault(declarative_base()):
        __tablename__ = "ulid_orders"
        id = Column(Ulid, primary_key=True)
        item = Column(Text)

    with Session(engine, future=True) as s:
        s.add(NoServerDefault(item="no server_default"))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")   # SQLAlchemy's warning that the key has no default
                s.flush()
            t.ok(False, "without server_default on a Ulid key the flush fails (no RETURNING: a NULL identity key)", "no error")
        except orm_exc.FlushError as err:
            t.ok("NULL identity key" in str(err),
                 "without server_default on a Ulid key the flush fails (no RETURNING: a NULL identity key)", str(err))


def check_typed(t):
    """SQLAlchemy 2.0's typed mapping of the ulid and uuid tables (models_typed.py)."""
    import models_typed as typed
    for new, old in ((typed.UlidOrder, UlidOrder), (typed.UlidLine, UlidLine),
                     (typed.UuidOrder, UuidOrder), (typed.UuidLine, UuidLine)):
        ddl_new = str(CreateTable(new.__table__).compile(dialect=engine.dialect))
        ddl_old = str(CreateTable(old.__table__).compile(dialect=engine.dialect))
        t.ok(ddl_new == ddl_old, f"typed: {new.__tablename__} makes the DDL models.py's Column mapping makes",
             (ddl_new, ddl_old))
    mine = typed.Base.metadata.tables
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={
            "compare_type": True, "include_name": lambda name, kind, parent: kind != "table" or name in mine})
        diff = compare_metadata(context, typed.Base.metadata)
    t.ok(diff == [], "typed: Alembic's compare finds the migration's tables and the typed models alike", diff)
    with Session(engine) as s:
        order = typed.UlidOrder(item="typed book", lines=[typed.UlidLine(note="gift wrap")])
        uorder = typed.UuidOrder(item="typed book", lines=[typed.UuidLine(note="gift wrap")])
        s.add_all([order, uorder])
        del statements[:]
        s.flush()
        inserts = [st for st in statements if st.startswith("INSERT INTO ulid_orders") or st.startswith("INSERT INTO uuid_orders")]
        t.ok(len(inserts) == 2 and all("RETURNING" in st and "(id," not in st for st in inserts),
             "typed: flush() inserts each order without its key ... RETURNING id", statements)
        t.ok(isinstance(order.id, str) and len(order.id) == 26 and [ln.order_id for ln in order.lines] == [order.id],
             "typed: Mapped[UlidKey] reads back the ulid the database made (str), and the line holds it", order.id)
        t.ok(is_uuidv7(uorder.id) and [ln.order_id for ln in uorder.lines] == [uorder.id],
             "typed: Mapped[Uuidv7Key] reads back the uuid the database made (uuid.UUID, version 7)", uorder.id)
        found = s.scalars(select(typed.UlidOrder).where(typed.UlidOrder.id == order.id)).one()
        t.ok(found is order and s.get(typed.UuidOrder, uorder.id) is uorder, "typed: select() and get() find them")
        more = [typed.UlidOrder(item=f"typed batch {i}") for i in range(3)]
        s.add_all(more)
        del statements[:]
        s.flush()
        # 2.0 batches INSERTs into one (insertmanyvalues) only when it can match the rows
        # RETURNING gives back to the objects; a key the server makes cannot: a row each
        t.ok(len(statements) == 3 and all("RETURNING ulid_orders.id" in st for st in statements) and
             all(isinstance(o.id, str) and len(o.id) == 26 for o in more),
             "typed: a flush of 3 new orders is 3 INSERT ... RETURNING id, and each gets its key", statements)
        s.rollback()


def body(t):
    check_migration(t)
    for kind in KINDS:
        t.run(f"{kind[0]}: the checks ran", lambda: check_kind(t, *kind))
    t.run("the README's usage lines ran", lambda: check_usage(t))
    t.run("reflection", lambda: check_reflection(t))
    t.run("the types' edge cases ran", lambda: check_edges(t))
    t.run("the checks without server_default ran", lambda: check_without(t))
    if SQLALCHEMY_2:
        t.run("typed: the checks of the typed mapping ran", lambda: check_typed(t))
    else:
        print(f"# SQLAlchemy {sqlalchemy.__version__}: the typed mapping (models_typed.py, 2.0) is not checked")


if __name__ == "__main__":
    main_guard(Checks("sqlalchemy"), body)
