"""Declarative models with each of ulid_tsid's keys and a child table referencing it."""
# README sqlalchemy-models: begin
from sqlalchemy import BigInteger, Column, ForeignKey, Identity, Text, text
from sqlalchemy.dialects.postgresql import UUID
from sqlalchemy.orm import declarative_base, relationship

from keytypes import Tsid, Ulid

Base = declarative_base()


class UlidOrder(Base):
    __tablename__ = "ulid_orders"
    id = Column(Ulid, primary_key=True, server_default=text("generate_ulid()"))
    item = Column(Text, nullable=False)
    replaces = Column(Ulid)   # a plain ulid column, may be NULL
    lines = relationship("UlidLine", back_populates="order")


class UlidLine(Base):
    __tablename__ = "ulid_lines"
    id = Column(BigInteger, Identity(), primary_key=True)
    order_id = Column(Ulid, ForeignKey("ulid_orders.id"), nullable=False)
    note = Column(Text, nullable=False)
    order = relationship(UlidOrder, back_populates="lines")
# README sqlalchemy-models: end


class TsidOrder(Base):
    __tablename__ = "tsid_orders"
    id = Column(Tsid, primary_key=True, server_default=text("generate_tsid()"))
    item = Column(Text, nullable=False)
    lines = relationship("TsidLine", back_populates="order")


class TsidLine(Base):
    __tablename__ = "tsid_lines"
    id = Column(BigInteger, Identity(), primary_key=True)
    order_id = Column(Tsid, ForeignKey("tsid_orders.id"), nullable=False)
    note = Column(Text, nullable=False)
    order = relationship(TsidOrder, back_populates="lines")


class BigintOrder(Base):
    __tablename__ = "bigint_orders"
    # README sqlalchemy-bigint: begin
    id = Column(BigInteger, primary_key=True, server_default=text("generate_tsid()"))
    # README sqlalchemy-bigint: end
    item = Column(Text, nullable=False)
    lines = relationship("BigintLine", back_populates="order")


class BigintLine(Base):
    __tablename__ = "bigint_lines"
    id = Column(BigInteger, Identity(), primary_key=True)
    order_id = Column(BigInteger, ForeignKey("bigint_orders.id"), nullable=False)
    note = Column(Text, nullable=False)
    order = relationship(BigintOrder, back_populates="lines")


class UuidOrder(Base):
    __tablename__ = "uuid_orders"
    # README sqlalchemy-uuid: begin
    id = Column(UUID(as_uuid=True), primary_key=True, server_default=text("generate_uuidv7()"))
    # README sqlalchemy-uuid: end
    item = Column(Text, nullable=False)
    lines = relationship("UuidLine", back_populates="order")


class UuidLine(Base):
    __tablename__ = "uuid_lines"
    id = Column(BigInteger, Identity(), primary_key=True)
    order_id = Column(UUID(as_uuid=True), ForeignKey("uuid_orders.id"), nullable=False)
    note = Column(Text, nullable=False)
    order = relationship(UuidOrder, back_populates="lines")
