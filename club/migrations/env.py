"""Alembic's environment for the club database: run on the connection ``club.store.upgrade``
hands over (``config.attributes["connection"]``); no alembic.ini, no URL of its own."""

from alembic import context

from club.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
