"""`vault copy`: the demo vault moves to PostgreSQL and back, unchanged, and a rerun writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.integration.test_postgres import pg_vault  # noqa: F401 - fixture
from vault import Vault
from vault.cli import main

pytestmark = pytest.mark.postgres


def vault(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_demo_vault_moves_to_postgresql_and_back(pg_vault: Vault, tmp_path: Path) -> None:
    demo, back = tmp_path / "demo.db", tmp_path / "back.db"
    server = pg_vault.engine.url.render_as_string(hide_password=False)
    vault("--db", str(demo), "demo")

    there = json.loads(vault("copy", str(demo), server, "--json"))
    assert there["athletes"] == 1 and there["changed"] == 1 and there["rows"]["facts"] > 0
    again = json.loads(vault("copy", str(demo), server, "--json"))
    assert (again["changed"], again["unchanged"], again["checksum"]) == (0, 1, there["checksum"])
    for command in (["prompt", "demo-athlete"], ["facts", "demo-athlete", "--all", "--json"]):
        assert vault("--db", server, *command) == vault("--db", str(demo), *command)

    home = json.loads(vault("copy", server, str(back), "--json"))
    assert home["checksum"] == there["checksum"]
    assert vault("--db", str(back), "export", "demo-athlete") == vault(
        "--db", str(demo), "export", "demo-athlete"
    )
    # the copy keeps ids, so a new fact never takes an id the archive still refers to
    vault("--db", str(back), "remember", "demo-athlete", "likes hill repeats")
    vault("--db", str(demo), "remember", "demo-athlete", "likes hill repeats")
    ids = [
        json.loads(vault("--db", str(p), "facts", "demo-athlete", "--json")) for p in (demo, back)
    ]
    assert ids[0] == ids[1] or [f["id"] for f in ids[0]["facts"]] == [
        f["id"] for f in ids[1]["facts"]
    ]


def test_a_destination_with_other_athletes_is_refused(pg_vault: Vault, tmp_path: Path) -> None:
    demo = tmp_path / "demo.db"
    vault("--db", str(demo), "demo")
    pg_vault.remember("someone-else", "likes hills")
    server = pg_vault.engine.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(main, ["copy", str(demo), server])
    assert result.exit_code == 1 and "someone-else" in result.output
    assert [s.athlete_id for s in pg_vault.summaries()] == ["someone-else"]


def test_printed_urls_hide_the_password(pg_vault: Vault, tmp_path: Path) -> None:
    demo = tmp_path / "demo.db"
    vault("--db", str(demo), "demo")
    url = pg_vault.engine.url.set(password="s3cret-pw").render_as_string(hide_password=False)
    result = CliRunner().invoke(main, ["copy", str(demo), url])
    assert "s3cret-pw" not in result.output and "***" in result.output
