"""What kind of answer a question asks for, and whether a text says one (pure).

"When did Ana move to Lisbon?" asks for a time: of the turns about the move, the one that says
when ("we moved there last June") answers it, and one that only names the move does not.
"How many kids does Bo have?" asks for a number. This is question classification by the
expected answer type, the first step of question answering over text (Li and Roth, "Learning
Question Classifiers", COLING 2002), kept to the types plain chat says in words a pattern
can read: times (relative days and periods, weekdays, months, years), numbers (digits, number
words, frequencies, durations) and places (a name after a word of place or movement). The
patterns build on the calendar words the query analysis reads (`episode_query.MONTHS`,
`WEEKDAYS`). Measured (persons asked by "who": a relation word or a name) and left out: it
moved nothing (docs/recall.md).
"""

from __future__ import annotations

import functools
import re

from vault.domain.episode_query import MONTHS, WEEKDAYS

TIME = "time"
NUMBER = "number"
PLACE = "place"

# the question's opening asks for the kind; "how long ago" is a time, "how long" a number
_ASKS = (
    (
        TIME,
        re.compile(
            r"\s*(?:when|what (?:year|month|day|date|time)|which (?:year|month|day)"
            r"|how long ago)\b",
            re.IGNORECASE,
        ),
    ),
    (NUMBER, re.compile(r"\s*(?:how (?:many|much|long|old|often)|what age)\b", re.IGNORECASE)),
    (
        PLACE,
        re.compile(r"\s*(?:where|(?:what|which) (?:city|country|place|town|state))\b", re.I),
    ),
)

_PERIOD = r"(?:week|weekend|month|year|night|morning|evening|summer|winter|spring|fall|autumn)"
_WEEKDAY = "|".join(WEEKDAYS)
# month names capitalized only: "may" and "march" are verbs too
_MONTH = "|".join(month.capitalize() for month in MONTHS)
_SAYS = {
    TIME: re.compile(
        r"\b(?:(?i:yesterday|today|tonight|tomorrow|recently|the other day"
        rf"|(?:last|next|this|past) (?:{_PERIOD}|{_WEEKDAY}|time)"
        r"|(?:\d+|an?|one|two|three|four|five|six|few|couple(?: of)?)"
        r" (?:days?|weeks?|months?|years?) ago"
        rf"|(?:{_WEEKDAY})s?)|{_MONTH}|(?:19|20)\d\d)\b"
    ),
    # a name after a word of place or movement: "in Porto", "at Lake Tahoe", "visited Rome"
    PLACE: re.compile(
        r"\b(?i:in|at|to|from|near|around|through|across|visit(?:ed|ing)?)\s+"
        r"(?:(?i:the)\s+)?[A-Z][a-z]+"
    ),
    NUMBER: re.compile(
        r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty"
        r"|thirty|forty|fifty|hundred|thousand|dozen|couple|few|several|once|twice|every"
        r"|daily|weekly|monthly|hours?|minutes?)\b",
        re.IGNORECASE,
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
    """Whether `text` says something of that kind ("last Friday", "in 2019", "twice")."""
    return _SAYS[kind].search(text) is not None
