"""Work told by the shape of the clause, beyond the title list (issue 28).

The job rule (`vault.extraction.life_rules.job`) knows a closed list of titles and workplaces.
People also say where they work, for whom, what they teach or own, and the field they are in,
with words no list holds. Each rule here is one frame of a first-person, present-tense clause:

- a workplace after "I work at / in" with an article or a name: "I work at a candy shop",
  "I work at Joe's Diner" -> `works at a candy shop`, `works at joe's diner`;
- an employer after "I work for": "I work for a construction company" -> `works for a
  construction company` (not "for a living", "for a while", "for free");
- a field after "I'm in": "I'm in insurance" -> `works in insurance`;
- teaching or coaching as what one does: "I teach third grade" -> `teaches third grade`;
- a business of one's own: "I own a plumbing business" -> `owns a plumbing business`, "I run
  a small business" -> `runs a small business`; one managed: "I manage a convenience store"
  -> `works as a convenience store manager`;
- what one does "for a living": "I walk dogs for a living", "I drive trucks for a living" ->
  `works as a dog walker`, `works as a truck driver` (the English compound of the object and
  the verb's agent noun, kept only when the job vocabulary knows it or its doer);
- a role word with its workplace: "I'm a supervisor at a warehouse" -> `works as a supervisor`
  ("a shift worker at the airport" says when, not what: the schedule rule's `works shifts`).

Adverbs may sit between the subject and the verb ("I also work at ...", "I'm actually in ...").
Every frame needs the speaker as subject and the present tense; a job that ended ("I used to
work at ...", "I quit my job at ...") is none, and belief (`vault.extraction.belief`) keeps a
plan or an event below the block.
"""

from __future__ import annotations

import re

from vault.domain.lexicon.jobs import ENTERPRISES, FIELDS_OF_WORK, JOB_TITLES, WORKPLACES
from vault.extraction.clauses import Clause
from vault.extraction.exercise_rules import activity_named
from vault.extraction.findings import Finding, Memo
from vault.extraction.life_rules import job_finding
from vault.extraction.pii import names_a_person
from vault.extraction.words import indefinite

# Adverbs between the subject and what it does: "I also work", "I'm actually in".
ADVERBS = (
    r"(?:(?:also|actually|currently|now|still|just|really|finally|even|only|mainly|mostly"
    r"|usually|part[- ]time|full[- ]time|officially|happily|proudly) )*"
)
_I = r"\bi (?:" + ADVERBS + r")"
_IM = r"\b(?:i'm|i am) " + ADVERBS
# Words that end a noun phrase: a preposition, a conjunction, a pronoun.
_STOP = (
    r"(?:at|in|on|for|from|to|with|and|but|or|so|because|since|as|while|where|which|who|that"
    r"|when|near|by|of|i|i'm|we|it|my|you|now|right|there|here|every|all|most|during|after"
    r"|before|until|today|tonight|tomorrow|again|too|though)"
)
_NP = rf"(?P<np>(?:(?!{_STOP}\b)[a-z][a-z'&-]*)(?: (?!{_STOP}\b)[a-z][a-z'&-]*){{0,3}})"
# What follows "work at / in / for a ..." without being a place or an employer.
NOT_PLACE = re.compile(
    r"^(?:\w+ )*?(?:pace|rate|level|time|times|moment|minute|while|bit|lot|way|manner|hurry"
    r"|rush|pinch|row|team|group|pair|sense|day|days|week|weeks|night|nights|weekend|living"
    r"|change|difference|home|distance|job|jobs|role|position|capacity|place|industry|field"
    r"|area|business|sector)$"
    r"|^office$|^(?:few|couple|little|long|good|great|bad|better|best|new|same|different|lot|number)\b"
)
_AT = re.compile(
    rf"{_I}work(?:s|ing)? (?:part[- ]time |full[- ]time )?(?P<p>at|in) (?P<a>a|an|the|\w+'s) {_NP}"
)
_AT_NAME = re.compile(
    r"\b[Ii] (?:" + ADVERBS + r")work (?:at|for) (?P<name>[A-Z][\w'&-]*(?: [A-Z][\w'&-]*){0,2})"
)
_FOR = re.compile(rf"{_I}work(?:s|ing)? for (?P<a>a|an|the|my) {_NP}")
_NOT_EMPLOYER = re.compile(
    r"^(?:living|while|change|bit|free|money|fun|cause|charity|few|couple|hour|hours|minute"
    r"|minutes|day|days|week|weeks|weekend|month|months|year|years)\b"
)
FIELDS = "|".join(FIELDS_OF_WORK)
"""The fields a person works in, as a regex alternation ("I'm in retail", "my construction job")."""
_FIELD = re.compile(
    rf"{_IM}in (?P<d>{FIELDS}|the (?:army|navy|air force|military|marines|police"
    r"|coast guard|national guard))\b(?! (?:school|class|classes|college|degree|program))"
    # "I work construction", "I work retail": the field as the verb's object
    rf"|{_I}work (?P<w>{FIELDS})\b(?! (?:school|class|classes|college|degree|program|out))"
)
_TEACH = re.compile(
    rf"{_I}(?P<v>teach|coach)(?:es)? (?!(?:my|me|him|her|them|you|it|myself|yourself|us|this|that"
    rf"|those|a|an|the|some|how|what|twice|once|part-time|full-time|online|remotely|sometimes"
    rf"|often|weekly|daily|occasionally|now|again|too|there|here)\b){_NP}"
)
_OWN = re.compile(
    rf"{_I}(?:(?P<v>own|run) (?:a|an|my own|our own|my|our)|(?P<m>manage) (?:a|an)"
    r"|have (?:my|our) own) (?P<np>(?:[a-z-]+ ){0,2}?(?:business|company|shop|store|restaurant"
    r"|bakery|farm|firm|salon|cafe|bar|studio|practice|agency|service|clinic|nursery|daycare"
    r"|franchise))\b(?!'s|-)"
    # "the" names a part or a task more often than one's own business: "I run the company
    # softball team", "I manage the store's social media", "I run the nursery at church"
    rf"|{_I}have (?:a|an) (?P<hp>(?:[a-z-]+ ){{0,2}}?(?:business|company|firm|franchise))\b"
)
_EMPLOYERS = "|".join(
    (*WORKPLACES, *ENTERPRISES, "non-profit", "city", "county", "state", "district", "airline",
     "government", "council", "corporation")
)  # fmt: skip
_ROLE_AT = re.compile(
    rf"{_IM}(?:a|an) (?P<t>(?:(?!(?:good|great|bad|big|new|proud|happy|busy|tired|lucky|hard"
    r"|real|little|huge|fan|lover|regular|keen|avid|casual)\b)[a-z-]+ )?"
    # what one is at a place without working there: a member, a patient, an athlete
    r"(?!(?:worker|beginner|member|patient|client|customer|volunteer|parent|newcomer|supporter"
    r"|runner|swimmer|cyclist|climber|rider|jogger|walker|hiker|skier|rower|lifter|boxer"
    r"|golfer|surfer|skater|dancer|player|fan|regular|student|learner|visitor|guest)\b)"
    r"[a-z]{3,}(?:er|or|ist|ian|ant|ent|man"
    r"|woman))"
    r" (?:(?:at|in) (?:a|an|the|\w+'s) (?!(?:\w+ )?(?:family|household|group|team|house)\b)"
    # "for" takes an employer: "a supervisor for a construction company", not "a sucker for a
    # good pancake"
    rf"|(?P<for>for) (?:a|an|the|\w+'s) (?:[\w-]+ ){{0,2}}?(?:{_EMPLOYERS})\b(?!'s|-))"
)
_LIVING = re.compile(
    rf"{_I}(?P<v>[a-z]{{3,}}) (?:(?:a|an|the|other people's|people's) )?"
    r"(?P<o>(?:[a-z]+ ){0,1}[a-z]+ )?for a living\b"
)
# Verbs that say nothing of the work ("I work for a living", "I do this for a living").
_LIGHT_VERBS = frozenset(
    {"work", "do", "get", "have", "earn", "make", "go", "play", "live", "need"}
)
_NOT_OBJECT = re.compile(
    r"\b(?:it|this|that|them|things|stuff|something|anything|so|now)\b"
    # a catenative's infinitive or a preposition is no object: "want to write", "sit in traffic"
    r"|^(?:to|in|on|at|with|after|for|about|like|around|up|out|off|over)\b"
)
_ENDED = re.compile(
    r"\b(?:used to|quit|left|lost|fired|laid off|retired|former|ex-|until|was|were|had)\b"
)


_UPPER = {"it": "IT", "hr": "HR"}


def agent_noun(verb: str) -> str:
    """The one who does `verb`: walk -> walker, drive -> driver, cut -> cutter, babysit ->
    babysitter, translate -> translator, inspect -> inspector."""
    if verb.endswith("ate") or verb.endswith("ct"):  # Latin verbs: translator, instructor
        return (verb[:-1] if verb.endswith("e") else verb) + "or"
    if verb.endswith("e"):
        return verb + "r"
    short = len(verb) <= 4 or verb.endswith("sit")
    if short and re.search(r"[^aeiou][aeiou][^aeiouwxy]$", verb):
        return verb + verb[-1] + "er"
    return verb + "er"


def singular(noun: str) -> str:
    """A plural object as the first word of a compound: dogs -> dog, babies -> baby."""
    if noun.endswith("ies") and len(noun) > 4:
        return noun[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x)es$", noun):
        return noun[:-2]
    if noun.endswith("s") and not noun.endswith(("ss", "us", "is")):
        return noun[:-1]
    return noun


def _living(text: str) -> tuple[int, str, str] | None:
    """`works as a <object> <doer>` from "I <verb> <object> for a living", with the words
    copied from the speaker (for the name guard). The title is made by grammar and must be a
    title by the job vocabulary: the whole of it ("dog walker") or its doer ("cleaner"), so a
    verb that is no trade ("I sit in traffic", "I argue") makes none."""
    match = _LIVING.search(text)
    if match is None or match.group("v") in _LIGHT_VERBS or match.group("v") in {"teach", "coach"}:
        return None  # teaching and coaching are the teach frame's
    obj = (match.group("o") or "").strip()
    if _NOT_OBJECT.search(obj):
        return None
    doer = agent_noun(match.group("v"))
    # the head noun only: "old bikes" -> "bike repairer" (a modifier may be an adjective)
    head = [singular(obj.split()[-1])] if obj else []
    title = " ".join([*head, doer])
    if title not in JOB_TITLES and doer not in JOB_TITLES:
        return None
    return match.start(), f"works as {indefinite(title)} {title}", obj


def work_frames(clause: Clause, memo: Memo) -> list[Finding]:
    """A workplace, employer, field, teaching or business of the speaker's, by its frame."""
    if not clause.asserts or clause.negated or clause.remote_past or clause.past:
        return []
    text = clause.text
    if _ENDED.search(text):
        return []
    found: list[Finding] = []
    role = _ROLE_AT.search(text)
    head = role.group("t").split()[-1] if role else ""
    if role and role.group("for") and head.endswith("er") and head not in JOB_TITLES:
        # "for" someone: a doer in "-er" only when the job vocabulary knows it ("a writer for a
        # newspaper"), not a taste or a favour ("a sucker for a good bar", "a fundraiser for a
        # charity"); "a supervisor for a construction company" is a role
        role = None
    if role:
        title = role.group("t")
        fact = f"works as {indefinite(title)} {title}"
        found.append(job_finding(clause, role.start(), fact, 2, captured=title))
    at = _AT.search(text)
    if at and (NOT_PLACE.search(at.group("np")) or names_a_person(at.group("a"))):
        at = None  # not a workplace, or another person's ("sarah's bakery")
    if at:
        article = at.group("a")
        if article not in {"the"} and not article.endswith("'s"):
            article = indefinite(at.group("np"))
        found.append(
            job_finding(
                clause,
                at.start(),
                f"works {at.group('p')} {article} {at.group('np')}",
                captured=f"{at.group('a')} {at.group('np')}",
            )
        )
    named = _AT_NAME.search(clause.raw)
    if named and not at and not names_a_person(named.group("name")):  # another person's name
        # names_a_person read the name as written (a place noun makes it a place)
        found.append(job_finding(clause, 0, f"works at {named.group('name').lower()}"))
    employer = _FOR.search(text)
    if employer and not _NOT_EMPLOYER.match(employer.group("np")):
        article = employer.group("a")
        found.append(
            job_finding(
                clause,
                employer.start(),
                f"works for {article} {employer.group('np')}",
                captured=f"{article} {employer.group('np')}",
            )
        )
    field = _FIELD.search(text)
    if field:
        name = field.group("d") or field.group("w")
        found.append(job_finding(clause, field.start(), f"works in {_UPPER.get(name, name)}"))
    teach = _TEACH.search(text)
    if teach and not activity_named(teach.group("np")):  # "I teach yoga": the yoga rule's
        verb = "teaches" if teach.group("v") == "teach" else "coaches"
        np = teach.group("np")
        found.append(job_finding(clause, teach.start(), f"{verb} {np}", captured=np))
    living = _living(text)
    if living is not None:
        start, fact, words = living
        found.append(job_finding(clause, start, fact, 2, captured=words or None))
    own = _OWN.search(text)
    if own:
        np = own.group("np") or own.group("hp")
        if own.group("m"):  # the one who manages a store is its manager
            fact = f"works as {indefinite(np)} {np} manager"
        else:
            verb = "runs" if own.group("v") == "run" else "owns"
            fact = f"{verb} {indefinite(np)} {np}"
        found.append(job_finding(clause, own.start(), fact, captured=np))
    return found


RULES = (work_frames,)
