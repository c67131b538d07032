"""Contract exactness: the shipped schema IS seed 001's `athlete_memory` schema, as the seed
writes it, and what `vault export --contract` prints validates
against the schema text extracted from the seed file itself."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from vault.cli import main
from vault.prompt.schema import ATHLETE_MEMORY_SCHEMA, load_schema

# A verbatim copy of the origin document (../shared/seeds/001_*.txt), so the check runs in any
# clone: the schema is compared with the seed's own text, not with our reading of it.
SEEDS = Path(__file__).resolve().parents[1] / "data" / "seeds"
SHIPPED = (
    Path(__file__).resolve().parents[2] / "vault" / "prompt" / "schema" / ATHLETE_MEMORY_SCHEMA
)


def seed_schema_text() -> str:
    """The JSON value after `"athlete_memory": ` in seed 001 §2a, up to the code fence."""
    (seed,) = SEEDS.glob("001_*.txt")
    text = seed.read_text(encoding="utf-8")
    key = '"athlete_memory": '
    start = text.index(key) + len(key)
    return text[start : text.index("\n```", start)] + "\n"


def test_the_shipped_schema_is_the_seed_text_byte_for_byte() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == seed_schema_text()
    assert load_schema() == json.loads(seed_schema_text())


def test_cli_contract_objects_validate_against_the_seed_schema(tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    runner = CliRunner()
    for text in ("primary sport: running", "has recurring knee issue", "prefers morning sessions"):
        runner.invoke(main, ["--db", db, "remember", "ana", text, "--at", "2026-03-01T08:00:00Z"])
    runner.invoke(main, ["--db", db, "remember", "ana", "skips Mondays", "--kind", "pattern"])
    runner.invoke(main, ["--db", db, "remember", "ana", "likes data", "--kind", "note"])
    seed = json.loads(seed_schema_text())
    exported = json.loads(runner.invoke(main, ["--db", db, "export", "ana", "--contract"]).stdout)
    jsonschema.validate(exported, seed)
    assert set(exported) == {"key_facts", "patterns", "coaching_notes"}
    assert all(
        set(f) == {"fact", "source", "confidence", "learned_at"} for f in exported["key_facts"]
    )
    timed = json.loads(
        runner.invoke(main, ["--db", db, "export", "ana", "--contract", "--with-times"]).stdout
    )
    with pytest.raises(jsonschema.ValidationError):  # why the option says it leaves the contract
        jsonschema.validate(timed, seed)
