"""What a user sees when something is off: messages that are true and name the way out, exit
codes that follow one rule (0 ok, 1 failure, 2 usage), and a closed pipe that ends quietly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from vault.cli import main


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), input=input)


def test_decay_help_says_the_factor_is_per_category() -> None:
    text = run("decay", "--help").output
    assert "category" in text and "0.95 per week" not in text


def test_a_privacy_refusal_names_the_cli_flag(tmp_path: Path) -> None:
    result = run("--db", str(tmp_path / "v.db"), "remember", "ana", "email me at ana@example.com")
    assert result.exit_code == 1
    assert "--trusted" in result.stderr and "trusted=True" not in result.stderr


def test_a_privacy_refusal_in_an_import_names_the_cli_flag(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    assert run("--db", db, "remember", "ana", "goal: 10k").exit_code == 0
    document = json.loads(run("--db", db, "export", "ana").stdout)
    document["facts"][0]["text"] = "email me at ana@example.com"
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(document))
    result = run("--db", db, "import", str(path), "--strict")
    assert result.exit_code == 1
    assert "--trusted" in result.stderr and "trusted=True" not in result.stderr
    skipped = run("--db", db, "import", str(path))  # one bad item is skipped and reported
    assert skipped.exit_code == 0 and "skipped line 1" in skipped.stderr
    assert "1 refused by the privacy filter" in skipped.stdout


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    for n in range(15):
        assert run("--db", str(db), "remember", "ana", f"likes trail number {n}").exit_code == 0
    vault = [sys.executable, "-m", "vault", "--db", str(db)]
    # a reader that closes the pipe at once, before vault writes
    script = f'{" ".join(vault)} facts ana | (exec 0<&-); echo "exit=${{PIPESTATUS[0]}}"'
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "exit=0", result
    assert "Broken pipe" not in result.stderr and "Error" not in result.stderr, result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("import", "{missing}"),
        ("ingest", "ana", "--file", "{missing}"),
        ("import-yaml", "{missing}", "--athlete", "ana"),
        ("episode", "import", "ana", "{missing}"),
    ],
)
def test_a_missing_input_file_is_a_usage_error_everywhere(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    missing = str(tmp_path / "nope.json")
    result = run("--db", str(tmp_path / "v.db"), *(a.format(missing=missing) for a in args))
    assert result.exit_code == 2, result.output
    assert "does not exist" in result.stderr


def test_a_vault_in_a_missing_directory_is_not_sent_to_upgrade(tmp_path: Path) -> None:
    result = run("--db", str(tmp_path / "nope" / "x.db"), "facts", "ana")
    assert result.exit_code == 1
    assert "directory" in result.stderr and "does not exist" in result.stderr
    assert "vault upgrade" not in result.stderr


def test_counts_are_plural_only_when_they_are_more_than_one(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    run("--db", db, "remember", "ana", "has left knee issue")
    result = run("--db", db, "forget", "ana", "knee")
    assert result.stdout.startswith("forgot 1 fact, 0 patterns, 0 notes"), result.stdout


def test_a_mistyped_command_gets_a_suggestion() -> None:
    result = run("fatcs", "ana")
    assert result.exit_code == 2
    assert "did you mean 'facts'" in result.stderr


def test_an_unknown_command_without_a_near_name_is_still_a_usage_error() -> None:
    result = run("zzzzzz")
    assert result.exit_code == 2 and "did you mean" not in result.stderr


def test_datasette_metadata_describes_every_view_including_episode_list(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    run("--db", db, "upgrade")
    metadata = json.loads(run("--db", db, "datasette-metadata").stdout)
    tables = next(iter(metadata["databases"].values()))["tables"]
    assert tables["episode_list"]["description"]
    assert "occurred_at" in tables["episode_list"]["columns"]
    assert all(t.get("description") or t.get("hidden") for t in tables.values())
