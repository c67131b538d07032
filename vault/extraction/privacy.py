"""Seed 001's privacy safeguard: no e-mail, phone number, street address, URL or other person's
name reaches the database, whatever an extractor returned.

Policy, per candidate text:
- an e-mail address, phone number, URL, street address or postcode anywhere -> the candidate is
  dropped (what is left, "email is", is never a fact worth keeping);
- a person's name right after a relation word ("my wife Sarah", "coach Mike") or inside an
  event name ("the Berlin Marathon") -> the name is removed and the rest kept
  ("my wife's knee", "the Marathon");
- any other name -> the candidate is dropped ("runs with John on Sundays" cannot be saved
  by cutting "John" out).
A name is a capitalised word that is not a known word (sport, body part, month, weekday,
brand, common English) and is either inside a sentence or, at its start, followed by a verb or
`'s` ("Sarah is the user's wife"). Retractions carry no text and pass unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from vault.domain.models import Candidate, FactIn, NoteIn, PatternIn, Retraction
from vault.extraction.clauses import KNOWN_WORDS

# Every pattern below starts only where a token starts (the look-behinds) and, where it can,
# matches greedily with no trailing condition, so a hostile 20 000-character message costs
# linear time instead of the quadratic backtracking of the naive patterns.
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_LINK = re.compile(r"(?<![\w./@-])(?:https?://|www\.)[^\s<>\"]+", re.IGNORECASE)
_DOMAIN = re.compile(r"(?<![\w.@-])[\w-]+(?:\.[\w-]+)+(?:/[^\s<>\"]*)?")
_TLDS = frozenset("com org net io co uk de fr es it nl app me ly ai dev".split())  # noqa: SIM905
_TRAILING = ".,;:!?)]'"
_NUMBER_RUN = re.compile(r"(?<![\w.:/])\+?\(?\d[\d().\- \t]*")
_DATE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}$|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$")
_STREET = re.compile(
    r"\b\d{1,5}[a-z]?,? (?:[A-Za-z][\w'-]* ){0,3}(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr"
    r"|boulevard|blvd|way|court|ct|place|pl|terrace|crescent|close|square|sq|strasse|stra\u00dfe"
    r"|gasse|weg|rue|via|calle)\b\.?",
    re.IGNORECASE,
)
_POSTCODE = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b")
_CAPITALISED = re.compile(
    r"\b(?:(?:Mr|Mrs|Ms|Dr|Miss)\.? )?[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?\b(?!')|\b[A-Z][a-z]+(?='s\b)"
)
_RELATION = re.compile(
    r"\b(?:wife|husband|partner|boyfriend|girlfriend|fianc\u00e9e?|fiancee?|friend|buddy|mate"
    r"|coach|physio"
    r"|doctor|dad|father|mum|mom|mother|son|daughter|brother|sister|colleague|boss|teammate"
    r"|neighbou?r|trainer|named|called)\s*,?\s*$",
    re.IGNORECASE,
)
_VERB_AFTER = re.compile(
    r"(?:'s\b|\s+(?:is|was|has|had|and|runs|rides|swims|does|did|says|said|thinks|wants|prefers"
    r"|likes|loves|hates|got|goes|went|ran|trains|will|would|can)\b)"
)

# Capitalised words that are never someone's name.
_ALLOWED = frozenset(
    """
    i january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday christmas easter xmas
    strava garmin zwift peloton trainerroad wahoo polar suunto coros parkrun ironman nike
    user athlete coach prefers works runs rides swims trains has is likes dislikes loves hates
    enjoys wants plans recovers does also often usually typical primary goal level struggles
    lives tends needs responds finds gets feels was had recently currently new old main
    """.split()  # noqa: SIM905 - a word list reads better as text
)


@dataclass(frozen=True)
class Span:
    """Where a piece of personal data sits in a text, and what kind it is."""

    kind: str
    start: int
    end: int


def _urls(text: str) -> list[Span]:
    spans = [
        Span("url", m.start(), m.start() + len(m.group(0).rstrip(_TRAILING)))
        for m in _LINK.finditer(text)
    ]
    for match in _DOMAIN.finditer(text):
        value = match.group(0).rstrip(_TRAILING)
        host = value.split("/", 1)[0]
        if host.rsplit(".", 1)[-1].lower() in _TLDS and not host.replace(".", "").isdigit():
            spans.append(Span("url", match.start(), match.start() + len(value)))
    return spans


def _phones(text: str) -> list[Span]:
    spans = []
    for match in _NUMBER_RUN.finditer(text):
        value = match.group(0).rstrip(" \t(.-")
        end = match.start() + len(value)
        if end < len(text) and (text[end].isalnum() or text[end] in ":/_"):
            continue
        digits = sum(ch.isdigit() for ch in value)
        # Plain spaced numbers ("HR 145 150 155") are training data, not phones: a phone has
        # punctuation, a leading + or 0, a 3-3-4 grouping, or 9+ digits in one run.
        separated = (
            re.search(r"[-.()]", value) or value.startswith(("+", "0"))
            or re.fullmatch(r"\d{3} \d{3} \d{4}", value) or re.search(r"\d{9}", value)
        )  # fmt: skip
        if 7 <= digits <= 15 and separated and not _DATE.match(value):
            spans.append(Span("phone", match.start(), end))
    return spans


def _at_sentence_start(text: str, start: int) -> bool:
    while start > 0 and text[start - 1].isspace():
        start -= 1
    return start == 0 or text[start - 1] in '.!?:;\n"('


def _is_name(text: str, match: re.Match[str]) -> bool:
    word = match.group(0)
    bare = re.sub(r"^(?:Mr|Mrs|Ms|Dr|Miss)\.? ", "", word)
    if bare != word:
        return True
    lowered = bare.lower()
    if lowered in _ALLOWED or lowered in KNOWN_WORDS or lowered.rstrip("s") in KNOWN_WORDS:
        return False
    if _at_sentence_start(text, match.start()):
        return bool(_VERB_AFTER.match(text, match.end()))
    return True


def find_pii(text: str) -> list[Span]:
    """Every e-mail, URL, phone number, street address, postcode and person's name in `text`."""
    found = [Span("email", m.start(), m.end()) for m in _EMAIL.finditer(text)]
    found += _urls(text)
    found += _phones(text)
    found += [Span("address", m.start(), m.end()) for m in _STREET.finditer(text)]
    found += [Span("address", m.start(), m.end()) for m in _POSTCODE.finditer(text)]
    found += [
        Span("name", m.start(), m.end()) for m in _CAPITALISED.finditer(text) if _is_name(text, m)
    ]
    spans: list[Span] = []
    covered = bytearray(len(text))
    for span in found:  # in priority order: an e-mail's domain is not also a URL
        if not any(covered[span.start : span.end]):
            spans.append(span)
            covered[span.start : span.end] = b"\x01" * (span.end - span.start)
    return sorted(spans, key=lambda s: s.start)


def redact(text: str) -> str:
    """`text` with every piece of personal data replaced by `[kind]` (for logs and prompts)."""
    for span in reversed(find_pii(text)):
        text = text[: span.start] + f"[{span.kind}]" + text[span.end :]
    return text


def scrub_text(text: str) -> str | None:
    """The text with removable names cut out, or None when the candidate must be dropped."""
    spans = find_pii(text)
    if any(span.kind != "name" for span in spans):
        return None
    for span in reversed(spans):
        before, after = text[: span.start], text[span.end :]
        in_event = re.match(
            r"\s+(?:[A-Z][a-z]+\s+)*(?:Marathon|Half|Ultra|Triathlon|Ironman|10k|5k|Run"
            r"|Sportive)\b",
            after,
        )
        if not (_RELATION.search(before) or in_event):
            return None
        text = before.rstrip(" ,") + after
    cleaned = re.sub(r"\s+'s\b", "'s", re.sub(r"\s{2,}", " ", text)).strip(" ,")
    return cleaned or None


def scrub(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Candidates with personal data removed; those that cannot be cleaned are dropped."""
    kept: list[Candidate] = []
    for candidate in candidates:
        if isinstance(candidate, Retraction):
            kept.append(candidate)
            continue
        cleaned = scrub_text(candidate.text)
        if cleaned is None:
            continue
        if cleaned == candidate.text:
            kept.append(candidate)
            continue
        model: type[FactIn | PatternIn | NoteIn] = type(candidate)
        data = candidate.model_dump()
        data["text"] = cleaned
        kept.append(model.model_validate(data))
    return kept
