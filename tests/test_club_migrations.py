"""The club database's schema is Alembic's: the migrations make exactly what the models say, on
SQLite and on PostgreSQL, and opening a database twice upgrades nothing twice."""

from __future__ import annotations

from pathlib import Path

from _services import Postgres
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from club.models import Base
from club.store import Store, sqlite_url


def differences(store: Store) -> list:
    with store.engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn), Base.metadata)


def test_migrations_equal_the_models_on_sqlite_and_postgresql(tmp_path: Path) -> None:
    sqlite = Store(sqlite_url(tmp_path / "club.sqlite"))
    again = Store(sqlite_url(tmp_path / "club.sqlite"))  # already at head: nothing to do
    pg = Postgres().start()
    try:
        postgres = Store(pg.database("schema"))
        try:
            assert differences(postgres) == []
        finally:
            postgres.close()
        assert differences(sqlite) == []
        assert differences(again) == []
    finally:
        sqlite.close()
        again.close()
        pg.close()
