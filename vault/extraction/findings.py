"""What a rule found in one clause, how findings about the same slot are reconciled, and how
the survivors become vault candidates with their provenance."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from vault.domain.errors import InvalidInput
from vault.domain.limits import EVIDENCE_MAX
from vault.domain.models import Candidate, FactIn, Retraction
from vault.domain.vocabulary import Category, Source

EXTRACTOR_PREFIX = "rules:"


@dataclass(frozen=True)
class Finding:
    """A fact or a retraction one rule read in one clause.

    `slot` names what the finding is about ("primary sport", "body:knee"); one message yields
    at most one finding per slot. `priority` ranks rivals for a slot ("I switched to cycling"
    beats "I run"); `position` is (clause index, offset in the clause).
    """

    rule: str
    position: tuple[int, int]
    category: Category
    text: str | None = None
    confidence: float = 0.7
    tags: frozenset[str] | None = None
    retract_key: str | None = None
    retract_tags: frozenset[str] = frozenset()
    slot: str | None = None
    priority: int = 0
    words: str | None = None  # the clause it was read in: the fact's evidence
    # read from the speaker's own possessive ("my wife", "our kids"): what the phrase takes for
    # granted holds whoever the clause is about ("my wife hates cooking" says I have a wife)
    presupposed: bool = False
    # the speaker's own words the rule copied into `text` ("allergic to <x>", "my job as <x>"):
    # checked in one place for a person's name before the finding counts (`RuleExtractor`)
    captured: str | None = None

    @property
    def is_retraction(self) -> bool:
        """True when the finding archives a fact instead of stating one."""
        return self.text is None


@dataclass
class Memo:
    """What earlier clauses of the same message tell later ones ("... but it's fine now")."""

    body_parts: list[tuple[str, str | None]] = field(default_factory=list)
    sentence: int = -1
    sentence_parts: list[tuple[str, str | None]] = field(default_factory=list)
    strength_sentence: int = -1  # the sentence that named strength work ("squats, glutes on fire")
    liking_sentence: int = -1
    liking: str | None = None  # "likes"/"dislikes" while a list of liked things runs on
    watching: bool = False  # that list is of things watched ("I love watching golf, tennis, ...")
    about_training: bool = False  # an earlier clause of the message talked about training
    message: str = ""  # the whole message, normalised: whom "the kids" are, said by a teacher

    def saw_parts(self, sentence: int, parts: list[tuple[str, str | None]]) -> None:
        """Remember the athlete's body parts named in a clause of `sentence`."""
        if sentence != self.sentence:
            self.sentence, self.sentence_parts = sentence, []
        if parts:
            self.body_parts = list(parts)
            self.sentence_parts = list(parts)

    def parts_in(self, sentence: int) -> list[tuple[str, str | None]]:
        """Body parts named earlier in the same sentence."""
        return self.sentence_parts if sentence == self.sentence else []


def reconcile(findings: Sequence[Finding]) -> list[Finding]:
    """One finding per slot and one per fact text, in the order they were read.

    A conflict-key slot keeps its highest-priority finding (the earliest on a tie): "I'm a
    cyclist but switching to triathlon" keeps triathlon. A body-part slot keeps what was said
    last ("it hurt last week but it's fine now" resolves), preferring the more specific fact.
    """
    winners: dict[str, Finding] = {}
    for finding in findings:
        if finding.slot is None:
            continue
        best = winners.get(finding.slot)
        if best is None or _beats(finding, best):
            winners[finding.slot] = finding
    kept: list[Finding] = []
    seen_texts: set[str] = set()
    for finding in sorted(findings, key=lambda f: f.position):
        if finding.slot is not None and winners[finding.slot] is not finding:
            continue
        if finding.text is not None:
            if finding.text in seen_texts:
                continue
            seen_texts.add(finding.text)
        kept.append(finding)
    liked = {f.text.removeprefix("likes ") for f in kept if f.text and f.text.startswith("likes ")}
    liked |= {  # "started running 6 weeks ago" is the primary sport, not a side activity
        f.text.removeprefix("primary sport: ")
        for f in kept
        if f.text and f.text.startswith("primary sport: ")
    }
    # one fact per activity: "I do yoga. I love yoga." is `likes yoga`, not two facts
    return [
        f
        for f in kept
        if not (
            f.text
            and f.text.removeprefix("also does ") in liked
            and f.text.startswith("also does ")
        )
    ]


def _beats(new: Finding, old: Finding) -> bool:
    if new.slot and new.slot.startswith("body:"):
        if new.is_retraction != old.is_retraction:
            return new.position > old.position
        return new.priority > old.priority or (
            new.priority == old.priority and new.position > old.position
        )
    return new.priority > old.priority


def to_candidates(
    findings: Iterable[Finding],
    *,
    source: Source,
    source_ref: str | None,
    observed_at: datetime | None,
) -> list[Candidate]:
    """FactIn / Retraction models stamped with source, reference, time and `rules:<rule>`."""
    candidates: list[Candidate] = []
    for finding in findings:
        extractor = EXTRACTOR_PREFIX + finding.rule
        if finding.text is None:
            candidates.append(
                Retraction(
                    conflict_key=finding.retract_key,
                    category=None if finding.retract_key else finding.category,
                    tags=finding.retract_tags,
                    observed_at=observed_at,
                    extractor=extractor,
                )
            )
        else:
            fact = _fact(finding, finding.text, source, source_ref, extractor, observed_at)
            if fact is not None:
                candidates.append(fact)
    return candidates


def _fact(
    finding: Finding,
    text: str,
    source: Source,
    source_ref: str | None,
    extractor: str,
    observed_at: datetime | None,
) -> FactIn | None:
    """The finding as a `FactIn`, or None when what it captured breaks a limit of the vault
    ("I'm allergic to " and 250 letters): a reading the vault cannot hold is not stored, and a
    message never fails because of one (precision first: a missing fact costs less)."""
    try:
        return FactIn(
            text=text,
            category=finding.category,
            confidence=finding.confidence,
            tags=finding.tags,
            source=source,
            source_ref=source_ref,
            extractor=extractor,
            observed_at=observed_at,
            evidence=finding.words[:EVIDENCE_MAX] if finding.words else None,
        )
    except InvalidInput:
        return None


GIVEN_UP = re.compile(r"\b(?:ex|former|retired|one-time|onetime|lapsed|used to be)\b")
"""Words before a doer that say it was given up: "a retired runner", "a former skier"."""


_SPECTATOR = re.compile(r"\bwatch(?:es|ed|ing)?\b|\bfans?\b|\bon (?:tv|television)\b|\bspectat")
# "Watch" after a determiner is a thing worn on the wrist ("a watch dealer", "my new watch").
_WATCH_NOUN = re.compile(
    r"\b(?:a|an|the|my|your|his|her|our|their|this|that|smart|new|old) (?:\w+ )?watch(?:es)?\b"
)
# A list item or a clause that brings its own verb of doing ends what "watch" governs:
# "I like to watch movies, read, and go for walks" walks.
_OWN_VERB = re.compile(
    r"(?:,|\band\b|\bor\b|\bbut\b|\bwhile\b|\bwhen\b|\bthen\b)\s+(?:also |then |i |to )*"
    r"(?P<v>go|goes|going|play|plays|playing|do|does|doing|practi[cs]e|practi[cs]ing|take|taking"
    r"|hit|hitting)\b"
)
_ITEM_END = re.compile(r",|\b(?:and|or|but|while|when|because|so)\b")
_LEAD_ROOM = 12  # an item's own verb may follow its start by a few words ("and also go")


# What is watched when it is not sport: screens and stories ("watching movies, hiking, and
# swimming" watches the films only). Any other thing watched may be a sport ("darts, snooker,
# and cycling"), so the list runs on.
_WATCHED_MEDIA = re.compile(
    r"\s*(?:(?:to|the|a|some|all|my|lots of|kinds of|all kinds of|old|new|good|scary|horror"
    r"|funny|cooking|reality|war|nature|true crime|crime|sci-fi|action|romantic|foreign) )*"
    r"(?:movies?|films?|tv|television|shows?|series|documentar(?:y|ies)|videos?|youtube|netflix"
    r"|anime|cartoons?|the news|news|sunsets?|sunrises?|birds?|people|plays?|musicals?|operas?"
    r"|concerts?|sitcoms?|dramas?|soaps?|streams?|twitch|the stars|stars|clouds|the kids|kids)\b"
)


class Watching:
    """Which activities a text watches rather than does. Read once per text, asked per offset:
    a spectator word ("watch", "fan", "on TV", "spectating") governs the item it is in ("I
    like football on TV", "I'm a football fan"), and unless what it watches is a screen or a
    story (`_WATCHED_MEDIA`), the items after it up to one with its own verb of doing ("I love
    watching golf, tennis, and swimming"; "I like to watch films, cook, and go for walks"
    walks)."""

    def __init__(self, text: str) -> None:
        plain = _WATCH_NOUN.sub(lambda m: " " * len(m.group(0)), text)
        self._spectators = [(m.start(), m.end()) for m in _SPECTATOR.finditer(plain)]
        self._sport_lists = {
            start for start, end in self._spectators if not _WATCHED_MEDIA.match(plain, end)
        }
        self._verbs = [m.start("v") for m in _OWN_VERB.finditer(plain)] if self._spectators else []
        self._ends = [m.start() for m in _ITEM_END.finditer(plain)] if self._spectators else []

    def runs_on(self) -> bool:
        """Whether a watched list of sport is still open at the end of the text (the next
        clause of the sentence goes on with it: "I love watching golf, tennis, ...")."""
        if not self._spectators:
            return False
        start, end = self._spectators[-1]
        return start in self._sport_lists and bisect_right(self._verbs, end) == len(self._verbs)

    def watched(self, at: int) -> bool:
        """Whether the activity named at offset `at` is watched."""
        if not self._spectators:
            return False
        last = bisect_right(self._spectators, (at, at)) - 1
        if last >= 0:
            start, governs_from = self._spectators[last]
            first_end = bisect_right(self._ends, governs_from)
            in_its_item = first_end == len(self._ends) or at < self._ends[first_end]
            verb = bisect_right(self._verbs, governs_from)
            unbroken = verb == len(self._verbs) or self._verbs[verb] > at + _LEAD_ROOM
            if unbroken and (in_its_item or start in self._sport_lists):
                return True
        end_index = bisect_right(self._ends, at)
        end = self._ends[end_index] if end_index < len(self._ends) else None
        after = bisect_right(self._spectators, (at, at))
        return after < len(self._spectators) and (end is None or self._spectators[after][0] < end)
