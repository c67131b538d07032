"""Word helpers shared by the extractors and relevance: tokens, stop-words, a light stemmer."""

from __future__ import annotations

import re

from vault.domain.stemming import snowball

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

# A small English list: function words, pronouns and chat filler that carry no topic.
STOP_WORDS: frozenset[str] = frozenset(
    """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each even few
    for from further get got had has have having he her here hers herself him himself his how i
    if in into is it its itself just let like me more most much my myself no nor not now of off
    on once only or other our ours ourselves out over own really same she should so some such
    than that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you
    your yours yourself yourselves i'm i've i'd i'll it's don't doesn't didn't can't won't isn't
    aren't wasn't weren't haven't hasn't ok okay yeah yes hi hey thanks please lol tbh bit lot
    today yesterday tomorrow week day time thing things one still ever anything something
    """.split()  # noqa: SIM905 - a word list reads better as text
)

# Irregular forms the suffix rules cannot reach.
_IRREGULAR = {
    "ran": "run",
    "swam": "swim",
    "rode": "ride",
    "ridden": "ride",
    "feet": "foot",
    "calves": "calf",
    "children": "child",
    "went": "go",
    "felt": "feel",
    "hurt": "hurt",
}


def tokens(text: str) -> list[str]:
    """Lower-case word tokens, apostrophes folded to ASCII, possessive `'s` dropped."""
    lowered = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    return [t.removesuffix("'s") for t in _TOKEN.findall(lowered)]


def stem(word: str) -> str:
    """A word's stem (runs/running/ran -> run, injuries -> injuri): irregular forms mapped,
    then the one stemmer of vault (Snowball English, vault.domain.stemming)."""
    lowered = word.lower()
    return snowball(_IRREGULAR.get(lowered, lowered))


def content_stems(text: str) -> frozenset[str]:
    """The stems of the words in `text` that are not stop-words."""
    return frozenset(stem(t) for t in tokens(text) if t not in STOP_WORDS and len(t) > 1)


# A vowel letter said as a consonant: "a used car", "a university", "a union", "a one-man band"
_A_BEFORE_VOWEL = re.compile(r"uni(?!n)|us[eu]|uti|ur[aeiou]|ux|eu|one\b|once\b")
# A word of consonants only is said letter by letter: "an HR manager", "an RN", "a CPA".
_LETTERS = re.compile(r"[b-df-hj-np-tv-z]{2,5}\b")


def indefinite(word: str) -> str:
    """The indefinite article `word` takes, by its first sound as far as spelling tells it:
    "an engineer", "an unemployed", "a used car salesman", "a university lecturer"."""
    lower = word.lower()
    if _LETTERS.match(lower):
        return "an" if lower[0] in "fhlmnrsx" else "a"
    if _A_BEFORE_VOWEL.match(lower):
        return "a"
    return "an" if lower[:1] in set("aeiou") or lower.startswith(("hour", "honest")) else "a"
