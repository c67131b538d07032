"""`vault export`, `vault import`, `vault import-yaml` and upgrading a legacy file, as a user runs them."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

import vault.cli.interchange_commands  # noqa: F401 - registers the commands on `main`
from vault.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
LEGACY_DDL = (
    "CREATE TABLE athlete_memory (athlete_id TEXT PRIMARY KEY, memory_json TEXT NOT NULL, "
    "updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)"
)


@pytest.fixture
def run(db_path: Path):  # type: ignore[no-untyped-def]
    def invoke(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(main, ["--db", str(db_path), *args], input=input)

    return invoke


def one_line_error(result: Result) -> str:
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("Error: "), (
        result.output
    )
    return lines[0]


@pytest.mark.parametrize("command", ["export", "import", "import-yaml"])
def test_every_interchange_command_has_help(command: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output and len(result.output) > 150


def test_import_yaml_then_export_json_and_yaml(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = run("import-yaml", str(DATA / "memories.yaml"), "--athlete", "ana", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["facts"], report["archived"]) == (3, 1)
    assert set(report["ids"]) == {"mem_a1b2c3d4", "mem_e5f6g7h8", "mem_i9j0k1l2"}
    as_json = run("export", "ana")
    assert as_json.exit_code == 0
    document = json.loads(as_json.output)
    assert (document["format"], document["version"], document["athlete"]["id"]) == (
        "vault-export",
        1,
        "ana",
    )
    as_yaml = run("export", "ana", "--format", "yaml")
    assert yaml.safe_load(as_yaml.output) == document
    target = tmp_path / "ana.yaml"
    written = run("export", "ana", "--format", "yaml", "--output", str(target))
    assert written.output == f"exported ana to {target} (3 facts, 0 patterns, 0 notes, 1 archive)\n"
    assert target.read_text(encoding="utf-8") == as_yaml.output


def test_import_restores_and_a_second_import_changes_nothing(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("remember", "ana", "goal: 10k", "--at", "2026-03-01T08:00:00Z")
    run("remember", "ana", "goal: marathon", "--at", "2026-03-05T08:00:00Z")
    exported = tmp_path / "ana.json"
    run("export", "ana", "--output", str(exported))
    fresh = CliRunner().invoke(main, ["--db", str(tmp_path / "new.db"), "import", str(exported)])
    assert fresh.output == "restored ana: 1 fact, 0 patterns, 0 notes, 1 archived\n"
    again = CliRunner().invoke(
        main, ["--db", str(tmp_path / "new.db"), "import", str(exported), "--json"]
    )
    assert json.loads(again.output)["changed"] is False
    roundtrip = CliRunner().invoke(main, ["--db", str(tmp_path / "new.db"), "export", "ana"])
    # ids are renumbered on import, in document order: here the source's ids were 1..n already
    assert roundtrip.output == exported.read_text(encoding="utf-8")


def test_import_renumbers_ids_and_keeps_the_archive_chain(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("remember", "bob", "goal: 5k", "--at", "2026-03-01T07:00:00Z")
    run("remember", "ana", "goal: 10k", "--at", "2026-03-01T08:00:00Z")
    run("remember", "ana", "goal: marathon", "--at", "2026-03-05T08:00:00Z")
    exported = run("export", "ana").output
    source = json.loads(exported)
    assert [f["id"] for f in source["facts"]] == [3] and source["archive"][0]["original_id"] == 2
    new = ["--db", str(tmp_path / "new.db")]
    assert CliRunner().invoke(main, [*new, "import", "-"], input=exported).exit_code == 0
    restored = json.loads(CliRunner().invoke(main, [*new, "export", "ana"]).output)
    assert [f["id"] for f in restored["facts"]] == [2]
    assert (restored["archive"][0]["original_id"], restored["archive"][0]["superseded_by"]) == (
        1,
        2,
    )


def test_import_reads_stdin(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run("remember", "ana", "goal: 10k", "--at", "2026-03-01T08:00:00Z")
    document = run("export", "ana", "--format", "yaml").output
    other = CliRunner().invoke(
        main, ["--db", str(tmp_path / "o.db"), "import", "-"], input=document
    )
    assert other.exit_code == 0 and other.output.startswith("restored ana: 1 fact,")


@pytest.mark.parametrize(
    ("args", "text", "message"),
    [
        (
            ("import", "{path}"),
            '{"format": "vault-export", "version": 7}',
            "unsupported vault-export version 7",
        ),
        (
            ("import", "{path}"),
            '{"format": "vault-export", "version": true}',
            "unsupported vault-export version True",
        ),
        (
            ("import", "{path}"),
            "format: vault-export\nversion: 1.0\n",
            "unsupported vault-export version 1.0",
        ),
        (("import", "{path}"), "{not json", "is not valid JSON"),
        (("import-yaml", "{path}", "--athlete", "ana"), "memories: [", "is not valid YAML"),
        (
            ("import-yaml", "{path}", "--athlete", "ana"),
            "memories:\n  - {id: a, type: context, content: x, source: psychic, created_at: '2025-01-01T00:00:00Z', "
            "updated_at: '2025-01-01T00:00:00Z', confidence: high}\n",
            "memories.0.source",
        ),
        (
            ("import-yaml", "{path}", "--athlete", " "),
            "memories: []\n",
            "athlete id must not be empty",
        ),
    ],
)
def test_bad_files_are_one_line_errors_and_write_nothing(
    run,
    db_path: Path,
    tmp_path: Path,
    args: tuple[str, ...],
    text: str,
    message: str,  # type: ignore[no-untyped-def]
) -> None:
    run("upgrade")
    before = db_path.read_bytes()
    path = tmp_path / "input.txt"
    path.write_text(text, encoding="utf-8")
    error = one_line_error(run(*(a.format(path=path) for a in args)))
    assert message in error
    assert db_path.read_bytes() == before


def test_usage_mistakes_exit_2(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert run("import-yaml", str(DATA / "memories.yaml")).exit_code == 2  # --athlete missing
    assert run("import", str(tmp_path / "missing.json")).exit_code == 2
    assert run("export", "ana", "--format", "xml").exit_code == 2


def test_export_errors_name_the_problem(run) -> None:  # type: ignore[no-untyped-def]
    assert "vault upgrade" in one_line_error(run("export", "ana"))
    run("upgrade")
    assert "no memory stored for athlete 'nobody'" in one_line_error(run("export", "nobody"))


def test_import_yaml_refuses_to_overwrite_without_replace(run) -> None:  # type: ignore[no-untyped-def]
    run("remember", "ana", "goal: 5k")
    assert "--replace" in one_line_error(
        run("import-yaml", str(DATA / "memories.yaml"), "--athlete", "ana")
    )
    replaced = run("import-yaml", str(DATA / "memories.yaml"), "--athlete", "ana", "--replace")
    assert replaced.exit_code == 0 and replaced.output.startswith("imported ana: 3 facts")


# ---- upgrading a legacy device file ----------------------------------------------------------------


def _legacy(db_path: Path, rows: list[tuple[Any, ...]]) -> None:
    with closing(sqlite3.connect(db_path)) as raw:
        raw.execute(LEGACY_DDL)
        raw.executemany("INSERT INTO athlete_memory (athlete_id, memory_json) VALUES (?, ?)", rows)
        raw.commit()


GOOD = json.dumps(
    {
        "key_facts": [
            {
                "fact": "primary sport: running",
                "source": "conversation",
                "confidence": 0.8,
                "learned_at": "2026-02-16T08:00:00.123456789Z",
            }
        ],
        "patterns": ["skips Mondays"],
        "coaching_notes": [],
        "updated_at": None,
    }
)


def test_vault_upgrade_adopts_a_legacy_file_and_facts_shows_it(run, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    _legacy(db_path, [("ana", GOOD)])
    result = run("upgrade", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)  # a populated legacy file is no "empty file"
    assert (report["before"], report["applied"], report["refused"]) == (None, 1, 0)
    data = json.loads(run("facts", "ana", "--json").output)
    assert [f["text"] for f in data["facts"]] == ["primary sport: running"]
    assert [p["text"] for p in data["patterns"]] == ["skips Mondays"]


def test_a_legacy_device_file_upgraded_then_prompted_prints_that_athletes_memory(
    run,
    db_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    document = json.dumps(
        {
            "key_facts": [
                {
                    "fact": "primary sport: running",
                    "source": "conversation",
                    "confidence": 0.8,
                    "learned_at": "2026-02-16T08:00:00Z",
                },
                {
                    "fact": "has recurring knee issue | left",
                    "source": "behavior",
                    "confidence": 0.9,
                    "learned_at": "2026-02-10T08:00:00.5Z",
                },
                {
                    "fact": "unsure about hills",
                    "source": "conversation",
                    "confidence": 0.4,
                    "learned_at": "2026-02-10T08:00:00Z",
                },
            ],
            "patterns": ["tends to skip after rest days"],
            "coaching_notes": ["responds well to encouragement after hard sessions"],
            "updated_at": "2026-02-16T09:00:00Z",
        }
    )
    _legacy(db_path, [("ana", document), ("bob", GOOD)])
    assert run("upgrade").exit_code == 0
    assert run("prompt", "ana", "--at", "2026-02-16T09:00:00Z").output == (
        "MEMORY:\n"
        "- Facts: has recurring knee issue / left | primary sport: running\n"
        "- Patterns: tends to skip after rest days\n"
        "- Notes: responds well to encouragement after hard sessions\n"
    )


def test_vault_upgrade_adopts_the_rest_of_a_row_whose_parts_are_bad(run, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    _legacy(db_path, [("ana", GOOD), ("bob", '{"key_facts": 3, "patterns": ["runs at dawn"]}')])
    result = run("upgrade")
    assert result.exit_code == 0, result.output
    assert "bob: key_facts left out: not a list" in result.output
    assert json.loads(run("facts", "ana", "--json").output)["facts"]
    assert [p["text"] for p in json.loads(run("facts", "bob", "--json").output)["patterns"]] == [
        "runs at dawn"
    ]
