"""One athlete, one key: engine rows under a variant of an athlete's id (issue 25)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.engine.engine_statements import read_memory, write_memory
from tests.engine.test_engine_table import fact, memory, rows
from vault import open_vault
from vault.cli import main

VARIANTS = [" jos\u00e9", "jos\u00e9\n", "jose\u0301", "\tjos\u00e9 "]


def _doctor(path: Path) -> dict[str, dict[str, object]]:
    result = CliRunner().invoke(main, ["--db", str(path), "doctor", "--json"])
    return {c["name"]: c for c in json.loads(result.output)["checks"]}


def _on_disk(path: Path, marker: bytes) -> bool:
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return any(marker in p.read_bytes() for p in path.parent.glob(path.name + "*"))


@pytest.mark.parametrize("variant", VARIANTS, ids=["space", "newline", "nfd", "tab"])
def test_a_row_under_a_variant_key_is_applied_to_the_athlete_and_shown_under_its_id_only(
    tmp_path: Path, variant: str
) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("jos\u00e9", "primary sport: running")
    write_memory(path, variant, memory(fact("prefers evening sessions zqxjv")))
    assert not _doctor(path)["engine table"]["ok"]  # a non-canonical key, until vault runs
    with open_vault(path) as vault:
        vault.admin.sync_engine()
        texts = {f.text for f in vault.facts("jos\u00e9")}
    assert texts == {"primary sport: running", "prefers evening sessions zqxjv"}
    assert rows(path, "SELECT athlete_id FROM athlete_memory") == [("jos\u00e9",)]
    document = read_memory(path, "jos\u00e9")
    assert document is not None and "zqxjv" in json.dumps(document)
    assert _doctor(path)["engine table"]["ok"]


def test_delete_erases_the_rows_under_every_variant_key_from_the_disk(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("jos\u00e9", "primary sport: running")
    for n, variant in enumerate(VARIANTS):
        write_memory(path, variant, memory(fact(f"marker zqxjv number {n}")))
    with closing(sqlite3.connect(path)) as raw:  # one the engine wrote that vault cannot read
        raw.execute(
            "INSERT OR REPLACE INTO athlete_memory (athlete_id, memory_json) VALUES (?, ?)",
            ("jose\u0301 ", "zqxjv not json"),
        )
        raw.commit()
    result = CliRunner().invoke(main, ["--db", str(path), "delete", "jos\u00e9"])
    assert result.exit_code == 0, result.output
    assert rows(path, "SELECT COUNT(*) FROM athlete_memory") == [(0,)]
    assert rows(path, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]
    assert not _on_disk(path, b"zqxjv")
    assert _doctor(path)["engine table"]["ok"]


@pytest.mark.parametrize("key", ["", "\ufeffana", "ana\u200b", "x" * 300, None])
def test_a_row_under_a_key_that_names_no_athlete_keeps_no_text_and_doctor_says_so(
    tmp_path: Path, key: str | None
) -> None:
    path = tmp_path / "vault.db"
    open_vault(path, upgrade=True).close()
    for _ in range(3):  # NULL keys never conflict: each write adds a row
        write_memory(path, key, memory(fact("mail me at pia.k@example.org zqxjv")))  # type: ignore[arg-type]
    with open_vault(path) as vault:
        report = vault.admin.sync_engine()
    assert any("taken down" in line for line in report.lines)
    assert rows(path, "SELECT COUNT(*) FROM athlete_memory") == [(0,)]
    assert rows(path, "SELECT COUNT(*), MAX(memory_json) FROM engine_inbox") == [(1, "")]
    assert not _on_disk(path, b"zqxjv")
    check = _doctor(path)["engine table"]
    assert check["ok"] and "names no athlete, taken down" in str(check["detail"])
