"""Rules for when and how long the athlete trains: the engine guide's time-preference and duration slots.

Texts are "prefers <morning|lunchtime|afternoon|evening> sessions" (0.7) and
"typical duration: <N> min" (0.6). Time words fall in four buckets: morning (also early,
first thing, before work, before 11 am), lunchtime (lunch, midday, noon, 11 am-1 pm), afternoon
(2-4 pm) and evening (after work, late, night, 5 pm on). A clause naming two buckets ("mornings
and evenings") says nothing. A stated preference ("evenings work best") beats a habit
("I run most mornings") in the same message.
"""

from __future__ import annotations

import re

from vault.domain.vocabulary import Category
from vault.extraction.clauses import Clause
from vault.extraction.findings import Finding, Memo
from vault.extraction.lexicon import ADVERBS_RX, TIME_TERMS, VERB_RX, all_matches, compile_table

TIME, DURATION = 0.7, 0.6  # the engine guide's confidences

_TIME_T = compile_table(TIME_TERMS)
_VERB, _ADVERBS = VERB_RX, ADVERBS_RX
_TIME_PREFERENCE = re.compile(
    r"\bprefer|\b(?:works?|is|are) (?:best|better)\b|\bsuits? me|\bfavou?rite|\bcan only\b"
    r"|\bonly (?:ever )?(?:train|run|ride|swim|get out)|\b(?:love|like|enjoy)s? (?:to |my |doing )?"
    r"|morning person|early bird|early riser|night owl|evening person"
    r"|(?:\d ?am|morning|evening|lunchtime|lunch|afternoon|early|night) (?:runner|rider|swimmer"
    r"|cyclist|trainer)"
)
_TIME_HABIT = re.compile(
    rf"\b(?:i|we) {_ADVERBS}(?:{_VERB}|train|exercise|work ?out|go out|get out|head out"
    rf"|get my \w+ done|go)s?\b"
    r"|\b(?:usually|normally|always|mostly|mainly|often|typically|generally|tend to|every|most"
    r"|each)\b"
)
# "late" after a possessive is the dead's ("my late grandmother"), not a time of day.
_NO_TIME = re.compile(
    r"\bnight shifts?|\b(?:work|working|on) nights\b|\blate (?:for|to)\b"
    r"|\b(?:my|our|his|her|their|your) late\b"
)
_CLOCK = re.compile(r"\b(\d{1,2})(?::\d\d)? ?(am|pm)\b")

_AMOUNT = re.compile(
    r"(?P<lo>\d+(?:[.,]\d+)?) ?(?:-|\u2013|to) ?(?P<hi>\d+(?:[.,]\d+)?) ?(?P<u1>min(?:ute)?s?"
    r"|hours?|hrs?|h)\b"
    r"|(?P<n>\d+(?:[.,]\d+)?) ?(?P<u2>min(?:ute)?s?|hours?|hrs?|h|')(?![\w'])"
    r"|(?P<hm>\d)h(?P<mm>\d\d)\b"
    r"|(?P<ninety>(?:an? |one )?hour and a half|1 and a half hours?)"
    r"|(?P<half>half an hour|half hour)|(?P<two>two hours)|(?P<one>(?:an|one|a) hour)"
)
_DURATION_HABIT = re.compile(
    r"\b(?:usually|normally|typically|generally|mostly|tend to|on average|average|regularly"
    r"|most (?:of my )?(?:runs|rides|sessions|workouts|swims)|my (?:\w+ )?(?:runs|rides|sessions"
    r"|workouts|swims) (?:are|last|take)|(?:each|every|per) (?:session|run|ride|workout|swim)"
    r"|my (?:usual|go-to|standard|default)\b|weekdays|during the week|most days|keep it to)\b"
)
_DURATION_VERB = re.compile(
    rf"\b(?:i|we) {_ADVERBS}(?:{_VERB}|train|go|go out|exercise|work out)s?\b"
)
_NOT_DURATION = re.compile(
    r"\blong (?:runs?|rides?)|\brace|\bmarathon|\bcommute|\beach way|\bto work\b|\bwarm[- ]?up"
    r"|\bcool[- ]?down|\bintervals?|\breps?\b|\bper km|\bpace|\bshifts?\b|\d ?x ?\d|\bx ?\d"
)
_PER_PERIOD = re.compile(r" ?(?:a|per|each|every) (?:week|day|month)| ?(?:weekly|daily)")
_FOR_BEFORE = re.compile(r"\bfor (?:about |around |roughly |approx\w* )?$")


# What makes a time of day a training time: the clause names a session or a way of training.
_ABOUT_TRAINING = re.compile(
    rf"\b{_VERB}(?:s|ning|ing|ming)?\b|\b(?:ran|rode|swam|train\w*|sessions?|workouts?"
    r"|work(?:ing)? out|exercis\w*|gym|lift\w*|yoga|pilates|practice|laps|miles|km"
    r"|(?:morning|evening|lunchtime|afternoon|early|night) (?:runner|rider|swimmer|cyclist"
    r"|trainer|person)|early bird|early riser|night owl)\b"
)


_LIKING = re.compile(r"(?:love|like|enjoy)")


def _time_bucket(text: str) -> str | None:
    cleaned = _NO_TIME.sub(" ", text)
    buckets = {value for _, value in all_matches(_TIME_T, cleaned)}
    for hour_text, half in _CLOCK.findall(cleaned):
        hour = int(hour_text) % 12 + (12 if half == "pm" else 0)
        buckets.add(
            "morning"
            if hour < 11
            else "lunchtime"
            if hour < 14
            else "afternoon"
            if hour < 17
            else "evening"
        )
    return buckets.pop() if len(buckets) == 1 else None


# What a stated preference may govern for a time of day to be what is preferred: the time
# itself, a session or a way of training, or the copula ("my favourite is the morning").
_FAVOURITE_OF = re.compile(r"favou?rite (?:(?:part|kind|time) of (?:the |my )?)?(?P<what>[\w']+)")
_GOVERNED = re.compile(r"^(?:time|times|day|part|is|was|are|'s|thing|things|would|has|hour|hours)$")


def _prefers_a_time(text: str, explicit: re.Match[str]) -> bool:
    """Whether the stated preference `explicit` is about the time of day in `text`: "my
    favourite" names it or a session ("my favourite runs are at night", not "my favourite
    painting ... my late grandmother"), and "is best" / "works best" has it, or training, in
    its subject ("evenings work best", not "it is best fresh, get it early")."""
    said = explicit.group(0)
    if said.startswith("favo"):
        what = _FAVOURITE_OF.match(text, explicit.start())
        if what is None:
            return True
        word = what.group("what")
        return bool(_GOVERNED.match(word) or _time_bucket(word) or _ABOUT_TRAINING.match(word))
    if re.match(r"(?:works?|is|are) ", said):
        before = text[: explicit.start()]
        if _time_bucket(before) is not None or _ABOUT_TRAINING.search(before):
            return True
        # "it is best to run in the morning": the training in the infinitive that follows
        after = re.match(r"\s*(?:for me )?to (?P<rest>.*)", text[explicit.end() :])
        return after is not None and bool(_ABOUT_TRAINING.match(after.group("rest")))
    return True


def time_preference(clause: Clause, memo: Memo) -> list[Finding]:
    """Time of day from "I run most mornings", "evenings work best".

    Gives "prefers <morning|lunchtime|afternoon|evening> sessions".
    """
    if _ABOUT_TRAINING.search(clause.context or clause.text):
        memo.about_training = True  # "I mostly run. Always in the evening, ..."
    if not clause.asserts or clause.negated or clause.remote_past or clause.one_off:
        return []
    bucket = _time_bucket(clause.text)
    if bucket is None:
        return []
    explicit = _TIME_PREFERENCE.search(clause.text)
    if explicit and not _prefers_a_time(clause.text, explicit):
        explicit = None  # "my favourite painting", "it is best fresh": another thing preferred
    habit = explicit or _TIME_HABIT.search(clause.text)
    if habit is None:
        return []
    stated = explicit is not None and _LIKING.match(explicit.group(0)) is None
    if not stated and not memo.about_training:
        return []  # a habit or a liking must be about training: "evenings with a cigar" is none
    return [
        Finding(
            "time_preference",
            (clause.index, habit.start()),
            Category.TIME_PREFERENCE,
            f"prefers {bucket} sessions",
            TIME,
            slot="time preference",
            priority=2 if explicit else 1,
        )
    ]


def _minutes(match: re.Match[str]) -> float | None:
    def number(value: str) -> float:
        return float(value.replace(",", "."))

    def scale(unit: str) -> float:
        return 1.0 if unit.startswith("min") or unit == "'" else 60.0

    if match.group("lo"):
        return (
            (number(match.group("lo")) + number(match.group("hi"))) / 2 * scale(match.group("u1"))
        )
    if match.group("n"):
        return number(match.group("n")) * scale(match.group("u2"))
    if match.group("hm"):
        return int(match.group("hm")) * 60 + int(match.group("mm"))
    if match.group("ninety"):
        return 90
    if match.group("half"):
        return 30
    if match.group("two"):
        return 120
    return 60 if match.group("one") else None


# A duration is a session's only when the sentence is about training, not the dogs' walk.
_SESSION_TALK = re.compile(
    r"\b(?:runs?|running|ran|rides?|riding|cycl\w+|swim\w*|sessions?|workouts?|work out"
    r"|training|train|gym|class(?:es)?|practice|exercis\w*|lifting|yoga|laps|long runs?)\b"
)
_NOT_MINE = re.compile(r"\bdogs?\b|\bpupp(?:y|ies)\b|\bkids?\b|\bchildren\b|\bbaby\b")


def duration(clause: Clause, memo: Memo) -> list[Finding]:
    """Session length from "usually 45 minutes", "normally an hour" (a range gives its midpoint)."""
    text = clause.text
    if not clause.asserts or clause.negated or clause.one_off or _NOT_DURATION.search(text):
        return []
    if _NOT_MINE.search(clause.context or text) and not _SESSION_TALK.search(
        clause.context or text
    ):
        return []
    # Each search below runs once per clause or reads a bounded window, so a clause holding
    # thousands of amounts stays linear.
    habit = _DURATION_HABIT.search(text) is not None
    verb = _DURATION_VERB.search(text)
    for match in _AMOUNT.finditer(text):
        if _PER_PERIOD.match(text[match.end() : match.end() + 16]):
            continue
        before = text[max(0, match.start() - 40) : match.start()]
        habitual = habit or (
            verb is not None
            and verb.end() <= match.start()
            and _FOR_BEFORE.search(before) is not None
        )
        minutes = _minutes(match)
        if not habitual or minutes is None or not 10 <= minutes <= 600:
            continue
        value = round(minutes)
        return [
            Finding(
                "duration",
                (clause.index, match.start()),
                Category.DURATION,
                f"typical duration: {value} min",
                DURATION,
                slot="typical duration",
            )
        ]
    return []


RULES = (time_preference, duration)
