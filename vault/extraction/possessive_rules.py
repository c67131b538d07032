"""What the speaker's own possessive or a relative clause takes for granted (issue 28).

"My softball game was cancelled" is about the game, but it takes for granted that the speaker
plays softball; "my job at the bank keeps me busy" that they work at a bank; "the bar I work at
is crowded" that they work at a bar. Each rule reads one such frame whoever the clause is about,
and marks its finding `presupposed`, which the belief gate (`vault.extraction.belief`) believes
from one reading unless the clause is a hypothetical or set in the past:

- a practice: "my <activity> game / practice / class / lessons / team / club / routine /
  workouts", "my daily walks", "my morning workouts" -> `also does <activity>`, `works out
  regularly` (not a team one supports, a class in a subject, nor an endurance sport, whose slot
  needs a self-description);
- a job: "my job at <a place>", "my job as <a role>", "my <field> job" -> `works at ...`,
  `works as ...`, `works in <field>` (not an old, last, former, dream or next job, nor one lost
  or quit);
- a workplace in a relative clause: "the <place> (that / where) I work (at / in)" -> `works at
  a <place>`.
"""

from __future__ import annotations

import re

from vault.domain.lexicon import sports
from vault.domain.vocabulary import Category
from vault.extraction.clauses import Clause
from vault.extraction.exercise_rules import activity_named
from vault.extraction.findings import Finding, Memo
from vault.extraction.kind_rules import STOPPED
from vault.extraction.lexicon import JOBS
from vault.extraction.words import indefinite
from vault.extraction.work_rules import FIELDS, NOT_PLACE

CONTEXT = 0.7
JOB_TITLES = "|".join(re.escape(job) for job in JOBS)

_HEADS = (
    r"games?|practices?|training|class(?:es)?|lessons?|sessions?|(?P<team>team)|league|club"
    r"|routine|workouts?"
)
# A team is one's own to play in only when the clause says the speaker takes part
# ("I play on my softball team", "my hockey team and I train on Tuesdays"); "my football team
# lost again" is a team one supports.
_PLAYS = re.compile(
    r"\b(?:i|we|i'm|we're) (?:\w+ )?(?:play|played|plays|playing|coach|captain|train|joined"
    r"|scored|on|pitch|pitched)\b|\b(?:on|in|for|joined) (?:my|our) \w+(?: \w+)? (?:team|league"
    r"|club)\b|\band i (?:\w+ )?(?:train|play|practi[cs]e)\b"
)

_OWN_PRACTICE = re.compile(
    r"\b(?:my|our) (?!favou?rite\b)(?:(?:daily|weekly|morning|evening|nightly|usual|regular|long"
    rf"|weekend|next) )?(?:(?P<x>[a-z][a-z-]*(?: [a-z-]+)?) (?:{_HEADS})\b|(?P<y>walks|hikes"
    r"|workouts)\b)"
)
_OWN_PLURAL = {"walks": "walking", "hikes": "hiking"}

# A noun phrase of up to three words that a preposition, a conjunction or a pronoun ends.
_END = (
    r"(?:at|in|on|for|from|to|with|and|but|or|so|because|since|as|while|where|which|who|that"
    r"|when|near|by|of|i|i'm|we|it|my|you|is|was|are|keeps?|makes?|has|had|pays?|gets?|now"
    r"|really|so|very|too|today|tonight|right|again|every|all|then|though|anymore|does|do|did"
    r"|will|would|can|could|should|might|must|starts?|ends?|ended|begins?|sucks|[a-z]+n't)"
)
_WORDS = rf"(?:(?!{_END}\b)[a-z][a-z'&-]*)(?: (?!{_END}\b)[a-z][a-z'&-]*){{0,2}}"
_NOT_NOW = r"(?!(?:old|last|previous|former|first|dream|next|future|ideal|summer)\b)"
_MY_JOB = re.compile(
    rf"\bmy {_NOT_NOW}(?:(?:new|current|day|second|main|regular|full[- ]time|part[- ]time"
    rf"|real) )?job (?:(?P<p>at) (?P<a>a|an|the) (?P<place>{_WORDS})|as (?:an? )?(?P<role>{_WORDS}))"
    rf"|\bmy (?P<field>{FIELDS}) job\b"
)
_RELATIVE = re.compile(
    rf"\b(?:the|a) (?P<place>{_WORDS}) (?:where i (?:\w+ )?work\b(?! (?:with|for|as|on|out)\b)"
    r"|(?:that )?i (?:\w+ )?work (?:at|in)\b)"
)
# A business of the speaker's, named by its trade ("my plumbing business", "my dog walking
# business"); "my own business" and "none of my business" name no trade.
# A shop with a customer's word ("my local pet store", "my favorite studio", "my grocery store")
# is where one shops; a business named by its trade is one's own.
_PATRON = r"local|favou?rite|usual|nearest|neighbou?rhood|regular|old|next|go-to|grocery|corner"
_MY_BUSINESS = re.compile(
    rf"\bmy (?:small |little |new |online )?(?P<b>(?!own\b|personal\b|private\b|{_END}\b|(?:{_PATRON})\b)"
    rf"[a-z-]+(?: (?!{_END}\b|(?:{_PATRON})\b)[a-z-]+)?) (?P<h>business|shop|store|bakery|salon)\b"
    r"(?P<job> (?:job|jobs|shifts?|manager|boss|coworkers|co-workers)\b)?"
)
# The speaker's job title before a thing of the job: "my electrician salary", "my nursing
# license", "my teacher friends" is not one.
_MY_TITLE_THING = re.compile(
    rf"\bmy (?P<t>{JOB_TITLES}) (?:salary|wages|pay|license|licence|uniform|shifts?|career|job"
    r"|boss|coworkers|co-workers|colleagues)\b"
)
_GRANDCHILDREN = re.compile(
    r"(?<!like )\b(?:my|our) (?:\w+ )?(?:grand ?(?:kids?|children|child|sons?|daughters?|babies"
    r"|baby))\b|\bi(?: have|'ve got|'ve) (?:\w+ )?grand ?(?:kids|children)\b"
)
# A job that is gone or ending: "my job at the bank ended", "is over", "not anymore".
_GONE = re.compile(
    r"\b(?:quit|lost|left|leaving|fired|laid off|used to|retired from|ended|ends|ending"
    r"|finished|is over|was over|over now|anymore|any more|no longer|gone)\b"
)
# A denial before the frame denies what it takes for granted: "I don't have my job at the bank".
_DENIED_BEFORE = re.compile(r"\b(?:not|don't|do not|didn't|never|no|without|won't|can't)\b")
# What a job frame captured that is no workplace and no trade: a time or a part of one ("my
# job at the end of the day is to rest", "the hours I work"), a pronoun or someone else's ("my
# job as your friend"), a family or friendship role ("my job as a mom is exhausting").
_NOT_JOB_WORDS = frozenset(
    """
    end start beginning middle moment hour hours shift shifts time times day days night nights
    morning mornings evening evenings weekend weekends week weeks month months summer winter
    spring fall autumn season year years
    it this that these those you your his her their our my me them him us one ones someone
    mom mum mommy mother dad daddy father parent parents wife husband partner friend friends
    sister brother daughter son grandma grandpa grandmother grandfather aunt uncle girlfriend
    boyfriend family kid kids child children baby wifey hubby bestie
    """.split()  # noqa: SIM905 - a word list reads better as text
)


def _no_job(words: str) -> bool:
    """Whether the words a job frame captured name no workplace or trade (`_NOT_JOB_WORDS`)."""
    return any(word in _NOT_JOB_WORDS for word in words.split())


def _finding(
    rule: str,
    clause: Clause,
    at: int,
    text: str,
    tag: str,
    slot: str | None,
    captured: str | None = None,
) -> Finding:
    return Finding(
        rule,
        (clause.index, at),
        Category.CONTEXT,
        text,
        CONTEXT,
        tags=frozenset({tag}),
        slot=slot,
        priority=1 if slot else 0,
        presupposed=True,
        captured=captured,
    )


def own_practice(clause: Clause, memo: Memo) -> list[Finding]:
    """A practice in the speaker's own possessive: "my softball game was cancelled" -> also does
    softball, "my morning workouts" -> works out regularly."""
    if clause.remote_past or clause.hypothetical:
        return []  # "we should bring them to our dance class" is a suggestion
    text = clause.text
    if STOPPED.search(clause.context or text):
        return []  # "I stopped going to my yoga class", "my spin class anymore"
    found = []
    for match in _OWN_PRACTICE.finditer(text):
        if _DENIED_BEFORE.search(text[: match.start()]):
            continue  # "I never go to my yoga class": denied
        if match.group("team") and not _PLAYS.search(text):
            continue  # "my football team lost again": a team one supports
        plural = match.group("y")
        if plural == "workouts":
            text, tag = "works out regularly", "context:working out"
        else:
            value = _OWN_PLURAL.get(plural or "") or activity_named(match.group("x") or "")
            if value is None or value in sports.ENDURANCE:
                continue  # "my runs are 40 minutes": the primary sport needs a self-description
            text, tag = f"also does {value}", f"context:{value}"
        found.append(_finding("activity", clause, match.start(), text, tag, None))
    return found


def own_job(clause: Clause, memo: Memo) -> list[Finding]:
    """A job in the speaker's own possessive or a workplace in a relative clause: "my job at the
    bank", "my construction job", "the bar I work at" -> works at a bank, works in construction,
    works at a bar."""
    if clause.remote_past or clause.hypothetical or _GONE.search(clause.context or clause.text):
        return []
    text = clause.text
    mine = _MY_JOB.search(text)
    if mine and (_DENIED_BEFORE.search(text[: mine.start()]) or _no_job(mine.group(0)[7:])):
        return []  # "I don't have my job at the bank", "my job as a mom", "at the end"
    if mine and mine.group("place") and not NOT_PLACE.search(mine.group("place")):
        place = mine.group("place")
        said = mine.group("a") if mine.group("a") == "the" else indefinite(place)
        return [
            _finding(
                "job", clause, mine.start(), f"works at {said} {place}", "context:job", "job", place
            )
        ]
    if mine and mine.group("role"):
        role = mine.group("role")
        return [
            _finding(
                "job",
                clause,
                mine.start(),
                f"works as {indefinite(role)} {role}",
                "context:job",
                "job",
                role,
            )
        ]
    if mine and mine.group("field"):
        field = mine.group("field")
        return [_finding("job", clause, mine.start(), f"works in {field}", "context:job", "job")]
    business = _MY_BUSINESS.search(text)
    if business and _no_job(" ".join(w.rstrip("s") for w in business.group("b").split())):
        business = None  # "my husbands business" is his
    if business and not re.search(r"\b(?:mind|minding|none of)\b", text[: business.start()]):
        trade = f"{business.group('b')} {business.group('h')}"
        # "my convenience store job" is a workplace, "my candy shop" one's own
        verb = "works at" if business.group("job") else "owns"
        return [
            _finding(
                "job",
                clause,
                business.start(),
                f"{verb} {indefinite(trade)} {trade}",
                "context:job",
                "job",
                trade,
            )
        ]
    title = _MY_TITLE_THING.search(text)
    if title:
        name = title.group("t")
        return [
            _finding(
                "job",
                clause,
                title.start(),
                f"works as {indefinite(name)} {name}",
                "context:job",
                "job",
            )
        ]
    where = _RELATIVE.search(text)
    if where and not NOT_PLACE.search(where.group("place")) and not _no_job(where.group("place")):
        place = where.group("place")
        return [
            _finding(
                "job",
                clause,
                where.start(),
                f"works at {indefinite(place)} {place}",
                "context:job",
                "job",
                place,
            )
        ]
    return []


def grandchildren(clause: Clause, memo: Memo) -> list[Finding]:
    """Grandchildren: "my grandkids love cookies", "I have four grandchildren"."""
    if clause.remote_past or clause.hypothetical or clause.negated and "my" not in clause.text:
        return []
    match = _GRANDCHILDREN.search(clause.text)
    if match is None or (not match.group(0).startswith(("my", "our")) and not clause.asserts):
        return []
    return [
        _finding(
            "family", clause, match.start(), "has grandchildren", "context:grandchildren", None
        )
    ]


RULES = (own_practice, own_job, grandchildren)
