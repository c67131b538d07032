"""Erased words must leave the full-text indexes too, not only the rows they index.

An FTS5 delete only appends a delete marker: the erased terms stay in the old index segments
(`<table>_data`, `<table>_idx`) until those segments are merged. SQLite 3.42 added the FTS5
`secure-delete` option, which removes them at once; older libraries (3.40 ships with Debian 12
and this project's Python) do not have it. So after an erasure every FTS5 index in the file is
merged into one segment with the `optimize` command, which rewrites the index from its live
entries; the connection's `secure_delete` pragma (vault.storage.engine) then zeroes the freed
pages, and the WAL checkpoint that ends every erasure takes the old copies off the disk.

The indexes are found in `sqlite_master`, so an index a later revision adds is covered too.
PostgreSQL needs nothing here: its tsvector column lives in the row that was deleted.
"""

from __future__ import annotations

import re
import sqlite3

from sqlalchemy import Connection

from vault.storage.dialect import is_sqlite

_FTS5 = re.compile(r"^\s*CREATE\s+VIRTUAL\s+TABLE\s+.*\bUSING\s+fts5\b", re.IGNORECASE | re.DOTALL)


def fts5_indexes(connection: Connection) -> list[str]:
    """The names of every FTS5 table in the database (none on PostgreSQL)."""
    if not is_sqlite(connection):
        return []
    found = connection.exec_driver_sql(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'"
    ).fetchall()
    return [str(name) for name, sql in found if _FTS5.match(str(sql or ""))]


def secure_delete_available() -> bool:
    """Whether this SQLite has FTS5's own `secure-delete` option (3.42.0 and later)."""
    return sqlite3.sqlite_version_info >= (3, 42, 0)


def purge_erased_terms(connection: Connection) -> list[str]:
    """Rewrite every FTS5 index from its live entries, so no erased term stays in a segment;
    the names of the indexes rewritten. Runs inside the erasing transaction."""
    names = fts5_indexes(connection)
    for name in names:
        quoted = '"' + name.replace('"', '""') + '"'
        connection.exec_driver_sql(f"INSERT INTO {quoted}({quoted}) VALUES ('optimize')")
    return names
