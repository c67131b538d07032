"""`RuleExtractor`: the default, offline extractor built from the design documents' pattern tables.

It covers the union of the engine guide's category table (sport 0.8, time preference 0.7, typical
duration 0.6, injury 0.9, lifestyle 0.7, goal 0.8) and the M13 spec's extraction patterns
(injury history, preferences, context, training response), plus level, likes/dislikes and
recovery. Every text it produces is canonical ("primary sport: running", "prefers morning
sessions", "has recurring knee issue"), so repeated statements reinforce one fact and changed
ones replace it through the conflict keys of `vault.domain.text.conflict_key_of`.

The text is read clause by clause (`vault.extraction.clauses`), so questions, hypotheticals,
other people, negations and the remote past do not become facts about the athlete, and the
statements that resolve a fact become `Retraction`s: "my knee is fine now" retracts injury
facts tagged `body:knee`; "I don't run anymore" retracts the `primary sport` slot, whatever
sport is stored (the extractor cannot see the database; a message that also names a new sport,
"I stopped running and cycle now", yields only the new sport, which supersedes the old).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from vault.domain.models import Candidate
from vault.domain.vocabulary import Source
from vault.extraction import (
    body_rules,
    exercise_rules,
    health_rules,
    kind_rules,
    life_rules,
    possessive_rules,
    profile_rules,
    schedule_rules,
    work_rules,
)
from vault.extraction.belief import believed
from vault.extraction.clauses import JOKE, Clause, normalise, split_clauses
from vault.extraction.findings import Finding, Memo, reconcile, to_candidates
from vault.extraction.pii import captures_a_name
from vault.extraction.privacy import scrub

Rule = Callable[[Clause, Memo], list[Finding]]

DEFAULT_RULES: tuple[Rule, ...] = (
    *profile_rules.RULES,
    *schedule_rules.RULES,
    *body_rules.RULES,
    *life_rules.RULES,
    *exercise_rules.RULES,
    *health_rules.RULES,
    *kind_rules.RULES,
    *work_rules.RULES,
    *possessive_rules.RULES,
)
# Characters read per call; longer input is cut. The rules are linear, this bounds the time.
MAX_TEXT = 20_000


def _refused(captured: str, clause: Clause) -> bool:
    """Whether a frame's copied words may not become a fact: they name someone, or the clause
    is a joke ("I work as a slave for my boss lol")."""
    return captures_a_name(captured, clause.raw) or bool(JOKE.search(clause.text))


class RuleExtractor:
    """Regex rules per clause, reconciled per slot, scrubbed of personal data."""

    name = "rules"

    def __init__(self, rules: Sequence[Rule] = DEFAULT_RULES) -> None:
        self.rules = tuple(rules)

    def findings(self, text: str) -> list[Finding]:
        """What the rules read in `text`, one finding per slot (for tests and debugging)."""
        memo = Memo(message=normalise(text[:MAX_TEXT]))
        found: list[Finding] = []
        for clause in split_clauses(text[:MAX_TEXT]):
            for rule in self.rules:
                found.extend(
                    believed(replace(f, words=clause.raw), clause)
                    for f in rule(clause, memo)
                    if not (f.captured and _refused(f.captured, clause))
                )
        return reconcile(found)

    def extract(
        self,
        text: str,
        *,
        source: Source,
        source_ref: str | None = None,
        observed_at: datetime | None = None,
    ) -> list[Candidate]:
        """Facts and retractions in `text`, stamped `rules:<rule>` with the given provenance."""
        candidates = to_candidates(
            self.findings(text), source=source, source_ref=source_ref, observed_at=observed_at
        )
        return scrub(candidates)
