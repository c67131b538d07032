"""`vault upgrade --partitions N`: every athlete-owned table hash-partitioned by the athlete id.

A choice for a large single PostgreSQL server (vacuum and index size per partition), and the
same key rule Citus imposes: the partition key in every primary and unique key (revision 0013).
Only for a NEW database: the schema is created at head (Alembic, as always), then, in the same
transaction, each athlete-owned table (`athletes` by `id`, every table with a tenant column by
it) is made again as `PARTITION BY HASH` with N partitions `<table>_p0` ... `<table>_p<N-1>`:
its columns (defaults, identity, generated columns, checks), then its primary and unique keys
and indexes under their own names, its foreign keys and the views that read it, as the
catalog held them. Later revisions alter the partitioned tables like plain ones; a table a
later revision adds stays unpartitioned (docs/scale-out.md).
"""

from __future__ import annotations

from sqlalchemy import Connection, text

from vault.domain.errors import VaultError
from vault.storage.scope import TENANT_COLUMNS

_TENANT_TABLES = text(
    "SELECT c.relname, a.attname FROM pg_class AS c JOIN pg_attribute AS a "
    "ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped "
    "WHERE c.relkind = 'r' AND c.relnamespace = to_regnamespace(current_schema()) "
    "AND (a.attname = ANY(:tenants) OR (c.relname = 'athletes' AND a.attname = 'id')) "
    "ORDER BY c.relname"
)
_VIEWS = text(
    "SELECT c.relname, pg_get_viewdef(c.oid) FROM pg_class AS c "
    "WHERE c.relkind = 'v' AND c.relnamespace = to_regnamespace(current_schema()) ORDER BY c.oid"
)
_COMMENTS = text(
    "SELECT c.relname, a.attname, d.description FROM pg_description AS d "
    "JOIN pg_class AS c ON c.oid = d.objoid AND d.classoid = 'pg_class'::regclass "
    "LEFT JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum = d.objsubid "
    "WHERE c.relkind = 'v' AND c.relnamespace = to_regnamespace(current_schema())"
)
_FOREIGN_KEYS = text(
    "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
    "WHERE contype = 'f' AND connamespace = to_regnamespace(current_schema()) "
    "AND (conrelid::regclass::text = ANY(:tables) OR confrelid::regclass::text = ANY(:tables)) "
    "ORDER BY conrelid::regclass::text, conname"
)
_KEYS = text(
    "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
    "WHERE conrelid = to_regclass(:table) AND contype IN ('p', 'u') ORDER BY contype, conname"
)
_INDEXES = text(
    "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index AS i "
    "WHERE i.indrelid = to_regclass(:table) "
    "AND NOT EXISTS (SELECT 1 FROM pg_constraint AS k WHERE k.conindid = i.indexrelid) "
    "ORDER BY i.indexrelid"
)


def refuse_unless_new(connection: Connection, tables: list[str], partitions: int) -> None:
    """One clear line unless this is a PostgreSQL database without vault tables."""
    if connection.dialect.name != "postgresql":
        raise VaultError(
            "--partitions is for PostgreSQL; a SQLite file holds one device's athletes"
        )
    if partitions < 2:
        raise VaultError(f"--partitions needs 2 or more partitions, not {partitions}")
    if tables:
        raise VaultError(
            "--partitions creates a new database and this one holds vault tables already "
            f"({', '.join(sorted(tables)[:3])}, ...); upgrade it without --partitions, or "
            "partition a new database and `vault copy` this one into it"
        )


def partition_by_athlete(connection: Connection, partitions: int) -> list[str]:
    """Make every athlete-owned table hash-partitioned by its tenant column; its names."""
    tenants: dict[str, str] = {
        str(table): str(column)
        for table, column in connection.execute(_TENANT_TABLES, {"tenants": list(TENANT_COLUMNS)})
    }
    names = list(tenants)
    views = connection.execute(_VIEWS).all()
    comments = connection.execute(_COMMENTS).all()
    foreign = connection.execute(_FOREIGN_KEYS, {"tables": names}).all()
    for name, _definition in reversed(views):
        connection.exec_driver_sql(f"DROP VIEW {name}")
    for table, constraint, _definition in foreign:
        connection.exec_driver_sql(f"ALTER TABLE {table} DROP CONSTRAINT {constraint}")
    for table, tenant in tenants.items():
        _partition(connection, table, tenant, partitions)
    for table, constraint, definition in foreign:
        connection.exec_driver_sql(f"ALTER TABLE {table} ADD CONSTRAINT {constraint} {definition}")
    for name, definition in views:
        connection.exec_driver_sql(f"CREATE VIEW {name} AS {definition}")
    for view, column, description in comments:
        target = f"VIEW {view}" if column is None else f"COLUMN {view}.{column}"
        quoted = "'" + description.replace("'", "''").replace("%", "%%") + "'"  # pyformat
        connection.exec_driver_sql(f"COMMENT ON {target} IS {quoted}", ())
    return names


def _partition(connection: Connection, table: str, tenant: str, partitions: int) -> None:
    keys = connection.execute(_KEYS, {"table": table}).all()
    indexes = connection.execute(_INDEXES, {"table": table}).scalars().all()
    plain = f"{table}__plain"
    connection.exec_driver_sql(f"ALTER TABLE {table} RENAME TO {plain}")
    connection.exec_driver_sql(
        f"CREATE TABLE {table} (LIKE {plain} INCLUDING DEFAULTS INCLUDING IDENTITY "
        "INCLUDING GENERATED INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS) "
        f"PARTITION BY HASH ({tenant})"
    )
    connection.exec_driver_sql(f"DROP TABLE {plain}")
    sequence = connection.execute(
        text(
            "SELECT pg_get_serial_sequence(:table, a.attname) FROM pg_attribute AS a "
            "WHERE a.attrelid = to_regclass(:table) AND a.attidentity <> ''"
        ),
        {"table": table},
    ).scalar()
    if sequence is not None:  # LIKE named it `<table>_id_seq1` while the old one existed
        connection.exec_driver_sql(f"ALTER SEQUENCE {sequence} RENAME TO {table}_id_seq")
    for name, definition in keys:
        connection.exec_driver_sql(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
    for definition in indexes:
        connection.exec_driver_sql(definition)
    for remainder in range(partitions):
        connection.exec_driver_sql(
            f"CREATE TABLE {table}_p{remainder} PARTITION OF {table} "
            f"FOR VALUES WITH (MODULUS {partitions}, REMAINDER {remainder})"
        )
