"""The engine guide's legacy memory: parse one `athlete_memory` row and plan its adoption. Pure.

The mobile engine stored one JSON document per athlete, written by Rust's serde:

    {"key_facts": [{"fact": "...", "source": "conversation", "confidence": 0.8,
                    "learned_at": "2026-02-16T08:00:00.123456789Z"}],
     "patterns": ["..."], "coaching_notes": ["..."], "updated_at": "2026-02-16T08:00:00Z"}

Times are chrono's RFC 3339 (`Z`, 0-9 fraction digits; nanoseconds are truncated to
microseconds). `updated_at` may be null or absent, and so may `patterns` / `coaching_notes` /
`key_facts` (taken as empty). Keys the vault does not know are ignored (the legacy table is
kept, renamed, so nothing is lost). Anything else that does not fit raises `LegacyRowError`
naming the athlete: bad JSON, a wrong shape, a confidence outside 0..1, a naive or invalid time,
an unknown source, a text the vault's input rules refuse.

Category, conflict key and entity tags are derived from the fact text by the same code a
merge uses (`FactIn`), so facts adopted today dedupe and conflict with tomorrow's merges.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from pydantic import ValidationError

from vault.domain.adoption import ProtoFact, ProtoItem, Resolution, resolve
from vault.domain.errors import InvalidInput
from vault.domain.models import FactIn, NoteIn, describe_validation_error, validated_athlete
from vault.domain.text import normalize_text
from vault.domain.times import parse_iso_time
from vault.domain.vocabulary import Kind, Source

LEGACY_TABLE = "athlete_memory"
RENAMED_TABLE = "legacy_athlete_memory"
# What adopted patterns and notes get: the legacy store kept only their text.
PATTERN_SOURCE = Source.BEHAVIOR
NOTE_SOURCE = Source.CONVERSATION
LIST_CONFIDENCE = 0.7


class LegacyRowError(ValueError):
    """One legacy row cannot be adopted."""

    def __init__(self, athlete: str | None, reason: str) -> None:
        super().__init__(f"{_name(athlete)}: {reason}")
        self.athlete = athlete
        self.reason = reason


@dataclass(frozen=True)
class LegacyProblem:
    """A row that was not adopted, and why (what `--skip-bad-legacy-rows` reports)."""

    athlete_id: str | None
    reason: str

    def __str__(self) -> str:
        return f"{_name(self.athlete_id)}: {self.reason}"


def _name(athlete: str | None) -> str:
    return "athlete NULL" if athlete is None else f"athlete {athlete!r}"


@dataclass(frozen=True)
class LegacyPlan:
    """One athlete's adoption: the rows to write and the times to write them with."""

    athlete_id: str
    created_at: datetime
    updated_at: datetime
    resolution: Resolution


def athlete_of(raw: object) -> str:
    """The legacy primary key as a vault athlete id (SQLite lets TEXT keys hold NULL or numbers)."""
    if raw is None:
        raise LegacyRowError(None, "the athlete_id is NULL")
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    if not isinstance(raw, str):
        raise LegacyRowError(None, f"the athlete_id is a {type(raw).__name__}, not text")
    try:
        return validated_athlete(raw)
    except InvalidInput as error:
        raise LegacyRowError(raw, str(error)) from None


def plan_row(
    athlete_raw: object, memory_json: object, column_updated_at: object, fallback: datetime
) -> LegacyPlan:
    """Parse and plan one row; `fallback` is the time used only when the row holds no time at all.

    Raises:
        LegacyRowError: the row cannot be adopted (the message names the athlete).
    """
    athlete = athlete_of(athlete_raw)
    try:
        return _plan(athlete, memory_json, column_updated_at, fallback)
    except (ValueError, TypeError) as error:
        raise LegacyRowError(athlete, str(error)) from None


def _plan(athlete: str, memory_json: object, column_time: object, fallback: datetime) -> LegacyPlan:
    document = _document(memory_json)
    facts = [_fact(i, raw) for i, raw in enumerate(_list(document, "key_facts"))]
    patterns = [
        _item(i, raw, "patterns", Kind.PATTERN) for i, raw in enumerate(_list(document, "patterns"))
    ]
    notes = [
        _item(i, raw, "coaching_notes", Kind.NOTE)
        for i, raw in enumerate(_list(document, "coaching_notes"))
    ]
    updated = document.get("updated_at")
    if updated is not None:
        moment = _time(updated, "updated_at")
    elif column_time is not None:
        moment = _column_time(column_time)
    elif facts:
        moment = max(f.observed_at for f in facts)
    else:
        moment = fallback
    times = [moment, *(f.learned_at for f in facts)]
    return LegacyPlan(
        athlete_id=athlete,
        created_at=min(times),
        updated_at=max([moment, *(f.observed_at for f in facts)]),
        resolution=resolve(facts, patterns, notes),
    )


def _document(memory_json: object) -> dict[str, Any]:
    if isinstance(memory_json, bytes):
        try:
            memory_json = memory_json.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("memory_json is not UTF-8 text") from None
    if not isinstance(memory_json, str):
        raise ValueError(f"memory_json is a {type(memory_json).__name__}, not JSON text")
    try:
        document = json.loads(memory_json, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"memory_json is not valid JSON ({error.msg} at character {error.pos})"
        ) from None
    if not isinstance(document, dict):
        raise ValueError(f"memory_json must be a JSON object, got {type(document).__name__}")
    return document


def _no_constant(name: str) -> Any:
    raise ValueError(f"memory_json holds {name}, which is not a JSON number")


def _list(document: dict[str, Any], key: str) -> list[Any]:
    value = document.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list, got {type(value).__name__}")
    return value


def _fact(position: int, raw: Any) -> ProtoFact:
    where = f"key_facts[{position}]"
    if not isinstance(raw, dict):
        raise ValueError(f"{where} must be an object with fact, source, confidence, learned_at")
    missing = [k for k in ("fact", "source", "confidence", "learned_at") if k not in raw]
    if missing:
        raise ValueError(f"{where} has no {', '.join(missing)}")
    confidence = raw["confidence"]
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise ValueError(f"{where}.confidence must be a number, got {confidence!r}")
    if not math.isfinite(confidence) or not 0.0 <= confidence <= 1.0:
        raise ValueError(f"{where}.confidence must be a number from 0 to 1, got {confidence}")
    learned = _time(raw["learned_at"], f"{where}.learned_at")
    try:
        fact = FactIn(
            text=raw["fact"],
            source=raw["source"],
            confidence=float(confidence),
            observed_at=learned,
        )
    except ValidationError as error:
        raise ValueError(f"{where}: {describe_validation_error(error)}") from None
    return ProtoFact.from_fact_in(
        fact, position=position, label=where, occurrences=1, learned_at=learned, observed_at=learned
    )


def _item(position: int, raw: Any, key: str, kind: Kind) -> ProtoItem:
    where = f"{key}[{position}]"
    if not isinstance(raw, str):
        raise ValueError(f"{where} must be a string, got {type(raw).__name__}")
    try:
        text = NoteIn(text=raw).text  # patterns and notes share the same text rules
    except ValidationError as error:
        raise ValueError(f"{where}: {describe_validation_error(error)}") from None
    return ProtoItem(position, where, kind, text, normalize_text(text))


def _time(raw: Any, where: str) -> datetime:
    if not isinstance(raw, str):
        raise ValueError(f"{where} must be an RFC 3339 time string, got {raw!r}")
    return parse_iso_time(raw, where)


def _column_time(raw: object) -> datetime:
    """The row's `updated_at` column: SQLite's CURRENT_TIMESTAMP text (UTC), or Unix seconds."""
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return datetime.fromtimestamp(raw, timezone.utc)
    if isinstance(raw, str):
        text = raw.strip()
        try:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"the updated_at column is not a time: {raw!r}") from None
        # CURRENT_TIMESTAMP is UTC without an offset
        return (
            parsed.replace(tzinfo=timezone.utc)
            if parsed.tzinfo is None
            else parsed.astimezone(timezone.utc)
        )
    raise ValueError(f"the updated_at column is not a time: {raw!r}")
