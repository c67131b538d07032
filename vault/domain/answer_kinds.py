"""What kind of answer a question asks for, and whether a text says one (pure).

"When did Ana move to Lisbon?" asks for a time: of the turns about the move, the one that says
when ("we moved there last June") answers it, and one that only names the move does not.
"How many kids does Bo have?" asks for a number. This is question classification by the
expected answer type, the first step of question answering over text (Li and Roth, "Learning
Question Classifiers", COLING 2002), kept to the types plain chat says in words a pattern
can read: times (relative days and periods, weekdays, months after a preposition or beside a
day or year, years after a preposition, clock times), numbers (digits, number words,
frequencies, durations) and places (a name after a word of place or movement). Each line of a
text is read without the "Name: " it may open with (a speaker called June says no month). The
patterns build on the calendar words the query analysis reads (`episode_query.MONTHS`,
`WEEKDAYS`). Measured (persons asked by "who": a relation word or a name) and left out: it
moved nothing (docs/recall.md).
"""

from __future__ import annotations

import functools
import re

from vault.domain.episode_query import MONTHS, SPEAKER_PREFIX, WEEKDAYS

TIME = "time"
NUMBER = "number"
PLACE = "place"

# what may come before the question word: "so", "and", a name called ("Ana, when ..."), "in"
_LEAD = r"\s*(?:(?i:so|and|but|ok|okay|hey|hi)\b,?\s*)?(?:[A-Z][a-z]+,\s*)?"
_ASKS = (
    (
        TIME,
        re.compile(
            _LEAD + r"(?i:(?:in |at |on )?(?:when|what (?:year|month|day|date|time)"
            r"|which (?:year|month|day)|what's the date|how long ago))\b"
        ),
    ),
    (NUMBER, re.compile(_LEAD + r"(?i:how (?:many|much|long|old|often)|what age)\b")),
    (
        PLACE,
        re.compile(
            _LEAD + r"(?i:(?:in |at |to )?(?:where|(?:what|which) (?:city|country|town)))\b"
        ),
    ),
)

_WEEKDAY = "|".join(WEEKDAYS)
# month names capitalized, and only where a month is meant: "in June", "June 5", "5 June"
# ("May I ...", "April said" are not)
_MONTH = "(?:" + "|".join(month.capitalize() for month in MONTHS) + ")"
_PERIOD = r"(?:week|weekend|month|year|night|morning|evening|summer|winter|spring|fall|autumn)"
_COUNT = (
    r"(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen"
    r"|twenty|thirty|several|few|couple(?: of)?)"
)
_TIME_PREPOSITION = (
    r"(?i:in|on|since|from|until|till|by|during|around|early|late|mid|of|last|next|this|back in)"
)
_SAYS = {
    TIME: re.compile(
        r"\b(?:(?i:yesterday|today|tonight|tomorrow|recently|the other day|a while ago"
        rf"|(?:last|next|this|past) (?:{_PERIOD}|{_WEEKDAY})"
        rf"|{_COUNT} (?:hours?|days?|weeks?|months?|years?) ago"
        rf"|(?:{_WEEKDAY})s?"
        r"|\d{1,2}(?::\d\d)? ?(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d)"
        rf"|{_TIME_PREPOSITION} {_MONTH}|{_MONTH} \d{{1,4}}|\d{{1,2}}(?:st|nd|rd|th)? {_MONTH}"
        rf"|{_TIME_PREPOSITION} (?:19|20)\d\d)\b"
    ),
    NUMBER: re.compile(
        r"\b(?i:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty"
        r"|thirty|forty|fifty|hundred|thousand|dozen|few|several|once|twice"
        r"|daily|weekly|monthly|hours?|minutes?)\b"
    ),
    # a name after a word of place or movement on the same line: "in Porto", "at Lake Tahoe"
    PLACE: re.compile(
        r"\b(?i:in|at|to|from|near|around|through|across|visit(?:ed|ing)?)[ \t]+"
        rf"(?:(?i:the)[ \t]+)?(?!{_MONTH}\b|(?:{'|'.join(d.capitalize() for d in WEEKDAYS)})\b"
        r"|(?:Mum|Mom|Dad|Christmas|Easter)\b)[A-Z][a-z]+"
    ),
}


def asked_kind(question: str) -> str | None:
    """TIME, NUMBER or PLACE when the question opens by asking for one, else None."""
    for kind, opening in _ASKS:
        if opening.match(question):
            return kind
    return None


@functools.lru_cache(maxsize=16384)
def says(kind: str, text: str) -> bool:
    """Whether `text` says something of that kind ("last Friday", "in 2019", "twice"), read
    line by line without the "Name: " each line may open with."""
    pattern = _SAYS[kind]
    return any(pattern.search(SPEAKER_PREFIX.sub("", line, count=1)) for line in text.splitlines())
