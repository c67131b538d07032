"""What a recall query asks for: word groups (stems + domain synonyms), names, types, time.

Pure: `analyze(query, now)` reads no database and no clock. A time expression that needs the
episodes themselves ("before the race") comes back as an `Anchor` for the caller to resolve.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from vault.domain.lexicon import body
from vault.domain.stemming import WORD_CACHE, snowball

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "time",
        "times",
        "last",
        "ago",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "day",
        "days",
        "yesterday",
        "today",
        "tonight",
        "recently",
        "lately",
        "ever",
        "did",
        "thing",
        "things",
        "something",
        "anything",
        "tell",
        "remind",
        "remember",
        "recall",
        "know",
        "said",
        "say",
        "told",
        "mention",
        "mentioned",
        "talk",
        "talked",
        "again",
        "also",
        "like",
        "get",
        "got",
    ]
)

# irregular forms the suffix rules cannot reach
IRREGULAR = {
    "ran": "run",
    "rode": "ride",
    "ridden": "ride",
    "swam": "swim",
    "swum": "swim",
    "gave": "give",
    "given": "give",
    "felt": "feel",
    "went": "go",
    "gone": "go",
    "ate": "eat",
    "eaten": "eat",
    "saw": "see",
    "seen": "see",
    "met": "meet",
    "bought": "buy",
    "found": "find",
    "lost": "lose",
    "won": "win",
    "slept": "sleep",
    "fell": "fall",
    "fallen": "fall",
    "broke": "break",
    "broken": "break",
    "took": "take",
    "taken": "take",
    "made": "make",
    "wore": "wear",
    "worn": "wear",
    "knees": "knee",
    "feet": "foot",
    "children": "child",
    "kids": "kid",
    "drank": "drink",
    "drunk": "drink",
    "spoke": "speak",
    "spoken": "speak",
    "began": "begin",
    "thought": "think",
    "brought": "bring",
    "caught": "catch",
    "taught": "teach",
    "held": "hold",
    "kept": "keep",
    "left": "leave",
    "led": "lead",
    "paid": "pay",
    "sold": "sell",
    "sent": "send",
    "spent": "spend",
    "told": "tell",
    "woke": "wake",
    "died": "die",
    "dying": "die",
    "dead": "die",
    "injuries": "injury",
    "injured": "injury",
    "injure": "injury",
    "hurting": "hurt",
}

# Domain synonyms (coach and game agent), as words; related words count at RELATED_WEIGHT.
SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    ("run", "jog", "sprint"),
    *body.REGION_PAIRS,  # knee/calf/shin/hamstring/quad -> leg, ankle/heel -> foot
    ("bike", "cycling", "ride", "spin"),
    ("swim", "pool"),
    ("hurt", "pain", "sore", "ache", "injury", "twinge", "tweak", "strain"),
    ("tired", "exhausted", "fatigue", "flat", "drained", "sluggish", "heavy", "wiped"),
    ("race", "marathon", "10k", "5k", "competition", "parkrun"),
    ("hill", "climb", "incline"),
    ("interval", "repeats", "reps", "speedwork", "track"),
    ("easy", "recovery", "gentle", "relaxed"),
    ("shoe", "trainers", "sneakers"),
    ("eat", "food", "meal", "breakfast", "fuel", "gel", "snack", "dinner", "lunch"),
    ("sleep", "nap", "rest"),
    ("doctor", "physio", "physiotherapist", "therapist", "clinic"),
    ("gift", "present", "give"),
    ("die", "death", "killed"),
    ("happy", "pleased", "great", "strong", "love"),
    ("rain", "wet", "storm"),
    ("hot", "heat", "humid"),
    ("weights", "gym", "strength", "lifting"),
    ("stretch", "yoga", "mobility"),
    ("walk", "hike"),
    ("coffee", "caffeine", "espresso"),
    ("cramp", "spasm"),
)
RELATED_WEIGHT = 0.6

# words of a query that name an episode type
TYPE_WORDS = {
    "race": "race",
    "marathon": "race",
    "injury": "injury",
    "hurt": "injury",
    "die": "death",
    "death": "death",
    "kill": "death",
    "gift": "npc_interaction",
    "give": "npc_interaction",
    "session": "session",
    "workout": "session",
    "training": "session",
    "found": "discovery",
    "discovered": "discovery",
    "upgrade": "tool_upgrade",
    "ill": "illness",
    "sick": "illness",
}

MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "a": 1,
    "an": 1,
    "couple": 2,
    "few": 3,
    "several": 3,
}
_QUESTION_WORDS = frozenset(
    {
        "what",
        "when",
        "where",
        "who",
        "which",
        "how",
        "why",
        "did",
        "do",
        "was",
        "were",
        "is",
        "the",
        "a",
        "i",
        "my",
        "in",
        "on",
        "last",
    }
)


@functools.lru_cache(maxsize=WORD_CACHE)
def stem(word: str) -> str:
    """A word's stem, shared by documents and queries: irregular forms mapped first
    ("ran" -> run), then Snowball's English stemmer (vault.domain.stemming)."""
    w = word.lower().replace("'", "")
    w = IRREGULAR.get(w, w)
    return snowball(w)


def _normalize_synonyms() -> tuple[dict[str, frozenset[str]], dict[str, tuple[str, ...]]]:
    related: dict[str, set[str]] = {}
    surface: dict[str, list[str]] = {}
    for group in SYNONYM_GROUPS:
        for member in group:
            root = stem(member)
            related.setdefault(root, set()).update(stem(m) for m in group if stem(m) != root)
            surface.setdefault(root, [])
            surface[root].extend(m for m in group if stem(m) != root and m not in surface[root])
    return (
        {k: frozenset(v) for k, v in related.items()},
        {k: tuple(v) for k, v in surface.items()},
    )


RELATED, RELATED_SURFACE = _normalize_synonyms()


_TYPE_STEMS = {stem(word): kind for word, kind in TYPE_WORDS.items()}


def words(text: str) -> list[str]:
    """The words of a text, lower-cased, in order."""
    return [m.group(0).lower() for m in _WORD.finditer(text)]


def stems(text: str) -> list[str]:
    """The stems of every non-stopword of a text (documents and queries alike).

    Hot path (every candidate's text on a cold recall; episode_rank caches what it made of
    each text): a set test and the cached `stem` per word.
    """
    return [
        root
        for word in _WORD.findall(text.lower())
        if word not in STOPWORDS and (root := stem(word))
    ]


@dataclass(frozen=True)
class WordGroup:
    """One query word: its stem, related stems (synonyms), and surface words for the index."""

    stem: str
    related: frozenset[str]
    surface: tuple[str, ...]  # words handed to the full-text index (it stems them itself)
    weight: float = 1.0  # below 1 for words recall adds to the question (expansion)


@dataclass(frozen=True)
class Window:
    """A time span [start, end) the query points at."""

    start: datetime
    end: datetime


@dataclass(frozen=True)
class Anchor:
    """A span relative to an event found among the episodes ("before the race")."""

    direction: str  # "before" | "after"
    event: tuple[str, ...]  # surface words naming the event
    span: timedelta = timedelta(days=14)


@dataclass(frozen=True)
class Query:
    """A recall query, analyzed."""

    text: str
    groups: tuple[WordGroup, ...]
    names: tuple[str, ...]  # capitalized names, lower-cased
    types: frozenset[str]
    window: Window | None
    anchor: Anchor | None
    wants_recent: bool
    wants_first: bool = False  # "our first conversation": the owner's earliest session


def _surface_for(root: str, word: str) -> tuple[str, ...]:
    # the index stems with porter itself: give it the query word, its base form, the synonyms
    found = [word]
    base = IRREGULAR.get(word)
    if base:
        found.append(base)
    found.extend(RELATED_SURFACE.get(root, ()))
    cleaned = (re.sub(r"[\W_]+", "", w) for w in found)
    return tuple(dict.fromkeys(w for w in cleaned if w))


def analyze(query: str, now: datetime, *, dates: bool = True) -> Query:
    """Split `query` into word groups, names, type hints and a time span, relative to `now`.

    With `dates`, a calendar date ("on May 2nd", "April 27th", "4 May", "2023-05-04") is that
    day: the latest such day not after `now` when the year is not given.
    """
    lowered = query.lower()
    try:
        day = _calendar_day(lowered, now) if dates else None
    except OverflowError:
        day = None  # "9999-12-31": the day after it leaves the calendar
    window = day[0] if day else _window_or_none(lowered, now)
    anchor = _anchor(lowered)
    # the date's own numbers ("2025-03-05", "5 March 2025") are the time span, not words to find
    said = lowered[: day[1]] + " " + lowered[day[2] :] if day else query
    groups: dict[str, WordGroup] = {}
    for word in words(said):
        if word in STOPWORDS or word in MONTHS or word in WEEKDAYS or word in _NUMBERS:
            continue
        if dates and _ORDINAL_WORD.fullmatch(word):
            continue  # "4th" of "May 4th": the date is the time span, not a word to find
        root = stem(word)
        if root in groups or len(root) < 2:
            continue
        related = RELATED.get(root, frozenset())
        groups[root] = WordGroup(root, related, _surface_for(root, word))
    names = tuple(dict.fromkeys(_names(query)))
    types = frozenset(_TYPE_STEMS[s] for s in groups if s in _TYPE_STEMS)
    wants_recent = bool(re.search(r"\b(last time|latest|most recent|recently|lately)\b", lowered))
    wants_first = dates and window is None and bool(_FIRST.search(lowered))
    return Query(
        query, tuple(groups.values()), names, types, window, anchor, wants_recent, wants_first
    )


_FIRST = re.compile(
    r"\b(first|earliest|very first)\s+(conversation|chat|talk|session|time we (?:talked|spoke|met|chatted))"
)
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)?"
_MONTH_NAMES = "|".join(MONTHS)
_MONTH_DAY = re.compile(rf"\b({_MONTH_NAMES})\s+{_ORDINAL}\b(?:,?\s+(\d{{4}}))?")
_DAY_MONTH = re.compile(
    rf"\b(?:the\s+)?{_ORDINAL}\s+(?:of\s+)?({_MONTH_NAMES})\b(?:,?\s+(\d{{4}}))?"
)
_ORDINAL_WORD = re.compile(r"\d{1,2}(?:st|nd|rd|th)")
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _calendar_day(lowered: str, now: datetime) -> tuple[Window, int, int] | None:
    """The day a calendar date in the query names, and where the date is written (None when
    it names none, or no real day)."""
    found: tuple[int | None, int, int] | None = None
    match: re.Match[str] | None = _ISO_DAY.search(lowered)
    if match:
        found = (int(match.group(1)), int(match.group(2)), int(match.group(3)))
    elif match := _MONTH_DAY.search(lowered):
        year = match.group(3)
        found = (int(year) if year else None, MONTHS.index(match.group(1)) + 1, int(match.group(2)))
    elif match := _DAY_MONTH.search(lowered):
        year = match.group(3)
        found = (int(year) if year else None, MONTHS.index(match.group(2)) + 1, int(match.group(1)))
    if found is None or match is None:
        return None
    year, month, day = found
    today = _day_start(now)
    try:
        start = today.replace(year=year or now.year, month=month, day=day)
        if year is None and start > today:
            start = start.replace(year=now.year - 1)
    except ValueError:
        return None  # "February 30th": no such day
    return Window(start, start + timedelta(days=1)), match.start(), match.end()


def _names(query: str) -> list[str]:
    found = []
    for index, match in enumerate(re.finditer(r"[^\W\d_][\w'-]*", query)):
        token = match.group(0)
        if not token[0].isupper() or token.lower() in STOPWORDS or token.lower() in _QUESTION_WORDS:
            continue
        if token.lower() in MONTHS or token.lower() in WEEKDAYS:
            continue
        if index == 0 and token.lower() in _QUESTION_WORDS:
            continue
        found.append(token.lower().removesuffix("'s"))
    return found


def _day_start(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


SAID_PAST_WORDS = ("yesterday", "ago", "last", "past")  # one of them in all said_span reads
_SAID_PAST = re.compile(rf"\b(?:{'|'.join(SAID_PAST_WORDS)})\b")


SAID_CACHE = 16384  # episode texts whose said time is kept per process (pure)


def said_span(text: str, moment: datetime) -> Window | None:
    """The earlier time an episode's own words point at, relative to when it was said:
    "yesterday", "last night", "the day before yesterday", "two days ago", "last weekend",
    "last week", "last month", "last Monday", "this past Monday", in UTC days. Only words that
    point back count, and only a time wholly before the day they were said: a plan or a date
    may lie ahead ("on Saturday I'll fly", "see you May 5"), and "last weekend" said on a
    Sunday may be the one under way. None when the words point at no such time."""
    return _said_span(text, moment.astimezone(timezone.utc))


@functools.lru_cache(maxsize=SAID_CACHE)
def _said_span(text: str, moment: datetime) -> Window | None:
    # UTC before the cache: two times of one instant in other zones are equal keys
    lowered = text.lower()
    if not _SAID_PAST.search(lowered):
        return None
    found = _window_or_none(lowered, moment, said=True)
    return found if found is not None and found.end <= _day_start(moment) else None


def _window_or_none(lowered: str, now: datetime, *, said: bool = False) -> Window | None:
    """`_window`, or None where the span would leave the calendar ("99999 days ago")."""
    try:
        return _window(lowered, now, said=said)
    except (OverflowError, ValueError):
        return None


def _window(lowered: str, now: datetime, *, said: bool = False) -> Window | None:
    """The span a text's time words point at, from `now`; with `said`, only words that point
    back (said_span)."""
    today = _day_start(now)
    back = _pointing_back(lowered, today)
    if back is not None or said:
        return back
    if re.search(r"\b(today|this morning|tonight|this evening)\b", lowered):
        return Window(today, today + timedelta(days=1))
    if re.search(r"\bthis week\b", lowered):
        monday = today - timedelta(days=today.weekday())
        return Window(monday, monday + timedelta(days=7))
    month_year = re.search(rf"\b({_MONTH_NAMES}),?\s+((?:19|20)\d\d)\b", lowered)
    if month_year:
        first = today.replace(
            year=int(month_year.group(2)), month=MONTHS.index(month_year.group(1)) + 1, day=1
        )
        return Window(first, _next_month(first))
    in_year = re.search(r"\b(?:in|during|of|back in)\s+((?:19|20)\d\d)\b", lowered)
    if in_year or re.search(r"\b(last|this) year\b", lowered):
        number = (
            int(in_year.group(1)) if in_year else now.year - (1 if "last year" in lowered else 0)
        )
        first = today.replace(year=number, month=1, day=1)
        return Window(first, first.replace(year=number + 1))
    if re.search(r"\bthis month\b", lowered):
        first = today.replace(day=1)
        return Window(first, _next_month(first))
    for index, month in enumerate(MONTHS, start=1):
        if re.search(rf"\b(in|during|back in|early|late|last) {month}\b", lowered) or (
            month != "may" and re.search(rf"\b{month}\b", lowered)
        ):
            year = now.year if index <= now.month else now.year - 1
            first = today.replace(year=year, month=index, day=1)
            return Window(first, _next_month(first))
    return _weekday(lowered, today, r"on")


def _pointing_back(lowered: str, today: datetime) -> Window | None:
    """The span of words that point back from `today`: the day before yesterday, yesterday,
    last night, N days / weeks / months ago, last weekend, last week, last month, last (or
    this past) Monday."""
    if re.search(r"\bthe day before yesterday\b", lowered):
        return Window(today - timedelta(days=2), today - timedelta(days=1))
    if re.search(r"\b(yesterday|last night)\b", lowered):
        return Window(today - timedelta(days=1), today)
    ago = re.search(
        r"\b(\d+|one|two|three|four|five|six|seven|a|an|a couple of|a few|several)"
        r"\s+(day|week|month)s?\s+ago\b",
        lowered,
    )
    if ago:
        amount_text = ago.group(1).replace("a couple of", "couple").replace("a few", "few")
        amount = int(amount_text) if amount_text.isdigit() else _NUMBERS.get(amount_text, 1)
        unit = {"day": 1, "week": 7, "month": 30}[ago.group(2)]
        center = today - timedelta(days=amount * unit)
        half = timedelta(days=max(1, unit // 2 + (1 if unit > 1 else 0)))
        return Window(center - half + timedelta(days=1), center + half)
    if re.search(r"\blast weekend\b", lowered):
        saturday = today - timedelta(days=(today.weekday() - 5) % 7 or 7)
        return Window(saturday, saturday + timedelta(days=2))
    if re.search(r"\blast week\b", lowered):
        monday = today - timedelta(days=today.weekday())
        return Window(monday - timedelta(days=7), monday)
    if re.search(r"\blast month\b", lowered):
        first = today.replace(day=1)
        return Window((first - timedelta(days=1)).replace(day=1), first)
    return _weekday(lowered, today, r"last|this past")


def _weekday(lowered: str, today: datetime, before: str) -> Window | None:
    """The latest such weekday before `today` named after one of the words `before`."""
    for index, weekday in enumerate(WEEKDAYS):
        if re.search(rf"\b(?:{before}) {weekday}\b", lowered):
            day = today - timedelta(days=(today.weekday() - index) % 7 or 7)
            return Window(day, day + timedelta(days=1))
    return None


def _next_month(first: datetime) -> datetime:
    return (first + timedelta(days=32)).replace(day=1)


def _anchor(lowered: str) -> Anchor | None:
    match = re.search(
        r"\b(before|after|leading up to|ahead of|since)\s+(?:the|my|our|that)\s+"
        r"([a-z0-9]+(?:\s+[a-z0-9]+)?)",
        lowered,
    )
    if not match:
        return None
    direction = "after" if match.group(1) in ("after", "since") else "before"
    event = tuple(w for w in match.group(2).split() if w not in STOPWORDS)
    if not event:
        return None
    # "the day / week / month before the race": that long, else two weeks
    unit = re.search(r"\b(day|week|month)\s+$", lowered[: match.start()])
    if unit:
        return Anchor(
            direction, event, timedelta(days={"day": 1, "week": 7, "month": 30}[unit.group(1)])
        )
    return Anchor(direction, event)
