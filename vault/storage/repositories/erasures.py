"""The erasure record's rows and the vault's secret (revision 0010). Never commits."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import Connection, func, insert, select

from vault.storage.dialect import is_sqlite
from vault.storage.erasure_tables import erasures_table, vault_secrets_table

ERASURE_SECRET = "erasure"
_LOOKUP_BATCH = 500  # bound parameters per IN list

_e = erasures_table
_SECRET = select(vault_secrets_table.c.secret).where(vault_secrets_table.c.name == ERASURE_SECRET)


class ErasureRepository:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def secret(self, create: bool) -> bytes | None:
        """The vault's secret; made on first use when `create` (None when absent otherwise)."""
        found = self.connection.execute(_SECRET).scalar()
        if found is None and create:
            # ON CONFLICT DO NOTHING: a concurrent first use keeps one secret
            values = {"name": ERASURE_SECRET, "secret": secrets.token_hex(32)}
            if is_sqlite(self.connection):
                from sqlalchemy.dialects.sqlite import insert as sqlite_insert

                self.connection.execute(
                    sqlite_insert(vault_secrets_table).values(values).on_conflict_do_nothing()
                )
            else:  # imported where used: a dialect module costs start-up
                from sqlalchemy.dialects.postgresql import insert as pg_insert

                self.connection.execute(
                    pg_insert(vault_secrets_table).values(values).on_conflict_do_nothing()
                )
            found = self.connection.execute(_SECRET).scalar()  # ours, or a concurrent writer's
        return None if found is None else bytes.fromhex(str(found))

    def add(
        self, athlete_key: str, item_keys: Iterable[str | None], reason: str, at: datetime
    ) -> int:
        rows = [
            {"athlete_key": athlete_key, "item_key": key, "reason": reason, "erased_at": at}
            for key in dict.fromkeys(item_keys)
        ]
        if rows:
            self.connection.execute(insert(_e), rows)
        return len(rows)

    def latest(self, athlete_key: str, item_keys: Iterable[str]) -> dict[str, datetime]:
        """The newest erasure of each of the athlete's items that has one."""
        keys = list(dict.fromkeys(item_keys))
        found: dict[str, datetime] = {}
        for start in range(0, len(keys), _LOOKUP_BATCH):
            statement = (
                select(_e.c.item_key, func.max(_e.c.erased_at))
                .where(_e.c.athlete_key == athlete_key)
                .where(_e.c.item_key.in_(keys[start : start + _LOOKUP_BATCH]))
                .group_by(_e.c.item_key)
            )
            found.update({str(key): at for key, at in self.connection.execute(statement)})
        return found

    def athlete_erased_at(self, athlete_key: str) -> datetime | None:
        """When the whole athlete was last deleted (None: never)."""
        statement = select(func.max(_e.c.erased_at)).where(
            _e.c.athlete_key == athlete_key, _e.c.item_key.is_(None)
        )
        return self.connection.execute(statement).scalar()

    def any(self) -> bool:
        return self.connection.execute(select(_e.c.id).limit(1)).first() is not None
