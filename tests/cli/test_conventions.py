"""CLI conventions: --version, python -m vault, --db everywhere, stdout vs stderr, one-line
errors for every user mistake (issue 9's list included), truthful Ctrl-C, backup, bulk streams."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from vault.cli import main
from vault.cli.app import WriteGuard

PYTHON = sys.executable


def invoke(
    *args: str, input: str | bytes | None = None, env: dict[str, str] | None = None
) -> Result:
    return CliRunner().invoke(main, list(args), input=input, env=env)


def one_line_error(result: Result, code: int = 1) -> str:
    """The result is exactly one `Error: ...` line on stderr, nothing on stdout, no traceback."""
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == "", result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def test_version_and_python_dash_m() -> None:
    version = invoke("--version")
    assert version.exit_code == 0 and version.stdout.startswith("vault ")
    done = subprocess.run(
        [PYTHON, "-m", "vault", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stdout == version.stdout


@pytest.mark.parametrize("command", sorted(main.list_commands(click.Context(main))))
def test_every_command_takes_db_and_shows_it_in_its_help(command: str) -> None:
    help_text = invoke(command, "--help").stdout
    assert "--db PATH|URL" in help_text and "$VAULT_DB_URL" in help_text


def test_db_before_or_after_the_command_name_and_from_the_environment(tmp_path: Path) -> None:
    first, second, third = (tmp_path / f"{n}.db" for n in ("a", "b", "c"))
    assert invoke("--db", str(first), "remember", "ana", "goal: 10k").exit_code == 0
    assert invoke("remember", "bob", "goal: 5k", "--db", str(second)).exit_code == 0
    env = {"VAULT_DB_URL": f"sqlite:///{third}"}
    assert invoke("remember", "eve", "goal: 1k", env=env).exit_code == 0
    assert (
        invoke("--db", str(first), "facts", "bob", "--db", str(second)).exit_code == 0
    )  # last wins
    assert one_line_error(invoke("facts", "bob", "--db", str(first))).endswith(
        "no memory stored for athlete 'bob'"
    )
    assert "goal: 1k" in invoke("facts", "eve", env=env).stdout


def test_results_on_stdout_errors_on_stderr(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    done = invoke("--db", db, "remember", "ana", "goal: 10k", "--json")
    assert json.loads(done.stdout)["added"] and done.stderr == ""


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("cleanup", "--days", "99999999999"), 2, "--days"),
        (("history", "99999999999999999999999"), 2, "FACT_ID"),
        (("history", "0"), 2, "FACT_ID"),
        (("remember", "ana", "ok", "--at", "0001-01-01T00:00:00+01:00"), 2, "--at"),
        (("remember", "ana", "ok", "--at", "9999-12-31T23:30:00-01:00"), 2, "--at"),
        (("remember", "ana", "x\udcff"), 2, "not valid UTF-8"),
        (("nosuchcommand",), 2, "No such command"),
        (("export",), 2, "give one ATHLETE or --all"),
        (("export", "ana", "--with-times"), 2, "--contract"),
        (("prompt", "ana", "--json", "--format", "markdown"), 2, "--json"),
        (("ingest", "ana"), 2, "exactly one of"),
    ],
)
def test_user_mistakes_are_one_line(
    tmp_path: Path, args: tuple[str, ...], code: int, message: str
) -> None:
    db = str(tmp_path / "v.db")
    assert invoke("--db", db, "upgrade").exit_code == 0
    assert message in one_line_error(invoke("--db", db, *args), code)


def test_bad_input_files_are_refused_in_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    invoke("--db", db, "upgrade")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"works as a nurs\xffe")
    assert "not valid UTF-8" in one_line_error(
        invoke("--db", db, "ingest", "ana", "--file", str(bad))
    )
    assert "not valid UTF-8" in one_line_error(
        invoke("--db", db, "ingest", "ana", "-", input=b"works as a nurs\xffe")
    )
    deep = "[" * 100_000
    assert "nested too deeply" in one_line_error(
        invoke("--db", db, "ingest", "ana", "--kind", "conversation", "--text", deep)
    )
    deep_doc = tmp_path / "deep.json"
    deep_doc.write_text('{"format": "vault-export", "version": 1, "athlete": ' + "[" * 100_000)
    one_line_error(invoke("--db", db, "import", str(deep_doc)))
    assert invoke("--db", db, "facts", "ana").exit_code == 1  # nothing was stored


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_import_of_an_endless_file_stops_at_the_size_limit(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    assert "MB" in one_line_error(invoke("--db", db, "import", "/dev/zero"))


def test_ctrl_c_reports_what_was_committed() -> None:
    guard = WriteGuard()
    assert guard.report() == "interrupted: nothing was written"
    with pytest.raises(KeyboardInterrupt):
        with guard.step("the decay"):
            guard.handler(signal.SIGINT, None)  # before the commit: raised at once
    assert "the decay was rolled back" in guard.report()
    guard = WriteGuard()
    with pytest.raises(KeyboardInterrupt):
        with guard.step("the decay"):
            guard._on_commit(None)  # the commit has started: the interrupt waits for it
            guard.handler(signal.SIGINT, None)
    assert guard.report() == "interrupted after the work was committed: the decay"


def test_interrupt_is_one_truthful_line_with_exit_130(tmp_path: Path, monkeypatch: Any) -> None:
    db = str(tmp_path / "v.db")
    invoke("--db", db, "remember", "ana", "goal: 10k", "--at", "2026-01-01T00:00:00Z")

    def interrupted(*_: Any, **__: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr("vault.api.Vault.decay", interrupted)
    result = invoke("--db", db, "decay")
    assert "rolled back" in one_line_error(result, 130)


def test_backup_is_a_consistent_copy_and_refuses_to_overwrite(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    invoke("--db", db, "remember", "ana", "goal: 10k", "--at", "2026-01-01T00:00:00Z")
    reader = sqlite3.connect(db)  # a reader holding a snapshot does not stop the backup
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM facts").fetchone()
    copy = tmp_path / "copy.db"
    done = invoke("--db", db, "backup", str(copy), "--json")
    reader.close()
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["athletes"] == 1
    assert os.stat(copy).st_mode & 0o077 == 0
    assert "goal: 10k" in invoke("--db", str(copy), "facts", "ana").stdout
    assert "exists" in one_line_error(invoke("--db", db, "backup", str(copy)))
    assert invoke("--db", db, "backup", str(copy), "--force").exit_code == 0
    assert not list(tmp_path.glob(".*partial"))


def test_an_empty_db_is_a_usage_error_not_the_default_file(tmp_path: Path) -> None:
    assert "--db" in one_line_error(invoke("--db", "", "remember", "ana", "goal: 10k"), 2)
    assert "--db" in one_line_error(invoke("remember", "ana", "goal: 10k", "--db", ""), 2)
    assert not (tmp_path / "default-vault.db").exists()  # $VAULT_DB (tests/conftest.py)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", ":memory:"])
def test_an_in_memory_database_is_refused(url: str) -> None:
    assert one_line_error(invoke("--db", url, "upgrade")) == (
        "Error: an in-memory database is gone when the command ends; give a file"
    )


def test_backup_into_a_missing_directory_is_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    invoke("--db", db, "remember", "ana", "goal: 10k")
    missing = tmp_path / "nonexistent" / "dir"
    error = one_line_error(invoke("--db", db, "backup", str(missing / "x.db")))
    assert str(missing) in error and "does not exist" in error


def test_export_all_streams_json_lines_and_import_reads_them_back(tmp_path: Path) -> None:
    source, target = str(tmp_path / "s.db"), str(tmp_path / "t.db")
    for n in range(7):
        invoke("--db", source, "remember", f"a{n}", f"goal: {n}k", "--at", "2026-01-01T00:00:00Z")
    invoke("--db", source, "remember", "a1", "goal: marathon", "--at", "2026-01-02T00:00:00Z")
    stream = tmp_path / "all.jsonl"
    done = invoke("--db", source, "export", "--all", "--output", str(stream), "--json")
    assert json.loads(done.stdout)["athletes"] == 7
    lines = stream.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["athlete"]["id"] for line in lines] == [f"a{n}" for n in range(7)]
    piped = invoke("--db", source, "export", "--all")
    assert piped.stdout == stream.read_text(encoding="utf-8")
    assert piped.stderr.startswith("exported 7 athletes")  # the summary never mixes with data
    first = invoke("--db", target, "import", str(stream), "--json")
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout) | {} == {
        "athletes": 7,
        "restored": 7,
        "unchanged": 0,
        "skipped": 0,
        "refused": 0,
        "facts": 7,
        "patterns": 0,
        "notes": 0,
        "archive": 1,
    }
    again = invoke("--db", target, "import", "-", input=stream.read_bytes())
    assert again.stdout.startswith("imported 7 athletes from - (0 restored, 7 unchanged")

    def texts(jsonl: str) -> dict[str, list[str]]:
        docs = [json.loads(line) for line in jsonl.splitlines()]
        return {d["athlete"]["id"]: [f["text"] for f in d["facts"]] for d in docs}

    restored = invoke("--db", target, "export", "--all").stdout
    assert texts(restored) == texts(piped.stdout)  # the same memory; ids renumbered 1..n
    third = str(tmp_path / "third.db")
    invoke("--db", third, "import", "-", input=restored)
    assert invoke("--db", third, "export", "--all").stdout == restored  # a fixed point


def test_a_bad_line_stops_the_stream_and_says_what_was_committed(tmp_path: Path) -> None:
    source, target = str(tmp_path / "s.db"), str(tmp_path / "t.db")
    invoke("--db", source, "remember", "ana", "goal: 10k", "--at", "2026-01-01T00:00:00Z")
    good = invoke("--db", source, "export", "--all").stdout
    stream = good + '{"format": "vault-export", "version": 9}\n'
    message = one_line_error(invoke("--db", target, "import", "-", input=stream))
    assert "line 2" in message and "nothing was imported" in message  # one batch: none committed
    skipped = invoke("--db", target, "import", "-", "--skip-bad", input=stream)
    assert skipped.exit_code == 0 and "warning: skipped line 2" in skipped.stderr
    assert "1 athlete " in skipped.stdout


def test_export_contract_is_the_seed_object(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    invoke("--db", db, "remember", "ana", "primary sport: running", "--at", "2026-01-01T00:00:00Z")
    contract = json.loads(
        invoke("--db", db, "export", "ana", "--contract", "--at", "2026-01-01T00:00:00Z").stdout
    )
    assert contract == {
        "key_facts": [
            {
                "fact": "primary sport: running",
                "source": "conversation",
                "confidence": 0.8,
                "learned_at": "2026-01-01T00:00:00Z",
            }
        ],
        "patterns": [],
        "coaching_notes": [],
    }
    timed = json.loads(invoke("--db", db, "export", "ana", "--contract", "--with-times").stdout)
    assert set(timed) == {"key_facts", "patterns", "coaching_notes", "updated_at"}
    assert "learned_at" in timed["key_facts"][0]
    assert "--with-times" in invoke("export", "--help").stdout
    assert "LEAVES" in invoke("export", "--help").stdout


def test_datasette_metadata_lists_views_first_and_describes_every_column(tmp_path: Path) -> None:
    db = tmp_path / "vault.db"
    invoke("--db", str(db), "upgrade")
    metadata = json.loads(invoke("--db", str(db), "datasette-metadata").stdout)
    tables = metadata["databases"]["vault"]["tables"]
    with sqlite3.connect(db) as raw:
        views = [r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'view'")]
        for view in views:
            if view == "episode_list":
                continue  # the episodes' own view, described by its module
            columns = [r[1] for r in raw.execute(f"PRAGMA table_info({view})")]
            assert set(tables[view]["columns"]) == set(columns), view
    names = list(tables)
    assert names.index("fact_history") < names.index("athletes")
    assert tables["alembic_version"] == {"hidden": True}
