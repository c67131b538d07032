"""No client reaches what is not its own: other athletes, writes it was not allowed."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_client import call, ok, refused, session

from vault import Vault

OTHER = {"athlete_id": "bob"}
CALLS = [
    ("vault_read_memory", {}),
    ("vault_read_memory", {"format": "markdown"}),
    ("vault_search_facts", {}),
    ("vault_search_facts", {"query": "hills"}),
    ("vault_recall_episodes", {"query": "hills"}),
    ("vault_remember", {"text": "likes tempo runs"}),
    ("vault_learn", {"text": "I train for a marathon in 10 weeks"}),
    ("vault_record_episode", {"text": "hill repeats, strong"}),
    ("vault_forget", {"query": "hills"}),
]


@pytest.fixture
def two_athletes(vault: Vault) -> Vault:
    vault.remember("ana", "likes intervals")
    vault.remember("bob", "likes hills")
    vault.episodes.add_one("bob", "hill repeats in the rain")
    return vault


def bobs_rows(vault: Vault) -> tuple[Any, ...]:
    return (
        vault.transfer.export("bob"),
        [e.id for e in vault.episodes.recall("bob", "hill", k=10)],
    )


@pytest.mark.parametrize("tool, arguments", CALLS)
def test_another_athlete_is_refused_by_every_tool(
    two_athletes: Vault, tool: str, arguments: dict[str, Any]
) -> None:
    before = bobs_rows(two_athletes)
    text = refused(
        call(two_athletes, tool, {**arguments, "athlete_id": "bob"}, writes=True, forget=True),
        "'bob' is not served here",
    )
    assert "hills" not in text and "hill repeats" not in text
    assert bobs_rows(two_athletes) == before


def test_an_unknown_athlete_reads_like_another_athletes(two_athletes: Vault) -> None:
    someone = refused(call(two_athletes, "vault_search_facts", OTHER))
    nobody = refused(call(two_athletes, "vault_search_facts", {"athlete_id": "zed"}))
    assert someone.replace("'bob'", "X") == nobody.replace("'zed'", "X")


def test_another_athletes_fact_history_reads_like_a_missing_fact(two_athletes: Vault) -> None:
    [bobs] = two_athletes.facts("bob")
    theirs = refused(call(two_athletes, "vault_fact_history", {"fact_id": bobs.id}))
    missing = refused(call(two_athletes, "vault_fact_history", {"fact_id": 4242}))
    assert theirs.replace(str(bobs.id), "N") == missing.replace("4242", "N")
    assert "hills" not in theirs


def test_without_allow_writes_no_write_reaches_the_file(two_athletes: Vault) -> None:
    before = two_athletes.transfer.export("ana")
    for tool, arguments in CALLS[5:]:
        refused(call(two_athletes, tool, arguments), tool)  # not offered: an unknown tool
    assert two_athletes.transfer.export("ana") == before


def test_forget_needs_its_own_flag(two_athletes: Vault) -> None:
    refused(call(two_athletes, "vault_forget", {"query": "intervals"}, writes=True), "vault_forget")
    assert [f.text for f in two_athletes.facts("ana")] == ["likes intervals"]


def test_an_allow_list_needs_the_athlete_named_and_serves_each(two_athletes: Vault) -> None:
    refused(call(two_athletes, "vault_read_memory", {}, "ana", "bob"), "name the athlete")
    assert "hills" in ok(call(two_athletes, "vault_read_memory", OTHER, "ana", "bob"))["text"]
    ana = {"athlete_id": "ana"}
    assert "intervals" in ok(call(two_athletes, "vault_read_memory", ana, "ana", "bob"))["text"]


def test_resources_list_and_read_only_the_served_athlete(two_athletes: Vault) -> None:
    async def work(client: Client) -> tuple[Any, ...]:
        listed = (await client.list_resources()).resources
        own = await client.read_resource("vault://athletes/ana/memory")
        with pytest.raises(MCPError) as other:
            await client.read_resource("vault://athletes/bob/memory")
        return listed, own, other.value

    listed, own, other = session(two_athletes, "ana", work=work)
    assert [str(r.uri) for r in listed] == ["vault://athletes/ana/memory"]
    assert own.contents[0].mime_type == "text/markdown"
    assert "- likes intervals" in own.contents[0].text
    assert "not served here" in str(other) and "hills" not in str(other)
