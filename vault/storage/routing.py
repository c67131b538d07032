"""Does a statement route to one shard? The check Citus makes, done on the SQL vault sends.

Citus sends a statement to one worker when every distributed table it reads or writes is
filtered by an equality on the distribution column (the athlete id), and joins distributed
tables only on that column ("co-located"). vault's athlete-owned tables are distributed by
their tenant column (`athletes` by `id`); reference tables (knowledge, ...) are everywhere.

- `problems(sql, scope)`: why a statement would not route, `[]` when it does. Scope `athlete`
  (the default of every operation): every athlete-owned table is pinned to one athlete by an
  equality on its tenant column, directly or through tenant-equal joins; `INSERT ... VALUES`
  naming the tenant column routes by its value. Scope `all` (an operation over every athlete,
  run as statements Citus pushes down to every shard): athlete-owned tables may go unfiltered,
  but are joined only tenant to tenant. Scope `maintenance` (migrations) is not checked.
- `scope()` / `operation_scope(kind)` (from `vault.storage.scope`): the scope of the
  statements the current thread sends; the operations over all athletes declare theirs.

sqlglot parses the statements (the SQL firewall's parser). The test suite runs this on every
statement of its PostgreSQL half (tests/conftest.py); docs/scale-out.md says what it proves.
"""

from __future__ import annotations

import functools

import sqlglot
from sqlglot import exp

from vault.storage.scope import TENANT_COLUMNS, Scope, operation_scope, scope

__all__ = ["ROOT", "TENANT_COLUMNS", "VIEWS", "Scope", "operation_scope", "problems", "scope"]

# table -> its distribution (tenant) column; knowledge and other shared tables are reference
# tables, present on every worker, and never need a filter.
ROOT = {"athletes": "id"}


# the views read per athlete, by the column naming the athlete
VIEWS = {
    **{
        name: "athlete_id"
        for name in (
            "active_facts",
            "prompt_facts",
            "top_facts",
            "active_patterns",
            "active_notes",
            "athlete_summary",
            "fact_history",
            "tagged_facts",
            "fact_evidence_list",
            "conversation_topics",
        )
    },
    "episode_list": "owner_id",
}


@functools.cache
def tenant_tables() -> dict[str, str]:
    """Every athlete-owned table (and view) of the schema and its tenant column."""
    from vault.storage import episode_tables, evidence_tables  # noqa: F401 - on the metadata
    from vault.storage.tables import metadata

    found = {**ROOT, **VIEWS}
    for table in metadata.tables.values():
        tenant = next((c for c in TENANT_COLUMNS if c in table.c), None)
        if tenant is not None:
            found[table.name] = tenant
    return found


@functools.lru_cache(maxsize=4096)
def problems(sql: str, kind: Scope = "athlete") -> tuple[str, ...]:
    """Why `sql` would not route to one shard in an operation of scope `kind` (empty: it does)."""
    if kind == "maintenance":
        return ()
    try:
        parsed = sqlglot.parse(sql, read="postgres")
    except sqlglot.errors.ParseError:
        return ()  # not ours to judge (the driver reports SQL errors)
    found: list[str] = []
    tenants = tenant_tables()
    for statement in parsed:
        if statement is None:
            continue
        values: set[str] = set()
        for branch in _branches(statement):  # UNION branches are separate scans
            analysed = _Statement(branch, tenants)
            found.extend(analysed.problems(kind))
            values |= analysed.values()
        if kind == "athlete" and len(values) > 1:
            found.append("tables pinned to different athletes in one statement")
    return tuple(dict.fromkeys(found))


def _branches(statement: exp.Expr) -> list[exp.Expr]:
    if isinstance(statement, exp.SetOperation):
        return [*_branches(statement.this), *_branches(statement.expression)]
    return [statement]


class _Statement:
    """The athlete-owned table references of one statement and the equalities between them."""

    def __init__(self, tree: exp.Expr, tenants: dict[str, str]) -> None:
        self.tree = tree
        self.tenants = tenants
        self.refs: list[tuple[str, str]] = []  # (alias, table) of each athlete-owned reference
        self.parent: dict[str, str] = {}
        self.pinned: dict[str, str] = {}  # tenant node -> the value it is pinned to
        self._collect()

    def _collect(self) -> None:
        ctes = {cte.alias_or_name for cte in self.tree.find_all(exp.CTE)}
        for table in self.tree.find_all(exp.Table):
            if table.name in self.tenants and table.name not in ctes and not table.db:
                self.refs.append((table.alias_or_name, table.name))
        if isinstance(self.tree, exp.Insert):
            self._pin_insert(self.tree)
        for eq in self.tree.find_all(exp.EQ):
            left, right = self._tenant_node(eq.this), self._tenant_node(eq.expression)
            if left and right:
                self._union(left, right)
            elif left and _is_value(eq.expression):
                self.pinned[left] = eq.expression.sql()
            elif right and _is_value(eq.this):
                self.pinned[right] = eq.this.sql()

    def _pin_insert(self, insert: exp.Insert) -> None:
        target = insert.this.this if isinstance(insert.this, exp.Schema) else insert.this
        if not isinstance(target, exp.Table) or target.name not in self.tenants:
            return
        columns = (
            [c.name for c in insert.this.expressions] if isinstance(insert.this, exp.Schema) else []
        )
        tenant = self.tenants[target.name]
        node = f"{target.alias_or_name}.{tenant}"
        if tenant in columns and isinstance(insert.expression, exp.Values):
            self.pinned[node] = "VALUES"  # each row goes to the shard of its own value
        elif tenant in columns and isinstance(insert.expression, exp.Select):
            position = columns.index(tenant)
            selected = insert.expression.selects
            if position < len(selected):
                source = self._tenant_node(selected[position].unalias())
                if source:
                    self._union(node, source)
                elif not any(
                    t.name in self.tenants for t in insert.expression.find_all(exp.Table)
                ):  # SELECT ... FROM (VALUES ...): SQLAlchemy's many-row INSERT ... RETURNING
                    self.pinned[node] = "VALUES"

    def _tenant_node(self, node: exp.Expr) -> str | None:
        """`alias.tenant` when `node` is an athlete-owned table's tenant column."""
        while isinstance(node, exp.Cast | exp.Paren):  # `(f.athlete_id)::text` in a catalog view
            node = node.this
        if not isinstance(node, exp.Column):
            return None
        qualifier = node.table
        if qualifier:
            table = dict(self.refs).get(qualifier)
            if table is not None and self.tenants[table] == node.name:
                return f"{qualifier}.{node.name}"
            return None
        owners = {t for _alias, t in self._nearest_tables(node) if self.tenants.get(t) == node.name}
        aliases = [a for a, t in self._nearest_tables(node) if t in owners]
        return f"{aliases[0]}.{node.name}" if len(aliases) == 1 else None

    def _nearest_tables(self, node: exp.Expr) -> list[tuple[str, str]]:
        """The athlete-owned tables of the innermost SELECT / UPDATE / DELETE holding `node`."""
        holder = node.find_ancestor(exp.Select, exp.Update, exp.Delete)
        if holder is None:
            return list(self.refs)
        names = {
            (t.alias_or_name, t.name)
            for t in holder.find_all(exp.Table)
            if t.name in self.tenants
            and t.find_ancestor(exp.Select, exp.Update, exp.Delete) is holder
        }
        return sorted(names)

    def _find(self, node: str) -> str:
        while self.parent.get(node, node) != node:
            node = self.parent[node]
        return node

    def _union(self, a: str, b: str) -> None:
        self.parent.setdefault(a, a)
        self.parent.setdefault(b, b)
        self.parent[self._find(a)] = self._find(b)

    def values(self) -> set[str]:
        """The athlete values this branch's tables are pinned to."""
        nodes = {self._find(f"{alias}.{self.tenants[table]}") for alias, table in self.refs}
        return {v for n, v in self.pinned.items() if self._find(n) in nodes}

    def problems(self, kind: Scope) -> list[str]:
        if not self.refs:
            return []
        nodes = [f"{alias}.{self.tenants[table]}" for alias, table in self.refs]
        roots = {self._find(n) for n in nodes}
        pinned_roots = {self._find(n) for n in self.pinned}
        found = []
        if kind == "athlete":
            loose = sorted(
                {t for (a, t), n in zip(self.refs, nodes) if self._find(n) not in pinned_roots}
            )
            if loose:
                found.append(f"no equality on the athlete id for {', '.join(loose)}")
        elif len(roots) > 1:
            found.append(
                "athlete-owned tables joined on something other than the athlete id: "
                + ", ".join(sorted({t for _a, t in self.refs}))
            )
        return found


def _is_value(node: exp.Expr) -> bool:
    """A bound parameter or a literal: one athlete, known when the statement is planned."""
    while isinstance(node, exp.Cast | exp.Paren):
        node = node.this
    return isinstance(node, exp.Placeholder | exp.Parameter | exp.Literal)
