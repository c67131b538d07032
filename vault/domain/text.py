"""Text rules shared by storage, extraction and prompt building: cleaning, dedup keys, tags."""

from __future__ import annotations

import functools
import re
import unicodedata

from vault.domain.lexicon import body
from vault.domain.vocabulary import Category

# White space and every control character (C0, DEL, C1): what the MEMORY block and the
# engine's row show as one space (vault.prompt.items.inline); cleaning folds them the same way,
# so a stored text and its shown form are one text
_SPACE = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")
_NOT_WORD = re.compile(r"[^\w\s]")

# the M13 spec §4.2 entity lists; body parts from the shared vocabulary
BODY_PARTS = body.NAMES
TIME_PREFERENCES = (
    "morning",
    "evening",
    "afternoon",
    "lunch",
    "early",
    "late",
    "before work",
    "after work",
)
INTENSITY_TOPICS = (
    "easy",
    "hard",
    "tempo",
    "intervals",
    "long run",
    "recovery",
    "speed work",
    "hill repeats",
)
CONTEXT_TOPICS = (
    "job",
    "work",
    "travel",
    "family",
    "kids",
    "commute",
    "gym",
    "climbing",
    "cycling",
)

# the engine guide's conflict keys, as canonical labels, and the category each one implies
CONFLICT_CATEGORIES: dict[str, Category] = {
    "primary sport": Category.SPORT,
    "goal": Category.GOAL,
    "typical duration": Category.DURATION,
    "time preference": Category.TIME_PREFERENCE,
    "level": Category.LEVEL,
}

# A colon between two digits is a time or a pace ("splits 4:31 4:29"), not a label's colon.
_LABELLED = re.compile(r"^([a-z][a-z0-9]*(?: [a-z0-9]+){0,2})\s*:(?!(?<=\d:)\d)\s*\S")
_TIME_PREFERENCE = re.compile(
    r"^prefers (?:early morning|morning|midday|lunchtime|lunch|afternoon|evening|night"
    r"|before work|after work|weekend|weekday) (?:sessions|runs|rides|swims|workouts|training)$"
)


def clean_text(text: str) -> str:
    """Unicode NFC ("café" typed as "e" + U+0301 is "café"), every run of white space or
    control characters folded into one space, trimmed."""
    return _SPACE.sub(" ", unicodedata.normalize("NFC", text)).strip()


_TRAILING_STOP = re.compile(r"[\s.!;,]+$")


def canonical_text(text: str) -> str:
    """How a memory text is stored, whichever way it came in: cleaned (`clean_text`) and
    without trailing sentence punctuation ("Prefers morning runs." is "Prefers morning runs");
    a question mark is kept (a question is not a fact)."""
    return _TRAILING_STOP.sub("", clean_text(text))


def normalize_text(text: str) -> str:
    """The dedup key of the M13 spec: lower case, punctuation dropped, white space folded.
    Unchanged for stored rows: texts are cleaned (NFC, control characters folded) before it."""
    return _SPACE.sub(" ", _NOT_WORD.sub("", text.lower())).strip()


def conflict_key_of(text: str) -> str | None:
    """The slot a fact fills, where a newer value replaces an older one.

    `label: value` texts ("primary sport: running", "weekly hours: 6") use their label;
    "prefers <time of day> sessions" is the engine guide's time-preference slot.
    """
    lowered = clean_text(text).lower()
    if _TIME_PREFERENCE.match(lowered):
        return "time preference"
    labelled = _LABELLED.match(lowered)
    if labelled:
        return labelled.group(1)
    return None


def _contains(text: str, term: str, plural: bool = False) -> bool:
    return _term_pattern(term, plural).search(text) is not None


@functools.cache  # one pattern per term of the fixed vocabularies, built once per process
def _term_pattern(term: str, plural: bool) -> re.Pattern[str]:
    suffix = "s?" if plural else ""  # "knees" is still the knee; "works" is not "work"
    return re.compile(rf"\b{re.escape(term)}{suffix}\b")


def entity_tags(text: str, category: Category) -> frozenset[str]:
    """The M13 spec's entity tags (`body:knee`, `time:morning`, `context:kids`) for one fact."""
    lowered = text.lower()
    tags: set[str] = set()
    if category is Category.INJURY:
        tags.update(f"body:{part}" for part in _present(lowered, BODY_PARTS, plural=True))
    elif category in (Category.PREFERENCE, Category.TIME_PREFERENCE):
        tags.update(f"time:{t}" for t in _present(lowered, TIME_PREFERENCES))
        tags.update(f"intensity:{t}" for t in _present(lowered, INTENSITY_TOPICS))
    elif category is Category.CONTEXT:
        tags.update(f"context:{t}" for t in _present(lowered, CONTEXT_TOPICS))
    return frozenset(tags)


def _present(text: str, terms: tuple[str, ...], plural: bool = False) -> list[str]:
    """The terms `text` holds as whole words; most texts hold none, which one search tells."""
    if _any_term(terms, plural).search(text) is None:
        return []
    return [term for term in terms if _contains(text, term, plural)]


@functools.cache
def _any_term(terms: tuple[str, ...], plural: bool) -> re.Pattern[str]:
    suffix = "s?" if plural else ""
    return re.compile(rf"\b(?:{'|'.join(re.escape(t) for t in terms)}){suffix}\b")


_INJURY_WORDS = re.compile(
    r"\b(pain|painful|sore|soreness|injur\w*|issue|issues|problem|hurts?|strain\w*|tendinitis"
    r"|tendonitis|fracture|splints|sprain\w*|tight|niggle|bad|dodgy|weak|stiff)\b"
)


# Named health conditions a fact may carry ("has asthma"); the extractor reads the same list.
HEALTH_CONDITIONS = (
    "diabetes",
    "asthma",
    "arthritis",
    "epilepsy",
    "anemia",
    "anaemia",
    "a heart condition",
    "high blood pressure",
    "multiple sclerosis",
    "crohn's",
    "migraines",
    "fibromyalgia",
    "depression",
    "anxiety",
)

# The extractor's canonical texts (docs/learning.md) and their categories,
# so `remember "has kids"` files the fact where the extractor would: one category per text.
_CANONICAL_CATEGORIES: tuple[tuple[re.Pattern[str], Category], ...] = (
    (
        re.compile(r"^dislikes (morning|lunchtime|afternoon|evening) sessions$"),
        Category.TIME_PREFERENCE,
    ),
    (
        re.compile(
            r"^(recovers (quickly|slowly)|responds well to .+|.+ leaves? them "
            r"(tired|sore|exhausted|energized))$"
        ),
        Category.TRAINING_RESPONSE,
    ),
    (
        re.compile(
            r"^(works .+|also does .+|has kids|has a desk job|has a long commute"
            r"|has sleep debt|has trouble sleeping|has a disability|has a partner|busy schedule"
            r"|commutes .+|teaches .+|coaches .+"
            r"|(?:owns|runs) an? (?:[a-z-]+ ){0,2}?(?:business|company|shop|store|restaurant"
            r"|bakery|farm|firm|salon|cafe|bar|studio|practice|agency|service|clinic|nursery"
            r"|daycare|franchise)"
            r"|run-commutes .+|sleeps .+|counts calories|does intermittent fasting|preps meals"
            r"|travels often for work|is (a student|retired|not working|pregnant|vegan|vegetarian"
            r"|pescatarian|on a diet)|eats .+|had .+|has grandchildren|is allergic to .+"
            r"|has (?:an? )?(?:[a-z-]+ )?allerg(?:y|ies)|is [a-z]+ intolerant"
            rf"|has ({'|'.join(re.escape(c) for c in HEALTH_CONDITIONS)}))$"
        ),
        Category.CONTEXT,
    ),
    (re.compile(r"^wants to (lose weight|get stronger)$"), Category.GOAL),
)


def category_of(text: str) -> Category:
    """Best-effort category for a fact given without one."""
    key = conflict_key_of(text)
    if key in CONFLICT_CATEGORIES:
        return CONFLICT_CATEGORIES[key]
    lowered = text.lower()
    if _INJURY_WORDS.search(lowered) and _any_term(BODY_PARTS, True).search(lowered):
        return Category.INJURY
    canonical = " ".join(lowered.split())
    for pattern, category in _CANONICAL_CATEGORIES:
        if pattern.match(canonical):
            return category
    if re.search(r"\b(prefers?|likes?|loves?|enjoys?|hates?|dislikes?)\b", lowered):
        return Category.PREFERENCE
    return Category.GENERAL


_QUERY_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "me",
        "i",
        "im",
        "i'm",
        "about",
        "that",
        "this",
        "those",
        "these",
        "please",
        "forget",
        "remove",
        "delete",
        "erase",
        "what",
        "you",
        "know",
        "anything",
        "thing",
        "things",
        "of",
        "to",
        "for",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
    ]
)


def query_terms(query: str) -> list[str]:
    """The words of a "forget" request that must all match (filler words dropped)."""
    return [w for w in normalize_text(query).split() if w not in _QUERY_STOPWORDS]


def matches_query(terms: list[str], text: str, tags: frozenset[str] = frozenset()) -> bool:
    """True when every term starts a word of the text or of a tag's entity.

    Prefix matching lets "run" forget "primary sport: running"; terms shorter than three
    letters must match a whole word.
    """
    words = normalize_text(text).split()
    for tag in tags:
        words.extend(normalize_text(tag.partition(":")[2]).split())
    return bool(terms) and all(
        any(w == term or (len(term) >= 3 and w.startswith(term)) for w in words) for term in terms
    )


_ACTIVITY_FACT = re.compile(r"^(likes|also does) (.+)$")


def activity_of(text: str) -> tuple[str, str] | None:
    """("likes" | "also does", activity) for an activity fact, else None.

    `likes yoga` and `also does yoga` are one fact for the coach: the liking holds the doing.
    """
    match = _ACTIVITY_FACT.match(normalize_text(text))
    return (match.group(1), match.group(2)) if match else None
