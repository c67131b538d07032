"""The oasis-memory design's LLM extraction: the prompt, a strict parser for the reply, and an `Extractor`.

The reply must hold a JSON array of `{"fact": "...", "category": "..."}` objects; a ```json
fence or prose around the array is tolerated; a reply holding no array raises
`ExtractionError`. Items are validated one by one (issue 12): an item that is not an object,
has no "fact", is over 200 characters, has a confidence that is neither 0..1 nor
high/medium/low, is about someone else, a question, hypothetical, negated or past, or is
refused by the privacy filter is dropped and reported (`parse_llm_items(...).rejected`,
`LLMExtractor.last_rejected`); the rest are kept. An unknown category ("health") is inferred
from the text. Free wording is mapped onto the rules' canonical texts where they know one
("Knee pain (left)" -> has left knee issue), so a model's fact reinforces the stored one.

Category mapping (the oasis-memory design -> vault):

    personal      -> context            (name, location, timezone: mostly scrubbed as PII)
    work          -> context            (job, projects)
    relationship  -> context            (people around the athlete; names are scrubbed)
    preference    -> preference
    habit         -> preference         (routines: "runs before work")

Our own category names and seed aliases (sport, goal, duration, time_preference, level,
injury, injury_history, lifestyle, training_response, insight, general, ...) are accepted as
they are. A fact whose text fills one of the engine guide's slots ("primary sport: running",
"prefers morning sessions", "goal: marathon") or names an injury ("has a bad knee") takes that
category whatever the model said, so LLM facts merge with the rule extractor's. "category" may
be omitted; the vault then derives it from the text.

Confidence: an optional "confidence" number (0..1) is honoured. The default is 0.8, not seed
004's 1.0: an unverified model output starts "high" (the MEMORY block threshold) but below
certainty, so a repetition (+0.1) still signals something, and decay works the same as for
rule-based facts (sport 0.8, goal 0.8).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
from vault.domain.vocabulary import LEVEL_CONFIDENCE, Category, Level, Source, parse_category
from vault.extraction.body_rules import mentions_injury
from vault.extraction.clauses import PERSON_WORDS, Subject, normalise, split_clauses
from vault.extraction.privacy import check_candidate, redact, scrub
from vault.extraction.rules import RuleExtractor

DEFAULT_CONFIDENCE = 0.8
MAX_ITEMS = 50  # items read per reply; the rest are ignored

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
    """The vault category for an LLM item (see the module docstring); an unknown or missing
    category is inferred from the text."""
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
        return category_of(text)  # "health", "hobby": say what the text says


def _confidence(value: Any) -> float:
    if value is None:
        return DEFAULT_CONFIDENCE
    if isinstance(value, str) and value.strip().lower() in {level.value for level in Level}:
        return LEVEL_CONFIDENCE[Level(value.strip().lower())]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ExtractionError(
            f"confidence must be a number from 0 to 1 or high/medium/low, got {value!r}"
        )
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ExtractionError(f"confidence must be a number from 0 to 1, got {value!r}")
    return float(value)


# A fact about someone else, however the model worded it ("wife has a bad back"). Compiled on
# first use: the alternation of every person word takes ~30 ms to compile, which every CLI
# process would pay at import although only the LLM path reads it.
@functools.cache
def _about_other() -> re.Pattern[str]:
    return re.compile(
        rf"^(?:the )?(?:user's |athlete's |their |his |her |my |our )?(?:\w+ )?(?:{PERSON_WORDS})"
        r"(?:'s)?\b(?! (?:of|who|that))"
    )


_SIDE_AFTER = re.compile(r"^(?P<body>.*?)\s*\((?P<side>left|right)(?: side)?\)\s*$", re.IGNORECASE)


def clause_problem(text: str) -> str | None:
    """Why a fact's wording may not be stored as the athlete's, or None: the same checks the
    rules make per clause (about someone else, a question, hypothetical, negated, past)."""
    lowered = normalise(text)
    if _about_other().match(lowered) and not lowered.startswith(("has kids", "kids")):
        return "it is about someone else"
    for clause in split_clauses(text):
        if clause.subject is Subject.OTHER:
            return "it is about someone else"
        if clause.question:
            return "it is a question"
        if clause.hypothetical:
            return "it is hypothetical"
        if clause.remote_past:
            return "it is in the past"
        if clause.negated and not _NEGATED_CANONICAL.search(lowered):
            return "it is negated"
    return None


# Canonical texts that hold a negation word and still state a fact.
_NEGATED_CANONICAL = re.compile(r"^(?:dislikes|doesn't like|no longer) ")


def canonical_facts(text: str) -> list[tuple[str, Category, frozenset[str] | None]]:
    """The rule extractor's canonical wording for a model's free text, [] when it has none:
    "Knee pain (left)" -> has left knee issue, "loves hiking" -> likes hiking."""
    if conflict_key_of(text) is not None:
        return []  # a slot text is already canonical (its value is checked by the filter)
    side = _SIDE_AFTER.match(text)
    wording = f"{side.group('side')} {side.group('body')}" if side else text
    findings = RuleExtractor().findings(wording)
    return [
        (finding.text, finding.category, finding.tags)
        for finding in findings
        if finding.text is not None
    ]


@dataclass(frozen=True)
class LLMParse:
    """What a reply gave: the facts kept and, per dropped item, its number and the reason."""

    facts: list[FactIn]
    rejected: list[tuple[int, str]]


def parse_llm_items(
    reply: str,
    *,
    model: str = "llm",
    source: Source = Source.CONVERSATION,
    source_ref: str | None = None,
    observed_at: datetime | None = None,
) -> LLMParse:
    """Facts from an LLM reply, validated item by item: a bad item is dropped with its reason
    and the rest are kept. Each kept item passes the rules' clause checks (about the athlete,
    not negated, hypothetical or past), is mapped onto the canonical wording when the rules
    know one ("Knee pain (left)" -> has left knee issue, so it reinforces), and passes the
    privacy filter (`check_candidate`).

    Raises:
        ExtractionError: the reply holds no JSON array at all.
    """
    if not isinstance(reply, str):
        raise ExtractionError(f"LLM reply must be text, got {type(reply).__name__}")
    extractor = f"llm:{model}"[:100]
    facts: list[FactIn] = []
    rejected: list[tuple[int, str]] = []
    seen: set[str] = set()
    for number, item in enumerate(_load_array(reply)[:MAX_ITEMS], start=1):
        try:
            for fact in _item_facts(item, extractor, source, source_ref, observed_at):
                key = normalize_text(fact.text)
                if key not in seen:
                    seen.add(key)
                    facts.append(fact)
        except ExtractionError as exc:
            rejected.append((number, str(exc)))
    return LLMParse(facts, rejected)


def _item_facts(
    item: Any,
    extractor: str,
    source: Source,
    source_ref: str | None,
    observed_at: datetime | None,
) -> list[FactIn]:
    if not isinstance(item, dict):
        raise ExtractionError(f"expected an object with a 'fact', got {type(item).__name__}")
    raw = item.get("fact")
    if not isinstance(raw, str) or not clean_text(raw):
        raise ExtractionError("'fact' must be a non-empty string")
    text = clean_text(raw)
    if len(text) > FACT_TEXT_MAX:
        raise ExtractionError(f"fact is {len(text)} characters; the limit is {FACT_TEXT_MAX}")
    problem = clause_problem(text)
    if problem:
        raise ExtractionError(f"not stored as the athlete's: {problem}")
    confidence = _confidence(item.get("confidence"))
    if item.get("category") is not None and not isinstance(item.get("category"), str):
        raise ExtractionError(
            f"category must be a string, got {type(item.get('category')).__name__}"
        )
    wordings = canonical_facts(text) or [(text, map_category(item.get("category"), text), None)]
    facts = []
    for wording, category, tags in wordings:
        try:
            fact = FactIn(
                text=wording,
                category=category,
                confidence=confidence,
                source=source,
                source_ref=source_ref,
                extractor=extractor,
                observed_at=observed_at,
                tags=tags,
            )
        except ValidationError as exc:
            raise ExtractionError(describe_validation_error(exc)) from None
        refused = check_candidate(fact)
        if refused:
            raise ExtractionError(f"refused: {refused}")
        facts.append(fact)
    return [c for c in scrub(facts) if isinstance(c, FactIn)]


def parse_llm_reply(
    reply: str,
    *,
    model: str = "llm",
    source: Source = Source.CONVERSATION,
    source_ref: str | None = None,
    observed_at: datetime | None = None,
) -> list[FactIn]:
    """The facts `parse_llm_items` keeps (bad items are dropped; see it for the report).

    Raises:
        ExtractionError: the reply holds no JSON array at all.
    """
    return parse_llm_items(
        reply, model=model, source=source, source_ref=source_ref, observed_at=observed_at
    ).facts


def build_prompt(message: str, known_facts: Sequence[str] = ()) -> str:
    """The oasis-memory design's extraction prompt for one message, known facts listed so they are skipped."""
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
        self.last_rejected: list[tuple[int, str]] = []  # (item number, reason) of the last reply

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
        parsed = parse_llm_items(
            reply, model=self.model, source=source, source_ref=source_ref, observed_at=observed_at
        )
        self.last_rejected = parsed.rejected
        return list(parsed.facts)
