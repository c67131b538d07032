"""The recall ranking formula (pure): full-text relevance plus names, time, recency and type.

    score = 1.00 x text      BM25 (k1 1.2, b 0.75) over the candidates, divided by the best one
          + 0.30 x entity    share of the names in the query found in the episode (text or metadata)
          + 0.60 x time      1 inside the query's time span (or when the episode's words point
                             back at a time inside it: "yesterday" said on the 4th is the 3rd);
                             outside 0.5, halving every 3 days away
          + 0.10 x recency   halves every 30 days of age (0.40 when the query says "last time")
          + 0.15 x type      1 when the query names the episode's type ("race", "injury")
          + 0.20 x vector    cosine rescaled from the median (0) to the best (1) of the scanned
                             episodes, when the app supplies an embedder (0.20: the most that
                             never fell below the words alone on real dialogue)
          + 0.40 x neighbour the best text-and-names match of the episode's session neighbours
                             (the turn before or after it), on the 0..1 scale of text + entity;
                             an episode replying to a question (the turn before it, said by
                             someone else, ends with "?") counts that question's match at
                             0.80 (`Weights.reply`): a question's answer is the next turn
          + 0.30 x speaker   1 when the episode was said by a person the query names (its
                             `speaker` metadata): "what does Ana like" prefers Ana's own turns
          + 0.20 x answer    1 when the query asks for a time, a number or a place ("when did
                             ...", "how many ...", "where ...") and the episode says one
                             (vault.domain.answer_kinds)
          + 0.30 x session   for an episode matching a word of the query: the share of the
                             query's words (idf-weighted) that other candidates of its session
                             said within an hour of it say and it does not (a word held by 64
                             candidates or more counts for neither): of the turns about a car, the one in the
                             session about the workshop answers "what car did Dave work on
                             during the workshop?" (passage retrieval with the evidence of
                             its document, Callan 1994)

A query word matches its own stem at weight 1 and its domain synonyms at 0.6 (run / jog,
knee / leg). An episode that matches nothing (no word, name, time span or vector) is left out,
unless the query asks for no words at all (then recency orders everything). Ties break on
occurred_at (newest first), then id (highest first): the same data gives the same order. An
episode whose words repeat a better-ranked one exactly ("Knees feel fine" said every week) is
left out, so k results hold k different texts.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import json
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from vault.domain.answer_kinds import asked_kind, says
from vault.domain.episode_query import RELATED_WEIGHT, Query, Window, said_span, stems, words
from vault.domain.episodes import PEOPLE_KEYS, PLACE_KEYS, ScoreParts, meta_json

K1 = 1.2
B = 0.75
DAY = 86400.0
SESSION_REACH = timedelta(hours=1)  # the session part: others of the session said this close


@dataclass(frozen=True)
class Weights:
    """The weight of each score part (see the module docstring)."""

    text: float = 1.0
    entity: float = 0.30
    time: float = 0.60
    recency: float = 0.10
    recency_asked: float = 0.40
    type: float = 0.15
    vector: float = 0.20
    neighbour: float = 0.40
    reply: float = 0.80
    speaker: float = 0.30
    answer: float = 0.20
    session: float = 0.30
    recency_half_life_days: float = 30.0
    time_half_life_days: float = 3.0


DEFAULT_WEIGHTS = Weights()


_NAMED_KEYS = (*PEOPLE_KEYS, *PLACE_KEYS, "item", "speaker")
_NAMED_MARKS = tuple(f'"{key}"' for key in _NAMED_KEYS)  # as they appear in the stored JSON
DOCUMENT_CACHE = 16384  # analyzed texts kept per process (pure: keyed by text and metadata)


class Candidate:
    """One episode row under consideration.

    `meta` is the metadata as a dict or as its stored JSON text (`meta_json`); the text is
    parsed only when something reads `meta` (a filter, a name lookup, the k results).
    """

    __slots__ = (
        "_meta",
        "id",
        "members",
        "meta_json",
        "occurred_at",
        "row",
        "text",
        "type",
        "vector",
    )

    def __init__(
        self,
        id: int,
        text: str,
        type: str,
        occurred_at: datetime,
        meta: Mapping[str, Any] | str = "{}",
        *,
        vector: float | None = None,
        row: Any = None,
        members: tuple[Candidate, ...] = (),
    ) -> None:
        self.id = id
        self.members = members  # a burst: its messages, in order (the unit is ranked once)
        self.text = text
        self.type = type
        self.occurred_at = occurred_at
        self.vector = vector
        self.row = row  # the caller's own row, handed back untouched
        if isinstance(meta, str):
            self.meta_json, self._meta = meta, None
        else:
            self._meta = dict(meta)
            self.meta_json = meta_json(self._meta)

    @property
    def meta(self) -> dict[str, Any]:
        if self._meta is None:
            self._meta = json.loads(self.meta_json)
        return self._meta

    def __repr__(self) -> str:
        return f"Candidate({self.id!r}, {self.text!r}, {self.type!r}, {self.occurred_at!r})"

    @property
    def session(self) -> str:
        """The session it belongs to: its `session` metadata, else its day."""
        found = self.meta.get("session")
        return str(found) if found is not None else self.occurred_at.date().isoformat()


def burst(members: Sequence[Candidate]) -> Candidate:
    """One unit of consecutive messages of one speaker: ranked on their words together, shown
    as one, each message keeping its own row (and ref)."""
    first = members[0]
    return Candidate(
        first.id,
        "\n".join(m.text for m in members),
        first.type,
        first.occurred_at,
        first.meta_json,
        row=first.row,
        members=tuple(members),
    )


@dataclass(frozen=True)
class Ranked:
    candidate: Candidate
    score: float
    parts: ScoreParts


@functools.lru_cache(maxsize=DOCUMENT_CACHE)
def _named_values(meta_json: str) -> tuple[str, ...]:
    """The metadata's people, place and item values (strings), in key order."""
    if not any(mark in meta_json for mark in _NAMED_MARKS):
        return ()  # no such key: the JSON need not be parsed
    meta = json.loads(meta_json)
    return tuple(meta[key] for key in _NAMED_KEYS if isinstance(meta.get(key), str))


SPEAKER_PREFIX = re.compile(r"^([^\W\d_][\w .'-]{0,40}):\s")  # "Ana: " a message opens with


def speaker(text: str, meta: Mapping[str, Any]) -> str | None:
    """Who said it: `speaker` metadata, else a "Name: " the text opens with."""
    found = meta.get("speaker")
    if found is not None:
        return str(found)
    match = SPEAKER_PREFIX.match(text)
    return match.group(1) if match else None


# what may follow a question's mark at the end of a turn: spaces, "!", closing brackets and
# quotes, emoji with their modifiers and joiners
_AFTER_THE_MARK = frozenset({"Zs", "So", "Sk", "Mn", "Cf", "Pe", "Pf"})


def asks(text: str) -> bool:
    """Whether the text ends by asking: its last mark is "?" (or the full-width one), after
    which only spaces, "!", closing brackets or quotes and emoji follow ("...?", "...?!",
    "...? 😊", "(...?)"); or, as chat writes questions without the mark, its last sentence is
    left unmarked and opens as a question does: a question word ("which concert", "how early
    should we go") or an auxiliary before its subject ("did u see it", "are you coming");
    an exclamation ("what a game", "...!") is not one."""
    end = len(text)
    while end and (
        text[end - 1].isspace()
        or text[end - 1] in "!\uff01"
        or unicodedata.category(text[end - 1]) in _AFTER_THE_MARK
    ):
        end -= 1
    if end > 0 and text[end - 1] in "?\uff1f":
        return True
    said = SPEAKER_PREFIX.sub("", text, count=1).rstrip()
    if not said or said[-1] in ".!\uff01\u2026":
        return False
    last = _SENTENCES.split(said)[-1]
    return _OPENS_A_QUESTION.match(last) is not None and _EXCLAIMS.match(last) is None


_SENTENCES = re.compile(r"(?<=[.!?\uff01\uff1f])\s+")
_SUBJECT = r"(?:you|u|ya|y'all|we|they|he|she|it|i|there|that|this|ur|your)"
_OPENS_A_QUESTION = re.compile(
    r"(?i:(?:and |but |so |ok |okay |wait |hey |also )?"
    r"(?:(?:what|which|who|whom|whose|where|when|why|how)\b"
    r"|(?:are|is|was|were|do|does|did|can|could|will|would|should|have|has|had|shall|may"
    rf"|wanna|gonna)\s+{_SUBJECT}\b))"
)
_EXCLAIMS = re.compile(r"(?i:(?:and |but |so |oh )?what an? )")  # "what a game": exclaims


@functools.lru_cache(maxsize=DOCUMENT_CACHE)
def speaker_words(text: str, meta_json: str) -> frozenset[str]:
    """The words of who said an episode (`speaker`), lower-cased; empty when nobody is known."""
    if '"speaker"' in meta_json:
        found = speaker(text, json.loads(meta_json))
    else:  # no such key: the JSON need not be parsed
        match = SPEAKER_PREFIX.match(text)
        found = match.group(1) if match else None
    return frozenset(words(found)) if found else frozenset()


def named_speakers(query: Query, pool: Sequence[Candidate]) -> tuple[str, ...]:
    """The query's names that name who said one of the candidates (`speaker`), in the
    query's order."""
    if not query.names:
        return ()
    named = set(query.names)
    found = {n for c in pool for n in named & speaker_words(c.text, c.meta_json)}
    return tuple(n for n in query.names if n in found)


def asked_about(query: Query, speakers: Sequence[str]) -> frozenset[str]:
    """Whom of `speakers` (in the query's order) the query asks about: the first named, and
    those joined to them by "and" ("did Ana and Bo both ..."); a later name is who the first
    talked with or of ("what did Ana give Bo?")."""
    if not speakers:
        return frozenset()
    chosen = [speakers[0]]
    lowered = query.text.lower()
    for first, second in zip(speakers, speakers[1:]):
        joined = rf"\b{re.escape(first)}(?:'s)?\s*(?:,|and|&)\s*{re.escape(second)}\b"
        if not re.search(joined, lowered):
            break
        chosen.append(second)
    return frozenset(chosen)


@functools.lru_cache(maxsize=DOCUMENT_CACHE)
def _document(text: str, meta_json: str) -> tuple[dict[str, int], int]:
    """Stem counts and stem count of an episode's words (text, then named metadata values).

    Pure and cached: the same episodes come back as candidates query after query.
    """
    extra = " ".join(_named_values(meta_json))
    tokens = stems(text + " " + extra) if extra else stems(text)
    return dict(Counter(tokens)), len(tokens)


def stem_counts(candidate: Candidate) -> dict[str, int]:
    """How often each stem occurs in the candidate's words (text and named metadata)."""
    return _document(candidate.text, candidate.meta_json)[0]


@functools.lru_cache(maxsize=DOCUMENT_CACHE)
def _present(text: str, meta_json: str) -> frozenset[str]:
    """The words (and whole metadata names) a query's names are looked up in."""
    present = set(words(text))
    for value in _named_values(meta_json):
        present.update(words(value))
        present.add(value.lower())
    return frozenset(present)


@dataclass(frozen=True)
class _WordCounts:
    """Per candidate, each query word group's term frequency (synonyms at RELATED_WEIGHT)
    and the candidate's length; per group, its weighted idf and how many candidates hold it."""

    tfs: list[list[float]]
    lengths: list[int]
    idf: list[float]
    dfs: list[int]


def _word_counts(query: Query, pool: Sequence[Candidate], total: int) -> _WordCounts:
    groups = [(g.stem, tuple(g.related)) for g in query.groups]
    zeros = itertools.repeat(0)
    tfs: list[list[float]] = []
    lengths = []
    for candidate in pool:
        counts, length = _document(candidate.text, candidate.meta_json)
        lengths.append(length)
        get = counts.get
        # the stem's own count plus RELATED_WEIGHT x its synonyms' (int sums: any order)
        tfs.append(
            [
                get(root, 0) + RELATED_WEIGHT * (sum(map(get, related, zeros)) if related else 0)
                for root, related in groups
            ]
        )
    n = max(total, len(pool))
    idf, dfs = [], []
    for index, group in enumerate(query.groups):
        df = sum(1 for tf in tfs if tf[index] > 0)
        dfs.append(df)
        idf.append(group.weight * math.log(1.0 + (n - df + 0.5) / (df + 0.5)))
    return _WordCounts(tfs, lengths, idf, dfs)


def _text_scores(
    query: Query, pool: Sequence[Candidate], total: int, counts: _WordCounts | None = None
) -> list[float]:
    if not query.groups or not pool:
        return [0.0] * len(pool)
    counts = counts or _word_counts(query, pool, total)
    lengths, idf = counts.lengths, counts.idf
    average = (sum(lengths) / len(lengths)) or 1.0
    scores = []
    for tf, length in zip(counts.tfs, lengths):
        norm = K1 * (1 - B + B * length / average)
        scores.append(sum(w * t * (K1 + 1) / (t + norm) for w, t in zip(idf, tf) if t > 0))
    best = max(scores)
    return [s / best if best > 0 else 0.0 for s in scores]


def _session_scores(
    pool: Sequence[Candidate], counts: _WordCounts, word_cap: int | None
) -> list[float]:
    """For each candidate that holds a word of the query, the idf-weighted share of the
    query's words (feedback words included) that other candidates of its session said within
    SESSION_REACH of it hold and it does not (0..1): a conversation keeps to its topic for a
    while, not for a whole busy day. Candidates without `session` metadata are one session
    cut only by that reach. A word held by `word_cap` candidates or more counts neither for the others nor
    for the candidate: the pool holds only the newest of its episodes (an older session would
    look as if it lacked it), and a word said that often tells no turn apart ("running" in
    every talk of a runner: the turn saying only that word is no nearer the shoes of its
    session)."""
    whole = sum(counts.idf)
    scores = [0.0] * len(pool)
    if whole <= 0:
        return scores
    known = [word_cap is None or df < word_cap for df in counts.dfs]
    held = [frozenset(i for i, t in enumerate(tf) if t > 0 and known[i]) for tf in counts.tfs]
    sessions: dict[str, list[int]] = {}
    for index, (candidate, own) in enumerate(zip(pool, held)):
        if own:
            # without `session` metadata the hour around it decides, across midnight too
            sessions.setdefault(str(candidate.meta.get("session", "")), []).append(index)
    for members in sessions.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda i: pool[i].occurred_at)
        near: Counter[int] = Counter()
        first = last = 0  # members[first:last] were said within SESSION_REACH of the current
        for index in members:
            moment = pool[index].occurred_at
            while last < len(members) and pool[members[last]].occurred_at <= moment + SESSION_REACH:
                near.update(held[members[last]])
                last += 1
            while pool[members[first]].occurred_at < moment - SESSION_REACH:
                near.subtract(held[members[first]])
                first += 1
            added = [word for word, count in near.items() if count > 0 and word not in held[index]]
            scores[index] = sum(counts.idf[word] for word in added) / whole
    return scores


def says_time_in(window: Window, candidate: Candidate) -> bool:
    """Whether the earlier time the episode's words point at ("yesterday", "two days ago")
    lies inside the query's span: "last week" is no day of it, "last month" no week."""
    said = said_span(candidate.text, candidate.occurred_at)
    return said is not None and window.start <= said.start and said.end <= window.end


def _entity(query: Query, candidate: Candidate) -> float:
    if not query.names:
        return 0.0
    present = _present(candidate.text, candidate.meta_json)
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
    neighbours: Mapping[int, Sequence[int]] | None = None,
    replies: Mapping[int, Collection[int]] | None = None,
    speakers: frozenset[str] = frozenset(),
    word_cap: int | None = None,
    said_times: bool = True,
) -> list[Ranked]:
    """The best `k` of `pool` for `query` as of `now` (`window`: the resolved time span).

    `total` is the owner's episode count (or an estimate) for the BM25 idf; the pool size is
    used when it is larger. `neighbours` maps a candidate's id to the ids of its session
    neighbours in the pool: a candidate is lifted by `weights.neighbour` x the best of their
    matches (text and names); `replies` maps a candidate replying to a question to the
    question's id, whose match lifts it at `weights.reply` instead. `speakers`: whom the
    query asks about among who said the episodes (`asked_about`); their episodes get the
    speaker part. `word_cap`: how many candidates the pool takes per word at most (a word
    held by that many counts for no session's part). `said_times`: an episode whose words
    point back at a time inside `window` ("yesterday") is in it. The score parts are built for
    the chosen `k` only.
    """
    counts = _word_counts(query, pool, total) if query.groups and pool else None
    text = _text_scores(query, pool, total, counts)
    sessions = (
        _session_scores(pool, counts, word_cap) if counts is not None and weights.session else None
    )
    names = bool(query.names)
    entities = [_entity(query, c) if names else 0.0 for c in pool]
    lifts = _lifts(pool, text, entities, weights, neighbours, replies) if neighbours else None
    recency_weight = weights.recency_asked if query.wants_recent else weights.recency
    wordless = not query.groups and not query.names
    types = query.types
    answer_kind = asked_kind(query.text)
    scored: list[tuple[float, float, int, int, tuple[float, ...]]] = []
    for index, (candidate, t) in enumerate(zip(pool, text)):
        moment = candidate.occurred_at
        entity = entities[index]
        when = _time(window, moment, weights.time_half_life_days) if window is not None else 0.0
        if when < 1.0 and said_times and window is not None and says_time_in(window, candidate):
            when = 1.0
        vector = max(0.0, candidate.vector) if candidate.vector is not None else 0.0
        lift = lifts[index] if lifts is not None else 0.0
        own = (
            1.0
            if speakers and speakers & speaker_words(candidate.text, candidate.meta_json)
            else 0.0
        )
        if not wordless and t == 0 and entity == 0 and vector == 0 and lift == 0 and when < 1.0:
            continue
        age = max(0.0, (now - moment).total_seconds() / DAY)
        recency = 0.5 ** (age / weights.recency_half_life_days)
        # each part rounded to 6 places (a zero stays zero), the score summed in this order
        parts = (
            round(t, 6),
            round(entity, 6) if entity else 0.0,
            round(when, 6) if when else 0.0,
            round(recency, 6),
            1.0 if candidate.type in types else 0.0,
            round(vector, 6) if vector else 0.0,
            round(lift, 6) if lift else 0.0,
            own,
            1.0 if answer_kind is not None and says(answer_kind, candidate.text) else 0.0,
            round(sessions[index], 6) if sessions is not None and sessions[index] else 0.0,
        )
        score = round(
            weights.text * parts[0]
            + weights.entity * parts[1]
            + weights.time * parts[2]
            + recency_weight * parts[3]
            + weights.type * parts[4]
            + weights.vector * parts[5]
            + weights.neighbour * parts[6]
            + weights.speaker * parts[7]
            + weights.answer * parts[8]
            + weights.session * parts[9],
            6,
        )
        # ascending order of this key: best score, then newest, then highest id
        scored.append((-score, -moment.timestamp(), -candidate.id, index, parts))
    chosen: list[Ranked] = []
    seen: set[str] = set()
    # A text said again adds nothing: only its best-ranked copy is kept. The first few come
    # from a partial selection; everything is sorted only when duplicates use them up.
    limit = k * 4
    ordered = heapq.nsmallest(limit, scored) if len(scored) > limit else sorted(scored)
    if not _fill(ordered, pool, k, seen, chosen) and len(ordered) < len(scored):
        chosen.clear()
        seen.clear()
        _fill(sorted(scored), pool, k, seen, chosen)
    return chosen


def matches(
    query: Query, pool: Sequence[Candidate], total: int, weights: Weights = DEFAULT_WEIGHTS
) -> list[float]:
    """How well each candidate matches the query's words and names (text + entity parts):
    what picks the episodes whose session neighbours are worth fetching."""
    text = _text_scores(query, pool, total)
    if not query.names:
        return [weights.text * t for t in text]
    return [weights.text * t + weights.entity * _entity(query, c) for t, c in zip(text, pool)]


def _lifts(
    pool: Sequence[Candidate],
    text: Sequence[float],
    entities: Sequence[float],
    weights: Weights,
    neighbours: Mapping[int, Sequence[int]],
    replies: Mapping[int, Collection[int]] | None = None,
) -> list[float]:
    """Each candidate's best neighbour match (0 without one), on the neighbour's own scale;
    the question a candidate replies to counts at `weights.reply` / `weights.neighbour`."""
    match = {c.id: weights.text * t + weights.entity * e for c, t, e in zip(pool, text, entities)}
    scale = weights.text + weights.entity
    # a reply never counts its question below a plain neighbour (`RecallOptions.neighbours`
    # may set the neighbour weight above the reply's)
    answered = (
        max(weights.reply, weights.neighbour) / weights.neighbour
        if replies and weights.neighbour > 0
        else 1.0
    )
    lifts = []
    for candidate in pool:
        questions = replies.get(candidate.id, ()) if replies else ()
        best = max(
            (
                match.get(other, 0.0) * (answered if other in questions else 1.0)
                for other in neighbours.get(candidate.id, ())
            ),
            default=0.0,
        )
        lifts.append(best / scale)
    return lifts


def _fill(
    ordered: Sequence[tuple[float, float, int, int, tuple[float, ...]]],
    pool: Sequence[Candidate],
    k: int,
    seen: set[str],
    chosen: list[Ranked],
) -> bool:
    """Append to `chosen` the best-ranked copy of each text until `k`; True when it got `k`."""
    for negative_score, _when, _id, index, parts in ordered:
        candidate = pool[index]
        key = " ".join(words(candidate.text))
        if key in seen:
            continue
        seen.add(key)
        score_parts = ScoreParts(
            text=parts[0],
            entity=parts[1],
            time=parts[2],
            recency=parts[3],
            type=parts[4],
            vector=parts[5],
            neighbour=parts[6],
            speaker=parts[7],
            answer=parts[8],
            session=parts[9],
        )
        chosen.append(Ranked(candidate, -negative_score, score_parts))
        if len(chosen) == k:
            return True
    return False


def place(
    ranked: Sequence[Ranked],
    places: int,
    penalty: float = 0.0,
    offered: Callable[[Ranked], tuple[Sequence[Candidate], int]] = lambda item: (
        (item.candidate,),
        1,
    ),
    context: float = 1.0,
) -> list[tuple[Ranked, Candidate, float]]:
    """Fill `places` with episodes, best first: (the ranked item, the episode, its score).

    Each ranked item offers its episodes in the order `offered` gives with how many of them
    are held at its own score (a burst: the messages holding a word asked about); each further
    one is worth `context` x the one before it (none with `context` 0), so the messages around
    what matched compete with the next items for the places (each message fills one). An
    item not yet placed is lowered by `penalty` for every item already placed from its
    session: a top k that covers sessions rather than ten neighbours of one hit (0 keeps the
    ranked order). Ties keep the ranked order."""
    offers = [(item, *offered(item)) for item in ranked]
    taken = [0] * len(offers)
    used: Counter[str] = Counter()
    placed: list[tuple[Ranked, Candidate, float]] = []
    while len(placed) < places:
        best, best_value, best_score = -1, -math.inf, 0.0
        for index, (item, episodes, held) in enumerate(offers):
            step = taken[index]
            if step >= len(episodes) or (step >= held and context <= 0):
                continue
            score = item.score * context ** max(0, step - held + 1)
            value = score - penalty * used[item.candidate.session] if step == 0 else score
            if value > best_value:
                best, best_value, best_score = index, value, score
        if best < 0:
            break
        item, episodes, _ = offers[best]
        if taken[best] == 0:
            used[item.candidate.session] += 1
        placed.append((item, episodes[taken[best]], round(best_score, 6)))
        taken[best] += 1
    return placed
