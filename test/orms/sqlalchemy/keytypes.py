"""SQLAlchemy types for ulid_tsid's keys (the README's SQLAlchemy recipe)."""
# README sqlalchemy-types: begin
from sqlalchemy.dialects.postgresql.base import ischema_names
from sqlalchemy.types import UserDefinedType


class Ulid(UserDefinedType):
    """A ulid column; its value is the 26-character text (str)."""

    cache_ok = True

    def get_col_spec(self, **kw):
        return "ulid"


class Tsid(UserDefinedType):
    """A tsid column; its value is the 13-character text (str)."""

    cache_ok = True

    def get_col_spec(self, **kw):
        return "tsid"


# reflection (and Alembic's autogenerate) read the columns back as these types
ischema_names["ulid"] = Ulid
ischema_names["tsid"] = Tsid
# README sqlalchemy-types: end
