"""The recall ranking formula (pure): full-text relevance plus names, time, recency and type.

    score = 1.00 x text      BM25 (k1 1.2, b 0.75) over the candidates, divided by the best one
          + 0.30 x entity    share of the names in the query found in the episode (text or metadata)
          + 0.60 x time      1 inside the query's time span; outside 0.5, halving every 3 days away
          + 0.10 x recency   halves every 30 days of age (0.40 when the query says "last time")
          + 0.15 x type      1 when the query names the episode's type ("race", "injury")
          + 0.50 x vector    cosine similarity, when the app supplies an embedding function

A query word matches its own stem at weight 1 and its domain synonyms at 0.6 (run / jog,
knee / leg). An episode that matches nothing (no word, name, time span or vector) is left out,
unless the query asks for no words at all (then recency orders everything). Ties break on
occurred_at (newest first), then id (highest first): the same data gives the same order. An
episode whose words repeat a better-ranked one exactly ("Knees feel fine" said every week) is
left out, so k results hold k different texts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from vault.domain.episode_query import RELATED_WEIGHT, Query, Window, stems, words
from vault.domain.episodes import PEOPLE_KEYS, PLACE_KEYS, ScoreParts

K1 = 1.2
B = 0.75
DAY = 86400.0


@dataclass(frozen=True)
class Weights:
    """The weight of each score part (see the module docstring)."""

    text: float = 1.0
    entity: float = 0.30
    time: float = 0.60
    recency: float = 0.10
    recency_asked: float = 0.40
    type: float = 0.15
    vector: float = 0.50
    recency_half_life_days: float = 30.0
    time_half_life_days: float = 3.0


DEFAULT_WEIGHTS = Weights()


@dataclass
class Candidate:
    """One episode row under consideration."""

    id: int
    text: str
    type: str
    occurred_at: datetime
    meta: dict[str, Any]
    vector: float | None = None
    row: Any = None  # the caller's own row, handed back untouched
    _stems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Ranked:
    candidate: Candidate
    score: float
    parts: ScoreParts


def _document_stems(candidate: Candidate) -> list[str]:
    extra = " ".join(
        str(candidate.meta[key])
        for key in (*PEOPLE_KEYS, *PLACE_KEYS, "item")
        if isinstance(candidate.meta.get(key), str)
    )
    return stems(candidate.text + " " + extra) if extra else stems(candidate.text)


def _text_scores(query: Query, pool: Sequence[Candidate], total: int) -> list[float]:
    if not query.groups or not pool:
        return [0.0] * len(pool)
    tfs: list[list[float]] = []
    lengths = []
    for candidate in pool:
        tokens = candidate._stems or _document_stems(candidate)
        candidate._stems = tokens
        lengths.append(len(tokens))
        counts: dict[str, int] = {}
        for token in tokens:
            counts[token] = counts.get(token, 0) + 1
        tfs.append(
            [
                counts.get(g.stem, 0) + RELATED_WEIGHT * sum(counts.get(r, 0) for r in g.related)
                for g in query.groups
            ]
        )
    n = max(total, len(pool))
    average = (sum(lengths) / len(lengths)) or 1.0
    idf = []
    for index in range(len(query.groups)):
        df = sum(1 for tf in tfs if tf[index] > 0)
        idf.append(math.log(1.0 + (n - df + 0.5) / (df + 0.5)))
    scores = []
    for tf, length in zip(tfs, lengths):
        norm = K1 * (1 - B + B * length / average)
        scores.append(sum(w * t * (K1 + 1) / (t + norm) for w, t in zip(idf, tf) if t > 0))
    best = max(scores)
    return [s / best if best > 0 else 0.0 for s in scores]


def _entity(query: Query, candidate: Candidate) -> float:
    if not query.names:
        return 0.0
    present = set(words(candidate.text))
    for key in (*PEOPLE_KEYS, *PLACE_KEYS, "item"):
        value = candidate.meta.get(key)
        if isinstance(value, str):
            present.update(words(value))
            present.add(value.lower())
    found = sum(1 for name in query.names if name in present)
    return float(found) / len(query.names)


def _time(window: Window | None, moment: datetime, half_life: float) -> float:
    if window is None:
        return 0.0
    if window.start <= moment < window.end:
        return 1.0
    gap = (window.start - moment) if moment < window.start else (moment - window.end)
    return float(0.5 * 0.5 ** (gap.total_seconds() / DAY / half_life))  # outside: at most 0.5


def rank(
    query: Query,
    pool: Sequence[Candidate],
    now: datetime,
    *,
    window: Window | None = None,
    k: int = 3,
    total: int = 0,
    weights: Weights = DEFAULT_WEIGHTS,
) -> list[Ranked]:
    """The best `k` of `pool` for `query` as of `now` (`window`: the resolved time span).

    `total` is the owner's episode count (or an estimate) for the BM25 idf; the pool size is
    used when it is larger.
    """
    text = _text_scores(query, pool, total)
    recency_weight = weights.recency_asked if query.wants_recent else weights.recency
    wordless = not query.groups and not query.names
    ranked: list[Ranked] = []
    for candidate, t in zip(pool, text):
        entity = _entity(query, candidate)
        when = _time(window, candidate.occurred_at, weights.time_half_life_days)
        vector = max(0.0, candidate.vector) if candidate.vector is not None else 0.0
        if not wordless and t == 0 and entity == 0 and vector == 0 and when < 1.0:
            continue
        age = max(0.0, (now - candidate.occurred_at).total_seconds() / DAY)
        recency = 0.5 ** (age / weights.recency_half_life_days)
        kind = 1.0 if candidate.type in query.types else 0.0
        parts = ScoreParts(
            text=round(t, 6), entity=round(entity, 6), time=round(when, 6),
            recency=round(recency, 6), type=kind, vector=round(vector, 6),
        )  # fmt: skip
        score = (
            weights.text * parts.text
            + weights.entity * parts.entity
            + weights.time * parts.time
            + recency_weight * parts.recency
            + weights.type * parts.type
            + weights.vector * parts.vector
        )
        ranked.append(Ranked(candidate, round(score, 6), parts))
    ranked.sort(key=lambda r: (-r.score, -r.candidate.occurred_at.timestamp(), -r.candidate.id))
    chosen: list[Ranked] = []
    seen: set[str] = set()
    for item in ranked:  # a text said again adds nothing: only its best-ranked copy is kept
        key = " ".join(words(item.candidate.text))
        if key not in seen:
            seen.add(key)
            chosen.append(item)
            if len(chosen) == k:
                break
    return chosen


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two equal-length vectors (0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
