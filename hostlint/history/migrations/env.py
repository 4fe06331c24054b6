"""Alembic environment, driven by hostlint.history.store: it hands over an open connection inside a transaction.

There is no alembic.ini: the store builds the configuration in code, so the
migrations run the same from a source tree and from an installed wheel.
"""

from alembic import context

from hostlint.history.schema import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("hostlint migrations run through hostlint.history.store.open_store, which passes a connection")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    version_table="hostlint_alembic_version",
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()
