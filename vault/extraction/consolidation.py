"""Durable facts from many sessions: a note describes one session, a trait needs several.

Activity notes are recorded as episodes first; this module reads those sessions together and
proposes the facts they support, one candidate per supporting session, so each session becomes
one piece of the fact's evidence (its activity id, its time, its words):

- the endurance sport logged most (5+ sessions, at least twice the next) -> `primary sport`;
- a side activity logged in 5+ sessions (strength training, yoga, hiking) -> `also does <a>`;
- a body part that hurts in 3+ sessions on different days -> `has recurring <part> issue`,
  unless the newest note about it says it is fine;
- a race named ahead ("one month until 26.2", "taper for the Maine half", "NYC training")
  -> `goal: <race>` (the newest such note decides);
- 3+ sessions with others (a group, a club, a crew, "w/ ...") -> `likes group runs` when
  most of them are runs, `likes group rides` when most are rides, else `trains with a group`.

Pure and deterministic: the same sessions give the same candidates in the same order. The
caller drops candidates whose session is already evidence of the fact (idempotence).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from vault.domain.lexicon import sports
from vault.domain.models import FactIn
from vault.domain.vocabulary import Category, Source
from vault.extraction.clauses import normalise
from vault.extraction.lexicon import GOALS, compile_table, first_match
from vault.extraction.rules import RuleExtractor

EXTRACTOR = "consolidate:"
PRIMARY_MIN, SIDE_MIN, ISSUE_MIN, COMPANY_MIN = 5, 5, 3, 3
# Each supporting session reinforces (+0.1); three or more make the fact high (the M13 memory spec).
SESSION_CONFIDENCE = 0.6
EVIDENCE_PER_RUN = 20  # the newest supporting sessions cited per run; older ones are counted

_SPORT_TYPES = sports.ACTIVITY_TYPES
_ENDURANCE = sports.ENDURANCE
_SIDE = sports.SIDE
_GOAL_T = compile_table(GOALS)
_AHEAD = re.compile(
    r"\b(?:until|till|away|to go|ahead|taper(?:ing)?|training for|train for|build(?:ing)? (?:up )?"
    r"(?:to|for)|before|prep(?:aring)? for|race week|for (?:the )?[a-z]+ (?:half|marathon))\b"
    r"|\b[a-z]+ training\b"
)
_DONE = re.compile(r"\bofficial time\b|\bfinish(?:ed)?\b|\bspectat\w*|\b(?:pr|pb)\b|\bdnf\b")
_OTHERS_RACE = re.compile(r"\b(?:everyone|everybody|you all|y'all|brother|sister|friend)'?s?\b")
_MAJORS = re.compile(
    r"\b(?:nyc|new york|boston|chicago|berlin|london|tokyo|eugene|twin cities|marine corps"
    r"|philly|philadelphia|houston|grandma's|cim|big sur)\b(?! half)"
)
_HALF_NAMED = re.compile(r"\b[a-z]+ half\b")
_COMPANY = re.compile(
    r"\b(?:group|crew|club|team|pack of \d|company|together)\b|\bw/|\bwith (?!(?:my )?(?:watch"
    r"|phone|gps|music|headphones|the (?:rain|wind|heat|sun)))"
)
_NOT_COMPANY = re.compile(r"\bsolo\b|\balone\b")


@dataclass(frozen=True)
class Session:
    """One logged session as consolidation reads it: the activity id, when, its type, its words."""

    ref: str
    at: datetime
    sport: str | None
    text: str


def consolidate(sessions: Sequence[Session]) -> list[FactIn]:
    """The facts these sessions support, one candidate per supporting session."""
    ordered = sorted(sessions, key=lambda s: (s.at, s.ref))
    found: list[FactIn] = []
    found += _sports(ordered)
    found += _issues(ordered)
    found += _goal(ordered)
    found += _company(ordered)
    return found


def _kind(session: Session) -> str | None:
    return _SPORT_TYPES.get((session.sport or "").strip().lower())


def _cite(
    text: str,
    category: Category,
    rule: str,
    sessions: Sequence[Session],
    confidence: float = SESSION_CONFIDENCE,
    tags: frozenset[str] | None = None,
) -> list[FactIn]:
    return [
        FactIn(
            text=text,
            category=category,
            confidence=confidence,
            source=Source.PATTERN_ANALYSIS,
            source_ref=s.ref,
            extractor=EXTRACTOR + rule,
            observed_at=s.at,
            tags=tags,
            evidence=s.text[:500] or None,
        )
        for s in sessions[-EVIDENCE_PER_RUN:]
    ]


def _sports(sessions: Sequence[Session]) -> list[FactIn]:
    by_kind: dict[str, list[Session]] = defaultdict(list)
    for session in sessions:
        kind = _kind(session)
        if kind:
            by_kind[kind].append(session)
    found: list[FactIn] = []
    ranked = sorted(((len(v), k) for k, v in by_kind.items() if k in _ENDURANCE), reverse=True)
    if ranked:
        top_count, top = ranked[0]
        runner_up = ranked[1][0] if len(ranked) > 1 else 0
        if top_count >= PRIMARY_MIN and top_count >= 2 * runner_up:
            found += _cite(f"primary sport: {top}", Category.SPORT, "sport", by_kind[top])
    for kind in sorted(_SIDE):
        if len(by_kind[kind]) >= SIDE_MIN:
            found += _cite(
                f"also does {kind}",
                Category.CONTEXT,
                "activity",
                by_kind[kind],
                tags=frozenset({f"context:{kind}"}),
            )
    return found


def _issues(sessions: Sequence[Session]) -> list[FactIn]:
    reader = RuleExtractor()
    hurts: dict[str, list[Session]] = defaultdict(list)
    resolved_after: dict[str, datetime] = {}
    for session in sessions:
        for finding in reader.findings(session.text):
            if finding.category is not Category.INJURY:
                continue
            parts = finding.retract_tags if finding.is_retraction else (finding.tags or frozenset())
            for tag in parts:
                if not tag.startswith("body:"):
                    continue
                part = tag.partition(":")[2]
                if finding.is_retraction:
                    resolved_after[part] = session.at
                elif not hurts[part] or hurts[part][-1].at.date() != session.at.date():
                    hurts[part].append(session)
    found: list[FactIn] = []
    for part in sorted(hurts):
        cited = hurts[part]
        if len(cited) < ISSUE_MIN or resolved_after.get(part, cited[0].at) > cited[-1].at:
            continue
        found += _cite(
            f"has recurring {part} issue",
            Category.INJURY,
            "issue",
            cited,
            tags=frozenset({f"body:{part}"}),
        )
    return found


def _race_ahead(text: str) -> str | None:
    """The race a note names as ahead ("one month until 26.2"), or None."""
    words = normalise(text)
    if not _AHEAD.search(words) or _DONE.search(words) or _OTHERS_RACE.search(words):
        return None
    if _HALF_NAMED.search(words) and not re.search(r"\bhalf (?:before|marathon)\b", words):
        return "half marathon"
    named = first_match(_GOAL_T, words)
    if named in {"marathon", "half marathon", "ultra", "ironman", "half ironman"}:
        return named
    return "marathon" if _MAJORS.search(words) else None


def _goal(sessions: Sequence[Session]) -> list[FactIn]:
    ahead = [(s, race) for s in sessions if (race := _race_ahead(s.text))]
    if not ahead:
        return []
    newest = ahead[-1][1]
    cited = [s for s, race in ahead if race == newest]
    return _cite(f"goal: {newest}", Category.GOAL, "goal", cited)


def _company(sessions: Sequence[Session]) -> list[FactIn]:
    social = [
        s
        for s in sessions
        if _COMPANY.search(normalise(s.text)) and not _NOT_COMPANY.search(normalise(s.text))
    ]
    if len(social) < COMPANY_MIN:
        return []
    text, topic = _in_company(social)
    return _cite(text, Category.PREFERENCE, "company", social, tags=frozenset({topic}))


_GROUP_SESSIONS = {"running": "group runs", "cycling": "group rides"}


def _in_company(social: Sequence[Session]) -> tuple[str, str]:
    """What the sessions with others were: the fact names the kind most of them share."""
    kind, count = Counter(_kind(s) for s in social).most_common(1)[0]
    sessions = _GROUP_SESSIONS.get(kind or "")
    if sessions is None or count * 2 <= len(social):
        return "trains with a group", "topic:group training"
    return f"likes {sessions}", f"topic:{sessions}"


def sessions_by_kind(sessions: Sequence[Session]) -> Counter[str]:
    """How many sessions of each kind (running, strength training, ...): for reports."""
    return Counter(kind for s in sessions if (kind := _kind(s)))
