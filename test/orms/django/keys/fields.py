"""The Django fields for ulid_tsid's keys (the README's Django recipe)."""
# README django-fields: begin
from django.db import models
from django.db.models.expressions import Expression


class ColumnDefault(Expression):
    """The SQL keyword DEFAULT as an INSERT value: the column's database default."""

    def as_sql(self, compiler, connection):
        return "DEFAULT", []


class DatabaseDefaultMixin:
    """A key the database makes: an unset value is inserted as DEFAULT and read back
    by the same INSERT's RETURNING (db_returning)."""

    db_returning = True

    def pre_save(self, model_instance, add):
        value = super().pre_save(model_instance, add)
        return ColumnDefault() if add and value is None else value


class UlidField(models.Field):
    """A ulid column; its value is the 26-character text (str)."""

    empty_strings_allowed = False   # no value is None (NULL), not ''

    def db_type(self, connection):
        return "ulid"


class TsidField(models.Field):
    """A tsid column; its value is the 13-character text (str)."""

    empty_strings_allowed = False

    def db_type(self, connection):
        return "tsid"


class UlidKey(DatabaseDefaultMixin, UlidField):
    """A ulid key with DEFAULT generate_ulid() in the database."""


class TsidKey(DatabaseDefaultMixin, TsidField):
    """A tsid key with DEFAULT generate_tsid() in the database."""


class TsidBigIntegerKey(DatabaseDefaultMixin, models.BigIntegerField):
    """A bigint key with DEFAULT generate_tsid(): an int."""


class Uuidv7Key(DatabaseDefaultMixin, models.UUIDField):
    """A uuid key with DEFAULT generate_uuidv7(): a uuid.UUID."""
# README django-fields: end
