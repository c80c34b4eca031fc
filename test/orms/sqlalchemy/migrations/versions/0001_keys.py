"""The extension and the tables with each key.

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import UUID

from keytypes import Tsid, Ulid

revision = "0001"
down_revision = None


def line_table(name, key_type, orders):
    op.create_table(
        name,
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("order_id", key_type, sa.ForeignKey(f"{orders}.id"), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
    )


def upgrade():
    # README alembic-migration: begin
    op.execute("CREATE EXTENSION IF NOT EXISTS ulid_tsid")
    op.create_table(
        "ulid_orders",
        sa.Column("id", Ulid, primary_key=True, server_default=sa.text("generate_ulid()")),
        sa.Column("item", sa.Text, nullable=False),
        sa.Column("replaces", Ulid),
    )
    op.create_table(
        "ulid_lines",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("order_id", Ulid, sa.ForeignKey("ulid_orders.id"), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
    )
    # README alembic-migration: end
    op.create_table(
        "tsid_orders",
        sa.Column("id", Tsid, primary_key=True, server_default=sa.text("generate_tsid()")),
        sa.Column("item", sa.Text, nullable=False),
    )
    line_table("tsid_lines", Tsid, "tsid_orders")
    op.create_table(
        "bigint_orders",
        sa.Column("id", sa.BigInteger, primary_key=True, server_default=sa.text("generate_tsid()")),
        sa.Column("item", sa.Text, nullable=False),
    )
    line_table("bigint_lines", sa.BigInteger, "bigint_orders")
    op.create_table(
        "uuid_orders",
        sa.Column("id", UUID(as_uuid=True), primary_key=True, server_default=sa.text("generate_uuidv7()")),
        sa.Column("item", sa.Text, nullable=False),
    )
    line_table("uuid_lines", UUID(as_uuid=True), "uuid_orders")


def downgrade():
    for kind in ("uuid", "bigint", "tsid", "ulid"):
        op.drop_table(f"{kind}_lines")
        op.drop_table(f"{kind}_orders")
