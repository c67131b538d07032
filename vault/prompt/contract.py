"""Export an athlete's memory as seed 001's `athlete_memory` JSON object, and check it.

    {"key_facts": [{"fact": "primary sport: running", "source": "profile_change",
                    "confidence": 0.9, "learned_at": "2026-02-16T08:00:00Z"}, ...],
     "patterns": ["tends to skip after rest days"],
     "coaching_notes": ["responds well to encouragement after hard sessions"],
     "updated_at": "2026-02-16T08:00:00Z"}

Facts: the top 15 by priority (confidence, then most recently reinforced, then oldest id); the
Rust reader applies the 0.5 prompt floor itself. Patterns and notes: the top 5 each, as strings.
Texts are exported as stored (JSON needs no escaping of "|"). Sources are folded onto the
contract's three words by `vault.domain.vocabulary.CONTRACT_SOURCE`:

    conversation   <- conversation, user_message, manual
    behavior       <- behavior, activity_note, pattern_analysis
    profile_change <- profile_change

Times are RFC 3339 in UTC with a "Z". `updated_at` is left out when unknown, and can be left out
on request: the seed's own schema has no `updated_at` (its Rust struct does), so a consumer that
validates against the seed verbatim needs `include_updated_at=False`.
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
from vault.domain.vocabulary import CONTRACT_SOURCE
from vault.prompt.items import ranked, utc_text
from vault.prompt.schema import load_schema

if TYPE_CHECKING:  # jsonschema is imported on first validation, not at start-up
    from jsonschema import Draft202012Validator

_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$")


def to_contract(memory: AthleteMemory, *, include_updated_at: bool = True) -> dict[str, Any]:
    """`memory` as an `athlete_memory` document (plain JSON types, ready for `json.dumps`)."""
    document: dict[str, Any] = {
        "key_facts": [
            {
                "fact": fact.text,
                "source": CONTRACT_SOURCE[fact.source],
                "confidence": fact.confidence,
                "learned_at": utc_text(fact.learned_at),
            }
            for fact in ranked(memory.facts)[:MAX_FACTS]
        ],
        "patterns": [item.text for item in ranked(memory.patterns)[:MAX_LIST_ITEMS]],
        "coaching_notes": [item.text for item in ranked(memory.notes)[:MAX_LIST_ITEMS]],
    }
    if include_updated_at and memory.updated_at is not None:
        document["updated_at"] = utc_text(memory.updated_at)
    return document


def validate_contract(document: Mapping[str, Any]) -> None:
    """Check `document` against the shipped `athlete_memory` schema, formats included.

    Raises:
        InvalidInput: one "path: message" per problem, joined with "; ".
    """
    errors = sorted(_validator().iter_errors(document), key=lambda e: list(e.absolute_path))
    if errors:
        raise InvalidInput("; ".join(_describe(error) for error in errors))


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
