"""`vault prompt` and `vault bootstrap` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from vault import open_vault
from vault.cli import main
from vault.prompt.schema import load_schema


def invoke(db_path: Path, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["--db", str(db_path), *args])


DEMO_END = "2026-06-30T07:30:00Z"  # the demo's last day


def test_prompt_prints_the_seed_layout_for_the_demo_athlete(db_path: Path) -> None:
    assert invoke(db_path, "demo").exit_code == 0
    block = invoke(db_path, "prompt", "demo-athlete", "--at", DEMO_END).output
    lines = block.split("\n")
    assert lines[0] == "MEMORY:" and block.endswith("\n")
    # after ten weeks away the durable facts stay (DecayPolicy); transient ones fell below 0.5;
    # "my wife has a bad knee too" gives a partner, never her knee (issue 28)
    assert lines[1] == (
        "- Facts: primary sport: cycling | has kids | has a partner | works night shifts"
        " | goal: marathon"
    )
    assert lines[2] == "- Patterns: skips Mondays frequently | ramps training load too fast"
    assert lines[3].startswith("- Notes: responds well to encouragement after hard sessions | ")
    assert lines[3].count(" | ") == 4 and lines[4:] == [""]
    assert invoke(db_path, "prompt", "demo-athlete", "--at", DEMO_END).output == block  # stable


def test_prompt_budget_drops_whole_items_and_reports_them(db_path: Path) -> None:
    invoke(db_path, "demo")
    report = json.loads(
        invoke(db_path, "prompt", "demo-athlete", "--budget", "40", "--json").output
    )
    assert report["tokens"] <= 40
    budget_drops = [d for d in report["dropped"] if d["reason"] == "budget"]
    assert budget_drops and all(d["text"] not in report["text"] for d in budget_drops)


def test_prompt_formats_markdown_and_export_prints_the_contract(db_path: Path) -> None:
    invoke(db_path, "demo")
    markdown = invoke(db_path, "prompt", "demo-athlete", "--format", "markdown").output
    assert markdown.startswith("## What you know about the user\n- primary sport: cycling\n")
    contract = json.loads(invoke(db_path, "export", "demo-athlete", "--contract").output)
    jsonschema.validate(contract, load_schema())
    assert {f["source"] for f in contract["key_facts"]} <= {
        "conversation",
        "behavior",
        "profile_change",
    }


def test_prompt_for_an_unknown_athlete_is_the_librarys_empty_block(db_path: Path) -> None:
    invoke(db_path, "upgrade")
    result = invoke(db_path, "prompt", "nobody")
    assert result.exit_code == 0 and result.stdout == ""
    assert "no memory stored for athlete 'nobody'" in result.stderr
    with open_vault(db_path) as vault:
        assert vault.memory_block("nobody").text == result.stdout
    contract = invoke(db_path, "export", "nobody", "--contract")
    assert contract.exit_code == 1 and "no memory stored" in contract.stderr


def test_prompt_for_an_athlete_with_episodes_alone_warns_of_nothing(db_path: Path) -> None:
    with open_vault(db_path, upgrade=True) as vault:
        vault.episodes.add(
            "epi", [{"text": "Easy 5k along the river", "at": "2026-03-01T08:00:00Z"}]
        )
    result = invoke(db_path, "prompt", "epi")
    assert result.exit_code == 0 and result.stdout == ""
    assert "no memory stored" not in result.stderr


def test_bootstrap_seeds_day_one_facts(db_path: Path) -> None:
    result = invoke(
        db_path,
        "bootstrap",
        "newbie",
        "--sport",
        "bike",
        "--level",
        "beginner",
        "--at",
        "2026-03-02T08:00:00Z",
    )
    assert result.exit_code == 0, result.output
    block = invoke(db_path, "prompt", "newbie").output
    assert block == "MEMORY:\n- Facts: primary sport: cycling | level: beginner\n"
    assert invoke(db_path, "bootstrap", "newbie").exit_code == 2
