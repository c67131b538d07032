"""Feedback words: the best matches' own words, asked about again at a low weight (pure).

A question often names a kind of thing ("what activities does Ana do?", "which cities has she
been to?") where what was said names the things themselves ("pottery", "camping", "Lisbon").
Without a language model, the owner's own history is what links them: the episodes that match
the question best also hold words of the same subject. Their most distinctive words (count in
those episodes x idf over the candidates: frequent there, rare elsewhere) join the question
at a low weight, so episodes sharing them with the best matches rise a little. This is
pseudo-relevance feedback (Rocchio 1971; RM3, Lavrenko and Croft 2001), measured in
docs/recall.md.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

from vault.domain.episode_query import STOPWORDS, Query, WordGroup, stem, words
from vault.domain.episode_rank import Candidate, speaker_words, stem_counts
from vault.domain.topics import FILLER

FEEDBACK_DOCS = 10  # best-ranked candidates whose words are read
FEEDBACK_WORDS = 5  # words added to the question at most
FEEDBACK_WEIGHT = 0.1  # each added word's weight (a question's own words weigh 1)


def feedback_groups(
    query: Query,
    best: Sequence[Candidate],
    pool: Sequence[Candidate],
    skip: Iterable[str] = (),
    *,
    weight: float = FEEDBACK_WEIGHT,
    limit: int = FEEDBACK_WORDS,
) -> tuple[WordGroup, ...]:
    """Up to `limit` word groups (at `weight`) for the most distinctive words of `best` (the
    best-ranked candidates) that the question does not already ask about; `pool` gives each
    word's document frequency, `skip` more names to leave out. Who speaks is no subject: the
    names of the candidates' speakers are never fed back."""
    speakers = {name for c in best for name in speaker_words(c.text, c.meta_json)}
    names = (*query.names, *skip, *speakers)
    have = {g.stem for g in query.groups} | {stem(n) for n in names}
    surface: dict[str, str] = {}
    for candidate in best:
        for word in words(candidate.text):
            if len(word) < 3 or word.isdigit() or word in STOPWORDS or word in FILLER:
                continue
            root = stem(word)
            if root not in have and len(root) >= 3:
                surface.setdefault(root, word)  # the index stems the word itself
    if not surface:
        return ()
    frequency: Counter[str] = Counter()
    for candidate in pool:
        frequency.update(root for root in stem_counts(candidate) if root in surface)
    size = len(pool)
    score: dict[str, float] = {}
    for candidate in best:
        for root, count in stem_counts(candidate).items():
            if root in surface:
                score[root] = score.get(root, 0.0) + count * math.log(
                    1.0 + size / (1.0 + frequency[root])
                )
    ranked = sorted(score, key=lambda root: (-score[root], root))[:limit]
    return tuple(WordGroup(root, frozenset(), (surface[root],), weight) for root in ranked)
