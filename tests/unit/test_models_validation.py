"""The input models refuse bad input with vault.InvalidInput, however they are built (issue 9)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError, field_validator

from vault import FactIn, InvalidInput, NoteIn, PatternIn, Retraction
from vault.domain.models import validated, validated_athlete

UTC = timezone.utc
PLUS_ONE = timezone(timedelta(hours=1))
MINUS_ONE = timezone(timedelta(hours=-1))
MODELS: list[type[BaseModel]] = [FactIn, PatternIn, NoteIn]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    "fields",
    [
        {"text": ""},
        {"text": "   \t\n "},
        {"text": "!!!"},
        {"text": "x" * 1_000_000},  # a pasted megabyte
        {"text": "knee \ud800 pain"},  # a lone surrogate
        {"text": "ok", "confidence": True},
        {"text": "ok", "confidence": False},
        {"text": "ok", "confidence": "0.8"},
        {"text": "ok", "confidence": float("nan")},
        {"text": "ok", "confidence": float("inf")},
        {"text": "ok", "confidence": -0.01},
        {"text": "ok", "observed_at": datetime(2026, 3, 2, 8, 0)},  # naive
        {"text": "ok", "observed_at": datetime(1, 1, 1, tzinfo=PLUS_ONE)},  # before year 1 in UTC
        {
            "text": "ok",
            "observed_at": datetime(9999, 12, 31, 23, 30, tzinfo=MINUS_ONE),
        },  # year 10000
        {"text": "ok", "observed_at": datetime(1066, 10, 14, tzinfo=UTC)},  # absurd
        {"text": "ok", "source_ref": "ref \udfff"},
        {"text": "ok", "extractor": "x" * 101},
        {"text": "ok", "surprise": 1},
    ],
)
def test_building_an_input_model_with_bad_data_raises_invalid_input(
    model: type[BaseModel], fields: dict[str, Any]
) -> None:
    with pytest.raises(InvalidInput) as caught:
        model(**fields)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 400  # one line, not the input echoed back
    with pytest.raises(InvalidInput):
        model.model_validate(fields)
    with pytest.raises(InvalidInput):
        validated(model, fields)


def test_invalid_input_is_still_a_validation_error_for_code_written_for_pydantic() -> None:
    with pytest.raises(ValidationError) as caught:
        FactIn(text="")
    assert caught.value.errors()[0]["loc"] == ("text",)
    assert isinstance(caught.value, InvalidInput) and isinstance(caught.value, ValueError)


def test_inside_another_model_the_problem_is_reported_with_its_location() -> None:
    class Wrapper(BaseModel):
        text: str

        @field_validator("text")
        @classmethod
        def _as_fact(cls, value: str) -> str:
            return FactIn(text=value).text

    with pytest.raises(ValidationError) as caught:
        Wrapper(text="   ")
    assert caught.value.errors()[0]["loc"][0] == "text"


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"category": "injury"},
        {"tags": {"body:knee"}},
        {"category": "injury", "tags": {"knee"}},
        {"category": "injury", "tags": {"body:kn\ud800ee"}},
        {"category": "injury", "tags": {f"body:part{i}" for i in range(50)}},
        {"conflict_key": "goal", "observed_at": datetime(2026, 1, 1)},
        {"conflict_key": "goal", "extractor": "\ud800"},
        {"conflict_key": "goal", "surprise": True},
    ],
)
def test_a_bad_retraction_raises_invalid_input(fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidInput):
        Retraction(**fields)


def test_retraction_tags_and_keys_fold_case_like_facts_do() -> None:
    assert FactIn(text="sore knee", category="injury", tags={"Body:Knee"}).tags == {"body:knee"}
    retraction = Retraction(category="injury", tags={"Body:Knee", " BODY:Hip "})
    assert retraction.tags == {"body:knee", "body:hip"}
    assert Retraction(conflict_key="  Primary   Sport ").conflict_key == "primary sport"


@pytest.mark.parametrize(
    "athlete",
    [
        "",
        "   ",
        "\u200b",
        "\u200b\u200b",
        "\ufeff",
        "ana\u2028",
        "a\u2028b",
        "a\u2029b",
        "ana\x00",
        "a\tb",
        "ana\u00a0maria",
        "\ud800",
        "ana\udfff",
        "x" * 129,
        "\u202eana",
        "ana\u200d",
    ],
)
def test_athlete_ids_must_be_visible(athlete: str) -> None:
    with pytest.raises(InvalidInput):
        validated_athlete(athlete)


@pytest.mark.parametrize("athlete", ["ana", " ana ", "ana maria", "José", "選手-7", "a" * 128])
def test_ordinary_athlete_ids_pass(athlete: str) -> None:
    assert validated_athlete(athlete) == athlete.strip()


@pytest.mark.parametrize("athlete", [None, 7, b"ana", ["ana"]])
def test_an_athlete_id_must_be_text(athlete: Any) -> None:
    with pytest.raises(InvalidInput):
        validated_athlete(athlete)


def test_text_is_cleaned_not_refused_for_control_characters() -> None:
    assert FactIn(text="likes\x00hills\n\tand\u2028intervals").text == "likes hills and intervals"


def test_times_at_the_edges_of_the_accepted_range() -> None:
    assert FactIn(text="ok", observed_at=datetime(1900, 1, 1, tzinfo=UTC)).observed_at is not None
    with pytest.raises(InvalidInput):
        FactIn(text="ok", observed_at=datetime(2500, 1, 1, tzinfo=UTC))
