"""Every tool through the SDK's in-process client: the happy path, bad input, scope."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from mcp import Client
from mcp_client import call, ok, refused, session

from vault import Vault
from vault.cli import main

READS = {
    "vault_read_memory",
    "vault_search_facts",
    "vault_recall_episodes",
    "vault_conversation_topics",
    "vault_fact_history",
    "vault_list_athletes",
}
WRITES = {"vault_remember", "vault_learn", "vault_record_episode", "vault_correct_item"}


def tools(vault: Vault, **flags: bool) -> dict[str, Any]:
    async def work(client: Client) -> Any:
        return (await client.list_tools()).tools

    return {tool.name: tool for tool in session(vault, "ana", work=work, **flags)}


def test_a_read_only_server_offers_only_read_tools_each_with_an_output_schema(vault: Vault) -> None:
    offered = tools(vault)
    assert set(offered) == READS
    for tool in offered.values():
        assert (
            tool.annotations.read_only_hint is True and tool.annotations.destructive_hint is False
        )
        assert tool.output_schema and tool.output_schema["type"] == "object"
        assert len(tool.description or "") > 60  # a sentence a model can act on


def test_writes_and_forget_are_offered_only_when_allowed(vault: Vault) -> None:
    writing = tools(vault, writes=True)
    assert set(writing) == READS | WRITES
    assert all(writing[name].annotations.read_only_hint is False for name in WRITES)
    assert all(writing[name].annotations.destructive_hint is False for name in WRITES)
    forgetting = tools(vault, writes=True, forget=True)
    assert set(forgetting) == READS | WRITES | {"vault_forget", "vault_remove_item"}
    assert forgetting["vault_forget"].annotations.destructive_hint is True


def test_read_memory_is_the_memory_block_the_coach_sees(vault: Vault) -> None:
    vault.remember("ana", "has a recurring knee issue")
    vault.remember("ana", "prefers morning sessions")
    block = ok(call(vault, "vault_read_memory", {}))
    expected = vault.memory_block("ana")
    assert block["text"] == expected.text and "knee" in block["text"]
    assert block["tokens"] == expected.tokens and len(block["included_ids"]) == 2
    markdown = ok(call(vault, "vault_read_memory", {"athlete_id": "ana", "format": "markdown"}))
    assert markdown["format"] == "markdown" and "- has a recurring knee issue" in markdown["text"]


def test_read_memory_refuses_a_bad_budget_and_format(vault: Vault) -> None:
    refused(call(vault, "vault_read_memory", {"budget": 0}), "budget")
    refused(call(vault, "vault_read_memory", {"format": "html"}), "format")


def test_search_facts_lists_items_with_their_evidence(vault: Vault) -> None:
    vault.ingest_message("ana", "I usually run in the morning, my knee has been sore")
    vault.remember("ana", "likes intervals")
    listed = ok(call(vault, "vault_search_facts", {}))
    texts = [item["text"] for item in listed["items"]]
    assert "likes intervals" in texts and "prefers morning sessions" in texts
    learned = next(i for i in listed["items"] if i["text"] == "prefers morning sessions")
    assert learned["evidence"]["source"] == "user_message"
    assert learned["evidence"]["extractor"].startswith("rules:")
    assert learned["evidence"]["source_ref"] is not None
    found = ok(call(vault, "vault_search_facts", {"query": "intervals", "limit": 1}))
    assert [item["text"] for item in found["items"]] == ["likes intervals"]
    refused(call(vault, "vault_search_facts", {"limit": 0}), "limit")


def test_a_fact_remembered_by_a_client_appears_in_vault_prompt(
    vault: Vault, vault_url: str
) -> None:
    added = ok(call(vault, "vault_remember", {"text": "has a recurring knee issue"}, writes=True))
    assert [item["text"] for item in added["added"]] == ["has a recurring knee issue"]
    assert added["added"][0]["category"] == "injury"
    printed = CliRunner().invoke(main, ["--db", vault_url, "prompt", "ana"])
    assert printed.exit_code == 0 and "has a recurring knee issue" in printed.stdout


def test_add_memory_takes_patterns_and_notes_too(vault: Vault) -> None:
    ok(
        call(
            vault,
            "vault_remember",
            {"text": "skips Monday sessions", "kind": "pattern"},
            writes=True,
        )
    )
    ok(
        call(
            vault,
            "vault_remember",
            {"text": "responds well to short goals", "kind": "note"},
            writes=True,
        )
    )
    assert [p.text for p in vault.patterns("ana")] == ["skips Monday sessions"]
    assert [n.text for n in vault.notes("ana")] == ["responds well to short goals"]


@pytest.mark.parametrize(
    "arguments, words",
    [
        ({"text": ""}, ["text"]),
        ({}, ["text"]),
        ({"text": "call me on +44 7700 900123"}, ["refused", "nothing was written"]),
        ({"text": "likes hills", "confidence": 2}, ["confidence"]),
        ({"text": "likes hills", "kind": "secret"}, ["kind"]),
        ({"text": "likes hills", "at": "2026-03-02T08:00:00"}, ["timezone"]),
        ({"text": "likes hills", "category": "astrology"}, ["category"]),
        ({"text": "x" * 5000}, ["300"]),
        ({"text": "x" * 250}, ["200"]),
    ],
)
def test_add_memory_refuses_bad_input_and_writes_nothing(
    vault: Vault, arguments: dict[str, Any], words: list[str]
) -> None:
    message = refused(call(vault, "vault_remember", arguments, writes=True), *words)
    assert "trusted" not in message  # the API's switch, which no client of the server has
    assert vault.summary("ana") is None


def test_learn_from_a_conversation_turn_and_from_an_activity_note(vault: Vault) -> None:
    said = ok(
        call(
            vault,
            "vault_learn",
            {"text": "I'm training for a half marathon in 12 weeks"},
            writes=True,
        )
    )
    assert [item["text"] for item in said["added"]] == ["goal: half marathon"]
    assert said["added"][0]["evidence"]["source"] == "user_message"
    done = ok(
        call(
            vault,
            "vault_learn",
            {
                "text": "Long run, my left knee started hurting after 20 km",
                "source": "activity",
                "at": "2026-03-02T08:00:00+01:00",
                "sport": "running",
                "activity_id": "run-1",
            },
            writes=True,
        )
    )
    assert any("knee" in item["text"] for item in done["added"])
    assert (
        vault.episodes.recall("ana", "knee hurting", k=1)[0].ref is not None
    )  # the session, recorded


def test_learn_refuses_bad_input(vault: Vault) -> None:
    refused(call(vault, "vault_learn", {"text": "hi", "source": "email"}, writes=True), "source")
    refused(call(vault, "vault_learn", {"text": "   "}, writes=True), "text")
    refused(
        call(
            vault,
            "vault_learn",
            {"text": "ran", "source": "activity", "at": "yesterday"},
            writes=True,
        ),
        "at",
    )
    assert vault.summary("ana") is None


def test_add_episode_then_recall_it(vault: Vault) -> None:
    added = ok(
        call(
            vault,
            "vault_record_episode",
            {
                "text": "raced the city 10k in 41:30, a personal best",
                "type": "race",
                "outcome": "pb",
                "at": "2026-03-01T09:00:00Z",
                "ref": "race-1",
            },
            writes=True,
        )
    )
    assert len(added["added"]) == 1
    vault.episodes.add_one("ana", "easy recovery jog, legs heavy", type="session")
    recalled = ok(call(vault, "vault_recall_episodes", {"query": "10k race", "limit": 1}))
    [episode] = recalled["episodes"]
    assert episode["ref"] == "race-1" and episode["outcome"] == "pb" and episode["score"] > 0
    again = ok(
        call(
            vault,
            "vault_record_episode",
            {"text": "raced the city 10k in 41:10", "ref": "race-1"},
            writes=True,
        )
    )
    assert again["updated"] == added["added"] and again["added"] == []


def test_conversation_topics_count_what_the_episodes_said(vault: Vault) -> None:
    vault.episodes.add(
        "ana",
        [
            {"text": "Went camping by the lake with the kids", "at": "2026-03-01T09:00:00Z"},
            {"text": "More camping plans for June", "at": "2026-03-08T09:00:00Z"},
            {"text": "Knee felt fine on the hills", "at": "2026-03-09T09:00:00Z"},
        ],
    )
    listed = ok(call(vault, "vault_conversation_topics", {"limit": 2}))
    assert listed["topics"][0] == {
        "topic": "camping",
        "mention_count": 2,
        "first_mentioned": "2026-03-01T09:00:00Z",
        "last_mentioned": "2026-03-08T09:00:00Z",
    }
    assert len(listed["topics"]) == 2
    touched = ok(call(vault, "vault_conversation_topics", {"about": "how was the knee?"}))
    assert [t["topic"] for t in touched["topics"]] == ["knee"]
    refused(call(vault, "vault_conversation_topics", {"limit": 201}), "limit")


def test_episode_tools_refuse_bad_input(vault: Vault) -> None:
    refused(call(vault, "vault_record_episode", {"text": "x" * 2001}, writes=True), "2000")
    refused(
        call(vault, "vault_record_episode", {"text": "ran", "type": "x" * 41}, writes=True), "type"
    )
    refused(call(vault, "vault_recall_episodes", {}), "query")
    refused(call(vault, "vault_recall_episodes", {"query": "run", "limit": 101}), "limit")
    assert vault.episodes.recall("ana", "ran", k=5) == []


def test_forget_erases_what_matches(vault: Vault) -> None:
    vault.remember("ana", "has a recurring knee issue")
    vault.remember("ana", "likes intervals")
    vault.episodes.add_one("ana", "knee pain on the long run")
    report = ok(call(vault, "vault_forget", {"query": "knee"}, writes=True, forget=True))
    assert (report["facts"], report["episodes"]) == (1, 1)
    assert [f.text for f in vault.facts("ana")] == ["likes intervals"]
    refused(call(vault, "vault_forget", {"query": "  "}, writes=True, forget=True), "query")
    refused(
        call(vault, "vault_forget", {"query": "?!"}, writes=True, forget=True), "nothing to forget"
    )


def test_fact_history_shows_what_a_fact_replaced(vault: Vault) -> None:
    first = vault.remember("ana", "goal: half marathon").added[0]
    second = vault.remember("ana", "goal: marathon").added[0]
    history = ok(call(vault, "vault_fact_history", {"fact_id": second.id}))
    assert history["active_id"] == second.id
    assert [row["original_id"] for row in history["replaced"]] == [first.id]
    assert history["replaced"][0]["text"] == "goal: half marathon"
    old = ok(call(vault, "vault_fact_history", {"fact_id": first.id}))
    assert old["active_id"] == second.id
    refused(call(vault, "vault_fact_history", {"fact_id": 999}), "no fact with id 999")
    refused(call(vault, "vault_fact_history", {"fact_id": "one"}), "fact_id")


def test_list_athletes_shows_only_the_served_ones(vault: Vault) -> None:
    vault.remember("ana", "likes intervals")
    vault.remember("bob", "likes hills")
    listed = ok(call(vault, "vault_list_athletes", {}, "ana", "cy"))
    assert [(a["athlete_id"], a["facts"]) for a in listed["athletes"]] == [("ana", 1), ("cy", 0)]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("vault_remember", {"text": "my password hunter2zq"}),
        ("vault_remember", {"text": "pays with card 4111.1111.1111.1111", "kind": "note"}),
        ("vault_record_episode", {"text": "long run, card 4111 1111 1111 1111 hunter2zq"}),
    ],
)
def test_writes_pass_the_privacy_gate_and_agents_cannot_vouch(
    vault: Vault, tool: str, arguments: dict[str, Any]
) -> None:
    refused(call(vault, tool, arguments, writes=True), "personal data")
    exported = vault.transfer.export("ana") if vault.summary("ana") else {}
    assert "hunter2zq" not in str(exported) and "4111" not in str(exported)
    assert not vault.episodes.recall("ana", "long run card", k=5)


def test_learn_from_an_activity_without_a_time_and_a_retried_call_adds_nothing(
    vault: Vault,
) -> None:
    note = {"text": "Easy run with the club, calf tight again", "source": "activity"}
    first = ok(call(vault, "vault_learn", note, writes=True))
    assert first["added"]  # no time given: the session happened now
    again = ok(call(vault, "vault_learn", note, writes=True))
    assert again["added"] == [] and again["updated"] == []
    [fact] = [f for f in vault.facts("ana") if "calf" in f.text]
    assert fact.occurrences == 1
