"""How the extraction scorers compare job facts: a title the speaker narrowed is the labelled one.

The gold files name a job by its head title ("works as a teacher"); the job rule keeps the
words that say what kind ("works as a primary school teacher"). English compounds put the head
last, so a title that ends with the labelled title, word for word, is that job."""

from __future__ import annotations

import re

_TITLE = re.compile(r"works as an? (?P<t>.+)")


def as_labelled(predicted: str, gold: set[str]) -> str:
    """`predicted` as the gold fact it narrows, or unchanged (all texts normalised)."""
    mine = _TITLE.fullmatch(predicted)
    if mine is None or predicted in gold:
        return predicted
    for fact in sorted(gold, key=len, reverse=True):  # the most specific gold title
        theirs = _TITLE.fullmatch(fact)
        if theirs and mine.group("t").endswith(" " + theirs.group("t")):
            return fact
    return predicted
