"""Alembic's environment: the connection the caller put in config.attributes, or
one to sqlalchemy.url."""
from alembic import context
from sqlalchemy import create_engine

from models import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    with create_engine(config.get_main_option("sqlalchemy.url")).connect() as connection:
        context.configure(connection=connection, target_metadata=Base.metadata)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()
