"""`v.transfer`: a vault's contents in and out: export/import documents, the M13 YAML file,
copies to another vault and backups of the SQLite file."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from vault.domain.errors import InvalidInput
from vault.domain.models import validated_athlete
from vault.facade.store import Store, moment
from vault.services import copy as copying
from vault.services import interchange, privacy_gate
from vault.storage import queries
from vault.storage.dialect import is_sqlite
from vault.storage.engine import backup_sqlite


class Transfer:
    """Export, import, copy and back up."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def export(self, athlete_id: str) -> dict[str, Any]:
        """One athlete's whole memory as a `vault-export` v1 document (one read transaction)."""
        athlete = validated_athlete(athlete_id)
        self._store.settle_engine("the export")
        with self._store.read_units() as uow:
            return interchange.export_athlete(uow, athlete)

    def export_all(self, page: int = 500) -> Iterator[dict[str, Any]]:
        """Every athlete's `vault-export` document, by athlete id, from ONE read transaction.

        A generator: one page of athlete ids and one athlete's rows are held at a time, so
        memory stays flat however large the vault is; the documents form one consistent snapshot.
        """
        self._store.settle_engine("the export")
        with self._store.read_units() as uow:
            last = ""
            while ids := queries.athlete_ids_after(uow.connection, last, page):
                for athlete in ids:
                    yield interchange.export_athlete(uow, athlete)
                last = ids[-1]

    def import_document(
        self, document: dict[str, Any] | interchange.ExportDocument, *, trusted: bool = False
    ) -> interchange.ImportReport:
        """Restore the document's athlete exactly (ids renumbered); nothing written if invalid.

        Texts pass the privacy filter unless `trusted` (a document this vault exported).
        """
        return self.import_documents([document], trusted=trusted)[0]

    def import_documents(
        self,
        documents: Iterable[dict[str, Any] | interchange.ExportDocument],
        *,
        trusted: bool = False,
    ) -> list[interchange.ImportReport]:
        """Restore several documents in ONE transaction (all or nothing); idempotent like
        `import_document`. Every document is validated before anything is written."""
        docs = [interchange.validate_document(d) for d in documents]
        if not privacy_gate.require_bool(trusted):
            for doc in docs:
                interchange.check_privacy(doc)
        if not docs:
            return []
        with self._store.write() as uow:
            return [interchange.restore(uow, doc) for doc in docs]

    def import_memories_yaml(
        self,
        path: str | os.PathLike[str],
        athlete_id: str,
        replace: bool = False,
        *,
        now: datetime | None = None,
        trusted: bool = False,
    ) -> interchange.ImportReport:
        """Import the M13 memories.yaml file (a path, or the YAML text as a `str`) as the
        athlete's. Every entry passes the privacy gate unless `trusted`."""
        athlete = validated_athlete(athlete_id)
        text, where = interchange.read_source(path)
        at = moment(now)
        with self._store.write() as uow:
            return interchange.import_memories_yaml(
                uow, text, athlete, replace=replace, now=at, where=where, trusted=trusted
            )

    def copy_to(
        self, destination: Any, *, on_batch: Callable[[int], None] | None = None
    ) -> copying.CopyReport:
        """Copy every athlete into `destination` (a Vault; SQLite or PostgreSQL, either way), in
        one transaction there, verified by rows per athlete and a checksum; CopyError (a
        VaultError) when it cannot start or the verification fails. `on_batch(n)` reports
        athletes copied (`v.admin.athlete_count()` is the total). The engine's waiting rows
        are applied first (the engine's table itself is not copied)."""
        self._store.settle_engine("the copy")
        return copying.copy_vault(
            self._store.engine, destination.engine, on_batch=on_batch or (lambda _n: None)
        )

    def backup(self, destination: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
        """A consistent copy of the whole SQLite file at `destination`, taken while it is live.

        SQLite's online backup API copies every page in one read snapshot (writers elsewhere
        are not blocked); the copy is written beside the destination and renamed into place,
        so a crash never leaves half a backup. An existing destination is refused unless
        `overwrite=True`; a missing directory is InvalidInput, a failing copy StorageError.
        The copy is readable by its owner only.
        """
        engine = self._store.engine
        if not is_sqlite(engine):
            raise InvalidInput("backup copies SQLite files; back up PostgreSQL with pg_dump")
        target = Path(destination)
        if target.exists() and not overwrite:
            raise InvalidInput(f"{target} exists; choose another name or overwrite it (--force)")
        if target.is_dir():
            raise InvalidInput(f"{target} is a directory; give a file name")
        directory = target.parent
        if not directory.is_dir():
            raise InvalidInput(
                f"cannot back up to {target}: the directory {directory} does not exist"
            )
        self._store.settle_engine("the backup")
        source = engine.url.database
        if source and target.resolve() == Path(source).resolve():
            raise InvalidInput("the backup must not replace the vault it copies")
        return backup_sqlite(engine, target)
