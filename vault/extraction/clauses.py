"""Cut a message into clauses and say, for each, who it is about and whether it asserts anything.

The design documents' regexes read a whole message at once, so "my wife has a bad knee" or "should I try a
marathon?" become facts about the athlete. The rule extractor works clause by clause instead:
sentences are split on punctuation, then on commas and on conjunctions ("but", and "and"/"so"
when a new subject follows), and each clause carries its subject (the athlete or someone else),
whether it is a question or a hypothetical, negated, set in the remote past, or about one
occasion only ("this morning", "tomorrow").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum

from vault.extraction.lexicon import (
    BODY_PARTS,
    GOALS,
    JOBS,
    LIKE_OBJECTS,
    OTHER_SPORTS,
    PLACE_WORDS,
    SESSIONS,
    SPORT_AGENTS,
    SPORT_GERUNDS,
    STATES,
    TIME_TERMS,
)
from vault.extraction.words import STOP_WORDS


class Subject(str, Enum):
    """Whom a clause is about."""

    SELF = "self"
    OTHER = "other"


@dataclass(frozen=True)
class Clause:
    """One clause of a message, normalised to lower case, with what the rules need to know."""

    index: int
    sentence: int
    text: str
    raw: str
    subject: Subject
    question: bool
    hypothetical: bool
    negated: bool
    remote_past: bool
    one_off: bool
    echo: bool = False  # agrees with the other speaker ("Me too! I love running")
    context: str = ""  # the whole sentence, normalised (who "my kids" are, when it happened)
    explicit_self: bool = False  # the speaker is named as subject ("I", "my"), not assumed
    past: bool = False  # the verb after the subject is in the past tense ("I went", "I started")
    future: bool = False  # a plan or a promise ("I will", "I'm going to"), not a description
    conditional: bool = False  # an "if" clause or its modal consequence ("if I marry, my ...")

    @property
    def asserts(self) -> bool:
        """A statement (not a question or a hypothetical) about the athlete."""
        return self.subject is Subject.SELF and not (self.question or self.hypothetical)


# Common misspellings and chat spellings, fixed before any rule runs.
_FIXES = {
    "im": "i'm",
    "ive": "i've",
    "dont": "don't",
    "doesnt": "doesn't",
    "didnt": "didn't",
    "cant": "can't",
    "isnt": "isn't",
    "wasnt": "wasn't",
    "havent": "haven't",
    "hasnt": "hasn't",
    "couldnt": "couldn't",
    "wouldnt": "wouldn't",
    "shouldnt": "shouldn't",
    "arent": "aren't",
    "u": "you",
    "ur": "your",
    "rn": "right now",
    "def": "definitely",
    "usualy": "usually",
    "usally": "usually",
    "ussually": "usually",
    "normaly": "normally",
    "generaly": "generally",
    "mornign": "morning",
    "mornigns": "mornings",
    "mornigs": "mornings",
    "morings": "mornings",
    "evnings": "evenings",
    "evenigns": "evenings",
    "marthon": "marathon",
    "maraton": "marathon",
    "goin": "going",
    "runnin": "running",
    "trainin": "training",
    "tryin": "trying",
    "wanna": "want to",
    "gonna": "going to",
    "kinda": "kind of",
    "alot": "a lot",
    "xmas": "christmas",
    "w/": "with",
    "b4": "before",
    "pls": "please",
    "abt": "about",
}
_WORD = re.compile(r"[a-z]+(?:/|\b)")
_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
_SENTENCE = re.compile(r"[^.!?;\n]+[.!?;]*")
_COMMA = re.compile(r",|\s[-\u2013\u2014]+\s|[()\[\]:]|\s\+\s|\s/\s|\u2026|\.\.")
_SUBJECT_WORD = (
    r"i|i'm|im|i've|ive|i'd|i'll|my|me|she|he|they|she's|he's|they're|it|it's|its|the|her|his"
    r"|their|we|we're|now|that|that's|this|there|there's"
)
_CONJUNCTION = re.compile(
    r"\s+(?=(?:but|though|although|however|whereas|except|because|cause|'cause|cos)\b)"
    rf"|\s+(?=(?:and|so|because|cause|'cause|cos|while|then|or|plus|as"
    rf"|since)\s+(?:{_SUBJECT_WORD})\b)"
    # a relative clause about a person is a clause of its own, about whom it follows: "two kids
    # who never visit" does not deny the kids, "a friend who runs marathons" runs none of mine
    r"|(?<=[a-z]{3})(?<!who)\s+(?=who\s+(?!(?:i|i'm|i've|we|you)\b)[a-z])",
    re.IGNORECASE,
)
_RELATIVE = re.compile(r"^who\s+(?!(?:i|i'm|i've|we|you)\b)")
# The speaker as the antecedent: "I'm a mom who loves to run", "I'm the kind of person who ..."
# (not "a mom of a girl who ...": the nearer noun is the antecedent then).
_SELF_ANTECEDENT = re.compile(
    r"\b(?:i'm|i am|i was|i've been|i have been) (?:(?:also|just|really|still|actually) )*"
    r"(?:an?|someone|somebody|one|the (?:kind|type|sort) of|kind of|such an?)\b"
    r"(?:(?!\b(?:of|to|for|with|from|than|like|at|in|on|by|under|near)\b)[^,])*$"
)
_LEAD = re.compile(
    r"^(?:(?:and|but|so|also|then|well|oh|yeah|yes|ok|okay|honestly|actually|basically|anyway"
    r"|plus|though|although|however|because|cause|'cause|cos|while|whereas|or|lol|tbh|btw"
    r"|fyi|i think|i guess|i reckon|i feel like|i believe|i'd say|i would say|to be honest"
    r"|i mean|i suppose|i know|i find that|i find|i've noticed that|i've noticed|i noticed"
    r"|today|yesterday|this morning|lately|recently|these days|nowadays|usually|normally|mostly"
    r"|generally|typically|sometimes|often|now|still|definitely|really|just|since)\b[\s,]*)+"
)
_PERSON = (
    r"wife|wifey|husband|hubby|missus|partner|boyfriend|girlfriend|bf|gf|fiancee?|friends?|buddy"
    r"|buddies|mates?|coach"
    r"|coaches|physio|doctor|doc|dad|father|mum|mom|mother|parents?|sons?|daughters?|kids?|child"
    r"|children|brother|sister|siblings?|colleagues?|boss|teammates?|club|neighbou?r|dogs?|cats?"
    r"|pets?|puppy|puppies|family"
    r"|grandma|grandpa|uncle|aunt|cousin|team|group|baby|toddler|twins|other half|pt|trainer"
)
PERSON_WORDS = _PERSON
"""Regex alternation of the words for people around the athlete (wife, coach, kids, ...)."""
_SELF_START = re.compile(
    rf"^(?:i|i'm|i've|i'd|i'll|me|myself|we|we're|we've|we'd|us)\b|^(?:my"
    rf"|our) (?!(?:\w+ )?(?:{_PERSON})\b)"
)
_PAIR_WITH_SELF = re.compile(rf"^(?:my |our )?(?:\w+ )?(?:{_PERSON}|\w+) and (?:i|me)\b")
_ADULT = (
    r"wife|wifey|husband|hubby|missus|partner|boyfriend|girlfriend|friends?|buddy|mates?|coach"
    r"|coaches|physio|doctor"
    r"|doc|dad|father|mum|mom|mother|parents|brother|sister|colleagues?|boss|teammates?|club"
    r"|neighbou?r|trainer|pt|team|group"
)
_OTHER_START = re.compile(
    rf"^(?:(?:my|our|his|her|their) (?:\w+ )?(?:{_PERSON})(?:'s)?\b|(?:the|a"
    rf"|an) (?:\w+ )?(?:{_ADULT})(?:'s)?\b"
    r"|(?:he|she|they|he's|she's|they're|they've|he'd|she'd|they'd|everyone|everybody|someone"
    r"|somebody|nobody|people|others|most people|lots of people|a lot of people|you)\b)"
)
_SELF_ANY = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|we|we're|we've)\b")
_OTHER_ANY = re.compile(
    r"(?<!with )(?<!to )(?<!for )\b(?:he|she|they|he's|she's|they're|you|your|you're|you've)\b"
)
_NAME_START = re.compile(
    r"^([A-Z][a-z]+)(?:'s\b|\s+(?:has|had|is|was|runs|rides|swims|does|did|says|said|thinks|wants"
    r"|prefers|likes|loves|hates|and|got|goes|went|ran|rode|trains|trained|hurt|hurts|broke|just"
    r"|also|always|never|can|can't|will|would|should|told|keeps|is)\b)"
)
_QUESTION_WORD = re.compile(
    r"^(?:should|shall|can|could|would|will|do|does|did|is|are|am|was|were|have|has|what|what's"
    r"|how|why|when|where|which|who|any|anyone|isn't|aren't|don't|doesn't|wouldn't)\b"
)
_INVERSION = re.compile(
    r"^(?:should|shall|can|could|would|will|do|does|did|is|are|am)\s+(?:i|my|it|you|we|that|this"
    r"|there|running|cycling|swimming)\b"
)
_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nothing|nobody|neither|nor|cannot|no longer)\b|n't\b"
)
# "No" before a noun joined to the clause denies that noun only: "I have two kids and no time",
# "I run with no music".
_NOUN_NEGATION = re.compile(r"(?:\band|\bwith|\bbut|,) no (?!(?:longer|more|one|way)\b)\w+")
# "A sprained wrist won't slow me down": the negation is of the consequence, not the injury.
_DEFIANT = re.compile(
    r"\b(?:won't|will not|can't|cannot|isn't going to|not going to|ain't) (?:slow|stop|keep|hold)"
    r" me\b|\bain't got nothing on me\b|\bnothing on me\b"
)
# Agreeing with the other speaker: what follows is politeness before it is a fact.
_ECHO = re.compile(
    r"^(?:me too|me as well|same here|same|so do i|i do too|i also do|ditto|likewise)\b"
    r"|\b(?:too|as well)$"
)
# A clause of a sentence set in the past stays there, unless it says it is now.
_NOW = re.compile(r"\b(?:now|these days|nowadays|currently|still|anymore|any more|again)\b")
_BENIGN_IF = re.compile(
    r"\b(?:if|when|whenever) (?:i can|possible|i'm able|i have (?:the )?time|time allows|i get the"
    r" chance|i get a chance|the weather (?:allows|permits|is (?:ok|okay|good|nice)))\b"
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|might|maybe|perhaps|wonder|wondering|considering|contemplating|in case"
    r"|someday|some day|one day|eventually|wish|supposed to|ought to|thinking (?:about|of)"
    r"|not sure (?:if|whether)|whether|should|could|what if"
    r"|would(?! (?:like|love|prefer|rather|say|consider|call|describe))"
    r"|i'd(?! (?:like|love|prefer|rather|say|consider|call|describe)))\b"
)
# A clause naming no subject that still speaks in its own mood: a contrast ("..., but work as a
# nurse", "..., love running though") or its own tense or habit ("..., been running for years").
_OWN_MOOD = re.compile(
    r"^(?:but|though|although|yet|still|anyway|been|currently|already|usually|always|love|loved"
    r"|loves|hate|hated)\b|\bthough$"
)
# A clause that states a condition: the clause after it is its consequence.
_CONDITION = re.compile(r"^(?:if|unless|in case)\b")
_MODAL = re.compile(r"\b(?:will|would|could|might|may|shall|'ll|'d|have to|has to|going to)\b")
_REMOTE_PAST = re.compile(
    r"\b(?:(?<!than i )used to|(?<!than i )use to|years? ago|decades? ago|(?<!since )last (?:year"
    r"|season|summer|spring"
    r"|autumn|fall|winter)|years back|back in (?:the day|\d{4})"
    r"|back when|when i was|as a (?:kid|child|teen|teenager)|in my (?:twenties|teens|20s|30s)"
    r"|previously|formerly|at one point|in the past"
    r"|a long time ago|growing up)\b"
)
# "In college" is a time only for a clause in the past ("I ran track in college", "in college I
# rowed"); a speaker's present clause says where they are now ("I'm in college", "I study law in
# college").
_SCHOOL_TIME = re.compile(r"\b(?:back )?in (?:high school|college|university|uni|school)\b")
# A school or a stage of life as the predicate of a present "be" is where its subject is now,
# whoever the subject is: "my son is in high school", "she's still in college", "I'm in my
# thirties". Only a verb in the past makes the same phrase a time ("when I was in college", "my
# son ran track in high school"): the phrase is taken out before the remote-past words are read.
_PRESENT_STAGE = re.compile(
    r"(?:\b(?:am|is|are)|'m|'s|'re)(?: (?:still|now|currently|already|also|both|all|just|only"
    r"|finally|back))* in (?:(?:the |his |her |their |my |our )?(?:first|second|third|fourth"
    r"|final|last|senior|junior) year(?: of (?:high school|college|university|uni|school))?"
    r"|(?:the )?\d+(?:st|nd|rd|th) grade|(?:the )?(?:first|second|third|fourth|fifth|sixth"
    r"|seventh|eighth|ninth|tenth|eleventh|twelfth) grade|kindergarten|preschool|nursery"
    r"|(?:(?:high|middle|grad|graduate|law|med|medical|nursing) )?school|college|university|uni"
    r"|(?:my|his|her|their|our) (?:early |mid |late )?(?:teens|twenties|thirties|forties|fifties"
    r"|sixties|seventies|eighties|[2-9]0s))\b"
)
_FIRST_PERSON = re.compile(r"^(?:i|i'm|i've|we|we're|we've)\b")
_FUTURE = re.compile(
    r"\b(?:i|we) (?:\w+ )?(?:will|shall)\b|\b(?:i'll|we'll)\b|\b(?:i'm|i am|we're|we are)"
    r" (?:\w+ )?going to (?!be\b)|\bin (?:a few|\d+|two|three|five|ten) years\b|\bsomeday\b"
)
# "Total beginner here", "runner here": the chat way of saying "I am".
_HERE_SELF = re.compile(r"^(?:an? )?(?:[a-z'-]+ ){0,3}[a-z'-]+ here$")
# A past-tense verb right after a first-person subject: an event, not a description.
_PAST_VERB = re.compile(
    # "my ankle is fractured" is a state: the second word of the subject is no verb
    r"^(?:i|we|my \w+(?: (?!(?:is|are|has|have|feels|feel|gets|seems|looks|keeps)\b)\w+)?)"
    r"(?: (?:just|finally|recently|also|actually|first|once|then"
    r"|even|only|really))* (?:was|were|had|did|went|got|took|made|came|ran|swam|rode|broke"
    r"|tore|fell|won|lost|began|saw|met|left|became|bought|found|gave|wrote|spent|felt|hurt"
    r"|(?!(?:need|used|use|tired|bored|interested|married|retired|scared|excited|obsessed"
    r"|based|located|allowed|supposed|determined|dedicated)\b)[a-z]{2,}ed)\b"
)
_ONE_OFF = re.compile(
    r"\b(?:today|tonight|yesterday|tomorrow|this (?:morning|afternoon|evening|week|weekend|month)"
    r"|last night|next week)\b"
)


# Everyday words that open a sentence and are not names ("Life is hectic", "Work is crazy").
_COMMON = """
    life work job training session sessions race week weekend month year day morning evening
    night today yesterday tomorrow everything nothing something legs body weather rain heat
    pace plan goal season recovery rest sleep food diet energy motivation time schedule family
    kids baby sunday monday tuesday wednesday thursday friday saturday physio doctor coach
    between after before during since until while another every each most some many few
    great good bad easy hard tough brutal awful solid decent fine nice lovely rough slow fast
    first last next new old big small long short quick felt feeling feels got went did had was
    started finished stopped skipped missed tried managed took made kept left right both
    lower upper definitely honestly probably maybe mostly usually normally generally
    """


def _vocabulary() -> frozenset[str]:
    words = set(STOP_WORDS) | set(_COMMON.split())
    tables = (
        BODY_PARTS,
        GOALS,
        LIKE_OBJECTS,
        OTHER_SPORTS,
        SESSIONS,
        SPORT_AGENTS,
        SPORT_GERUNDS,
        STATES,
        TIME_TERMS,
    )
    for table in tables:
        for surface, value in table:
            words.update(re.findall(r"[a-z]+", surface + " " + value.lower()))
    words.update(word for job in JOBS for word in job.split())
    return frozenset(words - PLACE_WORDS)


KNOWN_WORDS = _vocabulary()
"""Lower-case words the rules know (stop-words and every lexicon word): never a person's name."""


_I_M = re.compile(r"\bi m\b")


def normalise(text: str) -> str:
    """Lower case, ASCII apostrophes, single spaces, and the common chat misspellings fixed."""
    lowered = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'").lower()
    lowered = re.sub(r"\s+", " ", lowered).strip()
    lowered = _I_M.sub("i'm", lowered)  # "I m a teacher": the apostrophe lost
    return _WORD.sub(lambda m: _FIXES.get(m.group(0), m.group(0)), lowered)


def _pieces(text: str) -> list[list[str]]:
    """Sentences, each a list of raw clause strings; a trailing '?' is kept on the last one."""
    # One space per run of blanks first: the split patterns below start with \s+, and a long
    # run of spaces would otherwise make them backtrack quadratically.
    folded = re.sub(r"\n\s*", "\n", re.sub(r"[^\S\n]+", " ", text))
    protected = _DECIMAL.sub("\u00b7", folded)
    sentences = []
    for match in _SENTENCE.finditer(protected):
        sentence = match.group(0).replace("\u00b7", ".")
        parts = [p for chunk in _COMMA.split(sentence) for p in _CONJUNCTION.split(chunk)]
        parts = [p.strip() for p in parts if p and p.strip(" .!?;")]
        if parts:
            sentences.append(parts)
    return sentences


def _own_subject(stripped: str, raw: str) -> Subject | None:
    """The subject the clause names itself, or None: a clause that names none ("at least
    start going for a run") continues the one before it."""
    if _PAIR_WITH_SELF.match(stripped) or _SELF_START.match(stripped):
        return Subject.SELF
    if _OTHER_START.match(stripped):
        return Subject.OTHER
    name = _NAME_START.match(raw)
    if name and name.group(1).lower() not in KNOWN_WORDS and not name.group(1).endswith("ing"):
        return Subject.OTHER  # a name; "Dieting is ..." opens with a gerund
    own, other = _SELF_ANY.search(stripped), _OTHER_ANY.search(stripped)
    if own or other:
        return (
            Subject.SELF
            if other is None or (own and own.start() < other.start())
            else Subject.OTHER
        )
    return None


def split_clauses(text: str) -> list[Clause]:
    """The clauses of `text`, in order, each analysed on its own."""
    clauses: list[Clause] = []
    echoing = -1
    for number, parts in enumerate(_pieces(text)):
        asks = parts[-1].rstrip().endswith("?")
        subject: Subject | None = None
        sentence = normalise(" ".join(parts)).strip(" .!?;")
        if _ECHO.match(sentence):
            echoing = number + 1  # "Me too! I love running": the next sentence echoes as well
        echo_sentence = number == echoing or bool(_ECHO.match(sentence))
        past_from: int | None = None
        named_self = False
        mood = (False, False)  # hypothetical, future: of the last clause naming its subject
        condition, condition_at = False, -1  # a clause that opens with "if" / "unless"
        relative_from: tuple[Subject, bool] | None = None  # (subject, named) before a relative
        for position, raw in enumerate(parts):
            body = normalise(raw).strip(" .!?;")
            stripped = _LEAD.sub("", body)
            raw_stripped = re.sub(r"^\W+", "", raw)
            own = _own_subject(stripped, raw_stripped)
            if relative_from is not None and own is None:
                # the clause after a relative one goes on with the subject before it
                subject, named_self = relative_from
            relative_from = None
            if _RELATIVE.match(stripped) and position > 0:
                antecedent_self = _SELF_ANTECEDENT.search(normalise(parts[position - 1]))
                relative_from = (subject or Subject.SELF, named_self)
                own = Subject.SELF if antecedent_self else Subject.OTHER
            subject = own or subject or Subject.SELF
            if subject is not Subject.SELF:
                named_self = False
            elif (
                _PAIR_WITH_SELF.match(stripped)
                or _SELF_START.match(stripped)
                or _HERE_SELF.match(stripped)
                or (_SELF_ANY.search(stripped) and not _OTHER_ANY.search(stripped))
            ):
                named_self = True  # "I ...", "my ...", "beginner here", "evenings suit my runs"
            last = position == len(parts) - 1
            question = bool(
                _INVERSION.match(stripped) or (asks and (last or _QUESTION_WORD.match(stripped)))
            )
            plain = _BENIGN_IF.sub("", body)
            hypothetical = bool(_HYPOTHETICAL.search(plain))
            future = bool(_FUTURE.search(body))
            conditional = False
            if condition and position == condition_at + 1 and _MODAL.search(body):
                # the clause after "if ..." is its consequence; with a modal it is as
                # hypothetical as its condition ("if I ever marry, my husband will have to
                # cook" states no husband), without one a habit ("if it rains, I swim")
                hypothetical = conditional = True
            elif own is None and position > 0 and not _OWN_MOOD.search(body):
                # an ellipsis continues its clause's mood: "perhaps I should take up exercise,
                # at least start going for a run" plans the run too
                hypothetical, future = hypothetical or mood[0], future or mood[1]
            else:
                mood = (hypothetical, future)
            if _CONDITION.match(stripped) and hypothetical:
                condition, condition_at, conditional = True, position, True
            timed = _PRESENT_STAGE.sub(" ", body)  # "my son is in high school" is now
            remote = bool(_REMOTE_PAST.search(timed)) or bool(
                _SCHOOL_TIME.search(timed)
                and not (_FIRST_PERSON.match(stripped) and not _PAST_VERB.match(stripped))
            )
            if remote and past_from is None:
                past_from = position
            elif past_from is not None and not _NOW.search(body):
                remote = True  # "Last season, in the final, I hurt my ankle"
            clauses.append(
                Clause(
                    index=len(clauses),
                    sentence=number,
                    text=body,
                    raw=raw.strip(),
                    subject=subject,
                    question=question,
                    hypothetical=hypothetical,
                    negated=bool(_NEGATION.search(_NOUN_NEGATION.sub(" ", body)))
                    and not _DEFIANT.search(body),
                    remote_past=remote,
                    one_off=bool(_ONE_OFF.search(body)),
                    # "... too" opening a turn answers the other speaker; later it adds
                    echo=echo_sentence or (number == 0 and bool(_ECHO.search(body))),
                    context=sentence,
                    explicit_self=named_self and subject is Subject.SELF,
                    past=bool(_PAST_VERB.match(stripped)),
                    future=future,
                    conditional=conditional,
                )
            )
        _fronted_role(clauses, number)
    return clauses


# "As a writer, my laptop is my lifeline": a fronted role describes the speaker when a later
# clause of its sentence names the speaker.
# "As a lawyer would say, I ...", "as a friend of mine told me", "as my coach puts it" compare
# or quote: the fronted phrase holds a verb or another's possession, and no role is the speaker's.
# A joke marker: the clause is no self-description ("I work as a slave for my boss lol").
JOKE = re.compile(r"\b(?:lol|lmao|lmfao|rofl|haha\w*|hehe\w*|jk|just kidding|kidding)\b")
AS_QUOTE = re.compile(
    r"\bas (?:a|an) (?:[a-z'-]+ ){1,3}?(?:would|will|could|might|says?|said|told|tells|puts?"
    r"|likes? to|used to|once|do|does|did|knows?|can|should)\b|\bas (?:a|an) (?:[a-z'-]+ )"
    r"{1,3}?of (?:mine|ours|yours|his|hers|theirs)\b"
)
_AS_ROLE = re.compile(r"^as (?:a|an) [a-z]")


def _fronted_role(clauses: list[Clause], sentence: int) -> None:
    own = [c for c in clauses if c.sentence == sentence]
    if len(own) < 2 or not _AS_ROLE.match(own[0].text) or own[0].subject is not Subject.SELF:
        return
    if AS_QUOTE.match(own[0].text):
        return  # "As a lawyer would say, I ...": a comparison, not the speaker's role
    if any(c.explicit_self for c in own[1:]):
        clauses[own[0].index] = replace(own[0], explicit_self=True)
