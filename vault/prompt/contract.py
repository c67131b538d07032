"""Export an athlete's memory as the athlete-memory plan's `athlete_memory` JSON object, and check it.

    {"key_facts": [{"fact": "primary sport: running", "source": "profile_change",
                    "confidence": 0.9}, ...],
     "patterns": ["tends to skip after rest days"],
     "coaching_notes": ["responds well to encouragement after hard sessions"]}

Built by `vault.prompt.athlete_memory`, the builder of the engine's row too (which holds the
MEMORY block's items instead: docs/engine.md says how the two differ). Exactly the JSON-Schema
contract: the shipped schema is the athlete-memory plan's `athlete_memory` property verbatim
(top level `additionalProperties: false`), and the default document holds only its keys.

Facts: the top 15 by priority (confidence, then most recently reinforced, then oldest id); the
Rust reader applies the 0.5 prompt floor itself. Patterns and notes: the top 5 each, as strings.
Texts are exported as stored (JSON needs no escaping of "|"). Sources are folded onto the
contract's three words by `vault.domain.vocabulary.CONTRACT_SOURCE`:

    conversation   <- conversation, user_message, manual
    behavior       <- behavior, activity_note, pattern_analysis
    profile_change <- profile_change

Every fact has `learned_at` (RFC 3339, UTC, "Z"): the engine's `MemoryFact` requires it, and
the schema's fact objects allow extra keys, so the default document satisfies both.
`with_times=True` adds the top-level `updated_at`, which LEAVES the schema (its top level has
`additionalProperties: false`); `validate_contract(document, with_times=True)` checks such a
document: the schema for everything else, and the times' format.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from vault.domain.errors import InvalidInput
from vault.domain.limits import MAX_FACTS, MAX_LIST_ITEMS
from vault.domain.models import AthleteMemory
from vault.domain.times import parse_iso_time
from vault.prompt.athlete_memory import athlete_memory_document
from vault.prompt.items import ranked
from vault.prompt.schema import load_schema

if TYPE_CHECKING:  # jsonschema is imported on first validation, not at start-up
    from jsonschema import Draft202012Validator

_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$")


TIMES = ("learned_at", "updated_at")  # what `with_times` adds (outside the JSON-Schema contract)


def to_contract(memory: AthleteMemory, *, with_times: bool = False) -> dict[str, Any]:
    """`memory` as an `athlete_memory` document (plain JSON types, ready for `json.dumps`).

    Every fact carries `learned_at` (the schema's items allow it; the engine's `MemoryFact`
    requires it). `with_times=True` adds the top-level `updated_at` (when known), which the
    schema's `additionalProperties: false` does not allow.
    """
    return athlete_memory_document(
        (
            (fact.text, fact.source, fact.confidence, fact.learned_at)
            for fact in ranked(memory.facts)[:MAX_FACTS]
        ),
        (item.text for item in ranked(memory.patterns)[:MAX_LIST_ITEMS]),
        (item.text for item in ranked(memory.notes)[:MAX_LIST_ITEMS]),
        updated_at=memory.updated_at if with_times else None,
    )


def validate_contract(document: Mapping[str, Any], *, with_times: bool = False) -> None:
    """Check `document` against the athlete-memory plan's `athlete_memory` schema, as the seed writes it.

    `with_times=True` accepts the two times `to_contract(..., with_times=True)` adds (and
    checks that they are RFC 3339); everything else must still satisfy the JSON schema.

    Raises:
        InvalidInput: one "path: message" per problem, joined with "; ".
    """
    problems: list[str] = []
    checked: Any = document
    if with_times and isinstance(document, Mapping):
        checked = {k: v for k, v in document.items() if k != "updated_at"}
        stamps = [("updated_at", document["updated_at"])] if "updated_at" in document else []
        facts = document.get("key_facts")
        if isinstance(facts, list):
            stamps += [
                (f"key_facts/{i}/learned_at", fact["learned_at"])
                for i, fact in enumerate(facts)
                if isinstance(fact, Mapping) and "learned_at" in fact
            ]
        for where, value in stamps:
            if not _is_time(value):
                problems.append(f"{where}: {value!r} is not an RFC 3339 date-time")
    errors = sorted(_validator().iter_errors(checked), key=lambda e: list(e.absolute_path))
    problems = [_describe(error) for error in errors] + problems
    if problems:
        raise InvalidInput("; ".join(problems))


def _is_time(value: object) -> bool:
    try:
        return isinstance(value, str) and _is_rfc3339(value)
    except (ValueError, OverflowError):
        return False


@functools.lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator, FormatChecker

    # jsonschema checks "date-time" only when rfc3339-validator is installed; ours needs nothing.
    checker = FormatChecker(formats=())
    checker.checks("date-time", raises=ValueError)(_is_rfc3339)
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=checker)


def _is_rfc3339(value: object) -> bool:
    if not isinstance(value, str):
        return True  # formats only constrain strings
    if not _RFC3339.match(value):
        return False
    parse_iso_time(value)  # ValueError on impossible dates such as 2026-02-30
    return True


def _describe(error: Any) -> str:
    where = "/".join(str(part) for part in error.absolute_path) or "document"
    return f"{where}: {error.message}"
