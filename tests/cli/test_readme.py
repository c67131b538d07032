"""The README's library example runs as printed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def test_library_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    snippet = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "['primary sport: running']" in out
    assert (tmp_path / "vault.db").exists()


def test_analyst_queries_run_against_the_demo(tmp_path: Path) -> None:
    import sqlite3

    from click.testing import CliRunner

    from vault.cli import main

    db = tmp_path / "demo.db"
    assert CliRunner().invoke(main, ["--db", str(db), "demo"]).exit_code == 0
    block = re.findall(r"```sql\n(.*?)```", README.read_text(), re.S)[0]
    queries = [q.strip() for q in block.split(";") if q.strip().replace("\n", "").strip("- ")]
    assert len(queries) >= 5
    results = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as raw:
        for query in queries:
            results[query.splitlines()[0]] = raw.execute(query).fetchall()
    assert results["-- athletes with an active injury"] == []  # the knee was resolved
    at_caps = results["-- athletes at the caps (15 facts, 5 patterns, 5 notes)"]
    assert [(athlete, notes) for athlete, _, _, notes in at_caps] == [("demo-athlete", 5)]
    assert ("marathon", 1) in results["-- most common goals"]
