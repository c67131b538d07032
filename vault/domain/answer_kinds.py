"""What kind of answer a question asks for, and whether a text says one (pure).

"When did Ana move to Lisbon?" asks for a time: of the turns about the move, the one that says
when ("we moved there last June") answers it, and one that only names the move does not.
"How many kids does Bo have?" asks for a number. This is question classification by the
expected answer type, the first step of question answering over text (Li and Roth, "Learning
Question Classifiers", COLING 2002), kept to the types plain chat says in words a pattern
can read:

- a time: relative days and periods ("yesterday", "last week", "3 days ago"), weekdays, a
  month where a month is meant (after a preposition, beside a day or a year: so neither "May
  I ..." nor a speaker called June; in lower case too, as chat writes it, beside a year or an
  ordinal day: "in may 2019", "june 5th"), a year after a preposition or a season, calendar dates
  ("5/6/2019", "2019-06-05"), clock times ("at 7pm", "6 a.m.");
- a number: digits, number words ("one" but not "one of"), frequencies ("twice", "every
  morning"), durations;
- a place: a name after a word of place ("in Porto", "at Lake Tahoe", "visited Rome"), or after
  "to" / "from" only following a word of going ("flew to Lisbon": "talked to Ana" is no
  place); not a month, a weekday, a holiday or "Mum".

The patterns build on the calendar words the query analysis reads (`episode_query.MONTHS`,
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

# what may come before the question word: "so", "and", a name called ("Ana, when ..."), "in"
_LEAD = r"\s*(?:(?i:so|and|but|ok|okay|hey|hi)\b,?\s*)*(?:[A-Z][a-z]+,\s*)?"
_ASKS = (
    (
        TIME,
        re.compile(
            _LEAD + r"(?i:(?:in |at |on |by |since )?(?:when|what (?:year|month|day|date|time)"
            r"|which (?:year|month|day)|what's the date|how long ago))\b"
        ),
    ),
    (NUMBER, re.compile(_LEAD + r"(?i:(?:at )?(?:how (?:many|much|long|old|often)|what age))\b")),
    (
        PLACE,
        re.compile(
            _LEAD + r"(?i:(?:in |at |to )?(?:where|(?:what|which) (?:city|country|town|state)"
            r"(?! of\b)))\b"
        ),
    ),
)

_WEEKDAY = "|".join(WEEKDAYS)
_WEEKDAYS_NAMED = "|".join(day.capitalize() for day in WEEKDAYS)
# month names capitalized (in running text "may" and "march" are verbs), and only where a
# month is meant: "in June", "June 5th", "5 June", "June 2019", "mid-June"
_MONTH = "(?:" + "|".join(month.capitalize() for month in MONTHS) + ")"
# in any case where a number stands beside it ("in may 2019", "june 5th", "the 3rd of march"):
# chat writes months in lower case, and "may" or "march" beside a day or a year is the month
_MONTH_ANY_CASE = "(?i:" + "|".join(MONTHS) + ")"
_PERIOD = r"(?:week|weekend|month|year|night|morning|evening|summer|winter|spring|fall|autumn)"
_COUNT = (
    r"(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen"
    r"|twenty|thirty|several|few|couple(?: of)?)"
)
_BEFORE_DATE = (
    r"(?i:in|on|since|from|until|till|by|during|around|early|late|mid|of|last|next|this|back in)"
)
_YEAR = r"(?:19|20)\d\d"
_TIME_WORDS = (
    r"\b(?:(?i:yesterday|today|tonight|tomorrow|recently|the other day|a while ago"
    rf"|(?:last|next|this|past) (?:{_PERIOD}|{_WEEKDAY})"
    rf"|{_COUNT} (?:hours?|days?|weeks?|months?|years?) ago"
    rf"|(?:{_WEEKDAY})s?|(?:spring|summer|fall|autumn|winter|year) {_YEAR}"
    r"|\d{1,2}(?::\d\d)? ?(?:am|pm))"
    rf"|{_BEFORE_DATE} {_MONTH}|(?i:mid-){_MONTH}|{_MONTH_ANY_CASE},? {_YEAR}"
    rf"|{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?(?: of)? {_MONTH}"
    rf"|{_MONTH_ANY_CASE} \d{{1,2}}(?:st|nd|rd|th)|\d{{1,2}}(?:(?:st|nd|rd|th)(?: of)?| of) {_MONTH_ANY_CASE}"
    rf"|{_BEFORE_DATE} {_YEAR}|\d{{1,2}}/\d{{1,2}}/\d{{2,4}}|\d{{4}}-\d\d-\d\d|\d{{1,2}}:\d\d)\b"
)
_GOING = (
    r"(?:go|goes|going|gone|went|move|moves|moved|moving|fly|flew|flying|flight|drive|drove"
    r"|driving|travel(?:l?ed|l?ing)?|trip|headed|heading|came|come|coming|back|returned"
    r"|relocated|vacation|holiday)"
)
_NOT_A_PLACE = (
    rf"(?:{_MONTH}|{_WEEKDAYS_NAMED}|Mum|Mummy|Mom|Mommy|Dad|Daddy|Grandma|Grandpa"
    r"|Christmas|Easter|Thanksgiving|Halloween)\b"
)
_CAPITALIZED = r"(?:[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+|[A-Z]{2,})"  # "Porto", "São", "Zürich", "UK"
_SAYS = {
    TIME: re.compile(rf"{_TIME_WORDS}|\b\d{{1,2}}(?::\d\d)? ?(?i:a\.m\.|p\.m\.)"),
    NUMBER: re.compile(
        r"\b(?i:\d+|one(?! of\b)|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
        r"|twenty|thirty|forty|fifty|hundred|thousand|dozen|couple|few|several|once|twice"
        r"|daily|weekly|monthly|hours?|minutes?"
        rf"|every (?:other )?(?:day|night|morning|evening|week|weekend|month|year|{_WEEKDAY}))\b"
    ),
    PLACE: re.compile(
        rf"\b(?:(?i:in|at|near|around|through|across|visit(?:ed|ing|s)?)"
        rf"|(?i:{_GOING})[ \t]+(?:(?i:back)[ \t]+)?(?i:to|from))[ \t]+"
        rf"(?:(?i:the)[ \t]+)?(?!{_NOT_A_PLACE}){_CAPITALIZED}"
    ),
}


def asked_kind(question: str) -> str | None:
    """TIME, NUMBER or PLACE when the question opens by asking for one, else None."""
    for kind, opening in _ASKS:
        if opening.match(question):
            return kind
    return None


@functools.lru_cache(maxsize=4096)
def says(kind: str, text: str) -> bool:
    """Whether `text` says something of that kind ("last Friday", "in 2019", "twice")."""
    return _SAYS[kind].search(text) is not None
