"""Citus's rules, checked against a PostgreSQL database's catalog: could each table be distributed
by the athlete (or be a reference table), and would each view run on one shard?

Per table (`check(connection)` returns one verdict each, in name order):
- a distributed table has its tenant column (`athletes`: `id`; others: `athlete_id`, `owner_id`,
  or `athlete_key` for records that outlive the athlete), NOT NULL;
- that column is in its primary key and in every unique constraint and unique index;
- each foreign key to another distributed table pairs the tenant columns (co-located); a
  foreign key from a reference table to a distributed one is not allowed;
- ids are 64-bit: every integer column of a distributed table in a key, or filled from a
  sequence or identity, is BIGINT (a worker cannot hand out ids from a 32-bit serial);
- reference tables (shared by every athlete: knowledge, the vault's secret, Alembic's stamp)
  need none of this, only no foreign key to a distributed table.
Per view: the joins between athlete-owned tables pair the tenant column (vault.storage.routing,
scope `all`), so `WHERE athlete_id = 'x'` on the view reads one shard.

Run it: `python tools/citus_rule_check.py URL` (a table of verdicts), or the test
tests/integration/test_citus_rules.py on what `vault upgrade` creates (plain and partitioned).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Connection, text

from vault.storage import routing

REFERENCE_TABLES = frozenset({"knowledge", "knowledge_names", "vault_secrets", "alembic_version"})

_TABLES = text(
    "SELECT c.relname FROM pg_class AS c WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition "
    "AND c.relnamespace = to_regnamespace(current_schema()) ORDER BY c.relname"
)
_COLUMNS = text(
    "SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, "
    "a.attidentity <> '' OR pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%%' "
    "FROM pg_attribute AS a LEFT JOIN pg_attrdef AS d ON d.adrelid = a.attrelid "
    "AND d.adnum = a.attnum WHERE a.attrelid = to_regclass(:table) AND a.attnum > 0 "
    "AND NOT a.attisdropped ORDER BY a.attnum"
)
_KEYS = text(  # primary keys, unique constraints and unique indexes: their column lists
    "SELECT i.indisprimary, ARRAY(SELECT a.attname FROM unnest(i.indkey) AS k(n) "
    "JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = k.n), "
    "i.indexrelid::regclass::text FROM pg_index AS i "
    "WHERE i.indrelid = to_regclass(:table) AND i.indisunique"
)
_FOREIGN = text(
    "SELECT k.conname, k.confrelid::regclass::text, "
    "ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY AS c(n, o) "
    "JOIN pg_attribute AS a ON a.attrelid = k.conrelid AND a.attnum = c.n ORDER BY c.o), "
    "ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY AS c(n, o) "
    "JOIN pg_attribute AS a ON a.attrelid = k.confrelid AND a.attnum = c.n ORDER BY c.o) "
    "FROM pg_constraint AS k WHERE k.conrelid = to_regclass(:table) AND k.contype = 'f'"
)
_VIEWS = text(
    "SELECT c.relname, pg_get_viewdef(c.oid) FROM pg_class AS c WHERE c.relkind = 'v' "
    "AND c.relnamespace = to_regnamespace(current_schema()) ORDER BY c.relname"
)
_INTEGERS = {"integer", "smallint"}


@dataclass
class Verdict:
    """One table's or view's result: `kind` is distributed, reference or view."""

    name: str
    kind: str
    tenant: str | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def passes(self) -> bool:
        return not self.problems


def check(connection: Connection) -> list[Verdict]:
    """Every table and view of the current schema against Citus's rules."""
    tables = list(connection.execute(_TABLES).scalars())
    tenants = {t: _tenant(connection, t) for t in tables if t not in REFERENCE_TABLES}
    verdicts = [_table(connection, t, tenants) for t in tables]
    for name, definition in connection.execute(_VIEWS).all():
        found = routing.problems(f"SELECT * FROM ({definition.rstrip().rstrip(';')}) AS v", "all")
        verdicts.append(Verdict(name, "view", problems=list(found)))
    return verdicts


def _tenant(connection: Connection, table: str) -> str | None:
    if table in routing.ROOT:
        return routing.ROOT[table]
    names = {row[0] for row in connection.execute(_COLUMNS, {"table": table})}
    return next((c for c in routing.TENANT_COLUMNS if c in names), None)


def _table(connection: Connection, table: str, tenants: dict[str, str | None]) -> Verdict:
    reference = table in REFERENCE_TABLES
    tenant = None if reference else tenants[table]
    verdict = Verdict(table, "reference" if reference else "distributed", tenant)
    problems = verdict.problems
    columns = {row[0]: row for row in connection.execute(_COLUMNS, {"table": table})}
    keys = connection.execute(_KEYS, {"table": table}).all()
    foreign = connection.execute(_FOREIGN, {"table": table}).all()
    keyed = {c for _primary, cols, _name in keys for c in cols}
    keyed |= {c for _n, _parent, cols, _refs in foreign for c in cols}
    for name, (_n, kind, _not_null, generated) in columns.items():
        if kind in _INTEGERS and (generated or name in keyed) and not reference:
            problems.append(f"{name} is {kind}, not bigint")
    for constraint, parent, cols, refs in foreign:
        parent_tenant = tenants.get(parent)
        if parent in REFERENCE_TABLES:
            continue
        if reference:
            problems.append(f"{constraint}: a reference table refers to distributed {parent}")
        elif tenant is None or parent_tenant is None:
            continue
        elif (tenant, parent_tenant) not in zip(cols, refs):
            problems.append(f"{constraint} does not pair {tenant} with {parent}.{parent_tenant}")
    if reference:
        return verdict
    if tenant is None:
        problems.append(f"no tenant column ({', '.join(routing.TENANT_COLUMNS)})")
        return verdict
    if not columns[tenant][2]:
        problems.append(f"{tenant} may be NULL")
    if not any(primary for primary, _cols, _name in keys):
        problems.append("no primary key")
    for primary, cols, name in keys:
        if tenant not in cols:
            what = "primary key" if primary else "unique key"
            problems.append(f"{what} {name} ({', '.join(cols)}) lacks {tenant}")
    return verdict


def summary(verdicts: list[Verdict]) -> str:
    tables = [v for v in verdicts if v.kind != "view"]
    views = [v for v in verdicts if v.kind == "view"]
    return (
        f"{sum(v.passes for v in tables)} of {len(tables)} tables and "
        f"{sum(v.passes for v in views)} of {len(views)} views pass Citus's rules"
    )
