"""Rules for the activities a person likes or does beyond their primary sport (issue 12).

Grammar before vocabulary: a fact needs the athlete as the subject and the activity as what
they do. "I love running", "I like to go hiking, biking, and camping", "I enjoy running, yoga,
and reading" give `likes running`, `likes hiking`, `likes cycling`, `likes yoga` (the list may
run over several comma-separated clauses of one sentence); "I take dance lessons", "I go to the
gym", "I'm an avid kayaker" give `also does dance`, `also does strength training`, `also does
kayaking`. A verb with some other object is not the activity ("I run a dog obedience school",
"I like to ride my motorbike", "I walk my dog"), and liking a thing is not doing it ("I love
football", "I like to watch sports" give nothing: watching is not doing).
"""

from __future__ import annotations

import re

from vault.domain.lexicon import sports
from vault.domain.lexicon.jobs import JOB_TITLES
from vault.domain.vocabulary import Category
from vault.extraction.clauses import Clause
from vault.extraction.findings import GIVEN_UP, Finding, Memo, Watching
from vault.extraction.lexicon import (
    ACTIVITIES,
    ACTIVITY_AGENTS,
    LIKE_OBJECTS,
    all_matches,
    alternation,
    compile_table,
)

PREFERENCE, CONTEXT = 0.7, 0.7

_ACTIVITY_T = compile_table(ACTIVITIES)
_ACTIVITY_AT = tuple((re.compile(rf"(?:{rx})(?![\w-])"), value) for rx, value in ACTIVITIES)
_AGENT_T = compile_table(ACTIVITY_AGENTS)
_LIKE_OBJECT_T = compile_table(LIKE_OBJECTS)
_ENDURANCE = sports.ENDURANCE

_LIKE = re.compile(
    r"\b(?:like|likes|love|loves|enjoy|enjoys|adore|adores|really into|big fan of|fond of)\b"
    r"|\bfavou?rite (?:\w+ ){0,4}?(?:is|are) (?:probably |definitely |always )?"
)
_DISLIKE = re.compile(
    r"\b(?:hate|hates|dislike|dislikes|loathe|detest|can't stand|cannot stand"
    r"|(?:don't|do not|doesn't) (?:really )?(?:like|enjoy|love))\b"
)
_NOT_LIKE = re.compile(
    r"\b(?:would|i'd|i would) (?:like|love)|\b(?:like|love) to (?:try|learn|get into|start)"
    r"|\blooks? like|\bfeels? like|\bsounds? like|\blike (?:a|an|the|that|this|it|him|her)\b"
)
_LEAD = re.compile(
    r"^(?:(?:to|go|going|went|do|doing|play|playing|for|a|an|some|the|also|too|all|kinds|of"
    r"|lots|lot|different|take|taking|long|into|just|really|especially|probably|definitely|on|out"
    r"|other|outdoor|outdoors|and|or|but|so|then|plus|even|more|my|little|bit|regular"
    r"|long[- ]distance|distance|competitive|casual)\s+)+"
)
_TIME_OF_DAY = re.compile(
    r"\b(?:evenings?|at night|nights|night runs?|late|mornings?|early|after work|before work)\b"
)
_BARE_TAIL = re.compile(r"\s+(?:much|at all|any ?more|very much|so much|a lot|too|either)$")
_ITEM_SPLIT = re.compile(r",|\s(?:and|or|&|plus|as well as)\s")
_OWN_SUBJECT = re.compile(
    r"^(?:and |or |but |so )?(?:i|i'm|i've|we|we're|my|he|she|they|it|it's|that|that's|this"
    r"|there|you|he's|she's|they're)\b"
)
_PRACTICE = re.compile(
    r"\b(?:i|we) (?:also |still |regularly |sometimes |often |usually |even )?(?:take|do|attend"
    r"|go to) (?:\w+ ){0,2}?(?P<a>[\w-]+(?: [\w-]+)?) (?:lessons|classes|class)\b"
    r"|\b(?:i|we) (?:also |still |regularly |sometimes |often |usually |really )?(?:go|head)"
    r" to the gym\b"
    r"|\b(?:i|we) (?:also |still |regularly |sometimes |often |usually )?(?:play|practi[cs]e"
    r"|compete in) (?P<b>[\w -]{3,30})"
    r"|\b(?:i|we) (?:also |still |regularly |sometimes |often |usually )?go (?:on|for) (?:a lot of"
    r" |lots of |many |long )?(?P<c>hikes|walks|bike rides)\b"
    r"|\bi(?:'m| am) on (?:the|a|my \w+) (?P<d>[\w ]{3,20}) team\b"
)
_DOES = re.compile(
    r"\b(?:i|we) (?:also |still |regularly |sometimes |often |usually |even |really |mostly"
    r" |mainly |try to |tend to |get to |like to )?"
    r"(?=(?:play|do|practi[cs]e|lift|take|attend|compete in|go to the gym|go (?:to )?\w+ing)\b)"
)
_AGENT = re.compile(
    rf"\b(?:i'm|i am) (?:(?:also|really|actually|quite|still|now|definitely|kind of|sort of"
    rf"|more of|such) )*(?:a |an )(?:(?:\w+|avid|keen|big|huge|professional|competitive) ){{0,2}}?"
    rf"(?P<a>{alternation(ACTIVITY_AGENTS)})\b"
)
# A coordinated agent after the first: "a cyclist and a runner", "a swimmer, hiker and skier".
_MORE_AGENT = re.compile(
    r"^(?:,| and| or|, and)\s+(?:an? )?(?:(?:avid|keen|big|huge|pro|professional|competitive"
    r"|passionate|casual|occasional|amateur|serious|weekend|recreational) ){0,2}"
    rf"(?P<a>{alternation(ACTIVITY_AGENTS)})\b"
)


# The activity's own verb with the speaker as the clause's subject and no object: "I dance on
# the weekends", "I hike every weekend", "we canoe on the river in the summer". The subject opens
# the clause (not "I doubt I ski", "the first time I surf", "the dogs that I walk"), and what
# follows the verb is the end of the clause or an adverbial of how often, when, where or with
# whom (`_HABIT_TAIL`); an object, a particle or another preposition makes it another verb or a
# figure of speech ("I box up my books", "I wrestle with anxiety", "I walk on eggshells").
_TIME_NOUN = (
    r"(?:weekends?|weekdays?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mornings?|evenings?"
    r"|nights?|afternoons?|summers?|winters?|springs?|falls?|autumns?|holidays?|vacations?"
    r"|lunch|lunchtime|work|school)"
)
_PLACE_NOUN = (
    r"(?:gym|park|beach|club|pool|lake|river|sea|ocean|trails?|mountains?|hills|woods|forest"
    r"|rink|range|course|studio|cent(?:er|re)|coast|slopes?|bay|track|field|court|reservoir)"
)
_COMPANY_NOUN = (
    r"(?:friends?|club|group|team|family|kids|children|husband|wife|partner|son|daughter|dad"
    r"|mom|mum|father|mother|brother|sister|dog|dogs|buddy|buddies|coworkers?|colleagues?"
    r"|neighbou?rs?|girlfriend|boyfriend)"
)
_HOW_OFTEN = (
    rf"(?:every|most|each) (?:other |single )?(?:day|days|week|month|year|time|{_TIME_NOUN})"
    rf"|(?:twice|once|\d+ times|two times|three times|a few times|a couple of times|\d+ days"
    rf"|two days|three days|four days|five days) (?:a|per|each|every) (?:day|week|month|year)"
)
_HABIT_TAIL = (
    r"(?=\s*(?:$|[.!?,;:]|(?:and|but|so|because|when|whenever|if)\b"
    rf"|(?:{_HOW_OFTEN})\b"
    # "a lot" and "a bit" alone say how much; "a lot of reddit" is an object
    r"|(?:a lot|a bit|quite a bit|lots)(?! of)\b"
    r"|(?:often|regularly|competitively|professionally|daily|weekly|outdoors|outside|indoors"
    r"|too|also|as well|sometimes|all year|year round|for fun|for exercise|for fitness"
    r"|mostly|mainly|usually|together|alone|locally|casually|recreationally)\b"
    rf"|on (?:the |my )?{_TIME_NOUN}\b|in the (?:\w+ )?{_TIME_NOUN}\b|at (?:night|weekends)\b"
    rf"|(?:at|on|in|near|around) (?:the|a|my|our|a local|the local) (?:[\w-]+ )?{_PLACE_NOUN}\b"
    rf"|with (?P<w>(?:my|our|a|some|the|a few|friends|other) (?:[\w-]+ )?{_COMPANY_NOUN}"
    r"|friends|others|a group|people|him|her|them)\b))"
)
# What may open the clause before the speaker: a conjunction, a word of chat, or when ("every
# weekend I hike", "in the summer I kayak a lot", "oh I hike too").
_HABIT_OPENING = (
    r"^(?:(?:and|but|so|well|yeah|yes|oh|lol|haha|also|actually|now|usually|mostly|these days"
    r"|nowadays|honestly|personally)\s+"
    rf"|(?:{_HOW_OFTEN}|on (?:the )?{_TIME_NOUN}|in the (?:\w+ )?{_TIME_NOUN}),?\s+)*"
)
_HABIT_VERB = re.compile(
    rf"{_HABIT_OPENING}(?:i|we) (?:(?:also|still|regularly|sometimes|often|usually"
    r"|normally|really|mostly|mainly|just|even|occasionally|always|now|actually) )*"
    rf"(?P<v>[a-z]+(?: bike)?){_HABIT_TAIL}"
)
# Sports against someone: "with" names the opponent, often in play ("I wrestle with my kids").
_AGAINST = frozenset({"wrestling", "boxing", "martial arts"})
# Verbs of an activity that are also nouns of a food or a game ("I like fish", "a bowl"):
# read only as the verb of the habit frame.
_VERB_ONLY = {"fish": "fishing", "bowl": "bowling"}


# Games people also watch: liking the noun is not doing it ("I love football"), so these
# count only after a verb of doing ("I like to play football", "I love playing golf").
_NEEDS_VERB = frozenset(
    {
        "football",
        "soccer",
        "softball",
        "baseball",
        "basketball",
        "volleyball",
        "tennis",
        "table tennis",
        "golf",
        "hockey",
        "rugby",
        "badminton",
        "gymnastics",
        "boxing",
        "wrestling",
    }
)
_DOING = re.compile(r"\b(?:play|playing|do|doing|practi[cs]e|practi[cs]ing|go|going)\b")


def _activity_at(text: str) -> str | None:
    """The activity that `text` starts with, after leading filler ("to go", "playing")."""
    stripped = text.strip(" .!?")
    lead = _LEAD.match(stripped)
    item = stripped[lead.end() :] if lead else stripped
    for pattern, value in _ACTIVITY_AT:
        if pattern.match(item):
            if value in _NEEDS_VERB and not (lead and _DOING.search(lead.group(0))):
                return None
            if lead and re.search(r"\bthe\b", lead.group(0)) and value != "strength training":
                return None  # "the Dance by Garth Brooks" is a thing, not the activity
            return value
    return None


def activity_named(text: str) -> str | None:
    """The activity a phrase names from its first word ("yoga", "spin", "rock climbing"), for
    rules whose own verb already says it is done ("took up tennis", "tennis lessons")."""
    item = text.strip(" .!?")
    for pattern, value in _ACTIVITY_AT:
        if pattern.match(item):
            return None if value == "working out" else value
    return None


def _items(text: str, bare: bool = False, tastes: bool = True) -> list[tuple[int, str]]:
    """(offset, activity) for each list item of `text` that names an activity; with `bare`,
    only items that are the activity alone ("I can't stand running indoors" dislikes the
    indoors, not running)."""
    found, verb = [], ""
    cuts = [0, *(m.end() for m in _ITEM_SPLIT.finditer(text))]
    for at, piece in zip(cuts, _ITEM_SPLIT.split(text)):
        value = _activity_at(piece)
        lead = _LEAD.match(piece.strip(" .!?"))
        if lead and _DOING.search(lead.group(0)):
            verb = lead.group(0)
        elif value is None and verb:
            # joined items share the verb: "play volleyball and tennis" plays both
            value = _activity_at(f"{verb}{piece.strip()}")
        if (
            value
            and bare
            and len(_BARE_TAIL.sub("", _LEAD.sub("", piece.strip(" .!?"))).split()) > 1
        ):
            value = None
        # "running with a group" is the likes rule's "group runs"; "trail running" its own
        # ("the gym" names strength training either way, and stays)
        if value and not (
            tastes and any(v != value for _, v in all_matches(_LIKE_OBJECT_T, piece))
        ):
            found.append((at, value))
    return found


def _finding(clause: Clause, at: int, text: str, category: Category, tag: str) -> Finding:
    return Finding(
        "activity",
        (clause.index, at),
        category,
        text,
        PREFERENCE if category is Category.PREFERENCE else CONTEXT,
        tags=frozenset({tag}),
    )


def activity_likes(clause: Clause, memo: Memo) -> list[Finding]:
    """Likes and dislikes of activities: "I love running" -> likes running."""
    text = clause.text
    if clause.sentence != memo.liking_sentence:
        memo.liking_sentence, memo.liking = clause.sentence, None
    if not clause.asserts or clause.remote_past or clause.one_off:
        memo.liking = None
        return []
    dislike = _DISLIKE.search(text)
    if dislike and _TIME_OF_DAY.search(text):
        memo.liking = None
        return []  # "I hate running at night" is a time preference (schedule rules)
    like = None if dislike or _NOT_LIKE.search(text) or clause.negated else _LIKE.search(text)
    verb = dislike or like
    watching = Watching(text)
    lead = _LEAD.match(text)
    doing_lead = bool(lead and _DOING.search(lead.group(0)))
    if verb is not None:
        word = "dislikes" if dislike else "likes"
        memo.liking, memo.watching = word, False
        scope, offset = text[verb.end() :], verb.end()
    elif memo.liking and not _OWN_SUBJECT.match(text) and not clause.negated:
        word, scope, offset = memo.liking, text, 0
        if memo.watching and not doing_lead:
            # the list of things watched runs on: "I love watching golf, tennis, and swimming"
            return []
    else:
        memo.liking = None
        return []
    memo.watching = watching.runs_on() or (memo.watching and verb is None and not doing_lead)
    firsts: dict[str, int] = {}
    for at, value in _items(scope, bare=word == "dislikes"):
        if not watching.watched(offset + at):  # "I like to watch football": a fan's taste
            firsts.setdefault(value, at)
    return [
        _finding(clause, offset + at, f"{word} {value}", Category.PREFERENCE, f"topic:{value}")
        for value, at in firsts.items()
    ]


def _verb_activity(verb: str) -> str | None:
    """The activity a bare verb names ("dance", "hike", "mountain bike"); not a gerund or a
    noun ("dancing" and "yoga" are no verbs of a habit)."""
    if verb.endswith("ing") or verb in {"gym", "yoga", "pilates", "crossfit", "cardio"}:
        return None
    return activity_named(verb)


def _compounds(before: str, head: str) -> list[str]:
    """The compounds `head` ends with the one or two words before it ("dog walker")."""
    words = before.split()
    return [" ".join([*words[-n:], head]) for n in (1, 2) if len(words) >= n]


def activity_practice(clause: Clause, memo: Memo) -> list[Finding]:
    """Activities done: "I take dance lessons", "I go to the gym" -> also does <activity>."""
    if not clause.asserts or clause.negated or clause.remote_past or clause.one_off:
        return []
    text = clause.text
    found: list[tuple[int, str, str]] = []
    agent = _AGENT.search(text)
    if agent and JOB_TITLES.intersection(_compounds(text[: agent.start("a")], agent.group("a"))):
        agent = None  # "a dog walker", "a tennis coach": a job, read by the job rule
    if agent and not GIVEN_UP.search(text[: agent.start("a")]):
        base = 0
        match: re.Match[str] | None = agent
        while match is not None:
            value = next(v for _, v in all_matches(_AGENT_T, match.group("a")))
            kind = "likes" if value == "working out" else "also does"
            found.append((base + match.start("a"), kind, value))
            base += match.end()
            match = _MORE_AGENT.match(text[base:])
    doing = _DOES.search(text)
    if doing:
        for at, value in _items(text[doing.end() :], tastes=False):
            if value not in _ENDURANCE:
                found.append((doing.end() + at, "also does", value))
    habit = None if doing or agent else _HABIT_VERB.match(text)
    if habit:
        verb = habit.group("v")
        habit_value = _VERB_ONLY.get(verb) or _verb_activity(verb)
        if habit.group("w") and habit_value in _AGAINST:
            habit_value = None
        if habit_value and habit_value not in _ENDURANCE:
            found.append((habit.start("v"), "also does", habit_value))
    practice = None if doing else _PRACTICE.search(text)
    if practice:
        named = practice.group("a") or practice.group("b") or practice.group("c")
        named = named or practice.group("d")
        done = _activity_at(named) if named else "strength training"
        if done and done not in _ENDURANCE:
            found.append((practice.start(), "also does", done))
    return [
        _finding(
            clause,
            at,
            f"{kind} {value}",
            Category.PREFERENCE if kind == "likes" else Category.CONTEXT,
            f"topic:{value}" if kind == "likes" else f"context:{value}",
        )
        for at, kind, value in found
    ]


_WORK_OUT = re.compile(r"\b(?:i|we) (?:\w+ )?(?:work out|exercise|hit the gym)\b")
_HABIT = re.compile(
    r"\b(?:every ?day|daily|most days|regularly|usually|always|often|a lot|(?:\d+|a few|a couple"
    r"(?: of)?|several|two|three|four|five|six) (?:times|days) (?:a|each|per|every) week|twice a"
    r" week|every (?:morning|evening|week|weekday)|at the gym|religiously)\b"
)
_FUN = re.compile(
    r"^(?P<x>[\w' -]{3,40}?) (?:is|are) (?:always |so |really |just |the most )?(?:fun|the best"
    r"|great fun|awesome|amazing|my favou?rite(?: \w+)?)\b"
)


def work_out(clause: Clause, memo: Memo) -> list[Finding]:
    """A training habit without a named activity: "I work out every day" -> works out regularly."""
    if not clause.asserts or clause.negated or clause.remote_past or clause.one_off:
        return []
    match = _WORK_OUT.search(clause.text)
    if match is None or not _HABIT.search(clause.text) or match.group(0).endswith("gym"):
        return []  # "I hit the gym twice a week" is strength training, read by its own rule
    return [
        Finding(
            "activity",
            (clause.index, match.start()),
            Category.CONTEXT,
            "works out regularly",
            CONTEXT,
            tags=frozenset({"context:working out"}),
        )
    ]


def fun(clause: Clause, memo: Memo) -> list[Finding]:
    """Tastes said as a verdict: "Group runs are always fun!" -> likes group runs."""
    if not clause.asserts or clause.negated or clause.remote_past:
        return []
    match = _FUN.match(clause.text)
    if match is None or re.search(r"\b(?:your|his|her|their|you)\b", match.group("x")):
        return []
    subject = match.group("x")
    things = [value for _, value in all_matches(_LIKE_OBJECT_T, subject)]
    things += [value for _, value in _items(subject, tastes=False)]
    return [
        _finding(clause, 0, f"likes {thing}", Category.PREFERENCE, f"topic:{thing}")
        for thing in dict.fromkeys(things)
    ]


RULES = (activity_likes, activity_practice, work_out, fun)
