"""Agents correct one item by id: vault_correct_item (with --allow-writes) and
vault_remove_item (with --allow-forget), with the memory page's rule: corrections stick."""

from __future__ import annotations

from datetime import datetime, timezone

from mcp_client import call, ok, refused

from vault import Vault

MESSAGE = "I have a recurring knee issue and I usually run in the morning"


def _fact(vault: Vault, text: str) -> int:
    return next(f.id for f in vault.facts("ana") if f.text == text)


def _learn(vault: Vault, at: datetime) -> None:
    vault.ingest_message("ana", MESSAGE, now=at)


def test_vault_correct_item_archives_the_old_text_as_edited(vault: Vault) -> None:
    vault.remember("ana", "prefers morning sessions")
    old = _fact(vault, "prefers morning sessions")
    report = ok(
        call(
            vault,
            "vault_correct_item",
            {"item_id": old, "text": "prefers evening sessions"},
            writes=True,
        )
    )
    assert report["item"]["text"] == "prefers evening sessions"
    assert report["replaced"]["reason"] == "edited"
    assert report["replaced"]["superseded_by"] == report["item"]["id"]
    history = ok(call(vault, "vault_fact_history", {"fact_id": report["item"]["id"]}))
    assert [r["text"] for r in history["replaced"]] == ["prefers morning sessions"]


def test_vault_remove_item_sticks_against_the_same_messages(vault: Vault) -> None:
    at = datetime.now(timezone.utc)
    _learn(vault, at)
    knee = _fact(vault, "has recurring knee issue")
    report = ok(call(vault, "vault_remove_item", {"item_id": knee}, writes=True, forget=True))
    assert (report["reason"], report["id"]) == ("wrong", knee)
    _learn(vault, at)  # the same message again
    assert "has recurring knee issue" not in [f.text for f in vault.facts("ana")]


def test_the_tools_are_offered_only_with_their_flags(vault: Vault) -> None:
    vault.remember("ana", "prefers morning sessions")
    fact = _fact(vault, "prefers morning sessions")
    refused(call(vault, "vault_correct_item", {"item_id": fact, "text": "x y"}), "Unknown tool")
    refused(call(vault, "vault_remove_item", {"item_id": fact}, writes=True), "Unknown tool")
    assert [f.text for f in vault.facts("ana")] == ["prefers morning sessions"]


def test_another_athletes_item_and_bad_input_change_nothing(vault: Vault) -> None:
    vault.remember("ana", "prefers morning sessions")
    vault.remember("bob", "prefers evening sessions")
    bobs = next(f.id for f in vault.facts("bob"))
    refused(
        call(vault, "vault_remove_item", {"item_id": bobs}, writes=True, forget=True),
        "no active fact",
    )
    ana = _fact(vault, "prefers morning sessions")
    refused(
        call(
            vault,
            "vault_correct_item",
            {"item_id": ana, "text": "mail ana@example.com"},
            writes=True,
        ),
        "personal data",
    )
    refused(
        call(vault, "vault_correct_item", {"item_id": ana, "text": "x" * 301}, writes=True),
        "text",
    )
    refused(
        call(
            vault, "vault_remove_item", {"item_id": ana, "kind": "habit"}, writes=True, forget=True
        ),
        "kind",
    )
    assert [f.text for f in vault.facts("ana")] == ["prefers morning sessions"]
    assert [f.text for f in vault.facts("bob")] == ["prefers evening sessions"]


def test_the_new_tools_declare_titles_limits_and_no_synonyms(vault: Vault) -> None:
    from test_tools import tools

    offered = tools(vault, writes=True, forget=True)
    for name in ("vault_correct_item", "vault_remove_item"):
        tool = offered[name]
        assert tool.title
        schema = tool.input_schema
        assert schema["properties"]["item_id"]["minimum"] == 1
        assert set(schema["properties"]) <= {"item_id", "text", "kind", "reason", "athlete_id"}
    assert offered["vault_correct_item"].input_schema["properties"]["text"]["maxLength"] == 300
    assert offered["vault_remove_item"].annotations.destructive_hint is True
