"""Seed 004's LLM extraction: the prompt, a strict parser for the reply, and an `Extractor`.

The reply must hold a JSON array of `{"fact": "...", "category": "..."}` objects; a ```json
fence or prose around the array is tolerated. Anything else (not JSON, not an array, an item
that is not an object, a missing or empty "fact", a fact over 200 characters, an unknown
category, a confidence outside 0..1) raises `ExtractionError`, and nothing is returned: the
reply is accepted whole or not at all.

Category mapping (seed 004 -> vault):

    personal      -> context            (name, location, timezone: mostly scrubbed as PII)
    work          -> context            (job, projects)
    relationship  -> context            (people around the athlete; names are scrubbed)
    preference    -> preference
    habit         -> preference         (routines: "runs before work")

Our own category names and seed aliases (sport, goal, duration, time_preference, level,
injury, injury_history, lifestyle, training_response, insight, general, ...) are accepted as
they are. A fact whose text fills one of seed 000's slots ("primary sport: running",
"prefers morning sessions", "goal: marathon") or names an injury ("has a bad knee") takes that
category whatever the model said, so LLM facts merge with the rule extractor's. "category" may
be omitted; the vault then derives it from the text.

Confidence: an optional "confidence" number (0..1) is honoured. The default is 0.8, not seed
004's 1.0: an unverified model output starts "high" (the MEMORY block threshold) but below
certainty, so a repetition (+0.1) still signals something, and decay works the same as for
rule-based facts (sport 0.8, goal 0.8).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from vault.domain.errors import ExtractionError
from vault.domain.limits import FACT_TEXT_MAX
from vault.domain.models import Candidate, FactIn, describe_validation_error
from vault.domain.text import (
    CONFLICT_CATEGORIES,
    category_of,
    clean_text,
    conflict_key_of,
    normalize_text,
)
from vault.domain.vocabulary import Category, Source, parse_category
from vault.extraction.body_rules import mentions_injury
from vault.extraction.privacy import redact, scrub

DEFAULT_CONFIDENCE = 0.8

LLM_CATEGORIES: dict[str, Category] = {
    "personal": Category.CONTEXT,
    "work": Category.CONTEXT,
    "relationship": Category.CONTEXT,
    "preference": Category.PREFERENCE,
    "habit": Category.PREFERENCE,
}

EXTRACTION_PROMPT = """\
You extract durable facts about an athlete from one message they wrote to their coach.

Rules:
- Only facts about the athlete (the user) themselves. Never facts about the coach or the
  assistant, and never about other people (partner, friends, children) except that they exist
  ("has kids").
- Only what is stated as true now: skip questions, hypotheticals ("if I had time..."), plans
  they are only considering, things that ended ("I used to swim"), and anything negated.
- Skip facts already known (listed below).
- Never include names, e-mail addresses, phone numbers, addresses or links.
- Prefer these wordings when they fit: "primary sport: running", "prefers morning sessions",
  "typical duration: 45 min", "goal: half marathon", "level: beginner", "has knee issue".
- Categories: personal, preference, work, habit, relationship.

Answer with a JSON array only: [{{"fact": "...", "category": "..."}}]
Answer [] if there is nothing new.

Known facts:
{known_facts}

Message:
{message}
"""

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


def _load_array(reply: str) -> list[Any]:
    stripped = reply.strip()
    attempts = [stripped]
    attempts += [m.group(1).strip() for m in _FENCE.finditer(reply)]
    start, end = reply.find("["), reply.rfind("]")
    if 0 <= start < end:
        attempts.append(reply[start : end + 1])
    for attempt in attempts:
        try:
            value = json.loads(attempt)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, list):
            return value
        raise ExtractionError(
            f"LLM reply must be a JSON array of facts, got a JSON {type(value).__name__}"
        )
    preview = stripped[:80] + ("..." if len(stripped) > 80 else "")
    raise ExtractionError(f"LLM reply holds no JSON array of facts: {preview!r}")


def map_category(value: Any, text: str) -> Category:
    """The vault category for an LLM item (see the module docstring), or ExtractionError."""
    slot = conflict_key_of(text)
    if slot in CONFLICT_CATEGORIES:
        return CONFLICT_CATEGORIES[slot]
    if category_of(text) is Category.INJURY or mentions_injury(text):
        return Category.INJURY
    if value is None:
        return category_of(text)
    if not isinstance(value, str):
        raise ExtractionError(f"category must be a string, got {type(value).__name__}")
    key = value.strip().lower()
    if key in LLM_CATEGORIES:
        return LLM_CATEGORIES[key]
    try:
        return parse_category(key)
    except ValueError:
        known = ", ".join(sorted(LLM_CATEGORIES) + [c.value for c in Category])
        raise ExtractionError(f"unknown category {value!r}; expected one of: {known}") from None


def _confidence(value: Any) -> float:
    if value is None:
        return DEFAULT_CONFIDENCE
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ExtractionError(f"confidence must be a number from 0 to 1, got {value!r}")
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ExtractionError(f"confidence must be a number from 0 to 1, got {value!r}")
    return float(value)


def parse_llm_reply(
    reply: str,
    *,
    model: str = "llm",
    source: Source = Source.CONVERSATION,
    source_ref: str | None = None,
    observed_at: datetime | None = None,
) -> list[FactIn]:
    """Facts from an LLM reply in seed 004's format, stamped `llm:<model>`, scrubbed of PII.

    Raises:
        ExtractionError: the reply is not that shape; no fact is returned.
    """
    if not isinstance(reply, str):
        raise ExtractionError(f"LLM reply must be text, got {type(reply).__name__}")
    extractor = f"llm:{model}"[:100]
    facts: list[FactIn] = []
    seen: set[str] = set()
    for number, item in enumerate(_load_array(reply), start=1):
        where = f"item {number}"
        if not isinstance(item, dict):
            raise ExtractionError(
                f"{where}: expected an object with a 'fact', got {type(item).__name__}"
            )
        raw = item.get("fact")
        if not isinstance(raw, str) or not clean_text(raw):
            raise ExtractionError(f"{where}: 'fact' must be a non-empty string")
        text = clean_text(raw)
        if len(text) > FACT_TEXT_MAX:
            raise ExtractionError(
                f"{where}: fact is {len(text)} characters; the limit is {FACT_TEXT_MAX}"
            )
        try:
            category = map_category(item.get("category"), text)
            confidence = _confidence(item.get("confidence"))
            fact = FactIn(
                text=text,
                category=category,
                confidence=confidence,
                source=source,
                source_ref=source_ref,
                extractor=extractor,
                observed_at=observed_at,
            )
        except ExtractionError as exc:
            raise ExtractionError(f"{where}: {exc}") from None
        except ValidationError as exc:
            raise ExtractionError(f"{where}: {describe_validation_error(exc)}") from None
        if normalize_text(fact.text) not in seen:
            seen.add(normalize_text(fact.text))
            facts.append(fact)
    return [c for c in scrub(facts) if isinstance(c, FactIn)]


def build_prompt(message: str, known_facts: Sequence[str] = ()) -> str:
    """Seed 004's extraction prompt for one message, known facts listed so they are skipped."""
    known = "\n".join(f"- {fact}" for fact in known_facts) or "(none)"
    return EXTRACTION_PROMPT.format(known_facts=known, message=message)


class LLMExtractor:
    """An `Extractor` around any completion function `complete(prompt) -> reply`.

    The message is redacted (e-mails, phones, URLs, addresses, names become `[kind]`) before it
    leaves the process, unless `redact_message=False`.
    """

    def __init__(
        self,
        complete: Callable[[str], str],
        *,
        model: str = "llm",
        known_facts: Sequence[str] = (),
        redact_message: bool = True,
    ) -> None:
        self.complete = complete
        self.model = model
        self.name = f"llm:{model}"
        self.known_facts = tuple(known_facts)
        self.redact_message = redact_message

    def prompt_for(self, text: str) -> str:
        """The exact prompt sent for `text`."""
        return build_prompt(redact(text) if self.redact_message else text, self.known_facts)

    def extract(
        self,
        text: str,
        *,
        source: Source,
        source_ref: str | None = None,
        observed_at: datetime | None = None,
    ) -> list[Candidate]:
        """Ask the model, then parse its reply strictly (ExtractionError on any bad shape)."""
        if not text.strip():
            return []
        try:
            reply = self.complete(self.prompt_for(text))
        except ExtractionError:
            raise
        except Exception as exc:  # the app's client may raise anything; callers catch one type
            raise ExtractionError(f"the LLM call failed: {exc}") from exc
        facts = parse_llm_reply(
            reply, model=self.model, source=source, source_ref=source_ref, observed_at=observed_at
        )
        return list(facts)
