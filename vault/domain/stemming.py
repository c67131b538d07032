"""The one Python-side stemmer: Snowball's English stemmer (Porter2), from `snowballstemmer`.

Recall's ranking, the query's word groups and extraction's relevance all stem with it; SQLite's
FTS5 index keeps its own Porter tokenizer (the index stems the surface words it is given).
Irregular forms ("ran", "felt") are mapped by the callers' own tables before stemming.
"""

from __future__ import annotations

import functools

import snowballstemmer

_ENGLISH = snowballstemmer.stemmer("english")

# Words kept per stemming cache (least recently used go first): well above the words a coach's
# texts use (the test corpora hold about 3,000 distinct ones), small in memory (about 2 MB).
WORD_CACHE = 8192


@functools.lru_cache(maxsize=WORD_CACHE)
def snowball(word: str) -> str:
    """The Snowball English stem of one lower-case word (cached: the words of a language
    repeat, and ranking stems every candidate's text; uncached it is 50x slower)."""
    return str(_ENGLISH.stemWord(word))
