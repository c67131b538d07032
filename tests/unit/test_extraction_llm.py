"""The LLM reply adapter: seed 004's JSON shape, strict all-or-nothing parsing, category mapping."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from vault.domain.errors import ExtractionError
from vault.domain.models import FactIn
from vault.domain.vocabulary import Category, Source
from vault.extraction import (
    DEFAULT_CONFIDENCE,
    EXTRACTION_PROMPT,
    Extractor,
    LLMExtractor,
    build_prompt,
    parse_llm_reply,
)

AT = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)


def reply(*items: object) -> str:
    return json.dumps(list(items))


def test_plain_array_is_parsed_with_provenance() -> None:
    [fact] = parse_llm_reply(
        reply({"fact": "works as a nurse", "category": "work"}),
        model="gemma-3n",
        source=Source.USER_MESSAGE,
        source_ref="msg-7",
        observed_at=AT,
    )
    assert fact.text == "works as a nurse" and fact.category is Category.CONTEXT
    assert fact.extractor == "llm:gemma-3n" and fact.source is Source.USER_MESSAGE
    assert fact.source_ref == "msg-7" and fact.observed_at == AT
    assert fact.confidence == DEFAULT_CONFIDENCE == 0.8


@pytest.mark.parametrize(
    "wrapped",
    [
        '```json\n[{"fact": "likes intervals", "category": "preference"}]\n```',
        '```\n[{"fact": "likes intervals", "category": "preference"}]\n```',
        (
            'Here are the facts I found:\n[{"fact": "likes intervals", "category": "preference"}]'
            "\nHope that helps!"
        ),
        'Sure! ```json [{"fact": "likes intervals", "category": "preference"}] ``` Anything else?',
    ],
)
def test_code_fences_and_prose_around_the_array_are_tolerated(wrapped: str) -> None:
    assert [f.text for f in parse_llm_reply(wrapped)] == ["likes intervals"]


def test_empty_array_means_no_facts() -> None:
    assert parse_llm_reply("[]") == []
    assert parse_llm_reply("```json\n[]\n```") == []


@pytest.mark.parametrize(
    ("llm_category", "expected"),
    [
        ("personal", Category.CONTEXT),
        ("work", Category.CONTEXT),
        ("relationship", Category.CONTEXT),
        ("preference", Category.PREFERENCE),
        ("habit", Category.PREFERENCE),
        ("Preference", Category.PREFERENCE),
        ("training_response", Category.TRAINING_RESPONSE),
        ("lifestyle", Category.CONTEXT),
        ("injury_history", Category.INJURY),
        ("insight", Category.INSIGHT),
    ],
)
def test_categories_map_onto_the_vaults(llm_category: str, expected: Category) -> None:
    [fact] = parse_llm_reply(
        reply({"fact": "responds well to encouragement", "category": llm_category})
    )
    assert fact.category is expected


def test_slot_and_injury_texts_take_their_category_whatever_the_model_said() -> None:
    facts = parse_llm_reply(
        reply(
            {"fact": "primary sport: running", "category": "habit"},
            {"fact": "prefers morning sessions", "category": "personal"},
            {"fact": "has a bad knee", "category": "personal"},
        )
    )
    assert [f.category for f in facts] == [
        Category.SPORT,
        Category.TIME_PREFERENCE,
        Category.INJURY,
    ]
    assert facts[0].conflict_key == "primary sport" and facts[2].tags == frozenset({"body:knee"})


def test_missing_category_is_derived_from_the_text() -> None:
    [fact] = parse_llm_reply(reply({"fact": "goal: marathon"}))
    assert fact.category is Category.GOAL


def test_confidence_is_honoured_and_duplicates_collapse() -> None:
    facts = parse_llm_reply(
        reply(
            {"fact": "likes hills", "category": "preference", "confidence": 0.55},
            {"fact": "Likes hills!", "category": "preference", "confidence": 1},
        )
    )
    assert [(f.text, f.confidence) for f in facts] == [("likes hills", 0.55)]


def test_extra_keys_are_ignored() -> None:
    [fact] = parse_llm_reply(
        reply({"fact": "has kids", "category": "relationship", "reason": "said so"})
    )
    assert fact.text == "has kids"


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("I could not find any facts.", "no JSON array"),
        ("", "no JSON array"),
        ('{"fact": "likes hills", "category": "preference"}', "JSON array"),
        ('"likes hills"', "JSON array"),
        ('[{"fact": "likes hills", "category": "preference"},', "no JSON array"),
        (reply("likes hills"), "item 1: expected an object"),
        (reply({"category": "preference"}), "item 1: 'fact' must be a non-empty string"),
        (reply({"fact": "   ", "category": "preference"}), "non-empty"),
        (reply({"fact": 42, "category": "preference"}), "non-empty string"),
        (reply({"fact": "x" * 201, "category": "preference"}), "201 characters; the limit is 200"),
        (reply({"fact": "likes hills", "category": "hobby"}), "unknown category 'hobby'"),
        (reply({"fact": "likes hills", "category": 3}), "category must be a string"),
        (reply({"fact": "likes hills", "category": "preference", "confidence": 1.5}), "confidence"),
        (
            reply({"fact": "likes hills", "category": "preference", "confidence": True}),
            "confidence",
        ),
        (
            reply({"fact": "likes hills", "category": "preference", "confidence": "high"}),
            "confidence",
        ),
        ('[{"fact": "likes hills", "category": "preference", "confidence": NaN}]', "confidence"),
        (reply({"fact": "!!!", "category": "preference"}), "letter or digit"),
    ],
)
def test_anything_else_is_rejected_with_a_clear_message(bad: str, message: str) -> None:
    with pytest.raises(ExtractionError, match=message.replace("(", r"\(")):
        parse_llm_reply(bad)


def test_one_bad_item_rejects_the_whole_reply() -> None:
    with pytest.raises(ExtractionError, match="item 2"):
        parse_llm_reply(
            reply(
                {"fact": "likes hills", "category": "preference"}, {"fact": "", "category": "work"}
            )
        )


def test_reply_that_is_not_text_is_rejected() -> None:
    with pytest.raises(ExtractionError):
        parse_llm_reply(None)  # type: ignore[arg-type]


def test_personal_data_never_survives_the_adapter() -> None:
    facts = parse_llm_reply(
        reply(
            {"fact": "email is jo@example.com", "category": "personal"},
            {"fact": "Lives in Leeds", "category": "personal"},
            {"fact": "wife Sarah also runs", "category": "relationship"},
            {"fact": "has kids", "category": "relationship"},
        )
    )
    assert [f.text for f in facts] == ["wife also runs", "has kids"]


def test_prompt_carries_seed_004_instructions_and_known_facts() -> None:
    prompt = build_prompt("I love hills", ["primary sport: running"])
    assert "JSON array" in prompt and "[]" in prompt and "- primary sport: running" in prompt
    assert "about the athlete" in prompt and prompt.endswith("I love hills\n")
    assert "(none)" in build_prompt("hi")
    assert "{message}" in EXTRACTION_PROMPT


def test_llm_extractor_calls_the_model_with_a_redacted_message() -> None:
    prompts: list[str] = []

    def complete(prompt: str) -> str:
        prompts.append(prompt)
        return '```json\n[{"fact": "works as a teacher", "category": "work"}]\n```'

    extractor = LLMExtractor(complete, model="tiny", known_facts=["likes hills"])
    assert isinstance(extractor, Extractor) and extractor.name == "llm:tiny"
    found = extractor.extract(
        "I'm a teacher, mail me at a@b.co",
        source=Source.CONVERSATION,
        source_ref="t1",
        observed_at=AT,
    )
    assert [c.text for c in found if isinstance(c, FactIn)] == ["works as a teacher"]
    assert isinstance(found[0], FactIn)
    assert found[0].extractor == "llm:tiny" and found[0].source_ref == "t1"
    assert "a@b.co" not in prompts[0] and "[email]" in prompts[0] and "- likes hills" in prompts[0]
    assert extractor.extract("  ", source=Source.CONVERSATION) == []


def test_llm_failures_surface_as_extraction_errors() -> None:
    def broken(prompt: str) -> str:
        raise TimeoutError("model took too long")

    with pytest.raises(ExtractionError, match="the LLM call failed: model took too long"):
        LLMExtractor(broken).extract("I run", source=Source.CONVERSATION)
    with pytest.raises(ExtractionError, match="no JSON array"):
        LLMExtractor(lambda prompt: "no idea").extract("I run", source=Source.CONVERSATION)
