"""Score stored facts against facts a person wrote down (MSC `persona_text`, LoCoMo observations).

No hand labels: the person-written facts are the labels. Two rules, kept apart from the
extractor (own word lists, written for the label side, never imported by vault):

1. **Which written facts a coach needs** (recall's denominator): a written sentence belongs to
   a coach *kind* when it names one of the kind's cue words: exercise (a sport or a way of
   training, not watching one), work, study, family (children, partner), health (a body part
   that hurts, an injury, a condition), diet, sleep, goal (an aim with a training or body
   object). A sentence can be of several kinds. Sentences are deduplicated per speaker.
2. **Which written fact supports a stored fact** (precision and recall's numerator): a stored
   fact's *key terms* are its content words once its template is removed ("works as a nurse"
   -> nurse; "primary sport: running" -> running; "has kids" -> kids), each widened with the
   synonyms of its group below (running: run, runner, jog, marathon, ...). A written sentence
   supports the fact when it holds one of the key terms (as a word, light stemming). A stored
   fact no sentence of that speaker supports is wrong; a fact whose key terms are generic
   ("sports", "exercise", "outdoor activities") is vague.

The rule is deliberately lenient on support (a shared key term is enough) and strict on
subject: only the speaker's own written facts count. A hand check of a sample is in
docs/learning.md.
"""

from __future__ import annotations

import re

_TEMPLATES = [
    r"primary sport: ",
    r"goal: ",
    r"level: ",
    r"typical duration: ",
    r"prefers ",
    r"dislikes ",
    r"likes ",
    r"also does ",
    r"does ",
    r"works as an? ",
    r"works (?:at|in|on) (?:an? |the )?",
    r"works ",
    r"is an? ",
    r"is ",
    r"has (?:a |an )?(?:recurring )?",
    r"eats ",
    r"lives with (?:a |an )?",
    r"studies ",
    r"sleeps ",
    r"trains ",
]
_DROP = {
    "issue",
    "issues",
    "sessions",
    "session",
    "pain",
    "injury",
    "min",
    "a",
    "an",
    "the",
    "regularly",
    "with",
    "left",
    "right",
    "lower",
    "upper",
    "of",
    "in",
    "for",
    "and",
    "to",
    "on",
    "at",
    "runs",
}
GENERIC = {
    "sports",
    "sport",
    "exercise",
    "outdoor",
    "activities",
    "company",
    "working",
    "out",
    "adventures",
    "business",
    "work",
    "fitness",
}

# Synonym groups: a key term matches any word of its group in a written fact.
_GROUPS = [
    "running run runs ran runner runners jog jogs jogging jogger marathon marathons 5k 10k",
    "cycling cycle cycles cyclist bike bikes biking bicycle bicycling ride rides riding",
    "swimming swim swims swam swimmer pool laps",
    "hiking hike hikes hiker trails",
    "walking walk walks walked",
    "strength training gym weights weight lifting lift lifts weightlifting powerlifting"
    " bodybuilding crossfit",
    "yoga",
    "pilates",
    "martial arts karate judo taekwondo jiu-jitsu kickboxing",
    "football soccer",
    "disability disabled deaf blind wheelchair",
    "dancing dance dances dancer ballet",
    "climbing climb climbs climber bouldering",
    "kids kid children child son sons daughter daughters baby babies mom dad mother father parent",
    # a grandparent's kin, written with or without a hyphen ("grand-kids")
    "grandchildren grandchild grandkids grandkid grandson grandsons granddaughter granddaughters"
    " grandbaby grandbabies",
    "partner wife husband married spouse boyfriend girlfriend fiance fiancee",
    "student school college university uni studying study studies major majoring degree"
    " class classes",
    "retired retire retirement",
    "vegan",
    "vegetarian",
    "gluten-free gluten celiac",
    "morning mornings",
    "evening evenings",
    "night nights",
    "lunchtime lunch",
    "afternoon",
    "group club team friends together",
    "busy hectic",
    "sleep sleeping asleep insomnia",
    "half marathon",
    "ultra ultramarathon",
    "triathlon ironman",
    "strength stronger",
    "weight pounds lbs kg lose",
]
_SYNONYMS: dict[str, set[str]] = {}
for _group in _GROUPS:
    words = set(_group.split())
    for _w in words:
        _SYNONYMS.setdefault(_w, set()).update(words)

KINDS: dict[str, re.Pattern[str]] = {
    "exercise": re.compile(
        r"\b(?:run|runs|running|ran|runner|jog\w*|marathons?|swim\w*|swam|bik(?:e|es|ing)"
        r"|cycl(?:e|es|ing|ist)|hik(?:e|es|ing)|walk(?:s|ing)?|yoga|pilates|gym|work(?:ing)? ?out"
        r"|workouts?|exercis\w*|lift\w*|weights|crossfit|danc\w*|ballet|tennis|soccer|football"
        r"|basketball|baseball|softball|volleyball|hockey|golf|ski|skiing|snowboard\w*|surf\w*"
        r"|climb\w*|boxing|karate|martial arts|kayak\w*|row(?:ing)|skat\w*|triathlon\w*"
        r"|fitness|zumba|spin class|sports?|athlete)\b"
    ),
    "work": re.compile(
        r"\b(?:work(?:s|ed)? (?:as|at|in|for)|my job|job as|career|profession|employed|unemployed"
        r"|retired|business|shifts?|nurse|teacher|doctor|lawyer|engineer|chef|cook|mechanic"
        r"|accountant|manager|cashier|waitress|waiter|firefighter|police|officer|soldier"
        r"|military|army|navy|farmer|carpenter|plumber|electrician|designer|developer|programmer"
        r"|writer|artist|musician|driver|pilot|scientist|veterinarian|vet|dentist|pharmacist"
        r"|librarian|secretary|receptionist|clerk|salesman|saleswoman|realtor|banker|barista"
        r"|bartender|janitor|housekeeper|babysitter|nanny|trainer|coach|professor|therapist"
        r"|photographer|journalist|editor|consultant|analyst|architect|contractor|construction"
        r"|looking for (?:work|a job))\b|\bi(?:'m| am) an? (?:\w+ )?\w+(?:er|or|ist|ian)\b"
    ),
    "study": re.compile(
        r"\b(?:student|college|university|grad school|school|studying|study|major\w*|degree"
        r"|classes|semester|graduat\w*|phd|master's)\b"
    ),
    "family": re.compile(
        r"\b(?:kids?|children|child|sons?|daughters?|baby|babies|pregnan\w*|married|wife"
        r"|husband|spouse|boyfriend|girlfriend|fianc\w*"
        r"|grand-?(?:child|children|kids?|sons?|daughters?|bab(?:y|ies)))\b"
    ),
    "health": re.compile(
        r"\b(?:injur\w*|hurt\w*|pain(?:s|ful)?|aches?|aching|sore|knees?|ankles?|bad back|shoulders?|hips?"
        r"|surgery|broke|broken|sprain\w*|asthma|diabet\w*|arthritis|cancer|disab\w*"
        r"|wheelchair|allerg\w*|illness|sick|condition|blind|deaf|heart|blood pressure"
        r"|depress\w*|anxiety)\b"
    ),
    "diet": re.compile(
        r"\b(?:vegan|vegetarian|pescatarian|diet\w*|gluten\w*|keto|paleo|calories|eat(?:s|ing)?"
        r" (?:healthy|clean|meat|no|only|less|more)|healthy food|junk food|fast food|sugar"
        r"|lactose|kosher|halal)\b"
    ),
    "sleep": re.compile(
        r"\b(?:sleep\w*|insomnia|night owl|early riser|early bird|wake up early|nap\w*)\b"
    ),
    "goal": re.compile(
        r"\b(?:lose weight|lost \w+ pounds|losing weight|weight loss|get (?:in shape|fit|stronger)"
        r"|stay fit|stronger|train(?:ing)? for|sign(?:ed)? up for|goal|compete|competition"
        r"|race|races|bench|squat|deadlift)\b"
    ),
}
_WATCHING = re.compile(r"\bwatch\w*|\bfan\b|\bon tv\b|\bgames?\b(?! of)")


def _words(text: str) -> set[str]:
    low = re.sub(r"\bgrand-(?=[a-z])", "grand", text.lower().replace("\u2019", "'"))
    return set(re.findall(r"[a-z0-9][a-z0-9'-]*", low))


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "s", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


# A written fact a coach needs is about the speaker, now: first person, not past, not negated,
# not a wish (a goal is the one kind that is a wish by nature).
_SELF = re.compile(r"^(?:i|i'm|i've|i'd|i'll|my|me|we|we're|we've|our)\b")
_OTHER = re.compile(
    r"^(?:my|our) (?:\w+ )?(?:wife|husband|partner|boyfriend|girlfriend|mom|mother|dad|father"
    r"|parents?|sons?|daughters?|kids?|children|child|brother|sister|siblings?|friends?|family"
    r"|grand\w+|uncle|aunt|cousin|dog|dogs|cat|cats|pets?|boss|neighbou?r)s?\b(?! and i\b)"
)
_NOT_NOW = re.compile(
    r"\b(?:used to|was|were|as a (?:kid|child|teen)|when i was|years ago|in high school"
    r"|in college|don't|do not|didn't|never|can't|cannot|not|no longer|won't|went|had|ago"
    r"|last (?:year|month|week|night|summer|weekend)|yesterday)\b"
)
_WISH = re.compile(
    r"\b(?:want(?:s|ed)? to|would like|'d like|wish|hope|plan(?:ning)? to|will|might|may"
    r"|someday|one day|thinking about|going to|gonna|considering)\b"
)


def about_self_now(sentence: str, kinds: set[str]) -> bool:
    """The label rule: a first-person statement of now (a goal may be a wish)."""
    low = sentence.lower().replace("\u2019", "'").strip()
    if not _SELF.match(low) or _OTHER.match(low) or _NOT_NOW.search(low):
        return False
    return kinds == {"goal"} or "goal" in kinds or not _WISH.search(low)


def kinds_of(sentence: str) -> set[str]:
    """The coach kinds a written fact belongs to (empty: a coach does not need it)."""
    low = sentence.lower()
    found = {kind for kind, cue in KINDS.items() if cue.search(low)}
    if found and not about_self_now(sentence, found):
        return set()
    if (
        "exercise" in found
        and _WATCHING.search(low)
        and not re.search(r"\b(?:play|plays|played|playing|run|swim|hike|gym|work ?out)\b", low)
    ):
        found.discard("exercise")
    return found


def key_terms(fact_text: str) -> set[str]:
    """The words of a stored fact that a written fact must hold to support it."""
    text = fact_text.lower().strip()
    for template in _TEMPLATES:
        stripped = re.sub(rf"^{template}", "", text)
        if stripped != text:
            text = stripped
            break
    terms = {w for w in _words(text) if w not in _DROP and not w.isdigit()}
    if {"half", "marathon"} <= terms:
        terms = {"half marathon"}
    widened = set(terms)
    for term in terms:
        widened |= _SYNONYMS.get(term, set())
    return widened


def is_vague(fact_text: str) -> bool:
    """A fact whose content is a generic word ("likes sports", "works in a company")."""
    terms = {w for w in _words(fact_text) if w not in _DROP}
    content = key_terms(fact_text)
    return bool(content) and content <= GENERIC or (not content and bool(terms & GENERIC))


def supports(sentence: str, fact_text: str) -> bool:
    """True when the written `sentence` holds one of the stored fact's key terms."""
    terms = key_terms(fact_text)
    if not terms:
        return False
    low = sentence.lower()
    words = {_stem(w) for w in _words(low)}
    for term in terms:
        if " " in term:
            if term in low:
                return True
        elif _stem(term) in words:
            return True
    return False
