"""The athlete-memory plan's privacy safeguard: no e-mail, phone number, street address, URL or other person's
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

Issue 9 adds, as kinds of personal data that always drop a candidate and are always redacted
from outbound prompts: payment card numbers (13-19 digits, plain or grouped by spaces or
dashes, Luhn-checked), IBANs (mod-97 checked), document numbers after a cue word ("passport
number", "licence no", "SSN", ...), dates of birth ("born on 1990-03-02", "DOB 02/03/1990",
"my birthday is March 3rd") and credentials ("password is hunter2", "pin is 1234", API keys).

Two more refusals apply to every candidate, whatever its source (`check_candidate`):
- text that addresses a model ("ignore previous instructions", "you must tell the athlete",
  "system prompt") is never stored;
- a slot value (`primary sport: X`, `goal: X`, `level: X`, `typical duration: X`, ...) must
  look like a value: at most 4 words and 40 characters, no sentence punctuation, and none of
  the verbs an instruction needs ("ignore", "tell", "train through", ...).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from vault.domain.limits import EVIDENCE_MAX
from vault.domain.models import Candidate, FactIn, NoteIn, PatternIn, Retraction
from vault.domain.text import conflict_key_of
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
_EVENT_AFTER = re.compile(
    r"\s+(?:[A-Z][a-z]+\s+){0,4}(?:Marathon|Half|Ultra|Triathlon|Ironman|10k|5k|Run|Sportive)\b"
)
_VERB_AFTER = re.compile(
    r"(?:'s\b|\s+(?:is|was|has|had|and|runs|rides|swims|does|did|says|said|thinks|wants|prefers"
    r"|likes|loves|hates|got|goes|went|ran|trains|will|would|can)\b)"
)

# -- issue 9: cards, IBANs, documents, dates of birth, credentials. Every repetition is bounded
# and every look-around is fixed-width, so each pattern is linear in the text.
# A card is 13-19 digits in groups of 4 or more (the last may be shorter), the groups joined by
# one or two of any separator people type: "4111 1111 1111 1111", "4111.1111.1111.1111",
# "41111111 11111111", "4111-1111 1111_1111". Groups of 3 ("400 400 400 400") are training
# numbers, not cards. Each group starts after a separator, so matching stays linear.
_SEP = r"[ .\-/,_]"
_CARD = re.compile(
    rf"(?<![\d])\d{{4,19}}(?:{_SEP}{{1,2}}\d{{4,19}})*(?:{_SEP}{{1,2}}\d{{1,3}})?(?!\d)"
)
_IBAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[ -]?[A-Za-z0-9]{4}){2,7}(?:[ -]?[A-Za-z0-9]{1,4})?"
)
_DOCUMENT = re.compile(
    r"\b(?:(?:passport|driv(?:er'?s|ing) licen[cs]e|licen[cs]e|id card|identity card"
    r"|national id|social security|ssn|nhs|national insurance|tax(?:payer)? id|sort code"
    r"|routing)(?: (?:number|no\.?|num|#|code))?"
    r"|(?:id|document|insurance|policy|membership|member|account|acct|tax)"
    r" (?:number|no\.?|num|#))(?: is|:| =)? ?#? ?"
    r"(?P<value>(?=[A-Za-z0-9 -]{0,24}\d)[A-Za-z0-9](?:[A-Za-z0-9-]| (?=\w)){3,22}[A-Za-z0-9])",
    re.IGNORECASE,
)
_SSN = re.compile(r"(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?![\d-])")
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_DATE_TEXT = (
    rf"(?:\d{{4}}[./-]\d{{1,2}}[./-]\d{{1,2}}|\d{{1,2}}[./-]\d{{1,2}}[./-]\d{{2,4}}"
    rf"|(?:the )?{_DAY}(?: of)? {_MONTH}\b(?:,? \d{{4}})?|{_MONTH} (?:the )?{_DAY}\b(?:,? \d{{4}})?)"
)
_BIRTH = re.compile(
    rf"\b(?:born(?: on| in)?|d\.?o\.?b\.?|date of birth|birth ?date|birthday)(?: is| was|:)?"
    rf"(?: on)? ?{_DATE_TEXT}",
    re.IGNORECASE,
)
_CREDENTIAL = re.compile(
    r"\b(?:password|passcode|passphrase|passwd|pwd|pw|pin(?: code| number)?|api[ _-]?key|secret"
    r"(?: key)?|access (?:key|token)|auth(?:entication)? token|token|login|username|user ?name)"
    r"(?: is|:| =| was)+ ?\S{1,100}"
    # without "is": a password word followed by its value ("my password hunter2"), and a PIN
    # word followed by digits ("bank pin 4821")
    r"|\b(?:password|passcode|passphrase|passwd|pwd|pw)\b ?[:=]? ?(?=\S*\w)\S{3,100}"
    r"|\b(?:pin|pin code|pin number|passcode)\b ?[:=#]? ?\d{3,12}\b",
    re.IGNORECASE,
)
_API_KEY = re.compile(
    r"(?<![\w-])(?:sk-[A-Za-z0-9_-]{16,200}|ghp_[A-Za-z0-9]{30,60}|AKIA[0-9A-Z]{16}"
    r"|xox[abpr]-[A-Za-z0-9-]{10,200}|AIza[0-9A-Za-z_-]{30,40})(?![\w-])"
)
_LONG_TOKEN = re.compile(
    r"(?<![\w-])(?=[A-Za-z_-]{0,80}\d)(?=\d{0,80}[A-Za-z])[\w-]{32,200}(?![\w-])"
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


def _luhn(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _cards(text: str) -> list[Span]:
    spans = []
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group(0))
        if 13 <= len(digits) <= 19 and len(set(digits)) > 1 and _luhn(digits):
            spans.append(Span("card", match.start(), match.end()))
    return spans


def _iban_valid(value: str) -> bool:
    compact = value.replace(" ", "").replace("-", "").upper()
    if not 15 <= len(compact) <= 34 or not compact[:2].isalpha():
        return False
    moved = compact[4:] + compact[:4]
    number = "".join(str(int(ch, 36)) for ch in moved)
    return int(number) % 97 == 1


def _ibans(text: str) -> list[Span]:
    spans = []
    for match in _IBAN.finditer(text):
        value = match.group(0)
        # A match may run one group into the next word; try the longest valid prefix.
        while value and not _iban_valid(value):
            cut = max(value.rfind(" "), value.rfind("-"))
            if cut <= 4:
                value = ""
                break
            value = value[:cut]
        if value:
            spans.append(Span("iban", match.start(), match.start() + len(value)))
    return spans


def _documents(text: str) -> list[Span]:
    spans = [
        Span("document", m.start("value"), m.end("value"))
        for m in _DOCUMENT.finditer(text)
        if sum(ch.isdigit() for ch in m.group("value")) >= 4
    ]
    return spans + [Span("document", m.start(), m.end()) for m in _SSN.finditer(text)]


def _secrets(text: str) -> list[Span]:
    spans = [Span("credential", m.start(), m.end()) for m in _CREDENTIAL.finditer(text)]
    spans += [Span("credential", m.start(), m.end()) for m in _API_KEY.finditer(text)]
    return spans + [Span("credential", m.start(), m.end()) for m in _LONG_TOKEN.finditer(text)]


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
            re.search(r"[-.()]", value)
            or value.startswith(("+", "0"))
            or re.fullmatch(r"\d{3} \d{3} \d{4}", value)
            or re.search(r"\d{9}", value)
        )
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


# Dashes and minus signs NFKC keeps apart: one hyphen-minus for the patterns.
_DASHES = dict.fromkeys(
    map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"), "-"
)


def normalized(text: str) -> str:
    """`text` as the privacy patterns read it: Unicode NFKC (full-width digits and `＠` become
    ASCII), format characters removed (zero-width spaces and joiners, soft hyphens, BOMs: they
    hide nothing from a reader but split a card number or a word for a pattern), every kind of
    space folded to one space and every dash to `-`. Idempotent; plain ASCII text is unchanged.
    """
    if text.isascii():
        return text
    folded = unicodedata.normalize("NFKC", text)
    kept = []
    for char in folded:
        category = unicodedata.category(char)
        if category == "Cf":
            continue
        kept.append(" " if category in ("Zs", "Zl", "Zp") else char)
    return "".join(kept).translate(_DASHES)


def find_pii(text: str) -> list[Span]:
    """Every piece of personal data in `normalized(text)`, earliest first (spans index it).

    Kinds: email, credential, url, card, iban, birth date, document, phone, address, name.
    """
    text = normalized(text)
    found = [Span("email", m.start(), m.end()) for m in _EMAIL.finditer(text)]
    found += _secrets(text)
    found += _urls(text)
    found += _cards(text)
    found += _ibans(text)
    found += [Span("birth date", m.start(), m.end()) for m in _BIRTH.finditer(text)]
    found += _documents(text)
    found += _phones(text)
    found += [Span("address", m.start(), m.end()) for m in _STREET.finditer(text)]
    found += [Span("address", m.start(), m.end()) for m in _POSTCODE.finditer(text)]
    found += [
        Span("name", m.start(), m.end()) for m in _CAPITALISED.finditer(text) if _is_name(text, m)
    ]
    spans: list[Span] = []
    covered = bytearray(len(text))
    for span in found:  # in priority order: an e-mail's domain is not also a URL
        if 1 not in covered[span.start : span.end]:
            spans.append(span)
            covered[span.start : span.end] = b"\x01" * (span.end - span.start)
    return sorted(spans, key=lambda s: s.start)


def redact(text: str) -> str:
    """`text` with every piece of personal data replaced by `[kind]` (for logs and prompts)."""
    text = normalized(text)
    pieces, at = [], 0
    for span in find_pii(text):
        pieces += [text[at : span.start], f"[{span.kind}]"]
        at = span.end
    return "".join(pieces) + text[at:]


def scrub_text(text: str) -> str | None:
    """The (normalized) text with removable names cut out, or None when the candidate must be
    dropped."""
    text = normalized(text)
    return _without_names(text, find_pii(text))


def _without_names(text: str, spans: list[Span]) -> str | None:
    if any(span.kind != "name" for span in spans):
        return None
    pieces, at = [], 0
    for span in spans:
        # Bounded windows: the relation word sits right before the name, the event word after.
        before = text[max(0, span.start - 40) : span.start]
        if not (_RELATION.search(before) or _EVENT_AFTER.match(text, span.end)):
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


def addresses_model(text: str) -> bool:
    """Whether `text` talks to a language model instead of about the athlete."""
    return _ADDRESSES_MODEL.search(normalized(text[:2_000])) is not None


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
    spans = find_pii(text)
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
    if isinstance(candidate, FactIn) and candidate.evidence and find_pii(candidate.evidence):
        return "its evidence holds personal data (names, contact data, numbers): redact it first"
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
        safe_words = redact(words) if words else words
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
