"""Rules about the body: injuries (and their resolution), recovery, and responses to training.

Injury facts read "has [recurring ][left |right ]<part> issue" (confidence 0.9, category
injury); `vault.domain.text.entity_tags` turns the part into the `body:<part>` tag the merge planner
and retractions match on. "my knee is fine now" is a `Retraction(category=injury,
tags={"body:knee"})`, never a second, contradicting fact.
"""

from __future__ import annotations

import re

from vault.domain.text import entity_tags
from vault.domain.vocabulary import Category
from vault.extraction.clauses import Clause, Subject
from vault.extraction.findings import Finding, Memo
from vault.extraction.lexicon import (
    BODY_PARTS,
    SESSIONS,
    STATES,
    all_matches,
    alternation,
    compile_table,
)

INJURY, RESPONSE = 0.9, 0.6

_PARTS = compile_table(BODY_PARTS)
_SESSIONS_T, _STATES_T = compile_table(SESSIONS), compile_table(STATES)
_SESSION = alternation(SESSIONS)
_STATE = alternation(STATES)

_HURT = re.compile(
    r"\b(?:pain|painful|pains|sore|soreness|ache|aches|aching|achy|hurt|hurts|hurting|injur\w*"
    r"|issues?|problems?|trouble|niggles?|niggly|niggling|tight|tightness|tighten\w*|strain\w*"
    r"|sprain\w*|pulled|tweak\w*|twinge\w*|tendin\w*|tendon\w*|splints|fasciitis|inflam\w*"
    r"|swollen|swelling|bad|dodgy|gammy|cranky|grumbly|flar\w*|playing up|acting up|bother\w*"
    r"|killing me|wrecked|rolled|twisted|torn|tear|fracture\w*|syndrome|stiff|stiffness"
    r"|clicking|giving way|gave way|bursitis|sprung|knackered|shot|rolling|numb\w*|tingl\w*"
    r"|cramp\w*|broken|broke|break|breaks|busted|in a cast|in a sling|in a brace"
    r"|throbb\w*|grinding|locking|locked up|popp\w*|tender|bruised|screaming|barking|toast|on fire"
    r"|grief|gyp|jip|creaky|crunchy|grumpy|rehab\w*)\b"
)
# Hurt said through a negation: "not at 100%", "not in the best condition", "not right".
_NOT_WELL = re.compile(
    r"\bnot (?:quite |fully |yet |really )?(?:at )?100 ?%|\bnot (?:in )?(?:the |its |their )?"
    r"(?:best|great|good|greatest) (?:condition|shape|state)|\bnot (?:quite )?right\b"
)
# Effort, not injury: burning or sore muscles after strength work, unless it persists or is
# called an injury ("glutes on fire after squats" vs "glute still painful a week after squats").
_STRENGTH_WORK = re.compile(
    r"\b(?:strength|squats?|lunges?|deadlifts?|lifting|lifts?|weights|gym|leg day|core"
    r"|plyos?|plyometrics|kettlebells?|circuits?|sets?|reps)\b"
)
_EFFORT_ONLY = re.compile(
    r"\b(?:on fire|burning|burn|burned|burnt|sore|soreness|doms|achy|aching|tight|stiff|shaking"
    r"|jelly|pumped|toast|fried|screaming)\b"
)
_INJURY_WORD = re.compile(
    r"\b(?:injur\w*|strain\w*|sprain\w*|pulled|torn|tear|tweak\w*|painful|pain|hurts?|still"
    r"|persist\w*|days? later|a week|weeks|for days|keeps|again|won't go)\b"
)
_RECURRING = re.compile(
    r"\b(?:recurring|recurrent|chronic|history of|keeps?|kept|again|always|whenever|every ?time"
    r"|flar\w* up|on and off|on-off|for (?:years|months|ages)|prone to|old (?:\w+ )?injury"
    r"|comes back|came back|(?:is|are|'s) back|constantly|regularly|frequently"
    r"|every (?:run|ride|long run|session))\b"
)
_PAST_EVENT = re.compile(
    r"\bhad (?:a |an )?(?:\w+ ){0,2}(?:injury|surgery|operation|fracture|tear|sprain)\b"
)
_STILL = re.compile(r"\b(?:still|now|again|currently|since|at the moment)\b")
_RESOLVED = re.compile(
    r"\b(?:fine|good|ok|okay|great|better|healthy|grand|solid|good as new) (?:\w+ ){0,3}?(?:now"
    r"|again)\b"
    r"|\b(?:disappeared|vanished|went away|gone away|resolved|settled down)\b"
    r"|\b(?:is|are|has|have|'s|'ve) (?:totally |completely |fully |finally |all )?(?:healed"
    r"|recovered)\b"
    r"|\b(?:totally |completely |fully |finally |all )?(?:healed|recovered)\b(?! from)"
    r"|\b(?:is|are|'s|'re|has|have) (?:totally |completely |finally |all )?gone\b"
    r"|\bgone (?:now|away)\b|\bcleared up\b|\bsorted(?: out)?\b|\bback to normal\b|\b100 ?%"
    r"|\bpain[- ]free\b|\ball better\b|\bno longer (?:hurts?|sore|painful|an issue|a problem"
    r"|bother\w*|injured)"
    r"|\b(?:doesn't|don't|does not|isn't|aren't|not) (?:hurt|hurting|sore|painful|bother\w*"
    r"|an issue"
    r"|a problem)\w* (?:any ?more)|\bno more (?:\w+ )?(?:pain|issues?|problems?|soreness|niggles?"
    r"|trouble)"
    r"|\bno (?:pain|issues?|problems?) (?:any ?more)"
    r"|\b(?:is|are|'s) (?:totally |completely |perfectly )?(?:fine|ok|okay)\b"
)
_NEGATION_WORD = re.compile(
    r"\b(?:not|no|never|none|nothing|nobody|neither|nor|cannot|no longer)\b|n't\b"
)
_ANAPHORA = re.compile(r"\b(?:it|it's|its|they|they're|them|still|again)\b")
_THING_START = re.compile(r"^(?:but |and |so |though )?(?:it|it's|its|they|they're|they've|them)\b")
_OTHERS_PART = re.compile(
    r"\b(?:his|her|their|your|\w+'s) (?:(?:left|right|lower|upper|bad|sore) )?$"
)

_RECOVER_FAST = re.compile(
    r"\brecover(?:s|y is)? (?:really |pretty |very |quite |super |fairly )?(?:quickly|quick|fast"
    r"|well)\b"
    r"|\bbounce back (?:\w+ )?(?:quickly|fast)|\bquick to recover"
)
_RECOVER_SLOW = re.compile(
    r"\brecover(?:s)? (?:really |pretty |very |quite |fairly |a lot |much |a bit )?(?:slowly|slow"
    r"|slower"
    r"|more slowly|poorly|badly)\b"
    r"|\btakes? me (?:ages|forever|a while|a long time|longer|days|a week|\w+ days) to recover"
    r"|\brecovery takes (?:me )?(?:ages|forever|a while|longer|days|a long time)|\bslow to recover"
    r"|\bneed (?:\w+ ){0,3}?(?:to recover|recovery|rest days|days off|recovery days)"
)
_RESPONSE = re.compile(
    rf"\b(?P<s1>{_SESSION}) (?:\w+ ){{0,2}}?(?:make|makes|leave|leaves|get|gets|tire|tires)"
    rf" (?:me )?(?:\w+ ){{0,3}}?(?P<st1>{_STATE})\b"
    rf"|\b(?P<s2>{_SESSION}) (?:\w+ ){{0,2}}?(?:wipe|wipes|kill|kills|destroy|destroys|wreck|wrecks"
    r"|drain|drains|smash|smashes|take a lot out of|takes a lot out of|knock|knocks) (?:me|it out)"
    rf"|\bi(?:'m| am| get| feel)(?: \w+){{0,3}}? (?P<st3>{_STATE}|doms) after (?:any |a |my "
    rf"|the )?(?P<s3>{_SESSION})"
)
_RESPONDS_WELL = re.compile(
    rf"\b(?:i )?respond (?:really |very |quite )?well to (?P<s>{_SESSION})"
    rf"|\b(?P<s2>{_SESSION}) (?:really )?works? (?:really )?well for me"
    rf"|\bi thrive on (?P<s3>{_SESSION})"
)


_WINDOW = 48  # characters read before a body part for its side and owner


def mentions_injury(text: str) -> bool:
    """Whether `text` names one of the M13 spec's body parts together with a word for pain or injury."""
    lowered = text.lower()
    return bool(_HURT.search(lowered)) and any(True for _ in all_matches(_PARTS, lowered))


def _parts(text: str) -> list[tuple[str, str | None, int, bool]]:
    """(part, side, offset, someone else's?) for every body part named in `text`."""
    found: dict[str, tuple[str, str | None, int, bool]] = {}
    for match, part in all_matches(_PARTS, text):
        # Only the few words before the part matter ("my left", "her bad"); reading a bounded
        # window keeps a clause naming a part thousands of times linear, not quadratic.
        before = text[max(0, match.start() - _WINDOW) : match.start()]
        side_match = re.search(r"\b(left|right)(?: (?:lower|upper|outer|inner))? $", before)
        side = side_match.group(1) if side_match else None
        foreign = _OTHERS_PART.search(before) is not None and not before.endswith(
            ("my ", "left ", "right ")
        )
        previous = found.get(part)
        if previous is not None:
            side = side or previous[1]
            if previous[1] and side != previous[1]:
                side = None
        found[part] = (part, side, previous[2] if previous else match.start(), foreign)
    return sorted(found.values(), key=lambda item: item[2])


def _body_tags(part: str) -> frozenset[str]:
    """The body tag of "has <part> issue": the M13 spec's (what FactIn derives) or `body:<part>`
    for the parts beyond its list (leg, neck, wrist, arm, toe, groin, elbow)."""
    return entity_tags(f"has {part} issue", Category.INJURY) or frozenset({f"body:{part.lower()}"})


def _own(clause: Clause, part_text_before: str) -> bool:
    """Whether a part named in `clause` is the athlete's: "my knee" always is."""
    return (
        clause.subject is Subject.SELF
        or re.search(r"\bmy (?:\w+ )?$", part_text_before) is not None
    )


def injury(clause: Clause, memo: Memo) -> list[Finding]:
    """Injury facts ("my left knee has been sore" -> has left knee issue) and their resolution.

    "the knee is fine now" gives a retraction of `body:knee`, not a fact.
    """
    text = clause.text
    if _STRENGTH_WORK.search(text):
        memo.strength_sentence = clause.sentence
    named = [
        (part, side, at)
        for part, side, at, foreign in _parts(text)
        if not foreign and _own(clause, text[max(0, at - _WINDOW) : at])
    ]
    if clause.question or clause.hypothetical:
        return []
    if named:
        memo.saw_parts(clause.sentence, [(part, side) for part, side, _ in named])
    targets = [(part, side, at) for part, side, at in named]
    pointing = clause.subject is Subject.SELF or _THING_START.match(text)
    bare_resolution = _RESOLVED.search(text) and len(text.split()) <= 4
    if not targets and (_ANAPHORA.search(text) or bare_resolution) and pointing:
        targets = [(part, side, 0) for part, side in memo.parts_in(clause.sentence)]
        if not targets and _RESOLVED.search(text):
            targets = [(part, side, 0) for part, side in memo.body_parts]
    if not targets:
        return []
    not_well = _NOT_WELL.search(text)
    resolved = None if not_well else _RESOLVED.search(text)
    if resolved and not clause.one_off:
        return [
            Finding(
                "injury_resolved",
                (clause.index, at),
                Category.INJURY,
                retract_tags=_body_tags(part),
                slot=f"body:{part.lower()}",
            )
            for part, _, at in targets
        ]
    negated = clause.negated and (
        not_well is None or _NEGATION_WORD.search(_NOT_WELL.sub(" ", text)) is not None
    )
    if not (_HURT.search(text) or not_well) or negated:
        return []
    if (
        (_STRENGTH_WORK.search(text) or memo.strength_sentence == clause.sentence)
        and _EFFORT_ONLY.search(text)
        and not _INJURY_WORD.search(text)
    ):
        return []
    recurring = _RECURRING.search(text) is not None
    if not recurring and (
        clause.remote_past or (_PAST_EVENT.search(text) and not _STILL.search(text))
    ):
        return []
    findings = []
    for part, side, at in targets:
        words = (
            ["has"]
            + (["recurring"] if recurring else [])
            + ([side] if side else [])
            + [part, "issue"]
        )
        findings.append(
            Finding(
                "injury",
                (clause.index, at),
                Category.INJURY,
                " ".join(words),
                INJURY,
                tags=_body_tags(part),
                slot=f"body:{part.lower()}",
                priority=2 * recurring + (side is not None),
            )
        )
    return findings


def recovery(clause: Clause, memo: Memo) -> list[Finding]:
    """Recovery: "I recover quickly" / "recovery takes me ages" -> recovers quickly / slowly."""
    if not clause.asserts or clause.remote_past:
        return []
    for pattern, text in ((_RECOVER_SLOW, "recovers slowly"), (_RECOVER_FAST, "recovers quickly")):
        match = pattern.search(clause.text)
        if match and not (clause.negated and pattern is _RECOVER_FAST):
            return [
                Finding(
                    "recovery",
                    (clause.index, match.start()),
                    Category.TRAINING_RESPONSE,
                    text,
                    RESPONSE,
                    tags=frozenset({"response:recovery"}),
                )
            ]
    return []


def training_response(clause: Clause, memo: Memo) -> list[Finding]:
    """How sessions land: "long runs leave me exhausted" -> long runs leave them exhausted."""
    if not clause.asserts or clause.negated or clause.remote_past or clause.one_off:
        return []
    findings = []
    match = _RESPONSE.search(clause.text)
    if match:
        session_text = match.group("s1") or match.group("s2") or match.group("s3")
        state_text = match.group("st1") or match.group("st3") or "exhausted"
        session = next(v for _, v in all_matches(_SESSIONS_T, session_text))
        state = next(v for _, v in all_matches(_STATES_T, state_text))
        findings.append(
            Finding(
                "training_response",
                (clause.index, match.start()),
                Category.TRAINING_RESPONSE,
                f"{session} leave them {state}",
                RESPONSE,
                tags=frozenset({f"response:{session}"}),
            )
        )
    well = _RESPONDS_WELL.search(clause.text)
    if well:
        session_text = well.group("s") or well.group("s2") or well.group("s3")
        session = next(v for _, v in all_matches(_SESSIONS_T, session_text))
        findings.append(
            Finding(
                "training_response",
                (clause.index, well.start()),
                Category.TRAINING_RESPONSE,
                f"responds well to {session}",
                RESPONSE,
                tags=frozenset({f"response:{session}"}),
            )
        )
    return findings


RULES = (injury, recovery, training_response)
