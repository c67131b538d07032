"""The command line as a user runs it: exit codes, one-line errors, JSON, help everywhere (the
README's command table is checked by tests/test_docs.py)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from vault.cli import main
from vault.storage.migrations import head_revision


@pytest.fixture
def run(db_path: Path):  # type: ignore[no-untyped-def]
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
        return runner.invoke(main, ["--db", str(db_path), *args], input=input)

    return invoke


def test_remember_then_facts_as_json(run, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert (
        run("remember", "ana", "primary sport: running", "--at", "2026-03-02T08:00:00Z").exit_code
        == 0
    )
    result = run(
        "remember",
        "ana",
        "has kids",
        "--category",
        "lifestyle",
        "--confidence",
        "0.7",
        "--source",
        "conversation",
        "--at",
        "2026-03-03T08:00:00+01:00",
    )
    assert result.exit_code == 0, result.output
    assert (
        run(
            "remember", "ana", "skips Mondays", "--kind", "pattern", "--at", "2026-03-04T08:00:00Z"
        ).exit_code
        == 0
    )
    data = json.loads(run("facts", "ana", "--json").output)
    assert [f["text"] for f in data["facts"]] == ["primary sport: running", "has kids"]
    assert data["facts"][1]["category"] == "context"
    assert data["facts"][1]["learned_at"].startswith("2026-03-03T07:00:00")
    assert [p["text"] for p in data["patterns"]] == ["skips Mondays"]


def test_superseded_facts_show_with_all(run) -> None:  # type: ignore[no-untyped-def]
    run("remember", "ana", "goal: 10k", "--at", "2026-03-01T00:00:00Z")
    out = run("remember", "ana", "goal: marathon", "--at", "2026-03-05T00:00:00Z").output
    assert "archived fact: goal: 10k (superseded by 2)" in out
    listing = run("facts", "ana", "--all").output
    assert "ARCHIVE" in listing and "goal: 10k" in listing
    assert (
        json.loads(run("facts", "ana", "--all", "--json").output)["archive"][0]["reason"]
        == "superseded"
    )


def test_forget_decay_delete(run, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("remember", "ana", "has recurring knee issue", "--at", "2026-01-01T00:00:00Z")
    run("remember", "ana", "likes hills", "--confidence", "0.31", "--at", "2026-01-01T00:00:00Z")
    assert "forgot 1 fact," in run("forget", "ana", "knee").output
    decayed = json.loads(run("decay", "--at", "2026-02-01T00:00:00Z", "--json").output)
    assert (decayed["lowered"], decayed["archived"]) == (
        0,
        1,
    )  # counts: a whole-vault run is not listed row by row
    assert "likes hills" in run("facts", "ana", "--all").output.split("archived")[-1]
    counts = json.loads(run("delete", "ana", "--json").output)
    assert counts["athletes"] == 1
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM archive").fetchone() == (0,)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("remember", "ana", "   "), "text must not be empty"),
        (("remember", "ana", "x" * 201), "limit is 200"),
        (("remember", "ana", "ok", "--confidence", "2"), "not in the range 0<=x<=1"),
        (("remember", "ana", "ok", "--category", "astrology"), "unknown category"),
        (("remember", "ana", "ok", "--at", "2026-03-02T08:00:00"), "timezone"),
        (("forget", "nobody", "knee"), "no memory stored"),
        (("delete", "nobody"), "no memory stored"),
        (("history", "99"), "no fact with id 99"),
    ],
)
def test_user_mistakes_exit_non_zero_with_one_line(
    run, args: tuple[str, ...], message: str
) -> None:  # type: ignore[no-untyped-def]
    run("upgrade")
    result = run(*args)
    assert result.exit_code in (1, 2)
    assert message in result.output
    # CliRunner keeps an uncaught exception in `result.exception` (never in the output): only
    # SystemExit means the command ended through click's own error path
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("Error: ")


def test_usage_errors_exit_2(run) -> None:  # type: ignore[no-untyped-def]
    assert run("remember", "ana").exit_code == 2
    assert run("remember", "ana", "x", "--kind", "poem").exit_code == 2


def test_reading_a_missing_vault_says_how_to_create_it(run) -> None:  # type: ignore[no-untyped-def]
    result = run("facts", "ana")
    assert result.exit_code == 1 and "vault upgrade" in result.output


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("this is not sqlite " * 100)
    result = CliRunner().invoke(main, ["--db", str(junk), "facts", "ana"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert "not a database" in result.output


def test_upgrade_creates_then_reports_up_to_date(run) -> None:  # type: ignore[no-untyped-def]
    assert f"upgraded empty file -> {head_revision()}" in run("upgrade").output
    assert "already at the newest schema" in run("upgrade").output


def test_demo_runs_on_a_local_file_and_is_repeatable(run) -> None:  # type: ignore[no-untyped-def]
    first = run("demo")
    assert first.exit_code == 0, first.output
    assert "superseded" in first.output and "resolved" in first.output
    assert run("demo").output == first.output


def test_the_demos_closing_hint_prints_the_block_it_showed_last(run) -> None:  # type: ignore[no-untyped-def]
    shown = run("demo").output
    last_block = shown.split("what the coach model now sees")[-1].split("\n\n")[0]
    hint = re.search(r"try: vault (prompt \S+ --at \S+) for the block above", shown)
    assert hint is not None, shown.splitlines()[-1]
    printed = run(*hint.group(1).split()).output
    assert [line.strip() for line in last_block.splitlines()[1:]] == printed.splitlines()


def _commands() -> list[str]:
    return sorted(main.list_commands(click.Context(main)))  # imports the lazy command modules


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0 and len(result.output.strip()) > 40


def test_sql_reads_views_and_refuses_writes(run, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("remember", "ana", "primary sport: running", "--at", "2026-03-02T08:00:00Z")
    out = run("sql", "SELECT athlete_id, rank, text FROM top_facts", "--json").output
    assert json.loads(out) == [{"athlete_id": "ana", "rank": 1, "text": "primary sport: running"}]
    assert run("sql", "SELECT text FROM facts", "--csv").output == "text\nprimary sport: running\n"
    before = db_path.read_bytes()
    refused = run("sql", "DELETE FROM facts")
    assert refused.exit_code == 1 and "readonly" in refused.output
    assert db_path.read_bytes() == before
    assert run("sql", "SELECT nope FROM nowhere").exit_code == 1
    assert run("sql", "   ").exit_code == 2
    no_rows = run("sql", "/* just a comment */")
    assert no_rows.exit_code == 1 and isinstance(no_rows.exception, SystemExit), no_rows.exception


def test_stats_counts_tables_and_categories(run) -> None:  # type: ignore[no-untyped-def]
    run("remember", "ana", "primary sport: running", "--at", "2026-03-02T08:00:00Z")
    run("remember", "ana", "goal: 10k", "--at", "2026-03-02T08:00:00Z")
    data = json.loads(run("stats", "--json").output)
    assert data["tables"]["facts"] == 2 and data["tables"]["athletes"] == 1
    assert data["facts_by_category"] == {"goal": 1, "sport": 1}


NARRATIVE_COMMANDS = {
    "demo",
    "datasette-metadata",
    "mcp",
    "ui",
}  # a story; a JSON file already; MCP itself; the memory page


@pytest.mark.parametrize("command", sorted(set(_commands()) - NARRATIVE_COMMANDS))
def test_every_command_that_prints_data_offers_json(command: str) -> None:
    found = main.get_command(click.Context(main), command)
    assert found is not None
    # a command group (`vault episode add|import`) offers --json on each of its subcommands
    leaves = list(found.commands.values()) if isinstance(found, click.Group) else [found]
    for leaf in leaves:
        options = {opt for param in leaf.params for opt in getattr(param, "opts", [])}
        assert "--json" in options or command == "export" and "--format" in options


def test_the_same_kind_of_mistake_gets_the_same_exit_code(run) -> None:  # type: ignore[no-untyped-def]
    """One policy (vault.cli.app): an out-of-range option is a usage mistake (2) whichever
    option it is; an athlete the vault knows nothing about is a failed read (1) in every
    reading command that lists what is stored."""
    assert run("remember", "ana", "primary sport: running").exit_code == 0
    assert run("remember", "ana", "likes hills", "--confidence", "2").exit_code == 2
    assert run("relevant", "ana", "hills", "--limit", "0").exit_code == 2
    assert run("recall", "ana", "hills", "--k", "0").exit_code == 2
    for args in (["facts", "nobody"], ["recall", "nobody", "hills"]):
        result = run(*args)
        assert result.exit_code == 1 and "no memory stored for athlete 'nobody'" in result.output
    assert run("recall", "ana", "hills").exit_code == 0  # known, nothing recalled: not an error
