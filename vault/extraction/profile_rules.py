"""Rules for who the athlete is: the engine guide's primary sport, goal and level slots.

Each rule reads one clause and returns findings whose text is the canonical slot wording
("primary sport: running", "goal: half marathon", "level: beginner"), so
`vault.domain.text.conflict_key_of` recognises them and a newer value replaces an older one.
"""

from __future__ import annotations

import re

from vault.domain.lexicon.jobs import ENTERPRISES
from vault.domain.vocabulary import Category
from vault.extraction.clauses import Clause
from vault.extraction.findings import GIVEN_UP, Finding, Memo
from vault.extraction.lexicon import (
    ADVERBS_RX,
    GOALS,
    SPORT_AGENTS,
    SPORT_GERUNDS,
    SPORT_VERBS,
    VERB_RX,
    all_matches,
    alternation,
    compile_table,
    first_match,
)

SPORT, GOAL, LEVEL = 0.8, 0.8, 0.7  # the engine guide's confidences (level: ours)
PASSING = 0.45  # a slot read without an explicit statement: below the prompt until repeated

_AGENT_T, _GERUND_T = compile_table(SPORT_AGENTS), compile_table(SPORT_GERUNDS)
_VERB_T, _GOAL_T = compile_table(SPORT_VERBS), compile_table(GOALS)
_VERB, _ADVERBS = VERB_RX, ADVERBS_RX
_GERUND = alternation(SPORT_GERUNDS)
_AGENT = alternation(SPORT_AGENTS)
_NOT_SPORT = (
    r"(?! (?:to work|in to work|into|out\b|late|errands|over|away|low|short|behind|things|through"
    # "run around" with no route or measure moves about ("run around streaking"); "jog around
    # the neighborhood" and "run about 50 minutes" are runs
    r"|(?:around|about)(?! (?:\d|an? |the|my|our|this|town|half|one|two|three|four|five|six"
    r"|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty))"
    # a pronoun object is ridden or run by some other sense ("I ride them": horses)
    r"|activities|events|it\b|them\b|him\b|her\b|(?:a|an|my|our|the|all kinds of) (?:\w+ )?"
    rf"(?:{'|'.join(ENTERPRISES)}|motorbike|motorcycle|bus|train|car|scooter|horses?"
    r"|dog \w+)\b|my own|horses?|motor\w*))"
)
_SPORT_EXPLICIT = re.compile(
    rf"\b(?:i'm|i am|as|myself) (?:more of |kind of |sort of |mostly |mainly )?(?:a "
    rf"|an )?(?:\w+ ){{0,2}}?({_AGENT})\b"
    rf"|^({_AGENT}) here\b|\b({_GERUND})(?:'s| is) (?:my|the) (?:main |primary |first "
    rf"|favou?rite |number one )?(?:sport|thing|passion|jam|focus|life|everything|world)"
    rf"|\bmy (?:main |primary |own )?sport is (?:\w+ )?({_GERUND})|\bi'm (?:mainly |mostly |really "
    rf"|more )?(?:into|focused on) ({_GERUND})"
)
# The gerund list appears twice, not five times: the four ways to lead into "<gerund>\b" are
# one alternation in front of it (no two of them can start where another does, so the same
# text matches; the list spelled out five times took ~65 ms to compile at import).
_SPORT_HABIT = re.compile(
    rf"(?:\b(?:i|we) {_ADVERBS}go |(?:^|\bi've |\bi have |\bwe've |\bonly |\bjust )been "
    rf"|\b(?:started|took up|taken up|getting into|got into|new to) "
    rf"|\b(?:got|get|getting) me into )({_GERUND})\b"
    rf"|\b(?:i|we|and) {_ADVERBS}({_VERB})s?\b{_NOT_SPORT}"
    rf"|^({_GERUND}) (?:only |mostly |exclusively )?(?:now|these days)\b"
    rf"|\b(?:i|we) (?:do|race|compete in) (triathlons?|tri)\b"
    r"|\bon (?:my|the) (bike) (?:most days|every day|daily|a lot|\d+ (?:times|days))"
)
_LIKES_TO = re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys) to\b")
_SPORT_SWITCH = re.compile(
    rf"\b(?:switch|mov|chang|transition|convert)(?:ed|ing|e)? (?:over )?(?:from \w+ )?to"
    rf" (?:pure |full[- ]time |just |only |mostly )?({_GERUND})\b"
)
_SPORT_STOP = re.compile(
    rf"\b(?:don't|do not|doesn't|never|not) (?:really )?(?:{_VERB}|{_GERUND})\w* (?:any ?more)\b"
    rf"|\bno longer (?:{_VERB}|{_GERUND})|\b(?:stopped|quit|quitting|gave up|given up"
    rf"|giving up) (?:the )?({_GERUND}|bike|pool)\b"
)

_MONTHS = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)"
)
_GOAL_TRIGGER = re.compile(
    r"\btraining (?:\w+ ){0,4}?for|\btrain for|\bqualify|\bbq\b|\bbooked|\bprep(?:aring"
    r"|ping)? for|\bbuilding (?:up )?(?:to|for|towards)"
    r"|\bsign(?:ed)? up|\bregistered|\bentered|\bentry\b|\b(?:doing|racing|running) (?:the|a|an"
    r"|my)\b"
    r"|\btarget|\baim(?:ing)? (?:for|at|to)|\bgoal|\bmy (?:\w+ )?race\b|\bnext (?:up|race)"
    r"|\bwant to|\bgoing (?:to|for)|\bplan(?:ning)? to|\bhop(?:e|ing) to|\bwould like to"
    r"|\b(?:i'd|would) (?:like|love) to|\bmy first\b|\btaper|\bin \d+ (?:weeks?|days?|months?)"
    r"|\b(?:this|next) (?:year|spring|summer|autumn|fall|winter|weekend|month)"
    r"|\bin (?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december)"
    r"|\bget faster at|\bpb at|\bpr at|\bsub[- ]?\d"
    r"|\b\d+ (?:weeks?|days?|months?) (?:out|away|to go)\b|\bgoal pace\b"
    r"|\b(?:\d+|one|two|three|four|five|six|a few|a couple of) more (?:\w+ ){0,2}?(?:runs?|rides?"
    r"|weeks?|sessions?|workouts?)\b"
    rf"|\bon (?:the )?\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{_MONTHS}|\bon {_MONTHS} \d"
)
# A plan for a race, said in so many words; a date or "my first" alone is weaker evidence.
_COMMITTED = re.compile(
    r"\btraining (?:\w+ ){0,4}?for|\btrain for|\bqualify|\bbq\b|\bbooked|\bprep(?:aring|ping)?"
    r" for|\bbuilding (?:up )?(?:to|for|towards)|\bsign(?:ed)? up|\bregistered|\bentered|\bentry\b"
    r"|\b(?:doing|racing|running) (?:the|a|an|my)\b|\btarget|\baim(?:ing)? (?:for|at|to)|\bgoal"
    r"|\bmy (?:\w+ )?race\b|\bnext (?:up|race)|\btaper|\bgoal pace\b|\bbefore\b"
)
# "Finally crossed the 100 mile mark": a milestone reached, not a race ahead.
_MILESTONE = re.compile(r"\bmark\b|\bmilestone\b|\bcross(?:ed|ing)\b|\bhit\b|\breached\b")
# "100 miles in March", "50k this week": a volume, not a race.
_VOLUME_AFTER = re.compile(
    rf"^(?: of \w+| \w+)? (?:in|this|per|a|last|every|that) (?:week|month|year|{_MONTHS})\b"
    r"|^ (?:week|month|year|weeks|months)\b"
)
_WATCHING = re.compile(r"\b(?:watch\w*|binge\w*|tv|episodes?|series|movies?|films?)\b")
_GOAL_PAST = re.compile(
    r"\b(?:ran|did|finished|completed|raced|was|were|had|since|after)\b|\blast (?:week|weekend"
    r"|month|sunday|saturday|time)\b"
)

_BEGINNER = re.compile(
    rf"\b(?:beginner|novice|newbie)\b|\bnew to (?:{_GERUND}|the sport|(?:all )?this|it|endurance"
    rf"|sport)"
    rf"|\b(?:just|only|recently) (?:started|took up|getting into|got into) (?:{_GERUND})"
    r"|\bc25k\b|\bcouch to 5k|\bfirst (?:year|season) (?:of )?\w+"
    rf"|\bstarted (?:{_GERUND}) (?:\d+|a few|a couple of|two|three|four|five|six) (?:weeks"
    rf"|months) ago"
)
_INTERMEDIATE = re.compile(r"\bintermediate\b")
_ADVANCED = re.compile(
    r"\b(?:advanced|experienced|seasoned|elite)\b|(?<!retired )(?<!former )\bolympian\b"
    r"|(?<!retired )(?<!former )\b(?:olympic|professional|pro) (?:athlete|runner|cyclist"
    r"|swimmer|triathlete)\b|\bcompetitive (?:runner|cyclist|swimmer"
    r"|triathlete|athlete|rower)"
)


_SELF_LEVEL = re.compile(
    r"\b(?:i'm|i am|i'd say i'm|i consider myself|i'd call myself|myself|as an?|i'm still|still"
    r" an?)\b"
)
# A self-description with the subject left out: "pretty experienced", "total newbie here".
_BARE_LEVEL = re.compile(
    r"^(?:(?:pretty|very|fairly|quite|really|total|complete|absolute|relatively|an?|bit of an?"
    r"|still|definitely)\s+)*(?:beginner|novice|newbie|intermediate|advanced|experienced|seasoned"
    r"|elite|competitive)\b"
)
_BEGINNER_PHRASE = re.compile(
    rf"\bnew to\b|\b(?:just|only|recently) (?:started|took up|getting into|got into)"
    rf"|\bc25k\b|\bcouch to 5k|\bfirst (?:year|season)|\bstarted (?:{_GERUND}) \S+ \S+ ago"
)


def _agent_or_gerund(text: str) -> str | None:
    return first_match(_AGENT_T, text) or first_match(_GERUND_T, text)


def sport(clause: Clause, memo: Memo) -> list[Finding]:
    """Primary sport from "I run most mornings", "I'm a cyclist", "switched to cycling".

    "I don't run anymore" retracts the primary-sport slot instead.
    """
    if clause.question or clause.hypothetical or clause.subject.value != "self":
        return []
    text = clause.text
    found = []
    stop = _SPORT_STOP.search(text)
    if stop:
        found.append(
            Finding(
                "sport_stopped",
                (clause.index, stop.start()),
                Category.SPORT,
                retract_key="primary sport",
                slot="primary sport",
                priority=-1,
            )
        )
        text = text[: stop.start()] + " " * (stop.end() - stop.start()) + text[stop.end() :]
    elif clause.negated or clause.remote_past:
        return []
    for pattern, priority in ((_SPORT_SWITCH, 3), (_SPORT_EXPLICIT, 2), (_SPORT_HABIT, 1)):
        match = pattern.search(text)
        if match is None:
            continue
        if pattern is _SPORT_HABIT and re.search(r"\balso\b", text[: match.end()]):
            return found
        if pattern is _SPORT_HABIT and _LIKES_TO.search(text[: match.start()]):
            return found  # "I like to lift weights and run" is a taste (exercise rules)
        if pattern is _SPORT_EXPLICIT and GIVEN_UP.search(match.group(0)):
            return found  # "I'm a retired runner": a sport given up
        word = next(g for g in match.groups() if g)
        value = first_match(_VERB_T, word) if re.fullmatch(_VERB, word) else _agent_or_gerund(word)
        if value is None:
            return found
        if priority == 1 and re.search(r"\bnow\b|\bthese days\b|\bnowadays\b", text):
            priority = 3
        return found + [
            Finding(
                "sport",
                (clause.index, match.start()),
                Category.SPORT,
                f"primary sport: {value}",
                SPORT,
                slot="primary sport",
                priority=priority,
            )
        ]
    return found


def goal(clause: Clause, memo: Memo) -> list[Finding]:
    """Race goal from "training for a half", "marathon in 12 weeks"; never a race already run."""
    text = clause.text
    if not clause.asserts or clause.negated or clause.remote_past or _GOAL_PAST.search(text):
        return []
    if _SPORT_SWITCH.search(text):
        return []  # "switching to triathlon this year" changes the sport, it is not a race
    if _WATCHING.search(text):
        return []  # "I'm going to watch the Office marathon"
    trigger = _GOAL_TRIGGER.search(text)
    race = next(
        (
            (match, value)
            for match, value in all_matches(_GOAL_T, text)
            if not (
                match.group(0)[:1].isdigit()
                and _VOLUME_AFTER.match(text[match.end() : match.end() + 30])
            )
        ),
        None,
    )
    if trigger is None or race is None or _MILESTONE.search(text):
        return []
    return [
        Finding(
            "goal",
            (clause.index, race[0].start()),
            Category.GOAL,
            f"goal: {race[1]}",
            GOAL if _COMMITTED.search(text) else PASSING,
            slot="goal",
        )
    ]


def level(clause: Clause, memo: Memo) -> list[Finding]:
    """Level: "I'm a complete beginner", "new to triathlon", "fairly advanced" -> level: <word>."""
    if not clause.asserts or clause.negated or clause.remote_past:
        return []
    found = [
        (m.start(), word)
        for word, pattern in (
            ("beginner", _BEGINNER),
            ("intermediate", _INTERMEDIATE),
            ("advanced", _ADVANCED),
        )
        for m in [pattern.search(clause.text)]
        if m
    ]
    if len(found) != 1:
        return []
    start, word = found[0]
    if not (
        _SELF_LEVEL.search(clause.text[:start])
        or _BEGINNER_PHRASE.search(clause.text)
        or _BARE_LEVEL.match(clause.text)
        or clause.text.endswith(" here")
    ):
        return []  # "just advanced to the next level" (a game) describes no one's level
    return [
        Finding(
            "level", (clause.index, start), Category.LEVEL, f"level: {word}", LEVEL, slot="level"
        )
    ]


RULES = (sport, goal, level)
