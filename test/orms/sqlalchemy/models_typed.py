"""The ulid and uuid models of models.py in SQLAlchemy 2.0's typed declarative mapping
(Mapped[...] and mapped_column): the same tables, each key declared once as an
Annotated type that holds its column type and DEFAULT. SQLAlchemy 2.0 only:
sqlalchemy_orm.py imports it there and checks that it makes the same DDL as models.py."""
# README sqlalchemy2-models: begin
import uuid
from typing import Annotated

from sqlalchemy import BigInteger, ForeignKey, Identity, Text, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from keytypes import Ulid

# The keys the database makes: the column's type and DEFAULT, declared once.
UlidKey = Annotated[str, mapped_column(Ulid, primary_key=True, server_default=text("generate_ulid()"))]
Uuidv7Key = Annotated[uuid.UUID, mapped_column(primary_key=True, server_default=text("generate_uuidv7()"))]


class Base(DeclarativeBase):
    type_annotation_map = {int: BigInteger, str: Text}


class UlidOrder(Base):
    __tablename__ = "ulid_orders"
    id: Mapped[UlidKey]
    item: Mapped[str]
    replaces: Mapped[str | None] = mapped_column(Ulid)   # a plain ulid column, may be NULL
    lines: Mapped[list["UlidLine"]] = relationship(back_populates="order")


class UlidLine(Base):
    __tablename__ = "ulid_lines"
    id: Mapped[int] = mapped_column(Identity(), primary_key=True)
    order_id: Mapped[str] = mapped_column(Ulid, ForeignKey("ulid_orders.id"))
    note: Mapped[str]
    order: Mapped[UlidOrder] = relationship(back_populates="lines")


class UuidOrder(Base):
    __tablename__ = "uuid_orders"
    id: Mapped[Uuidv7Key]           # uuid.UUID maps to SQLAlchemy 2.0's Uuid: UUID on PostgreSQL
    item: Mapped[str]
    lines: Mapped[list["UuidLine"]] = relationship(back_populates="order")


class UuidLine(Base):
    __tablename__ = "uuid_lines"
    id: Mapped[int] = mapped_column(Identity(), primary_key=True)
    order_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("uuid_orders.id"))
    note: Mapped[str]
    order: Mapped[UuidOrder] = relationship(back_populates="lines")
# README sqlalchemy2-models: end
