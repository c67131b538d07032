"""How much a single reading is believed: one reading enters below the prompt's 0.5, unless it is
a first-person, present-tense self-description whose predicate is durable.

The rules decide *what* a clause says; this decides how sure one clause can make the vault,
from the clause's grammar (`vault.extraction.clauses.Clause`), never from its words:

- the subject must be the speaker, named in the clause or earlier in its sentence ("I", "my",
  "we"); a clause with no subject at all ("Love running!") could be about anyone;
- the verb must be present tense: "I went on a run", "I just got a job", "I started yoga"
  tell an event, which the vault believes when it recurs (another session, another day);
- it must not be a one-off ("this morning"), nor set in the past, and a taste or a practice must
  not echo the other speaker ("Me too! I love running"; "Me too, I'm a welder" is still a job);
- the predicate must be durable: who the athlete is (job, family, diet, a condition), what
  they do and like, their level, a plan they are in. An injury is durable only when it is
  said to last ("for years", "keeps", "again", "chronic", "still"): a one-evening ache is not.

A possessive is the one exception to the subject: "my wife hates cooking" is about her, but
"my wife" takes for granted that the speaker has one, as a question or a denial about her does
("Should I tell my husband?", "my kids don't swim"). A finding read from the speaker's own
possessive (`Finding.presupposed`) is believed from one reading unless the clause is set in the
past or is a condition or its consequence ("back when my wife and I ...", "if I ever marry, my
husband will ..."): a presupposition survives a modal, a wish or a question ("maybe when my
boyfriend comes down", "I wish my children would visit more"); which possessives take nothing for granted ("my ex-wife", "my late husband", "like
my kids") is the rule's to say.

Everything else keeps its reading at `PASSING` (below the block); the merge lifts a fact into
the block only when it is read again on another day (`vault.domain.rules`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from vault.domain.vocabulary import Category
from vault.extraction.clauses import Clause
from vault.extraction.findings import Finding, Watching

PASSING = 0.45  # below the prompt; a reading on another day (+0.1) lifts it in

_DURABLE = frozenset(
    {
        Category.SPORT,
        Category.CONTEXT,
        Category.LEVEL,
        Category.PREFERENCE,
        Category.GOAL,
        Category.TIME_PREFERENCE,
        Category.DURATION,
        Category.TRAINING_RESPONSE,
    }
)
# An injury said to last: the only kind of injury one reading may believe (a bone broken now,
# "I have a broken arm", lasts weeks; "I broke my arm" is an event, past).
_LASTING = re.compile(
    r"\b(?:for (?:years|months|ages|a while|a long time|the past|the last)|always|chronic"
    r"|recurring|keeps?|kept|again|still|ongoing|on and off|since|every time|whenever|bad"
    r"|dodgy|weak|old|has been|have been|'ve been|broken|fractured|in a cast|in a sling)\b"
)
# What an echo of the other speaker may be said out of politeness: a taste, a practice, a slot
# (a race one trains for is one's own plan: "Me too! I'm training for a 5k").
_TASTES = frozenset(
    {
        Category.SPORT,
        Category.PREFERENCE,
        Category.LEVEL,
        Category.TIME_PREFERENCE,
        Category.DURATION,
        Category.TRAINING_RESPONSE,
    }
)
_PRACTICE = frozenset({Category.SPORT, Category.PREFERENCE, Category.CONTEXT})
_ALWAYS_BUSY = re.compile(
    r"\b(?:always|constantly|schedule|life|lifestyle|job|every (?:day|week)|all the time"
    r"|time[- ]poor|juggling|full[- ]time)\b"
)
# "I'm a history major in college": a present "I am" is now, whatever place it names.
_PRESENT_BE = re.compile(
    r"^(?:(?:but|and|so|though|well|yes|yeah|also|actually|now) )*(?:i'm|i am|we're|we are)\b"
)
# A finding that states a negation ("is not working", "dislikes treadmill") reads a negated
# clause on purpose.
_NEGATIVE_FACT = re.compile(r"\bnot\b|^dislikes\b|^doesn't\b|\bpoorly\b|\btrouble\b")


def _spectator(finding: Finding, clause: Clause) -> bool:
    """An activity the clause watches rather than does (`watched`: "watch" as a verb governing
    it; "I work at a watch dealer" watches nothing; a film watched in another clause of the
    sentence says nothing of the clause's job or activity)."""
    if finding.category not in _PRACTICE or (
        finding.category is Category.CONTEXT and finding.rule not in {"activity", "other_sport"}
    ):
        return False  # "I watch my diet", "a watch dealer": no activity is watched
    return Watching(clause.text).watched(finding.position[1])


def presupposed(finding: Finding, clause: Clause) -> bool:
    """True when the speaker's own possessive says it, now, whoever the clause is about."""
    return finding.presupposed and not (clause.conditional or clause.remote_past)


def self_description(finding: Finding, clause: Clause) -> bool:
    """True when `clause` describes the speaker, now, with a durable predicate."""
    if not (clause.asserts and clause.explicit_self):
        return False
    if clause.echo and finding.category in _TASTES:
        return False  # "Me too! I love swimming": politeness agrees in tastes, not in a job
    if clause.past or clause.future or clause.one_off:
        return False
    if _spectator(finding, clause):
        return False  # "I like to watch racing": a fan is not an athlete
    if clause.remote_past and not _PRESENT_BE.match(clause.text):
        return False
    if clause.negated and not _NEGATIVE_FACT.search(finding.text or ""):
        return False
    if finding.category is Category.INJURY:
        return bool(_LASTING.search(clause.context or clause.text))
    if finding.text == "busy schedule":  # "I've been busy lately" is a season, not a life
        return bool(_ALWAYS_BUSY.search(clause.context or clause.text))
    return finding.category in _DURABLE


def believed(finding: Finding, clause: Clause) -> Finding:
    """`finding` with the confidence one reading of `clause` can give it."""
    if finding.is_retraction or finding.confidence <= PASSING:
        return finding
    if self_description(finding, clause) or presupposed(finding, clause):
        return finding
    return replace(finding, confidence=PASSING)
