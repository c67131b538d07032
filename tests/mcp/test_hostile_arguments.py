"""Whatever a model sends, the answer is a result or a tool error that says why: never the
SDK's bare "Error executing tool X" (an unexpected exception), never a half-done write."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_client import call, error_text

from vault import Vault, open_vault

TOOLS = {
    "vault_read_memory": ["format", "budget"],
    "vault_search_facts": ["query", "limit"],
    "vault_recall_episodes": ["query", "limit"],
    "vault_fact_history": ["fact_id"],
    "vault_remember": ["text", "kind", "category", "confidence", "at"],
    "vault_learn": ["text", "source", "at", "activity_id", "sport", "completed"],
    "vault_record_episode": ["text", "type", "outcome", "at", "ref"],
    "vault_forget": ["query"],
}
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=300),
    st.sampled_from(
        [
            "fact",
            "note",
            "activity",
            "markdown",
            "ana",
            "2026-03-02T08:00:00Z",
            "2026-03-02",
            "likes hills",
        ]
    ),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


@st.composite
def calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    tool = draw(st.sampled_from(sorted(TOOLS)))
    keys = draw(st.lists(st.sampled_from([*TOOLS[tool], "athlete_id", "extra"]), unique=True))
    return tool, {key: draw(VALUES) for key in keys}


@pytest.fixture
def shared_vault(tmp_path: Path) -> Iterator[Vault]:
    """One file for every example: what earlier examples wrote is there for later ones."""
    with open_vault(tmp_path / "v.db", upgrade=True) as opened:
        opened.remember("ana", "likes intervals")
        yield opened


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(request=calls())
def test_any_arguments_get_a_result_or_a_reason(
    shared_vault: Vault, request: tuple[str, dict[str, Any]]
) -> None:
    tool, arguments = request
    before = shared_vault.transfer.export("ana")
    result = call(shared_vault, tool, arguments, "ana", writes=True, forget=True)
    if result.is_error:
        assert error_text(result) != f"Error executing tool {tool}", arguments  # a crash
        assert shared_vault.transfer.export("ana") == before  # refused: nothing was written
