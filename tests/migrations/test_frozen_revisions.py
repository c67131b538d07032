"""Revisions are frozen: an old revision replays what it shipped with, whatever today's code says.

A revision may import the standard library, SQLAlchemy and Alembic, nothing else: no `vault`
module (models, rules, text derivation, views) may change what replaying it writes.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from vault.storage.migrations import script_location
from vault.storage.views import VIEWS_V1

ALLOWED = {"sqlalchemy", "alembic"}
REVISIONS = sorted((script_location() / "versions").glob("*.py"))


def _imported_modules(tree: ast.AST) -> list[str]:
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Call):  # __import__("x"), importlib.import_module("x")
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in ("__import__", "import_module"):
                found.append(f"<dynamic import: {ast.unparse(node)}>")
    return found


def test_there_are_revisions_to_check() -> None:
    assert len(REVISIONS) >= 2


@pytest.mark.parametrize("path", REVISIONS, ids=lambda p: p.stem)
def test_a_revision_imports_only_the_stdlib_sqlalchemy_and_alembic(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    forbidden = [
        module
        for module in _imported_modules(tree)
        if module.startswith(("<", "."))
        or (
            module.split(".")[0] not in sys.stdlib_module_names
            and module.split(".")[0] not in ALLOWED
        )
    ]
    assert not forbidden, f"{path.name} imports {forbidden}: copy what it needs into the revision"


def test_every_revision_loads_with_vault_unimportable() -> None:
    """Belt and braces for the AST check: load each revision in a process where `vault` fails."""
    script = textwrap.dedent(
        """
        import importlib.abc, importlib.util, sys

        class NoVault(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "vault" or name.startswith("vault."):
                    raise ImportError(f"a revision imported {name}")
                return None

        sys.meta_path.insert(0, NoVault())
        for path in sys.argv[1:]:
            spec = importlib.util.spec_from_file_location("revision_under_test", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            assert callable(module.upgrade) and callable(module.downgrade), path
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *map(str, REVISIONS)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"frozen_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_revision_0001_ships_the_version_1_views_verbatim() -> None:
    (initial,) = [p for p in REVISIONS if "_0001_" in p.name]
    frozen = _load(initial).VIEWS_V1
    assert list(frozen) == [(view.name, view.select) for view in VIEWS_V1]


def test_revision_0013_ships_the_version_3_views_verbatim() -> None:
    from vault.storage.evidence_tables import FACT_EVIDENCE_V1, FACT_EVIDENCE_V2
    from vault.storage.views import (
        FACT_HISTORY_V1,
        FACT_HISTORY_V2_POSTGRESQL,
        TAGGED_FACTS_V1,
        VIEWS_V3,
        dialect_views,
    )

    (tenant_keys,) = [p for p in REVISIONS if "_0013_" in p.name]
    frozen = _load(tenant_keys)
    shipped = {name: select for name, select in frozen._views(3, "sqlite")}
    assert {v.name: v.select for v in VIEWS_V3}.items() <= shipped.items()
    assert shipped["fact_evidence_list"] == FACT_EVIDENCE_V2.select
    on_server = {name: select for name, select in frozen._views(3, "postgresql")}
    assert {v.name: v.select for v in dialect_views(VIEWS_V3, "postgresql")}.items() <= (
        on_server.items()
    )
    assert on_server["fact_history"] == FACT_HISTORY_V2_POSTGRESQL.select
    before = {name: select for name, select in frozen._views(2, "sqlite")}
    assert before["fact_history"] == FACT_HISTORY_V1.select
    assert before["tagged_facts"] == TAGGED_FACTS_V1.select
    assert before["fact_evidence_list"] == FACT_EVIDENCE_V1.select
