"""What one row the engine writes to `athlete_memory` means to vault. Pure.

The engine stores one JSON document per athlete, written by Rust's serde from its structs:

    {"key_facts": [{"fact": "...", "source": "conversation", "confidence": 0.8,
                    "learned_at": "2026-02-16T08:00:00.123456789Z"}],
     "patterns": ["..."], "coaching_notes": ["..."], "updated_at": "2026-02-16T08:00:00Z"}

A row is the engine's whole view of that athlete at the time it wrote it. Compared with the row
it replaced (what the engine had read), it says:

- a fact, pattern or note that is new: an observation at that time, merged like any other
  (conflict keys, boosts, caps);
- a fact repeated unchanged: nothing (writing back what it read is not an observation);
- a fact whose confidence rose: the engine reinforced it (an observation at that time);
  a fact whose confidence fell: the engine's own decay, which vault's decay already covers;
- a fact, pattern or note left out: the engine's own decay or cap, never a retraction.

What was erased stays erased (`vault.services.engine_sync` asks the erasure record): a fact
is a new statement only when its `learned_at` comes after the erasure.

Lenient, item by item: anything the engine's types allow is taken. A source outside vault's list
is mapped to `conversation`, a confidence outside 0..1 is clamped, and each adjustment is noted;
an item that cannot be read (no text, a wrong type, a confidence no float holds) is left out
(`LeftOut`: its list, its position, why). Only a row that is
not a JSON object at all is refused whole (`EngineRowError`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from vault.domain.errors import InvalidInput
from vault.domain.limits import FACT_TEXT_MAX, ITEM_TEXT_MAX, TEXT_INPUT_MAX
from vault.domain.models import validated_athlete
from vault.domain.text import normalize_text
from vault.domain.times import parse_iso_time
from vault.domain.vocabulary import Source

FALLBACK_SOURCE = Source.CONVERSATION
ROW_MAX_CHARS = 10_000_000  # a memory document is ~1 kB; 10 MB is not one (and parses in < 1 s)
READ_PER_LIST = 1_000  # readable items read of one list; the caps take 15, 5 and 5
_INT_DIGITS = 20  # a longer integer literal is read as a float (inf past 1e308), never parsed whole
_SOURCES = {s.value: s for s in Source}


class EngineRowError(ValueError):
    """The row is not an athlete_memory JSON object at all."""


# The engine's list each kind of item comes from (what a left-out item's position counts in).
LISTS = {"fact": "key_facts", "pattern": "patterns", "note": "coaching_notes"}


@dataclass(frozen=True)
class LeftOut:
    """An item of the row vault cannot take: the engine's list, the item's index in it (None:
    the whole list), and why in vault's words, never quoting the item."""

    item: str
    position: int | None
    reason: str

    def line(self) -> str:
        where = self.item if self.position is None else f"{self.item}[{self.position}]"
        return f"{where} left out: {self.reason}"


@dataclass(frozen=True)
class EngineFact:
    """One key fact as the engine stored it (confidence as written, possibly out of 0..1)."""

    text: str
    source: str
    confidence: float
    learned_at: datetime | None
    position: int | None = None  # its index in the row's key_facts


@dataclass(frozen=True)
class EngineDocument:
    """One parsed row; `notes` says what was adjusted while reading it, `left_out` which
    items could not be read. Patterns and notes are (index in the row's list, text)."""

    facts: tuple[EngineFact, ...] = ()
    patterns: tuple[tuple[int, str], ...] = ()
    coaching_notes: tuple[tuple[int, str], ...] = ()
    updated_at: datetime | None = None
    notes: tuple[str, ...] = ()
    left_out: tuple[LeftOut, ...] = ()


@dataclass(frozen=True)
class Observation:
    """A new or reinforced item, in the form vault's merge takes (kind: fact/pattern/note)."""

    kind: str
    text: str
    observed_at: datetime
    confidence: float = 0.7  # facts carry the engine's own; patterns and notes take vault's
    source: Source = FALLBACK_SOURCE
    learned_at: datetime | None = None  # a fact's own time (the erasure rule compares it)
    position: int | None = None  # its index in the row's list (`LISTS[kind]`)


@dataclass
class Changes:
    """What a row changes, and what was adjusted on the way."""

    observations: list[Observation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def engine_athlete(raw: object) -> str:
    """The athlete an engine row's key names, normalised exactly as vault's ids are (trimmed,
    NFC; "ana\n", " ana" and a decomposed accent name the same athlete); InvalidInput when the
    key names none (NULL, bytes, empty, too long, invisible characters)."""
    if raw is None or isinstance(raw, bytes):
        raise InvalidInput("the engine row has no athlete id")
    return validated_athlete(str(raw).strip())


def canonical_key(raw: object) -> str | None:
    """`engine_athlete`, or None for a key that names no athlete."""
    try:
        return engine_athlete(raw)
    except InvalidInput:
        return None


def parse_document(raw: object) -> EngineDocument:
    """Read one `memory_json` value leniently (see the module docstring)."""
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", errors="replace")
    if not isinstance(raw, str):
        raise EngineRowError(f"memory_json is a {type(raw).__name__}, not JSON text")
    if len(raw) > ROW_MAX_CHARS:
        raise EngineRowError(
            f"memory_json is {len(raw):,} characters; a memory document is at most "
            f"{ROW_MAX_CHARS:,}"
        )
    try:
        # NaN and Infinity tokens are the non-finite numbers they name, as 1e999 is inf
        document = json.loads(raw, parse_constant=float, parse_int=_integer)
    except (ValueError, RecursionError) as error:
        raise EngineRowError(f"memory_json is not JSON ({error})") from None
    if not isinstance(document, dict):
        raise EngineRowError(f"memory_json is a JSON {type(document).__name__}, not an object")
    notes: list[str] = []
    left_out: list[LeftOut] = []
    facts: list[EngineFact] = []
    listed = _list(document, "key_facts", left_out)
    for position, item in enumerate(listed):
        if _enough("key_facts", len(facts), len(listed) - position, left_out):
            break
        if (fact := _fact(position, item, notes, left_out)) is not None:
            facts.append(fact)
    return EngineDocument(
        facts=tuple(facts),
        patterns=_texts(document, "patterns", left_out),
        coaching_notes=_texts(document, "coaching_notes", left_out),
        updated_at=_time(document.get("updated_at")),
        notes=tuple(notes),
        left_out=tuple(left_out),
    )


def changes(
    previous: EngineDocument | None, current: EngineDocument, written_at: datetime
) -> Changes:
    """What `current` adds to `previous` (None: everything is new, as for a legacy row)."""
    result = Changes(notes=list(current.notes))
    before = {} if previous is None else {normalize_text(f.text): f for f in previous.facts}
    for fact in current.facts:
        old = before.get(normalize_text(fact.text))
        confidence = _clamped(fact, result.notes)
        if old is not None and not fact.confidence > old.confidence:
            continue  # repeated unchanged, or the engine's own decay
        when = written_at if old is not None else _observed(fact.learned_at, written_at)
        result.observations.append(
            Observation(
                "fact",
                fact.text,
                when,
                confidence,
                _source(fact, result.notes),
                fact.learned_at,
                fact.position,
            )
        )
    for kind, now_items, old_items in (
        ("pattern", current.patterns, () if previous is None else previous.patterns),
        ("note", current.coaching_notes, () if previous is None else previous.coaching_notes),
    ):
        seen = {normalize_text(text) for _position, text in old_items}
        for position, text in now_items:
            if normalize_text(text) not in seen:
                result.observations.append(Observation(kind, text, written_at, position=position))
    return result


def _list(document: dict[str, Any], key: str, left_out: list[LeftOut]) -> list[Any]:
    value = document.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        left_out.append(LeftOut(key, None, "not a list"))
        return []
    return value


def _enough(key: str, taken: int, rest: int, left_out: list[LeftOut]) -> bool:
    """Whether READ_PER_LIST items of the list were read: the engine keeps 15/5/5, so a list
    longer than that is no memory the engine wrote, and what vault does with it must not grow
    with its length (the rest is counted as one item left out)."""
    if taken < READ_PER_LIST:
        return False
    if rest:
        left_out.append(LeftOut(key, None, f"{rest} item(s) after the first {taken} read not read"))
    return True


def _texts(
    document: dict[str, Any], key: str, left_out: list[LeftOut]
) -> tuple[tuple[int, str], ...]:
    kept: list[tuple[int, str]] = []
    listed = _list(document, key, left_out)
    for position, item in enumerate(listed):
        if _enough(key, len(kept), len(listed) - position, left_out):
            break
        if not isinstance(item, str) or not item.strip():
            left_out.append(LeftOut(key, position, "not a text"))
        elif (too_long := _too_long(item, ITEM_TEXT_MAX)) is not None:
            left_out.append(LeftOut(key, position, too_long))
        else:
            kept.append((position, item))
    return tuple(kept)


def _too_long(text: str, limit: int) -> str | None:
    """Why a text is left out unread (as input validation says it), before any work on it: a
    10 MB text costs seconds to normalize, and the write lock is held meanwhile."""
    if len(text) <= TEXT_INPUT_MAX:
        return None
    return f"text: text is {len(text)} characters; the limit is {limit}"


def _fact(
    position: int, item: object, notes: list[str], left_out: list[LeftOut]
) -> EngineFact | None:
    if not isinstance(item, dict):
        left_out.append(LeftOut("key_facts", position, "not an object"))
        return None
    text = item.get("fact")
    if not isinstance(text, str) or not text.strip():
        left_out.append(LeftOut("key_facts", position, "no fact text"))
        return None
    if (too_long := _too_long(text, FACT_TEXT_MAX)) is not None:
        left_out.append(LeftOut("key_facts", position, too_long))
        return None
    confidence = item.get("confidence")
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        notes.append(  # the value is not shown: the row's values may hold personal data
            f"key_facts[{position}]: confidence ({type(confidence).__name__}) is not a number; "
            "taken as 0.5"
        )
        confidence = 0.5
    elif not math.isfinite(confidence):
        left_out.append(
            LeftOut("key_facts", position, "confidence out of range (not a finite number)")
        )
        return None
    source = item.get("source")
    return EngineFact(
        text=text,
        source=source if isinstance(source, str) else "",
        confidence=float(confidence),
        learned_at=_time(item.get("learned_at")),
        position=position,
    )


def _integer(text: str) -> int | float:
    """JSON integers: a 401-digit one is a float (inf), not a 401-digit int nothing can hold."""
    return int(text) if len(text) <= _INT_DIGITS else float(text)


def _clamped(fact: EngineFact, notes: list[str]) -> float:
    if 0.0 <= fact.confidence <= 1.0:
        return fact.confidence
    clamped = min(1.0, max(0.0, fact.confidence))
    notes.append(
        f"key_facts[{fact.position}]: confidence {fact.confidence:g} clamped to {clamped:g}"
    )
    return clamped


def _source(fact: EngineFact, notes: list[str]) -> Source:
    known = _SOURCES.get(fact.source.strip().lower())
    if known is not None:
        return known
    notes.append(
        f"key_facts[{fact.position}]: a source outside vault's list, recorded as "
        f"{FALLBACK_SOURCE.value}"
    )
    return FALLBACK_SOURCE


def _observed(learned_at: datetime | None, written_at: datetime) -> datetime:
    """A new fact was observed when the engine learned it, never after the row was written."""
    return written_at if learned_at is None else min(learned_at, written_at)


def _time(raw: object) -> datetime | None:
    if not isinstance(raw, str):
        return None
    try:
        return parse_iso_time(raw)
    except (ValueError, OverflowError):
        return None


def latest_write_time(raw: object) -> datetime | None:
    """The latest moment the engine can have written a row, from its `updated_at` column.

    The engine stamps the column with SQLite's CURRENT_TIMESTAMP: UTC without a zone, and
    whole seconds, so a row stamped 08:00:00 was written before 08:00:01. A fact the engine
    learned at 08:00:00.9 (`Utc::now()`) is not later than its row: taking the start of the
    second instead would date it before an erasure made at 08:00:00.5, and a new statement
    would be taken for a stale one."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    text = raw.strip().replace(" ", "T", 1)
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    parsed = parsed.replace(tzinfo=timezone.utc) if parsed.tzinfo is None else parsed
    if "." not in text:  # whole seconds: the write happened within that second
        parsed += timedelta(seconds=1) - timedelta(microseconds=1)
    return parsed
