"""Django (Debian's python3-django: 3.2 on bookworm, 4.2 on trixie, 5.2 on sid) against
ulid_tsid's keys: the tables made by Django's migrations (keys/migrations), a key the
database makes read back by the INSERT itself, finds, joins, keyset pages, a time window
through RawSQL with its index, serialisation round trips, inspectdb, and the fields' edge
cases; on Django 5, the keys declared with db_default (dbdefault/). Prints "ok N" /
"not ok N" lines (scripts/suites/orms.sh counts them).
  PGHOST=... PGPORT=... PGUSER=... PGDATABASE=... /usr/bin/python3 django_orm.py"""
import datetime
import io
import json
import os
import pathlib
import sys
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "clients"))
from checks import Checks, main_guard  # noqa: E402

import django  # noqa: E402
from django.conf import settings  # noqa: E402

settings.configure(
    DATABASES={"default": {
        "ENGINE": "django.db.backends.postgresql", "NAME": os.environ["PGDATABASE"],
        "HOST": os.environ["PGHOST"], "PORT": os.environ["PGPORT"], "USER": os.environ["PGUSER"]}},
    # dbdefault: Django 5's db_default, which Django 3.2 and 4.2 do not know
    INSTALLED_APPS=["keys"] + (["dbdefault"] if django.VERSION >= (5, 0) else []), USE_TZ=True, TIME_ZONE="UTC",
    DEFAULT_AUTO_FIELD="django.db.models.BigAutoField")
django.setup()

from django.core import serializers  # noqa: E402
from django.core.exceptions import ValidationError  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.serializers.json import DjangoJSONEncoder  # noqa: E402
from django.db import DataError, IntegrityError, connection, models  # noqa: E402
from django.db.models.expressions import RawSQL  # noqa: E402
from django.forms.models import model_to_dict  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from keys import fields  # noqa: E402
from keys.models import (BigintLine, BigintOrder, TsidLine, TsidOrder, UlidLine,  # noqa: E402
                         UlidOrder, UuidLine, UuidOrder)


def is_uuidv7(v):
    return isinstance(v, uuid.UUID) and v.version == 7


# kind, order model, line model, generator, the key's time in SQL, the value's check
KINDS = [
    ("ulid", UlidOrder, UlidLine, "generate_ulid()", "ulid_timestamp(id)",
     lambda v: isinstance(v, str) and len(v) == 26),
    ("tsid", TsidOrder, TsidLine, "generate_tsid()", "tsid_timestamp(id)",
     lambda v: isinstance(v, str) and len(v) == 13),
    ("bigint", BigintOrder, BigintLine, "generate_tsid()", "tsid_timestamp(id::tsid)",
     lambda v: isinstance(v, int) and v > 0),
    ("uuid", UuidOrder, UuidLine, "generate_uuidv7()", "uuidv7_timestamp(id)", is_uuidv7),
]


def sql(query, params=()):
    with connection.cursor() as cur:
        cur.execute(query, params)
        return cur.fetchall() if cur.description else None


def pgcode(exc):
    """The SQLSTATE of the driver's error under Django's: psycopg2's pgcode, psycopg 3's
    sqlstate (Django 4.2 and later use psycopg 3 when it is installed)."""
    cause = exc.__cause__
    return getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)


def check_migrations(t):
    t.run("Django's migrate makes the tables (CREATE EXTENSION included)",
          lambda: (call_command("migrate", verbosity=0),
                   t.ok(sql("SELECT extname FROM pg_extension WHERE extname = 'ulid_tsid'") == [("ulid_tsid",)],
                        "Django's migrate makes the tables (CREATE EXTENSION included)")))
    for app in settings.INSTALLED_APPS:
        out = io.StringIO()
        try:
            call_command("makemigrations", app, check=True, dry_run=True, stdout=out)
            t.ok(True, f"makemigrations --check: {app}'s migration matches its models")
        except SystemExit:
            t.ok(False, f"makemigrations --check: {app}'s migration matches its models", out.getvalue())


def check_kind(t, kind, Order, Line, generator, timefn, value_ok):
    table, line_table = Order._meta.db_table, Line._meta.db_table
    col = sql("SELECT udt_name, column_default FROM information_schema.columns"
              " WHERE table_name = %s AND column_name = 'id'", [table])
    t.ok(col == [("int8" if kind == "bigint" else kind, generator)],
         f"{kind}: the migration gives {table}.id the type and DEFAULT {generator}", col)
    fk = sql("SELECT confrelid::regclass::text FROM pg_constraint WHERE conrelid = %s::regclass AND contype = 'f'",
             [line_table])
    t.ok(fk == [(table,)], f"{kind}: {line_table} has a foreign key to {table}", fk)

    # (2) insert without a key: the database's key comes back from the INSERT itself
    with CaptureQueriesContext(connection) as queries:
        order = Order.objects.create(item=f"{kind} book")
    t.ok(len(queries) == 1 and "RETURNING" in queries[0]["sql"] and "DEFAULT" in queries[0]["sql"],
         f"{kind}: create() is one INSERT ... VALUES (DEFAULT, ...) RETURNING", [q["sql"] for q in queries])
    t.ok(value_ok(order.pk), f"{kind}: create() reads back the key the database made ({type(order.pk).__name__})",
         order.pk)
    db_key = sql(f"SELECT id FROM {table} WHERE item = %s", [f"{kind} book"])
    t.ok(db_key == [(order.pk,)], f"{kind}: the key read back is the row's", (db_key, order.pk))

    # (3) find by key, join, keyset pages, a time window with its index
    t.ok(Order.objects.get(pk=order.pk).item == f"{kind} book", f"{kind}: get(pk=...) finds it by its {type(order.pk).__name__}")
    if kind == "tsid":
        as_int = sql("SELECT %s::tsid::bigint", [order.pk])[0][0]
        t.ok(Order.objects.get(pk=as_int).pk == order.pk, "tsid: get(pk=int) finds it too (tsid = bigint)")
    if kind == "ulid":
        as_uuid = uuid.UUID(sql("SELECT %s::ulid::uuid::text", [order.pk])[0][0])
        t.ok(Order.objects.get(pk=as_uuid).pk == order.pk, "ulid: get(pk=uuid.UUID) finds it too (ulid = uuid)")
    line = Line.objects.create(order=order, note="first line")
    t.ok(line.order_id == order.pk, f"{kind}: a line's foreign key holds the order's key")
    joined = Line.objects.select_related("order").get(pk=line.pk)
    t.ok(joined.order.pk == order.pk and joined.order.item == f"{kind} book",
         f"{kind}: select_related joins line to order", (joined.order.pk, order.pk))
    t.ok(list(Order.objects.filter(lines__note="first line").values_list("pk", flat=True)) == [order.pk],
         f"{kind}: filter(lines__note=...) joins order to its lines")

    for i in range(4):
        Order.objects.create(item=f"{kind} page {i}")
    every = list(Order.objects.order_by("pk").values_list("pk", flat=True))
    pages, last = [], None
    while True:
        page = Order.objects.order_by("pk")
        if last is not None:
            page = page.filter(pk__gt=last)
        keys = list(page.values_list("pk", flat=True)[:2])
        if not keys:
            break
        pages.append(keys)
        last = keys[-1]
    t.ok([k for p in pages for k in p] == every and len(every) == 5 and len(pages) == 3,
         f"{kind}: keyset pages filter(pk__gt=last).order_by('pk')[:2] walk all 5 rows in key order", pages)

    now = sql("SELECT now()")[0][0]
    window = (Order.objects.annotate(made=RawSQL(timefn, [], output_field=models.DateTimeField()))
              .filter(made__gte=now - datetime.timedelta(minutes=1), made__lt=now + datetime.timedelta(minutes=1)))
    t.ok(window.count() == 5, f"{kind}: the time window on {timefn} through RawSQL holds the 5 rows", window.count())
    sql("SET enable_seqscan = off")
    plan = window.explain()
    sql("RESET enable_seqscan")
    t.ok("Index" in plan and f"{table}_pkey" in plan, f"{kind}: the time window's plan uses the key's index", plan)

    # (4) serialisation: the JSON holds the value the database's to_json gives, and reads back
    text = serializers.serialize("json", [order])
    back = next(serializers.deserialize("json", text)).object
    t.ok(back.pk == order.pk and back.item == order.item,
         f"{kind}: serializers json round trip gives the same key ({type(back.pk).__name__})", (back.pk, order.pk))
    db_json = sql(f"SELECT to_json(id)::text FROM {table} WHERE id = %s", [order.pk])[0][0]
    t.ok(json.loads(text)[0]["pk"] == json.loads(db_json),
         f"{kind}: the serialised key is what PostgreSQL's to_json(id) gives", (text, db_json))
    as_dict = json.loads(json.dumps(model_to_dict(order), cls=DjangoJSONEncoder))
    t.ok(Order._meta.pk.to_python(as_dict["id"]) == order.pk and Order.objects.get(pk=as_dict["id"]).pk == order.pk,
         f"{kind}: model_to_dict -> JSON -> the key finds the same row", as_dict)


def check_usage(t):
    since = sql("SELECT now() - interval '1 hour'")[0][0]
    # README django-usage: begin
    order = UlidOrder.objects.create(item="book")   # INSERT ... VALUES (DEFAULT, ...) RETURNING id
    UlidLine.objects.create(order=order, note="gift wrap")
    found = UlidOrder.objects.get(pk=order.id)       # order.id: '01M8...', the database's key
    next_page = UlidOrder.objects.filter(pk__gt=order.id).order_by("pk")[:50]   # keyset
    made = RawSQL("ulid_timestamp(id)", [], output_field=models.DateTimeField())
    recent = UlidOrder.objects.annotate(made=made).filter(made__gte=since)      # the key's index
    # README django-usage: end
    t.ok(found == order and isinstance(order.id, str) and len(order.id) == 26,
         "the README's usage lines: the key comes back and finds the row", order.id)
    t.ok(list(next_page) == [] and order in recent and found.lines.get().note == "gift wrap",
         "the README's usage lines: the keyset page, the time window and the join", list(recent))


def check_inspectdb(t):
    out = io.StringIO()
    call_command("inspectdb", "keys_ulidorder", "keys_tsidorder", "keys_bigintorder", "keys_uuidorder", stdout=out)
    shown = [ln.strip() for ln in out.getvalue().splitlines() if ln.strip().startswith("id = ")]
    for ln in shown:
        print(f"# inspectdb: {ln}")
    want = ["id = models.TextField(primary_key=True)  # This field type is a guess."] * 2 + [
        "id = models.BigIntegerField(primary_key=True)", "id = models.UUIDField(primary_key=True)"]
    t.ok(sorted(shown) == sorted(want),
         "inspectdb guesses TextField for ulid and tsid keys and shows no DEFAULT (the README's advice)", shown)


def check_edges(t):
    # NULL in a plain ulid column, and a ulid value in it
    first = UlidOrder.objects.create(item="no predecessor")
    t.ok(UlidOrder.objects.get(pk=first.pk).replaces is None and
         UlidOrder.objects.filter(replaces__isnull=True, pk=first.pk).exists(), "UlidField(null=True) stores and reads NULL as None")
    second = UlidOrder.objects.create(item="successor", replaces=first.pk)
    t.ok(UlidOrder.objects.get(pk=second.pk).replaces == first.pk, "UlidField stores and reads a ulid's text")
    # a key given by the application is used, not DEFAULT
    given = sql("SELECT generate_ulid()::text")[0][0]
    t.ok(UlidOrder.objects.create(id=given, item="given").pk == given and UlidOrder.objects.filter(pk=given).exists(),
         "a key the application gives is inserted as given")
    # bad text is the database's 22P02, as Django's DataError; the connection goes on
    for what, fn in (("get(pk='not a ulid')", lambda: UlidOrder.objects.get(pk="not a ulid")),
                     ("create(replaces='01ARZ3NDEKTSV4RRFFQ69G5FAU') (U is not Crockford)",
                      lambda: UlidOrder.objects.create(item="x", replaces="01ARZ3NDEKTSV4RRFFQ69G5FAU")),
                     ("tsid get(pk='12345') (decimal text)", lambda: TsidOrder.objects.get(pk="12345"))):
        try:
            fn()
            t.ok(False, f"{what} is DataError 22P02", "no error")
        except DataError as exc:
            t.ok(pgcode(exc) == "22P02", f"{what} is DataError 22P02", pgcode(exc))
    t.ok(UlidOrder.objects.filter(pk=first.pk).exists(), "the connection works after those errors")
    try:
        UuidOrder.objects.get(pk="not a uuid")
        t.ok(False, "uuid: get(pk='not a uuid') is Django's ValidationError (UUIDField checks it first)", "no error")
    except ValidationError:
        t.ok(True, "uuid: get(pk='not a uuid') is Django's ValidationError (UUIDField checks it first)")


def check_without_the_class(t):
    """What goes wrong without the recipe, on the same table."""
    class PlainKeyOrder(models.Model):
        id = fields.UlidField(primary_key=True)
        item = models.TextField()

        class Meta:
            app_label, db_table, managed = "keys", "keys_ulidorder", False

    class NoReturningOrder(models.Model):
        id = type("NoReturningUlidKey", (fields.UlidKey,), {"db_returning": False})(primary_key=True)
        item = models.TextField()

        class Meta:
            app_label, db_table, managed = "keys", "keys_ulidorder", False

    class BareFieldOrder(models.Model):
        id = type("BareUlidField", (models.Field,), {"db_type": lambda self, connection: "ulid"})(primary_key=True)
        item = models.TextField()

        class Meta:
            app_label, db_table, managed = "keys", "keys_ulidorder", False

    try:
        BareFieldOrder.objects.create(item="bare")
        t.ok(False, "a Field subclass that allows empty strings gets '' for an unset key: DataError 22P02", "no error")
    except DataError as exc:
        t.ok(pgcode(exc) == "22P02", "a Field subclass that allows empty strings gets '' for an unset key: DataError 22P02",
             pgcode(exc))
    try:
        PlainKeyOrder.objects.create(item="plain")
        t.ok(False, "without DatabaseDefaultMixin Django inserts NULL for the key: IntegrityError 23502", "no error")
    except IntegrityError as exc:
        t.ok(pgcode(exc) == "23502", "without DatabaseDefaultMixin Django inserts NULL for the key: IntegrityError 23502",
             pgcode(exc))
    order = NoReturningOrder.objects.create(item="not returned")
    t.ok(order.pk is None and UlidOrder.objects.filter(item="not returned").exists(),
         "without db_returning the row is made but its key stays None in Python", order.pk)


def check_db_default(t):
    """Django 5's db_default (dbdefault/): the DEFAULTs come from the migration
    makemigrations wrote, and Django reads every such column back by RETURNING."""
    from dbdefault.models import Attendee, Event
    cols = sql("SELECT table_name, column_name, udt_name, column_default FROM information_schema.columns"
               " WHERE table_name IN ('dbdefault_event', 'dbdefault_attendee') AND column_default IS NOT NULL"
               " ORDER BY 1, 2")
    want = [("dbdefault_attendee", "id", "uuid", "generate_uuidv7()"),
            ("dbdefault_event", "id", "ulid", "generate_ulid()"), ("dbdefault_event", "number", "tsid", "generate_tsid()")]
    t.ok(cols == want, "db_default: makemigrations' migration gives the columns their type and DEFAULT", cols)
    with CaptureQueriesContext(connection) as queries:
        # README django5-usage: begin
        event = Event.objects.create(name="launch")   # INSERT ... VALUES (DEFAULT, ..., DEFAULT) RETURNING id, number
        attendee = event.attendees.create(name="Ada")  # its uuid key: DEFAULT generate_uuidv7()
        # README django5-usage: end
    inserts = [q["sql"] for q in queries]
    t.ok(len(inserts) == 2 and all("DEFAULT" in q and "RETURNING" in q for q in inserts) and '"number"' in inserts[0].split("RETURNING")[1],
         "db_default: each create() is one INSERT ... VALUES (DEFAULT, ...) RETURNING the key (and number)", inserts)
    row = sql("SELECT id::text, number::text FROM dbdefault_event WHERE name = 'launch'")
    t.ok(row == [(event.id, event.number)] and len(event.id) == 26 and len(event.number) == 13,
         "db_default: create() reads back the ulid key and the tsid column the database made", (row, event.id, event.number))
    t.ok(is_uuidv7(attendee.id) and Attendee.objects.get(pk=attendee.id).event_id == event.id,
         "db_default: the uuid key reads back (uuid.UUID, version 7) and the foreign key holds the event's", attendee.id)
    with CaptureQueriesContext(connection) as queries:
        many = Event.objects.bulk_create([Event(name=f"batch {i}") for i in range(3)])
    from django.db.models.expressions import DatabaseDefault
    keys_back = all(isinstance(e.id, str) and len(e.id) == 26 for e in many)
    # Django 5.2 returns the key (RETURNING "id", "number") yet leaves it unread: it takes a
    # db_default key for a key already set (ticket 36260, fixed after 5.2); the other
    # db_default columns come back
    inserts = [q["sql"] for q in queries if q["sql"].startswith("INSERT")]   # inside BEGIN ... COMMIT
    t.ok(len(inserts) == 1 and all(len(e.number) == 13 for e in many) and
         (keys_back if django.VERSION >= (6, 0) else all(isinstance(e.id, DatabaseDefault) for e in many)),
         "db_default: bulk_create of 3 is one INSERT; it reads back the tsid column, and the key only after Django 5.2",
         ([q["sql"] for q in queries], [(e.id, e.number) for e in many]))


def body(t):
    check_migrations(t)
    for kind in KINDS:
        t.run(f"{kind[0]}: the checks ran", lambda: check_kind(t, *kind))
    t.run("the README's usage lines ran", lambda: check_usage(t))
    t.run("inspectdb", lambda: check_inspectdb(t))
    t.run("the fields' edge cases ran", lambda: check_edges(t))
    t.run("the checks without the class ran", lambda: check_without_the_class(t))
    if django.VERSION >= (5, 0):
        t.run("db_default: the checks ran", lambda: check_db_default(t))
    else:
        print(f"# Django {django.get_version()}: db_default (5.0) is not checked")


if __name__ == "__main__":
    main_guard(Checks("django"), body)
