"""One text, every way in: trailing punctuation and case never decide whether a fact is
accepted, and the stored text reads the same whichever path it came by."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import T0
from vault import FactIn, NoteIn, open_vault
from vault.cli import main
from vault.domain.text import canonical_text

YAML = """\
_schema:
  format_version: "1.0.0"
  schema_type: "memories"
memories:
  - id: "mem_1"
    type: "preference"
    content: "{text}"
    source: "user_message"
    created_at: "2026-03-01T09:00:00Z"
    updated_at: "2026-03-01T09:00:00Z"
    confidence: "high"
    occurrences: 1
"""


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("Prefers morning runs.", "Prefers morning runs"),
        ("Has kids!!", "Has kids"),
        ("works night shifts ...", "works night shifts"),
        ("knee pain?", "knee pain?"),
        ("goal: sub-3 marathon;", "goal: sub-3 marathon"),
    ],
)
def test_the_canonical_text_drops_trailing_stops_only(given: str, stored: str) -> None:
    assert canonical_text(given) == stored


@pytest.mark.parametrize(
    "text",
    [
        "Goal: finish an ironman.",
        "goal: finish an ironman",
        "GOAL: FINISH AN IRONMAN!",
        "Primary Sport: Running",
        "PRIMARY SPORT: RUNNING.",
        "Level: Intermediate.",
    ],
)
def test_punctuation_and_case_do_not_decide_acceptance(tmp_path: Path, text: str) -> None:
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        result = v.merge("ana", [FactIn(text=text)], T0)
        (fact,) = result.added
        assert fact.conflict_key is not None
        assert not fact.text.endswith((".", "!"))


def test_every_path_stores_the_same_text(tmp_path: Path) -> None:
    text = "Prefers morning runs."
    stored: dict[str, list[str]] = {}
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        v.merge("merge", [FactIn(text=text)], T0)
        v.remember("remember", text, T0)
        yaml_file = tmp_path / "memories.yaml"
        yaml_file.write_text(YAML.format(text=text), encoding="utf-8")
        v.transfer.import_memories_yaml(yaml_file, "yaml", now=T0)
        document = v.transfer.export("merge")
        document["facts"][0]["text"] = text  # a document written by hand, with the period
        document["athlete"]["id"] = "document"
        v.transfer.import_document(document)
        v.merge("note", [NoteIn(text=text)], T0)
        for athlete in ("merge", "remember", "yaml", "document"):
            stored[athlete] = [f.text for f in v.facts(athlete, T0)]
        stored["note"] = [n.text for n in v.notes("note")]
    db = tmp_path / "v.db"
    result = CliRunner().invoke(main, ["--db", str(db), "remember", "cli", text])
    assert result.exit_code == 0, result.output
    with open_vault(db) as v:
        stored["cli"] = [f.text for f in v.facts("cli")]
    assert set(map(tuple, stored.values())) == {("Prefers morning runs",)}, stored


def test_the_same_fact_with_and_without_its_period_is_one_fact(tmp_path: Path) -> None:
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        v.remember("ana", "Has kids.", T0)
        result = v.remember("ana", "has kids", T0)
        assert result.updated and not result.added
        assert [f.text for f in v.facts("ana", T0)] == ["Has kids"]
