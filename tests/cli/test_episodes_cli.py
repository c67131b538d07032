"""`vault episode add|import`, `vault recall`, `vault knowledge load` through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from vault.cli import main


def run(db: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--db", str(db), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_add_then_recall_as_json(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    code, out = run(
        db,
        "episode",
        "add",
        "ana",
        "Hill repeats, legs felt flat",
        "--ref",
        "a1",
        "--type",
        "session",
        "--at",
        "2026-05-01T07:00:00Z",
        "--meta",
        "location=Parliament Hill",
    )
    assert code == 0 and out == "added episode 1\n"
    code, out = run(
        db,
        "episode",
        "add",
        "ana",
        "Hill repeats, legs felt heavy",
        "--ref",
        "a1",
        "--at",
        "2026-05-01T07:00:00Z",
    )
    assert code == 0 and out == "updated episode 1\n"
    code, out = run(db, "recall", "ana", "hills", "--json", "--at", "2026-05-02T07:00:00Z")
    found = json.loads(out)
    assert code == 0 and [e["ref"] for e in found] == ["a1"]
    assert set(found[0]["parts"]) == {
        "text",
        "entity",
        "time",
        "recency",
        "type",
        "vector",
        "neighbour",
        "speaker",
        "answer",
        "session",
    }


def test_import_json_lines_skips_a_bad_line_or_with_strict_is_all_or_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "v.db"
    good = tmp_path / "good.jsonl"
    good.write_text(
        "\n".join(
            json.dumps({"text": f"run {i}", "ref": f"r{i}", "at": "2026-05-01T07:00:00Z"})
            for i in range(5)
        )
        + "\n"
    )
    code, out = run(db, "episode", "import", "ana", str(good))
    assert code == 0 and out.startswith("imported 5 episodes: 5 added")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"text": "fine"}\n{"text": ""}\n{"text": "call me on 07700 900123"}\n'
        '{"text": "ok", "ref": "ana@example.com"}\n'
    )
    code, out = run(db, "episode", "import", "ana", str(bad), "--strict")
    assert code == 1 and "bad.jsonl:2" in out
    code, out = run(db, "recall", "ana", "fine", "--json")
    assert json.loads(out) == []
    code, out = run(db, "episode", "import", "ana", str(bad))
    assert code == 0, out
    assert "bad.jsonl:2" in out and "bad.jsonl:4" in out  # each skipped line, on stderr
    assert "2 episodes: 2 added" in out and "1 redacted, 2 refused" in out
    code, out = run(db, "recall", "ana", "call me", "--json")
    assert "call me on [phone]" in [e["text"] for e in json.loads(out)]
    assert "07700" not in out


def test_knowledge_load_and_errors_are_one_line(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    source = tmp_path / "npcs.json"
    source.write_text(json.dumps([{"kind": "npc", "name": "Shane", "loves": ["Beer"]}]))
    assert run(db, "knowledge", "load", str(source)) == (0, "knowledge: 1 added, 0 updated\n")
    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    code, out = run(db, "knowledge", "load", str(broken))
    assert code == 1 and len(out.strip().splitlines()) == 1 and "not JSON" in out
    code, out = run(db, "recall", "ana", "x", "--k", "0")
    assert code == 2


def test_prompt_context_prints_seed_003_sections_from_knowledge_and_episodes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "v.db"
    source = tmp_path / "places.json"
    source.write_text(
        json.dumps([{"kind": "place", "name": "Parliament Hill", "surface": "grass"}])
    )
    assert run(db, "knowledge", "load", str(source))[0] == 0
    assert run(db, "remember", "ana", "primary sport: running")[0] == 0
    assert (
        run(
            db,
            "episode",
            "add",
            "ana",
            "Hill repeats on Parliament Hill two days before the 10k, legs felt flat in the race",
            "--type",
            "session",
            "--at",
            "2026-05-01T07:00:00Z",
        )[0]
        == 0
    )
    code, out = run(db, "prompt", "ana", "--context", "hill repeats at Parliament Hill")
    assert code == 0, out
    assert out.startswith("KNOWLEDGE (") and "Parliament Hill" in out.split("PAST EXPERIENCE")[0]
    assert "legs felt flat" in out.split("PAST EXPERIENCE")[1]


def test_recall_explains_and_reembed_loads_the_apps_embedder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_embedder.py").write_text(
        "from tests.recall_fakes import WordEmbedder\nEMBEDDER = WordEmbedder(model='cli-words')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    db = tmp_path / "v.db"
    lines = tmp_path / "chat.jsonl"
    lines.write_text(
        "\n".join(
            json.dumps(row)
            for row in [
                {"text": "I watched Dangal yesterday", "at": "2023-05-02T20:00:00Z", "ref": "b0"},
                {
                    "text": "A father trains his daughters to wrestle",
                    "at": "2023-05-02T20:01:00Z",
                    "ref": "b1",
                },
            ]
        )
        + "\n"
    )
    assert run(db, "episode", "import", "lu", str(lines))[0] == 0
    code, out = run(
        db,
        "recall",
        "lu",
        "what was Dangal about",
        "--k",
        "2",
        "--explain",
        "--at",
        "2023-05-10T12:00:00Z",
    )
    assert code == 0
    assert (
        "why: words 1.00" in out
        and "why: session neighbour (or question replied to) matched 1.00" in out
    )
    code, out = run(db, "episode", "reembed", "--embedder", "my_embedder:EMBEDDER")
    assert (code, out) == (0, "embedded 2 episodes with cli-words (8 dimensions)\n")
    code, out = run(
        db,
        "recall",
        "lu",
        "daughters wrestle",
        "--k",
        "1",
        "--json",
        "--embedder",
        "my_embedder:EMBEDDER",
        "--at",
        "2023-05-10T12:00:00Z",
    )
    assert code == 0 and json.loads(out)[0]["parts"]["vector"] == 1.0
    code, out = run(db, "episode", "reembed", "--embedder", "no_such_module:X")
    assert code == 2 and "cannot load no_such_module:X" in out
