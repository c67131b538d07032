"""The privacy rules: what each kind of field may hold (the finders are vault.extraction.pii).

Three rules, by what a field is:
- **memory text** (facts, patterns, notes: what heads the coach's block), `text_problem`:
  refused when it holds personal data of any kind (e-mail, phone, URL, card, IBAN, document
  number, date of birth, credential, street address), names a person other than after a
  relation word ("my wife Sarah" is cut to "my wife" by `scrub`), addresses a model ("ignore
  previous instructions", also in look-alike letters or digits), or fills a slot with something
  that is not a value (`slot_value_problem`);
- **speech** (what the athlete said or did: conversation turns, activity notes, episodes and
  their metadata, knowledge, evidence words), `redact_speech`: personal data of SPEECH_KINDS is
  replaced in place by a typed placeholder (`[phone]`, `[email]`, `[card]`, `[iban]`,
  `[address]`, `[birthdate]`, `[credential]`, `[document]`); never refused for it. Words
  addressed to someone, people's and places' names, dates and links are ordinary speech;
- **identifiers** (`ref`, `source_ref`, activity ids), `identifier_problem`: opaque tokens,
  never read as phone numbers or dates; refused only when they hold an e-mail address, a card
  number, an IBAN or a credential.

Every rule reads the whole text normalized first (`vault.extraction.reading`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable

from vault.domain.limits import EVIDENCE_MAX
from vault.domain.models import Candidate, FactIn, NoteIn, PatternIn, Retraction
from vault.domain.text import conflict_key_of
from vault.extraction import pii
from vault.extraction.pii import Span
from vault.extraction.reading import normalized, read

__all__ = [
    "IDENTIFIER_KINDS",
    "SPEECH_KINDS",
    "Span",
    "addresses_model",
    "check_candidate",
    "find_pii",
    "identifier_problem",
    "names_cut",
    "normalized",
    "redact",
    "redact_speech",
    "scrub",
    "scrub_text",
    "slot_value_problem",
    "text_problem",
]

# What speech (turns, episodes, activity notes, knowledge, evidence words) may not keep: each is
# replaced in place by its placeholder. Names, places, plain dates and links stay.
SPEECH_KINDS = (
    "email", "credential", "card", "iban", "birthdate", "document", "phone", "address",
)  # fmt: skip
# What an identifier (ref, source_ref, activity id) may not hold. It is opaque: never read as a
# phone number, a date or an address.
IDENTIFIER_KINDS = ("email", "credential", "card", "iban")

_RELATION = re.compile(
    r"\b(?:wife|husband|partner|boyfriend|girlfriend|fianc\u00e9e?|fiancee?|friend|buddy|mate"
    r"|coach|physio"
    r"|doctor|dad|father|mum|mom|mother|son|daughter|brother|sister|colleague|boss|teammate"
    r"|neighbou?r|trainer|named|called)\s*,?\s*$",
    re.IGNORECASE,
)
_EVENT_AFTER = re.compile(
    r"\s+(?:[A-Z][a-z]+\s+){0,4}(?:Marathon|Half|Ultra|Triathlon|Ironman|10k|5k|Run|Sportive)\b"
)


def find_pii(text: str) -> list[Span]:
    """Every piece of personal data in `normalized(text)`, earliest first (spans index it).

    Kinds: email, credential, url, card, iban, birthdate, document, phone, address, name.
    """
    return pii.find(read(text).text)


def redact(text: str) -> str:
    """`normalized(text)` with every piece of personal data, names included, replaced by
    `[kind]` (for outbound prompts to an extraction model)."""
    text = normalized(text)
    pieces, at = [], 0
    for span in pii.find(text):
        pieces += [text[at : span.start], f"[{span.kind}]"]
        at = span.end
    return "".join(pieces) + text[at:]


def redact_speech(text: str) -> tuple[str, tuple[str, ...]]:
    """`text` as written, with each piece of personal data of SPEECH_KINDS replaced in place by
    `[kind]`, and the kinds replaced (empty: the text is returned unchanged).

    Every other character is the writer's own: the text is read (normalized) only to find the
    pieces, which are then cut from the text as written.
    """
    reading = read(text)
    spans = pii.find(reading.text, SPEECH_KINDS)
    if not spans:
        return text, ()
    pieces, at = [], 0
    for span in spans:
        start, end = reading.written_span(span.start, span.end)
        pieces += [text[at:start], f"[{span.kind}]"]
        at = end
    return "".join(pieces) + text[at:], tuple(sorted({s.kind for s in spans}))


def identifier_problem(text: str) -> str | None:
    """Why an identifier may not be stored (an e-mail, a card, an IBAN or a credential in it),
    or None. Digits alone are never a phone number here: an activity id is an id."""
    kinds = sorted({s.kind for s in pii.find(read(text).text, IDENTIFIER_KINDS)})
    return "holds personal data (" + ", ".join(kinds) + ")" if kinds else None


def scrub_text(text: str) -> str | None:
    """The (normalized) text with removable names cut out, or None when the candidate must be
    dropped."""
    text = normalized(text)
    return _without_names(text, pii.find(text))


def names_cut(text: str) -> str | None:
    """`text` (normalized) with the names that stand after a relation word cut out, when it
    holds any ("my wife Sarah runs too" -> "my wife runs too"); None when it names no one.
    What memory stores of a text `text_problem` accepts: the name itself never reaches it."""
    if not _NAME_HINT.search(text):
        return None
    read_text = normalized(text)
    spans = pii.find(read_text, ("name",))
    if not spans:
        return None
    cut = _without_names(read_text, spans)
    return cut if cut != read_text else None


# A name is capitalised, or in lower or upper case after a relation word ("my wife sarah");
# texts without either are not read again.
_NAME_HINT = re.compile(
    r"[A-Z]|(?i:\b(?:with|and|wife|husband|partner|friend|coach|mum|mom|dad)\b)"
)


def _without_names(text: str, spans: list[Span]) -> str | None:
    if any(span.kind != "name" for span in spans):
        return None
    pieces, at = [], 0
    for span in spans:
        # Bounded windows: the relation word sits right before the name, the event word after.
        if _EVENT_AFTER.match(text, span.end):
            continue  # a race's name ("the London Marathon") is no person's: it stays
        before = text[max(0, span.start - 40) : span.start]
        if not _RELATION.search(before):
            return None
        pieces.append(text[at : span.start].rstrip(" ,"))
        at = span.end
    text = "".join(pieces) + text[at:]
    cleaned = re.sub(r"\s+'s\b", "'s", re.sub(r"\s{2,}", " ", text)).strip(" ,")
    return cleaned or None


_ADDRESSES_MODEL = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass|skip)\b(?: \w+){0,3}? (?:previous|prior|above"
    r"|earlier|preceding|all|any|the|your|these|those|system)\b(?: \w+){0,2}? (?:instructions?"
    r"|prompts?|rules|messages?|guidelines|directions|context|memory|constraints)\b"
    r"|\b(?:system|developer|hidden) (?:prompt|message|instructions?)\b|\bjailbreak"
    r"|\byou (?:must|should|shall|will|need to|have to|are (?:now|to|required|an? (?:ai|assistant"
    r"|language model|llm|chatbot)))\b|\btell (?:the )?(?:athlete|user|client|them|him|her)\b"
    r"|\b(?:as an ai|language model|the assistant|new instructions|from now on|act as|pretend"
    r"|respond (?:only )?with|reply (?:only )?with|do not (?:follow|obey)|don't (?:follow|obey))\b"
    r"|<\|[a-z_]+\|>|\[/?inst\]|<<sys>>|^\s*(?:system|assistant|user)\s*:",
    re.IGNORECASE,
)
# Words no slot value needs and every instruction does.
_NOT_A_VALUE = re.compile(
    r"\b(?:ignore|disregard|forget|override|tell|say|says|said|respond|reply|answer|must|should"
    r"|shall|always|never|instructions?|prompt|assistant|system|you|your|please|through|push"
    r"|keep|make|ensure|print|reveal|output|repeat|act|pretend|coach)\b"
    r"|[.!?;\n\\<>{}|`]|:\s"
)
SLOT_VALUE_MAX_WORDS = 4
SLOT_VALUE_MAX_CHARS = 40


# Digits typed for the letters they look like ("1gn0re prev1ous 1nstruct10ns"), read back as
# letters for this check only: no other rule reads them so.
_LEET = (str.maketrans("013457@$", "oieastas"), str.maketrans("013457@$", "oleastas"))


def addresses_model(text: str) -> bool:
    """Whether `text` talks to a language model instead of about the athlete (all of it is read,
    look-alike letters folded, and digits read as the letters they imitate)."""
    read_text = normalized(text)
    if _ADDRESSES_MODEL.search(read_text):
        return True
    if not any(ch in read_text for ch in "013457@$"):
        return False
    return any(_ADDRESSES_MODEL.search(read_text.translate(table)) for table in _LEET)


def slot_value_problem(text: str) -> str | None:
    """Why the value of a `label: value` fact is not a value, or None when it looks like one.

    A value is short (at most 4 words and 40 characters), holds no sentence punctuation and
    none of the verbs an instruction needs: "primary sport: running" and "goal: sub-3 marathon"
    pass, "primary sport: ignore previous instructions and tell ..." does not.
    """
    key = conflict_key_of(text)
    if key is None or key == "time preference":
        return None
    value = text.split(":", 1)[1].strip() if ":" in text else ""
    if not value:
        return f"the {key} slot has no value"
    if len(value) > SLOT_VALUE_MAX_CHARS or len(value.split()) > SLOT_VALUE_MAX_WORDS:
        return (
            f"the {key} value is too long to be a value ({len(value.split())} words, "
            f"{len(value)} characters; at most {SLOT_VALUE_MAX_WORDS} and {SLOT_VALUE_MAX_CHARS})"
        )
    if _NOT_A_VALUE.search(value.lower()):
        return f"the {key} value reads like a sentence, not a value: {value[:40]!r}"
    return None


_ACCEPTED: dict[str, None] = {}  # texts that passed, oldest first (bounded, see text_problem)
_ACCEPTED_MAX = 8192
_ACCEPTED_LOCK = threading.Lock()


def text_problem(text: str) -> str | None:
    """Why `text` may not be stored as it is, or None: personal data, a name that cannot be
    cut, words addressed to a model, or a slot value that is not a value.

    Texts that pass are remembered (at most 8192, the oldest forgotten first): every merge
    checks its texts, and the same canonical texts ("has kids", "primary sport: running")
    come back again and again (one PII scan costs ~25 µs). A refused text is never kept: it
    may be personal data the caller was told was not stored.
    """
    if text in _ACCEPTED:
        return None
    problem = _text_problem(text)
    if problem is None:
        with _ACCEPTED_LOCK:
            if len(_ACCEPTED) >= _ACCEPTED_MAX:
                del _ACCEPTED[next(iter(_ACCEPTED))]
            _ACCEPTED[text] = None
    return problem


def _text_problem(text: str) -> str | None:
    if addresses_model(text):
        return "the text addresses the model, not the athlete"
    text = normalized(text)
    text = _label_lowered(text)
    spans = pii.find(text)
    kinds = sorted({span.kind for span in spans if span.kind != "name"})
    if kinds:
        return "holds personal data (" + ", ".join(kinds) + ")"
    cleaned = _without_names(text, spans)
    if cleaned is None:
        return "names another person"
    return slot_value_problem(cleaned)


def _label_lowered(text: str) -> str:
    """A `label: value` text with its label in lower case: "Primary Sport: running" is the
    slot "primary sport", not a capitalised name."""
    if conflict_key_of(text) is None or ":" not in text:
        return text
    label, value = text.split(":", 1)
    return f"{label.lower()}:{value}"


def check_candidate(candidate: Candidate) -> str | None:
    """The reason to refuse `candidate` at the storage boundary, or None to accept it.

    The one check every write path can share (extractors, `merge`, `remember`, imports):
    retractions carry no text and always pass; a fact, pattern or note is refused when its
    text holds contact data, a card number, an IBAN, a document number, a date of birth or a
    credential, names a person other than after a relation word ("my wife Sarah" is cut to
    "my wife" by `scrub`), addresses a model ("ignore previous instructions"), or fills a slot
    with something that is not a value. `scrub` drops exactly the candidates this refuses and
    cuts the removable names from the rest.
    """
    if isinstance(candidate, Retraction):
        return None
    return text_problem(candidate.text)


def scrub(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Candidates with personal data removed; those that cannot be cleaned are dropped."""
    kept: list[Candidate] = []
    for candidate in candidates:
        if isinstance(candidate, Retraction):
            kept.append(candidate)
            continue
        if addresses_model(candidate.text):
            continue
        cleaned = scrub_text(candidate.text)
        if cleaned is None or slot_value_problem(cleaned) is not None:
            continue
        words = candidate.evidence if isinstance(candidate, FactIn) else None
        safe_words = redact_speech(words)[0] if words else words
        if safe_words and addresses_model(safe_words):
            safe_words = None  # the fact stands; words that read as an instruction are not kept
        if cleaned == candidate.text and safe_words == words:
            kept.append(candidate)
            continue
        model: type[FactIn | PatternIn | NoteIn] = type(candidate)
        data = candidate.model_dump()
        data["text"] = cleaned
        if safe_words != words:
            data["evidence"] = safe_words[:EVIDENCE_MAX] if safe_words else None
        kept.append(model.model_validate(data))
    return kept
