"""Kinds of statement the word tables missed, read by the shape of the clause (issue 28).

Each rule names a grammatical frame, not a sentence: an activity told as an event, a start or
a class ("took up X", "my first X class", "went for a X", "X classes"); study ("majoring in",
"a graduate student", "in nursing school"); a partner named as one's own ("my wife", "I'm
married"); an eating plan ("on a keto diet", "I eat clean"); an aim that is not a race ("lose
weight", "get stronger", "bench 100"); sleep ("I sleep about six hours", "I'm a light
sleeper"). The activity names come from the shared activity vocabulary of the exercise rules.

How much one reading is believed is decided afterwards (`vault.extraction.belief`): an event
in the past ("I took up yoga") enters below the block and is believed when it recurs.
"""

from __future__ import annotations

import re
from dataclasses import replace

from vault.domain.vocabulary import Category
from vault.extraction.clauses import Clause
from vault.extraction.exercise_rules import activity_named
from vault.extraction.findings import Finding, Memo
from vault.extraction.life_rules import study_finding

CONTEXT = 0.7

_START = re.compile(
    r"\b(?:took up|take up|taking up|started|starting|began|begun|got into|getting into"
    r"|picked up|signed up for|joined) (?:doing |some |a |an )?(?P<x>[a-z][a-z -]{2,30})"
)
_CLASS = re.compile(
    r"\b(?:my |a |the )?(?:first )?(?P<x>[a-z][a-z-]{2,15}(?: [a-z-]{3,15})?)"
    r" (?:class(?:es)?|lessons?|sessions?|club|team)\b"
)
_OUTING = re.compile(
    r"\b(?:went|go|goes|going|been|headed|head) (?:out )?(?:on|for) (?:a |an |my |our )?"
    r"(?:\w+ )?(?P<x>run|jog|ride|bike ride|swim|hike|walk|paddle|climb)\b"
)
_INTENT = re.compile(
    r"\b(?:plan(?:s|ning)? to|want(?:s|ed)? to|going to|hope to|hoping to|would like to"
    r"|'d like to|need to|have to|might|thinking of|about to)\b"
)
# "A ride" takes its sense from what is ridden (a bike, a board, a horse, a car): only a bike
# word in its sentence makes the outing cycling.
_BIKE = re.compile(r"\b(?:bikes?|biking|bicycles?|cycl\w*|saddle|peloton|spin class|road race)\b")
_OUTING_ACTIVITY = {
    "run": "running",
    "jog": "running",
    "ride": "cycling",
    "bike ride": "cycling",
    "swim": "swimming",
    "hike": "hiking",
    "walk": "walking",
    "paddle": "kayaking",
    "climb": "climbing",
}

# "school", "college" as the head of its phrase, not a modifier of the next noun ("a college
# party", "a college town", "school board meetings"): a word may follow only when it is a
# preposition, a conjunction or an adverb.
_HEAD = (
    r"(?! (?!(?:in|at|for|near|now|and|but|so|or|right|this|full|part|with|too|again|every|since"
    r"|because|yet|here|there|today|to|as|on|while|after|until|of|though|anymore|still|lol|from"
    r"|online|remotely|full-time|part-time|[a-z]+ly)\b)[a-z])"
)
_STUDY = re.compile(
    r"\b(?:i'm|i am) (?:\w+ )?(?:majoring|minoring) in\b|\bmy major is\b|\bi (?:\w+ )?major in\b"
    r"|\b(?:i'm|i am) (?:a |an )?(?:\w+ )?(?:graduate|grad|college|university|undergrad"
    r"|undergraduate|phd|doctoral|med|medical|law|nursing|exchange|high school) student\b"
    r"|\b(?:i'm|i am) (?:\w+ )?(?:in|at) (?:nursing|law|med|medical|grad|graduate|business|film|art"
    r"|culinary|beauty|dental|vet|veterinary|pharmacy|engineering) school\b"
    r"|\b(?:i'm|i am) (?:\w+ )?(?:in|enrolled in|back in) (?!(?:a|an|the|my|his|her|their)\b)"
    rf"(?:\w+ )?(?:school|college|uni|university)\b{_HEAD}"
    # "in a community college" is a student's; "in a school" may be anyone's workplace
    r"|\b(?:i'm|i am) (?:\w+ )?(?:in|at|enrolled (?:in|at)) (?:a|an) (?:\w+ )?(?:college|university)\b"
    rf"{_HEAD}"
    r"|\bi(?: am|'m)? (?:currently |still |now |also |really |just |mostly )?(?:study|studying)"
    # studying for an exam is study; for a driving test, or "my options", not
    r" (?:for (?:my |our |the |a )?(?:\w+ )?(?P<exam>exams?|finals?|midterms?|degree|classes"
    r"|courses?|boards|bar exam)\b"
    r"|(?!to be\b|hard\b|for\b|my\b|our\b|a\b|an\b|what\b|how\b|whether\b|if\b"
    r"|the\b|it\b|them\b|this\b|that\b|his\b|her\b|your\b|their\b|up\b)(?P<obj>[a-z][a-z-]*))"
    r"|\b(?:i'm|i am) (?:in|doing) my (?:first|second|third|fourth|final|last) year\b"
    r"|\bi (?:also |still |currently )?(?:go|am going|'m going|attend) to (?:high school|college"
    rf"|uni|university|grad school|law school|med school|nursing school|community college|school)\b{_HEAD}"
    rf"|\bi (?:also |still |currently )?attend (?:high school|college|university|school)\b{_HEAD}"
    # classes at a gym, a studio or a pool are training, not study
    r"|\bi (?:also |still |currently )?attend classes\b(?! (?:at|in) (?:the |my |a |our )?(?:\w+ )?"
    r"(?:gym|studio|pool|ymca|club|cent(?:er|re)|rec|dojo|box))"
    # paying for someone else's school is no study: "pay for college for my daughter"
    r"|\b(?:to )?pay for (?:school|college|my (?:tuition|classes|degree|studies))\b(?! for\b)"
    r"|\bmy (?:[a-z-]+ )?major(?= is| in|$)|\bmy (?:[a-z-]+ )?(?:homework|semester|thesis|dissertation|professors?"
    r"|coursework|midterms?|finals|classmates|dorm|tuition|student loans?|grades)\b"
    r"|\b(?:busy|swamped|stressed|overwhelmed|hectic) (?:out )?with (?:school|college|uni|classes"
    r"|homework|exams|finals|studying|my studies)\b"
    r"|\b(?:busy|swamped) (?:studying|going to (?:school|college|class))\b"
)

_PARTNER = re.compile(
    r"(?<!ex-)(?<!ex )(?<!former )(?<!late )(?<!future )(?<!dream )(?<!next )(?<!first )"
    r"(?<!old )\b(?P<my>my|our) (?:wife|wifey|husband|hubby|boyfriend|girlfriend|partner"
    r"|fianc[eé]e?|spouse)\b(?!-to-be| to be\b| in crime\b)"
    r"|\b(?:i'm|i am|i've been|we're|we are|we've been) (?:happily "
    r"|recently |newly )?(?:married|engaged)\b"
)
# A partner who is gone: the possessive takes nothing for granted now.
_GONE = re.compile(
    r"\b(?:died|dead|passed|death|funeral|divorc\w*|split up|broke up|break ?up|breaking up"
    r"|separated|widow\w*|lost my|miss my|rest in peace|rip|ran off|left me|custody"
    r"|no longer with (?:me|us)|not with me anymore)\b"
    # not yet, or not real: "my wife, if I ever get one", "in my novel, my wife is a spy"
    r"|\bif i (?:ever )?(?:get|have|find|marry|meet)\b|\bever get (?:one|married)\b|\bsomeday\b"
    r"|\bin (?:my|the|a|our) (?:\w+ )?(?:novel|story|book|game|dream|script|movie|film|play"
    r"|fantasy|fanfic|campaign)\b"
)

_DIET = re.compile(
    r"\b(?:on|follow(?:ing|s)?|doing|started|start|trying|eat|eating|stick(?:ing)? (?:to|with)"
    r"|prefer|prefers)"
    r" (?:a |an |the |this |my )?(?:\w+ly )?(?P<d>low[- ]carb|low[- ]fat|plant[- ]based|whole ?30"
    r"|high[- ]protein|calorie[- ]controlled|(?!(?:good|bad|great|balanced|normal|regular|usual"
    r"|crazy|weird|whole|same|other|own)\b)[a-z][a-z-]{2,})? ?(?:diet|eating plan|meal plan)\b"
    r"|\bmy (?P<m>diet) (?:is|has|plan)\b|\b(?P<g>dieting)\b"
    # minding a diet one has: "I watch my diet", "I'm really into my diet", "a strict diet"
    r"|\b(?:watch|watching|watches|into|focused on|keep|keeping|kept|careful with|strict with)"
    r" (?:a |my |our )(?:\w+ ){0,2}(?P<w>diet)\b"
    r"|\bi (?:\w+ )?(?P<v>diet)(?! (?:coke|soda|pop|pills?|drinks?)\b)(?= |$)"
    r"|\bmy (?P<o>kosher|halal|vegan|vegetarian|gluten[- ]free|keto|paleo) (?:meals|food|diet)\b"
    # liking to eat vegan food is a taste, not the diet ("I love eating vegan food")
    r"|\bi(?:'m| am|'ve been)? (?:(?!(?:love|like|enjoy|adore|prefer)\b)\w+ )?(?:eat|eating|cook"
    r"|cooking) (?:\w+ly |only )?(?P<k>vegan"
    r"|vegetarian|kosher|halal|organic|gluten[- ]free|raw|plant[- ]based)\b"
    r"|\bi (?:\w+ )?(?:eat|am eating|'m eating) (?P<c>healthy|clean|healthily|well)\b"
    r"|\b(?P<f>intermittent fasting|counting calories|count calories|meal prep(?:ping)?)\b"
)

_PUT_ON = re.compile(r"\bput(?:ting)? (?:\w+ ){1,2}on (?:a|an|the|this) ")

_AIM = re.compile(
    r"\b(?:want(?:s)? to|trying to|try to|need to|aim(?:ing)? to|hope to|hoping to|plan(?:ning)?"
    r" to|working (?:on|towards?)|goal is to|goal is|my goal|determined to|going to)\b"
)
_WEIGHT = re.compile(
    r"\b(?:lose|losing|lost|drop|dropping|shed|shedding|get rid of) (?:some |a (?:few|little"
    r"|bit of|couple of) |another |the )?(?:\d+ |a few |ten |twenty )?(?:more )?(?:pounds|lbs|kilos"
    r"|kgs?|weight|stone|baby weight)\b|\bweight loss\b"
)
_STRENGTH = re.compile(
    r"\b(?:get|getting|become|becoming) (?:a lot |much |a bit )?stronger\b|\b(?:build|building"
    r"|gain|gaining|put on) (?:some |more )?(?:muscle|strength)\b"
    r"|\b(?:bench|squat|deadlift)(?:ing)? (?:press )?\d+"
)

_SLEEP_HOURS = re.compile(
    r"\bi (?:\w+ )?(?:sleep|get) (?:about |around |maybe |only |like )?(?P<n>\d+|four|five|six"
    r"|seven|eight|nine) (?:hours?|hrs)\b"
)
_SLEEP_POOR = re.compile(
    r"\b(?:have|got|suffer from|struggle with|battling) insomnia\b|\bi'm an insomniac\b"
    r"|\b(?:i'm|i am) a (?:light|bad|poor|terrible) sleeper\b"
    r"|\bi (?:can't|cannot|don't|never|barely|rarely|hardly) (?:ever )?sleep (?:well|much|enough)\b"
    r"|\b(?P<t>(?:trouble|difficulty|problems|a hard time|struggl\w+) (?:with )?(?:sleeping|falling"
    r" asleep|getting to sleep|staying asleep)\b|\bi (?:can't|cannot) (?:fall|get to|stay) (?:a)?sleep)\b"
)
# A denial within the few words before "trouble sleeping" turns it around.
_DENIED = re.compile(
    r"\b(?:no|not|never|rarely|hardly|seldom|without|don't|doesn't|didn't|haven't|hasn't)\b"
    r"(?:\s+\w+){0,3}\s*$"
)
_NUMBERS = {"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}


def _finding(
    rule: str, clause: Clause, at: int, text: str, tag: str, category: Category = Category.CONTEXT
) -> Finding:
    return Finding(rule, (clause.index, at), category, text, CONTEXT, tags=frozenset({tag}))


# A practice the speaker gave up: "I stopped going to my yoga class", "quit my dance lessons".
STOPPED = re.compile(
    r"\b(?:stopped|quit|quitting|gave up|give up|giving up|dropped out|no longer|anymore"
    r"|any more|used to)\b"
)


def _speaks(clause: Clause) -> bool:
    return clause.asserts and not clause.remote_past


def events(clause: Clause, memo: Memo) -> list[Finding]:
    """Activities told as an event, a start or a class: "took up yoga", "went for a run"."""
    if not clause.asserts or clause.negated or clause.future or _INTENT.search(clause.text):
        return []  # "I plan to go for a walk" has not happened
    if STOPPED.search(clause.text):
        return []  # "I quit my dance lessons": a practice given up
    found: list[tuple[int, str]] = []
    # "took up running last year" still runs: a start may lie in the past, a class may not
    for pattern in (_START,) if clause.remote_past else (_START, _CLASS):
        for match in pattern.finditer(clause.text):
            named = activity_named(match.group("x"))
            if named:
                found.append((match.start(), named))
    outing = None if clause.remote_past else _OUTING.search(clause.text)
    if outing and (outing.group("x") != "ride" or _BIKE.search(clause.context or clause.text)):
        found.append((outing.start(), _OUTING_ACTIVITY[outing.group("x")]))
    return [
        _finding("activity", clause, at, f"also does {value}", f"context:{value}")
        for at, value in dict((v, (a, v)) for a, v in found).values()
    ]


def study(clause: Clause, memo: Memo) -> list[Finding]:
    """Study: "I'm majoring in biology", "a graduate student", "in nursing school"."""
    if not _speaks(clause) or clause.negated:
        return []
    match = _STUDY.search(clause.text)
    if match is None or (match.group("obj") and activity_named(clause.text[match.start("obj") :])):
        return []  # "I'm studying ballet" practises an activity
    return [study_finding("job", clause, match.start(), 1)]


def partner(clause: Clause, memo: Memo) -> list[Finding]:
    """A partner: "I'm married", "I live with my girlfriend", and the speaker's own possessive
    whoever the clause is about ("my wife hates cooking": the speaker has a wife)."""
    match = _PARTNER.search(clause.text)
    if match is None or clause.remote_past or _GONE.search(clause.context or clause.text):
        return []
    found = _finding("family", clause, match.start(), "has a partner", "context:partner")
    if match.group("my"):
        return [replace(found, presupposed=True)]
    if not _speaks(clause) or clause.negated:
        return []  # "I'm not married", "are you married?"
    return [found]


def eating(clause: Clause, memo: Memo) -> list[Finding]:
    """An eating plan: "I'm on a keto diet", "I eat clean", "intermittent fasting"."""
    if not _speaks(clause) or clause.negated:
        return []
    match = _DIET.search(clause.text)
    if match is None or _PUT_ON.search(clause.text):  # "I put him on a diet": his diet
        return []
    if _INTENT.search(clause.text[: match.start()]):
        return []  # "I have to get on a diet", "I want to eat clean": an aim, not a way of eating
    kind = match.group("d")
    strict = match.group("k") or match.group("o")
    if strict in {"vegan", "vegetarian"}:
        text = f"is {strict}"
    elif strict:
        text = f"eats {strict.replace('-', ' ')}"
    elif match.group("c") or kind == "healthy":
        text = "eats healthy"
    elif match.group("f"):
        text = (
            "counts calories"
            if "calorie" in match.group("f")
            else ("does intermittent fasting" if "fasting" in match.group("f") else "preps meals")
        )
    elif kind and kind not in {"strict", "new", "special", "proper", "better", "this", "that"}:
        text = f"eats a {kind.replace('-', ' ')} diet".replace("ketogenic", "keto")
    else:
        text = "is on a diet"
    return [_finding("diet", clause, match.start(), text, "context:diet")]


def aims(clause: Clause, memo: Memo) -> list[Finding]:
    """Aims that are not races: losing weight, getting stronger (an intention must say so)."""
    if clause.subject.value != "self" or clause.question or clause.negated:
        return []
    if clause.remote_past or _AIM.search(clause.text) is None:
        return []
    found = []
    weight = _WEIGHT.search(clause.text)
    if weight:
        found.append(
            _finding(
                "goal", clause, weight.start(), "wants to lose weight", "goal:weight", Category.GOAL
            )
        )
    strength = _STRENGTH.search(clause.text)
    if strength:
        found.append(
            _finding(
                "goal",
                clause,
                strength.start(),
                "wants to get stronger",
                "goal:strength",
                Category.GOAL,
            )
        )
    return found


def sleep(clause: Clause, memo: Memo) -> list[Finding]:
    """Sleep: "I sleep about six hours", "I'm a light sleeper", "I can't sleep well"."""
    if not _speaks(clause) or clause.one_off:
        return []
    hours = _SLEEP_HOURS.search(clause.text)
    if hours and not clause.negated:
        raw = hours.group("n")
        n = int(raw) if raw.isdigit() else _NUMBERS[raw]
        if 3 <= n <= 12:
            return [
                _finding("sleep", clause, hours.start(), f"sleeps about {n} hours", "health:sleep")
            ]
    poor = _SLEEP_POOR.search(clause.text)
    if poor and poor.group("t") and _DENIED.search(clause.text[: poor.start()]):
        return []  # "I have no trouble sleeping", "I rarely have trouble falling asleep"
    if poor and poor.group("t"):  # in the speaker's own words
        return [_finding("sleep", clause, poor.start(), "has trouble sleeping", "health:sleep")]
    if poor:
        return [_finding("sleep", clause, poor.start(), "sleeps poorly", "health:sleep")]
    return []


RULES = (events, study, partner, eating, aims, sleep)
