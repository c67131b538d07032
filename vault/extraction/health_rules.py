"""Rules for the athlete's health and diet (issue 12): the athlete's own, stored locally.

Diet facts ("is vegan", "is vegetarian", "eats gluten-free", "eats a raw diet") share the
`context:diet` tag, so a newer diet replaces an older one. Health facts ("had surgery",
"is pregnant", "has a disability", "has sleep debt", "has <condition>", "had cancer") each carry
`health:<topic>`. Other people's health ("my wife has cancer"), questions, hypotheticals and
negations give nothing, like every other rule.
"""

from __future__ import annotations

import re
from dataclasses import replace

from vault.domain.text import HEALTH_CONDITIONS
from vault.domain.vocabulary import Category
from vault.extraction.clauses import JOKE, Clause
from vault.extraction.findings import Finding, Memo

HEALTH, DIET = 0.7, 0.7

_DIET = (
    (
        re.compile(
            r"\b(?:i'm|i am|i've been|i have been|i became|i went|i've gone|i'm now|we're)"
            r" (?:a |an |now |fully |strictly |mostly |been |actually |really |also |still"
            r" |currently |pretty much )*(vegan|vegetarian|pescatarian)\b"
            r"|\bi eat (?:a )?(vegan|vegetarian|plant[- ]based)\b"
        ),
        None,
    ),
    (
        re.compile(
            r"\b(?:i'm|i am|i eat|i've been|i have been|i go|i'm on a) (?:\w+ )?gluten[- ]free"
            r"|\b(?:i'm|i am|i have|i've got) (?:a )?(?:coeliac|celiac)\b"
        ),
        "eats gluten-free",
    ),
    (re.compile(r"\bi (?:eat|follow|am on|'m on) (?:a )?raw(?: food)? diet\b"), "eats a raw diet"),
)
_CONDITIONS = HEALTH_CONDITIONS
_CONDITION = re.compile(
    r"\b(?:i have|i've got|i've had|i suffer from|i live with|i was diagnosed with|diagnosed with"
    r"|i (?:\w+ )?(?:struggle|deal|cope|battle) with|(?:i'm|i am) (?:being )?treated for|^my)"
    rf" (?:type [12] |chronic |bad |severe )?(?P<c>{'|'.join(re.escape(c) for c in _CONDITIONS)})"
    r"\b|\bi'm (?:a |an )?(?P<d>diabetic|asthmatic|epileptic)\b"
)
_CANCER = re.compile(
    r"\b(?:(?:\w+ )?cancer survivor|(?:survived|surviving|survivor of|beat|beating|beaten|had"
    r"|diagnosed with|have|fighting|in remission from) (?:the |my )?(?:\w+ )?cancer)\b"
)
_SURGERY = re.compile(
    r"\b(?:i (?:just |recently )?had|i've (?:just |recently )?had|i'm (?:recovering|recovering)"
    r" from|since|after) (?:a |an |my |the )?(?:\w+ )?(?:surgery|operation|op)\b"
)
_PREGNANT = re.compile(
    r"\b(?:i'm|i am|we're) (?:\d+ (?:weeks|months) )?(?:pregnant|expecting (?:a baby|twins"
    r"|triplets|our|my)|expecting)\b|\bi'm expecting\b"
)
_DISABILITY = re.compile(
    r"\b(?:i'm|i am) (?:partly |partially |legally |completely |hard of hearing|profoundly )?"
    r"(?:deaf|blind|disabled|paraplegic|an amputee|hard of hearing)\b"
    r"|\bi (?:have|live with) (?:a )?(?:disability|physical disability)\b"
    r"|\bi (?:use|am in|'m in) a wheelchair\b"
)
_SLEEP = re.compile(
    r"\bsleep debt|\bsleep[- ]deprived|\b(?:on|with) (?:too )?little sleep|\bnot (?:getting|had)"
    r" enough sleep|\bslept (?:only |just |barely )?(?:\d|four|five|three) hours"
    r"|\bshort on sleep|\bpoor sleep|\binsomnia|\bcan't sleep"
)


# Allergies and intolerances: "I'm allergic to cats", "my water allergy", "I'm lactose
# intolerant". The speaker's own possessive takes the allergy for granted ("my allergies could
# never handle kittens").
_ALLERGY = re.compile(
    r"\b(?:i'm|i am) (?:\w+ )?allergic to (?P<a>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,4})"
    r"|\b(?:i have|i've got|i suffer from|i get|(?P<my>my)) (?:a |an |bad |severe |terrible )?"
    r"(?:(?P<b>[a-z]+) )?allerg(?:y|ies)\b"
)
_INTOLERANT = re.compile(
    r"\b(?:i'm|i am) (?:\w+ )?(?P<i>lactose|gluten|dairy|wheat) intolerant\b"
    r"|\bi (?:have|'ve got) (?:a |an )?(?P<j>lactose|gluten|dairy|wheat) intolerance\b"
)
# What "allergic to" names is a noun phrase: its determiners and possessives are skipped
# ("my neighbour's dog" -> dog, "the new detergent" -> new detergent), a preposition, a
# conjunction or a clause's next word ends it, and a pronoun or an indefinite names no allergen.
_DETERMINERS = frozenset(
    "a an the my our your his her their this that these those most some all many any certain"  # noqa: SIM905
    " pretty really very so".split()
)
_PHRASE_END = frozenset(
    "with and or so but because too as in at on of for from by to which that who when if like"  # noqa: SIM905
    " while since than is are was were i i'm it's lol haha jk lmao".split()
)
# pronouns and indefinites, and times and chores one dislikes ("allergic to mondays", "to
# running"): no allergen; a gerund is refused by its ending
_NO_ALLERGEN = frozenset(
    "it them this that something anything everything nothing stuff things thing everyone"  # noqa: SIM905
    " people someone anyone you me him her us life work homework exercise mornings morning"
    " mondays monday weekends early effort".split()
)
_NOT_KIND = frozenset({"seasonal", "food", "bad", "severe", "terrible", "the", "these", "those"})

_PASSING_WORRY = re.compile(r"\banxiety (?:about|over|before|for)\b")
_YEAR = re.compile(r"\bin (?:19|20)\d\d\b")


def _finding(clause: Clause, at: int, text: str, tag: str, confidence: float) -> Finding:
    return Finding(
        "health", (clause.index, at), Category.CONTEXT, text, confidence, tags=frozenset({tag})
    )


def diet(clause: Clause, memo: Memo) -> list[Finding]:
    """Diet: "I'm a vegetarian", "I'm vegan", "gluten-free", "I eat a raw diet"."""
    if not clause.asserts or clause.negated or clause.remote_past:
        return []
    for pattern, fixed in _DIET:
        match = pattern.search(clause.text)
        if match:
            word = fixed or next(g for g in match.groups() if g).replace("plant based", "vegan")
            text = fixed or f"is {'vegan' if word.startswith('plant') else word}"
            return [_finding(clause, match.start(), text, "context:diet", DIET)]
    return []


def allergy(clause: Clause, memo: Memo) -> list[Finding]:
    """Allergies and intolerances: "I'm allergic to cats" -> is allergic to cats, "my water
    allergy" -> has a water allergy, "I'm lactose intolerant" -> is lactose intolerant."""
    if clause.negated or clause.remote_past or clause.subject.value != "self":
        return []
    text = clause.text
    found = []
    intolerant = _INTOLERANT.search(text)
    if intolerant and clause.asserts:
        kind = intolerant.group("i") or intolerant.group("j")
        tag = f"health:{kind} intolerance"
        found.append(_finding(clause, intolerant.start(), f"is {kind} intolerant", tag, HEALTH))
    allergic = _ALLERGY.search(text)
    if allergic is None or not (clause.asserts or allergic.group("my")):
        return found
    if JOKE.search(text):
        return found  # "I'm allergic to running lol" describes no one
    captured = None
    if allergic.group("a"):
        phrase = _allergen(allergic.group("a"))
        if phrase is None:
            return found
        captured, thing = phrase
        fact = f"is allergic to {thing}"
    elif allergic.group("b") and allergic.group("b") not in _NOT_KIND:
        captured = allergic.group("b")
        fact = f"has a {captured} allergy"
    else:
        fact = "has allergies"
    finding = _finding(clause, allergic.start(), fact, "health:allergy", HEALTH)
    found.append(replace(finding, presupposed=bool(allergic.group("my")), captured=captured))
    return found


def _allergen(words: str) -> tuple[str, str] | None:
    """The noun phrase after "allergic to" (as captured, possessives kept for the name check;
    and as stored), or None when it names no allergen ("it", "something in the air")."""
    taken: list[str] = []
    for word in words.split():
        if word in _PHRASE_END or len(taken) == 3:
            break
        taken.append(word)
    captured = " ".join(taken)
    head = [w for w in taken if w not in _DETERMINERS and not w.endswith(("'s", "s'"))]
    if not head or head[0] in _NO_ALLERGEN or head[-1] in _NO_ALLERGEN:
        return None
    if head[-1].endswith("ing"):
        return None  # "allergic to running", "to cleaning": a chore, not an allergen
    return captured, " ".join(head)


def health(clause: Clause, memo: Memo) -> list[Finding]:
    """Health: surgery, pregnancy, disability, sleep debt, a named condition, cancer."""
    if not clause.asserts or clause.negated:
        return []
    text, found = clause.text, []
    condition = _CONDITION.search(text)
    if condition and not clause.remote_past:
        name = (
            condition.group("c")
            or {"diabetic": "diabetes", "asthmatic": "asthma", "epileptic": "epilepsy"}[
                condition.group("d")
            ]
        )
        if not _PASSING_WORRY.search(text):  # "anxiety about the exam" is a moment
            found.append(
                _finding(clause, condition.start(), f"has {name}", f"health:{name}", HEALTH)
            )
    cancer = _CANCER.search(text)
    if cancer:
        found.append(_finding(clause, cancer.start(), "had cancer", "health:cancer", HEALTH))
    surgery = _SURGERY.search(text)
    if surgery and not clause.remote_past and not _YEAR.search(text):
        found.append(_finding(clause, surgery.start(), "had surgery", "health:surgery", HEALTH))
    pregnant = _PREGNANT.search(text)
    if pregnant:
        found.append(_finding(clause, pregnant.start(), "is pregnant", "health:pregnancy", HEALTH))
    disability = _DISABILITY.search(text)
    if disability:
        found.append(
            _finding(clause, disability.start(), "has a disability", "health:disability", HEALTH)
        )
    sleep = _SLEEP.search(text)
    if sleep and not clause.remote_past:
        found.append(_finding(clause, sleep.start(), "has sleep debt", "health:sleep", HEALTH))
    return found


RULES = (diet, health, allergy)
