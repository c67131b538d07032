"""Recall: the owner's episodes most relevant to a question (read only; docs/recall.md).

`recall(episodes, RecallRequest(...))` gathers candidates (the full-text index per query word,
the question's time span, the owner's newest when the question has no words, the session
neighbours of the best matches, the nearest vectors with an app's embedder), ranks them with
vault.domain.episode_rank, asks again with the best matches' own words
(vault.domain.episode_feedback), and fills the k places: a burst's messages around what
matched compete with the next episodes for them, and the top k is spread over sessions when
asked to (episode_rank.place).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from vault.domain.answer_kinds import asked_kind, says
from vault.domain.embedding import Embedder, cosines, pack
from vault.domain.episode_feedback import FEEDBACK_DOCS, FEEDBACK_WEIGHT, feedback_groups
from vault.domain.episode_query import (
    RELATED_SURFACE,
    Query,
    Window,
    WordGroup,
    analyze,
    stem,
)
from vault.domain.episode_rank import (
    DEFAULT_WEIGHTS,
    Candidate,
    Ranked,
    Weights,
    asked_about,
    asks,
    burst,
    matches,
    named_speakers,
    place,
    rank,
    says_time_in,
    speaker,
)
from vault.domain.episodes import Episode
from vault.domain.errors import InvalidInput
from vault.domain.topics import topics
from vault.storage.dialect import has_fts5
from vault.storage.repositories.episodes import EpisodeRepository, fts_any, fts_match, owner_key

NEIGHBOUR_WEIGHT = 0.4
VECTOR_SCAN = 2000  # the owner's newest episodes whose vectors a query is compared with
VECTOR_TOP = 2  # per place of k: episodes the vectors alone bring in
BURST_GAP = timedelta(minutes=5)  # one speaker's consecutive messages this close: one burst
BURST_REACH = 5  # messages fetched on each side of a best match to find its burst
OTHER_CHAT_ROWS = 8  # more read on each side, for another chat's messages sent in between
BURST_MAX = 8  # messages of one burst at most
BURST_SHOWN = 2  # messages of one burst holding words asked about placed at its score
BURST_CONTEXT = 0.8  # each further message of a burst: the score x this per step from them
BURST_WORDS = 30  # a message longer than this says a whole thing: it joins no burst
SPREAD_DEPTH = 3  # ranked per place of k before the places are filled
SESSION_PENALTY = 0.15  # a pick's score lowered by this per pick already made from its session
NEIGHBOUR_SEEDS = 20  # at most this many best matches have their session neighbours fetched
SESSION_GAP = timedelta(hours=1)  # episodes this close without `session` metadata: one session
GROUP_CAP = 64  # candidates per query word (newest first) and for all words together
WINDOW_CAP = 64  # candidates from the query's time span
SAID_LATER = timedelta(days=8)  # "yesterday", "two days ago", "last Monday" said this much after
SAID_READ = 2000  # episodes of those days read at most (a busy chat's first days of them)
FILTER_KEYS = frozenset({"type", "outcome", "since", "until", "location", "person", "item"})


@dataclass(frozen=True)
class RecallOptions:
    """Which structural parts recall uses (all on by default; tools/eval_recall.py turns them
    on one at a time to measure each).

    - `dates`: a calendar date in the question ("on May 2nd", "April 27th") is that day.
    - `neighbours`: a turn's score lifted by this share of its best session neighbour's text
      score (the answer often sits one turn after the words the question repeats).
    - `replies`: a turn that replies to a question (the turn before it, said by someone else,
      ends with "?") is lifted by its question's match at `Weights.reply` instead: the
      answer to a question asked in the conversation is the turn after it (needs
      `neighbours`).
    - `bursts`: consecutive messages of one speaker at most BURST_GAP apart around a best
      match are ranked as one unit (their words together); each message placed keeps its own
      ref and fills one of the k places: those holding a word asked about at the unit's score,
      the others beside them after, lower (`_offered`, `episode_rank.place`).
    - `speakers`: when the question names who said some of the episodes (`speaker`
      metadata), that person's own episodes get the speaker part, and the name stops counting
      as a word.
    - `feedback`: the most distinctive words of the best matches join the question at this
      weight, and the episodes they match join the candidates (vault.domain.episode_feedback).
    - `sessions`: a turn holding a word of the question is lifted by the words its session's
      other candidates hold and it does not (`Weights.session`): the turn about the car in
      the session about the workshop.
    - `said_times`: an episode whose own words point back at a time inside the question's
      span ("yesterday I met ..." said the day after) is in it, and the episodes of the days
      after the span that say such words join the candidates.
    - `spread`: each pick's score is lowered by this much per pick already made from its
      session (its `session` metadata, else its day): answers spread over sessions.
    """

    dates: bool = True
    neighbours: float = NEIGHBOUR_WEIGHT
    replies: bool = True
    bursts: bool = True
    speakers: bool = True
    feedback: float = FEEDBACK_WEIGHT
    sessions: bool = True
    said_times: bool = True
    spread: float = 0.0  # measured: every penalty tried lost on LoCoMo dev (docs/recall.md)

    @classmethod
    def plain(cls) -> RecallOptions:
        """Every structural part off: the ranking of names, synonyms, time words and recency."""
        return cls(
            dates=False,
            neighbours=0.0,
            replies=False,
            bursts=False,
            speakers=False,
            feedback=0.0,
            sessions=False,
            said_times=False,
            spread=0.0,
        )

    @staticmethod
    def steps() -> list[tuple[str, dict[str, Any]]]:
        """(label, change) in the order tools/eval_recall.py adds the parts."""
        return [
            ("+ calendar dates in the question resolved to that day", {"dates": True}),
            ("+ session neighbours", {"neighbours": NEIGHBOUR_WEIGHT}),
            ("+ bursts ranked as one unit", {"bursts": True}),
            ("+ the speaker asked about preferred", {"speakers": True}),
            ("+ feedback words from the best matches", {"feedback": FEEDBACK_WEIGHT}),
            ("+ the reply to a question asked in the conversation", {"replies": True}),
            ("+ the words the rest of its session says", {"sessions": True}),
            ("+ the time an episode's words point back at", {"said_times": True}),
            ("+ top k spread over sessions", {"spread": SESSION_PENALTY}),
        ]


DEFAULT_OPTIONS = RecallOptions()


@dataclass(frozen=True)
class RecallRequest:
    """One question to recall for: whose, what, as of when, how many, and how.

    `filters` keys: type, outcome, location, person, item (a value or a list), since / until
    (aware datetimes). `total` is the owner's episode count for the BM25 idf (estimated from
    the candidates when not given). `embedder` adds the vector part (same model only).
    """

    owner_id: str
    text: str
    now: datetime
    k: int = 3
    filters: Mapping[str, Any] | None = None
    embedder: Embedder | None = None
    weights: Weights = DEFAULT_WEIGHTS
    total: int | None = None
    options: RecallOptions = DEFAULT_OPTIONS


@dataclass
class _Search:
    """One recall under way: the repository, the owner, the checked filters, the candidates."""

    episodes: EpisodeRepository
    owner_id: str
    filters: dict[str, Any]
    pool: list[Candidate] = field(default_factory=list)

    def add(self, candidates: list[Candidate]) -> None:
        # a message gathered into a burst is known through its unit
        known = {c.id for c in self.pool} | {m.id for c in self.pool for m in c.members}
        self.pool.extend(c for c in candidates if c.id not in known and _passes(c, self.filters))


def recall(episodes: EpisodeRepository, request: RecallRequest) -> list[Episode]:
    """The owner's `request.k` episodes most relevant to `request.text` (see episode_rank)."""
    search = _Search(episodes, request.owner_id, _filters(request.filters))
    options, now, k = request.options, request.now, request.k
    analyzed = analyze(request.text, now, dates=options.dates)
    window, analyzed = _resolve_time(search, analyzed, now)
    recent = WINDOW_CAP if not analyzed.groups or request.embedder is not None else 0
    search.add(_pool(search, analyzed, window, recent))
    if window is not None and options.said_times:
        search.add(_said_later(search, window))
    pool = search.pool
    speaking = named_speakers(analyzed, pool) if options.speakers else ()
    if speaking:
        analyzed = _without_words(analyzed, speaking)
    speakers = asked_about(analyzed, speaking)
    estimate = request.total if request.total is not None else max(len(pool), GROUP_CAP) * 4
    weights = request.weights if options.sessions else replace(request.weights, session=0.0)
    neighbours: dict[int, list[int]] | None = None
    replies: dict[int, set[int]] | None = None
    if options.neighbours > 0 and pool:
        weights = replace(weights, neighbour=options.neighbours)
        neighbours, replies = _add_neighbours(
            search, analyzed, k, estimate, weights, options.bursts
        )
        if not options.replies:
            replies = None
    if request.embedder is not None:
        _score_vectors(search, request.text, request.embedder, k)
    depth = k * SPREAD_DEPTH if options.spread or options.bursts else k
    ranked = rank(
        analyzed,
        search.pool,
        now,
        window=window,
        k=max(depth, FEEDBACK_DOCS) if options.feedback else depth,
        total=estimate,
        weights=weights,
        neighbours=neighbours,
        replies=replies,
        speakers=speakers,
        word_cap=GROUP_CAP,
        said_times=options.said_times,
    )
    if options.feedback > 0 and analyzed.groups:
        # the best that match a word of the question: not those a name or the time alone found
        best = [r.candidate for r in ranked[:FEEDBACK_DOCS] if r.parts.text > 0]
        added = feedback_groups(analyzed, best, search.pool, speaking, weight=options.feedback)
        if added:
            # their own candidates first (no vector part: the vectors were compared above),
            # then the question ranked again with them
            search.add(_word_pool(search, added))
            ranked = rank(
                replace(analyzed, groups=analyzed.groups + added),
                search.pool,
                now,
                window=window,
                k=depth,
                total=estimate,
                weights=weights,
                neighbours=neighbours,
                replies=replies,
                speakers=speakers,
                word_cap=GROUP_CAP,
                said_times=options.said_times,
            )
    kind = asked_kind(analyzed.text)
    placed = place(
        ranked,
        k,
        options.spread,
        lambda item: _offered(analyzed, kind, item, estimate),
        BURST_CONTEXT,
    )
    return [_episode(request.owner_id, item, c, score) for item, c, score in placed]


def _without_words(query: Query, speakers: tuple[str, ...]) -> Query:
    """The query without the words that name who said some episodes: who said an episode is
    its speaker part, and a "Name: " every one of their messages opens with would otherwise
    rank their shortest messages first ("Ana: ok!")."""
    gone = {stem(name) for name in speakers}
    return replace(query, groups=tuple(g for g in query.groups if g.stem not in gone))


def _offered(
    query: Query, kind: str | None, ranked: Ranked, total: int
) -> tuple[tuple[Candidate, ...], int]:
    """A ranked burst's messages in the order they are worth a place, and how many are held
    at the burst's score: the first BURST_SHOWN holding a word asked about (the speaker's name
    is in every one of them, so it does not count), then one saying the `kind` of answer asked
    for ("that was in 2019"), then the others by how near they sit to a held one, the earlier
    first, each at BURST_CONTEXT x the one before it: what answers a question is often the
    message next to the one that repeats its words ("Last week I got a new Ferrari!" / "It's a
    masterpiece on wheels"). Without a message holding a word asked about, the one saying the
    kind of answer asked for, else the one that says the most (the most topics; the earliest
    of equals), is held. Beyond the held messages, one that says
    nothing (no topic: "ok", "lol") is never worth a place, unless it says the kind of answer
    asked for ("in 2019" to "when ...?"). An episode ranked alone offers itself."""
    members = ranked.candidate.members
    if not members:
        return (ranked.candidate,), 1
    named = {stem(name) for name in query.names}
    words = tuple(g for g in query.groups if g.stem not in named)
    own = matches(replace(query, groups=words, names=()), members, total)
    holding = [i for i, s in enumerate(own) if s > 0]
    said = [len(topics(m.text)) for m in members]
    saying = [
        i for i, m in enumerate(members) if said[i] or (kind is not None and says(kind, m.text))
    ]
    # without a word asked about (a reply, a neighbour): the message saying the kind of answer
    # asked for, else the one that says the most: the answer, not the "wait" sent before it
    most = max(
        saying,
        key=lambda i: (kind is not None and says(kind, members[i].text), said[i], -i),
        default=0,
    )
    held = holding[:BURST_SHOWN] or ([most] if saying else [0])
    rest = sorted(
        (i for i in saying if i not in held),
        key=lambda i: (
            kind is None or not says(kind, members[i].text),
            min(abs(i - h) for h in held),
            i,
        ),
    )
    return tuple(members[i] for i in held + rest), len(held)


def _episode(owner_id: str, ranked: Ranked, shown: Candidate, score: float) -> Episode:
    """An episode placed: the one ranked, or a message of the burst ranked (its parts)."""
    return Episode(
        id=shown.id,
        owner_id=owner_id,
        ref=shown.row[1],
        type=shown.type,
        outcome=shown.row[3],
        text=shown.text,
        occurred_at=shown.occurred_at,
        meta=shown.meta,
        score=score,
        parts=ranked.parts,
    )


def _score_vectors(search: _Search, question: str, embedder: Embedder, k: int) -> None:
    """Set each candidate's vector part; add the owner's episodes nearest the question that the
    words missed (from the newest VECTOR_SCAN with a vector of this model and dimension).

    The part is the cosine rescaled between the (lower) median and the best of the scanned
    episodes (0 at or below the median, 1 for the best; the cosine itself when they are all
    alike): models differ in their cosine ranges, and a vector near the median tells nothing
    apart, so it must not lift a turn over a word match.
    """
    episodes, owner_id = search.episodes, search.owner_id
    wanted = [float(v) for v in embedder.embed([question])[0]]
    pack(wanted, embedder.dim, embedder.model)  # checks length and values
    scanned = episodes.owner_vectors(owner_id, embedder.model, embedder.dim, VECTOR_SCAN)
    known = {c.id for c in search.pool}
    missing = [c.id for c in search.pool if c.id not in scanned]
    if missing:
        scanned.update(episodes.vectors(owner_id, missing, embedder.model, embedder.dim))
    if not scanned:
        return
    ids = list(scanned)
    similarity = dict(zip(ids, cosines(wanted, [scanned[i] for i in ids])))
    ordered = sorted(similarity.values())
    median, best = ordered[(len(ordered) - 1) // 2], ordered[-1]
    span = best - median

    def part(value: float) -> float:
        return max(0.0, (value - median) / span) if span > 0 else max(0.0, value)

    nearest = sorted((i for i in ids if i not in known), key=lambda i: (-similarity[i], -i))
    search.add([_candidate(row) for row in episodes.rows(owner_id, nearest[: VECTOR_TOP * k])])
    for candidate in search.pool:
        if candidate.id in similarity:
            candidate.vector = part(similarity[candidate.id])


def _pool(search: _Search, query: Query, window: Window | None, recent: int) -> list[Candidate]:
    if not has_fts5(search.episodes.connection):
        return _pg_pool(search, query, window, recent)
    hits = search.episodes.candidate_rows(
        search.owner_id,
        _fts_expressions(search.owner_id, query),
        GROUP_CAP,
        window=(window.start, window.end) if window is not None else None,
        recent=recent,
    )
    return [Candidate(h[0], h[4], h[2], h[5], h[6], row=h) for h in hits]


def _word_pool(search: _Search, groups: tuple[WordGroup, ...]) -> list[Candidate]:
    """The candidates of each word group alone (no expression of all of them together)."""
    episodes, owner_id = search.episodes, search.owner_id
    if not has_fts5(episodes.connection):
        words = [w for g in groups for w in g.surface]
        ids = episodes.pg_candidates(owner_id, words, GROUP_CAP * len(groups))
        return [_candidate(row) for row in episodes.rows(owner_id, ids)]
    key = owner_key(owner_id)
    hits = episodes.candidate_rows(owner_id, [fts_any(key, g.surface) for g in groups], GROUP_CAP)
    return [Candidate(h[0], h[4], h[2], h[5], h[6], row=h) for h in hits]


def _add_neighbours(
    search: _Search, query: Query, k: int, total: int, weights: Weights, bursts: bool
) -> tuple[dict[int, list[int]], dict[int, set[int]]]:
    """Fetch the session neighbours of the best-matching candidates into the pool and, with
    `bursts`, gather each one's burst (the consecutive messages its speaker sent around it)
    into one unit in place of its messages; return who neighbours whom (both ways), and which
    of them reply to a question (the reply's id: the ids of the questions), by id."""
    pool = search.pool
    scores = matches(query, pool, total, weights)
    seeds = sorted(
        (i for i, s in enumerate(scores) if s > 0), key=lambda i: (-scores[i], -pool[i].id)
    )[: min(NEIGHBOUR_SEEDS, 2 * k)]
    known = {c.id: c for c in pool}
    reach = BURST_REACH if bursts else 1
    pairs: list[tuple[int, int]] = []
    asked: list[tuple[int, int]] = []  # (question, its reply)
    chains: list[list[Candidate]] = []
    for seed in [pool[i] for i in seeds]:
        # another chat's messages can sit in between only where chats are told apart
        extra = OTHER_CHAT_ROWS if seed.meta.get("session") is not None else 0
        before, after = search.episodes.adjacent(
            search.owner_id, seed.id, seed.occurred_at, n=reach + extra
        )
        chain = [seed]
        for side in (before, after):
            last = seed
            rows = iter(_same_chat(seed, side, reach, known))
            for other in rows:  # nearest first
                if not _passes(other, search.filters):
                    break
                known.setdefault(other.id, other)
                if bursts and _same_burst(last, other):
                    chain.append(other)
                    last = other
                    continue
                pairs.append((last.id, other.id))
                earlier, later = (last, other) if side is after else (other, last)
                if _replies_to(later, earlier):
                    asked.append((earlier.id, later.id))
                    if bursts and side is after:  # the reply's own burst, from the rows read
                        answer = _burst_from(other, rows, known, search.filters)
                        if len(answer) > 1:
                            chains.append(answer)
                break
        if len(chain) > 1:
            chains.append(chain)
    unit_of = _units(chains)
    members = {m.id for chain in unit_of.values() for m in chain}
    units = {uid: burst(sorted(chain, key=_order)) for uid, chain in unit_of.items()}
    representative = {m.id: uid for uid, chain in unit_of.items() for m in chain}
    in_pool = {c.id for c in pool}
    pool[:] = [c for c in pool if c.id not in members]
    for candidate in known.values():
        if candidate.id not in members and candidate.id not in in_pool:
            pool.append(candidate)
    pool.extend(units.values())
    neighbours: dict[int, list[int]] = {}
    for a, b in pairs:
        first, second = representative.get(a, a), representative.get(b, b)
        if first != second:
            neighbours.setdefault(first, []).append(second)
            neighbours.setdefault(second, []).append(first)
    replies: dict[int, set[int]] = {}
    for question_id, reply_id in asked:
        asker = representative.get(question_id, question_id)
        answerer = representative.get(reply_id, reply_id)
        if asker != answerer:
            replies.setdefault(answerer, set()).add(asker)
    return neighbours, replies


def _same_chat(
    seed: Candidate, rows: Sequence[Any], reach: int, known: dict[int, Candidate]
) -> list[Candidate]:
    """The first `reach` of `rows` (nearest first) in the seed's session, passing over the
    messages of another session sent in between (one owner's chats written at once: a DM and
    a group chat)."""
    kept: list[Candidate] = []
    last = seed
    for row in rows:
        if len(kept) == reach:
            break
        other = known.get(row.id) or _candidate(row)
        if _same_session(last, other):
            kept.append(other)
            last = other
    return kept


def _burst_from(
    first: Candidate,
    rows: Iterator[Candidate],
    known: dict[int, Candidate],
    filters: dict[str, Any],
) -> list[Candidate]:
    """`first` and the messages after it of the same burst, from `rows` (nearest first)."""
    chain = [first]
    for other in rows:
        if not _passes(other, filters) or not _same_burst(chain[-1], other):
            break
        known.setdefault(other.id, other)
        chain.append(other)
    return chain


def _replies_to(later: Candidate, earlier: Candidate) -> bool:
    """`later` (the next turn in the session) answers `earlier`: `earlier` ends with a
    question and someone else says `later` (both known, told apart without case). An
    adjacency pair of conversation analysis (Schegloff and Sacks 1973): a question makes its
    answer the next turn, whatever words the answer uses."""
    if not asks(earlier.text):
        return False
    who, whom = _speaker(later), _speaker(earlier)
    if not who or not who.strip() or not whom or not whom.strip():
        return False  # nobody known: a log of one author's notes asks itself
    return who.strip().casefold() != whom.strip().casefold()


def _units(chains: list[list[Candidate]]) -> dict[int, list[Candidate]]:
    """Chains that share a message are one burst: {first member's id: its messages}."""
    merged: list[dict[int, Candidate]] = []
    for chain in chains:
        found = {c.id: c for c in chain}
        overlapping = [m for m in merged if m.keys() & found.keys()]
        for m in overlapping:
            found.update(m)
            merged.remove(m)
        merged.append(found)
    units: dict[int, list[Candidate]] = {}
    for group in merged:
        ordered = sorted(group.values(), key=_order)[:BURST_MAX]
        units[ordered[0].id] = ordered
    return units


def _order(candidate: Candidate) -> tuple[datetime, int]:
    return (candidate.occurred_at, candidate.id)


def _speaker(candidate: Candidate) -> str | None:
    """Who sent it: `speaker` metadata, else a "Name: " the text opens with."""
    return speaker(candidate.text, candidate.meta)


def _same_burst(a: Candidate, b: Candidate) -> bool:
    """Consecutive short messages of one speaker, at most BURST_GAP apart (an exchange written
    as one episode, a question and its reply, is no message of a burst: it is long)."""
    speaker = _speaker(a)
    return (
        speaker is not None
        and speaker == _speaker(b)
        and abs(a.occurred_at - b.occurred_at) <= BURST_GAP
        and _short(a.text)
        and _short(b.text)
    )


def _short(text: str) -> bool:
    """At most BURST_WORDS words (the "Name: " a message may open with included)."""
    return len(text.split(maxsplit=BURST_WORDS)) <= BURST_WORDS


def _candidate(row: Any) -> Candidate:
    return Candidate(
        row.id,
        row.text,
        row.type,
        row.occurred_at,
        row.meta,
        row=(row.id, row.ref, row.type, row.outcome, row.text, row.occurred_at, row.meta),
    )


def _same_session(a: Candidate, b: Candidate) -> bool:
    """Both carry the same `session` metadata, or (without it) occurred within SESSION_GAP."""
    first, second = a.meta.get("session"), b.meta.get("session")
    if first is not None and second is not None:
        return bool(first == second)
    return abs(a.occurred_at - b.occurred_at) <= SESSION_GAP


def _fts_expressions(owner_id: str, query: Query) -> list[str]:
    """SQLite: one FTS5 expression per query word group (any of its words) and, with several
    groups, one for all of them together; each gives its newest GROUP_CAP matches."""
    groups = [g.surface for g in query.groups if g.surface]
    key = owner_key(owner_id)
    found = [fts_any(key, group) for group in groups]
    if len(groups) > 1:
        found.append(fts_match(key, groups))
    return found


def _pg_pool(search: _Search, query: Query, window: Window | None, recent: int) -> list[Candidate]:
    """PostgreSQL: the text candidates (best ts_rank first), the time span's and the newest."""
    episodes, owner_id = search.episodes, search.owner_id
    groups = [g.surface for g in query.groups if g.surface]
    ids: list[int] = []
    if groups:
        words = [w for g in groups for w in g]
        ids = episodes.pg_candidates(owner_id, words, GROUP_CAP * len(groups))
    rows = {row.id: row for row in episodes.rows(owner_id, ids)}
    if window is not None:
        spanned = episodes.window(owner_id, window.start, window.end, WINDOW_CAP)
        rows.update({row.id: row for row in spanned})
    if recent:
        rows.update({row.id: row for row in episodes.recent(owner_id, recent)})
    return [_candidate(row) for row in rows.values()]


def _said_later(search: _Search, window: Window) -> list[Candidate]:
    """Of the days after the query's span, the earliest WINDOW_CAP episodes whose words point
    back at a time inside it ("yesterday I met ..."), among the first SAID_READ said there."""
    try:
        end = window.end + SAID_LATER
    except OverflowError:
        return []  # a span at the end of the calendar: no days after it
    rows = search.episodes.pointing_back(search.owner_id, window.end, end, SAID_READ)
    found = (_candidate(row) for row in rows)
    return list(itertools.islice((c for c in found if says_time_in(window, c)), WINDOW_CAP))


def text_candidate_ids(episodes: EpisodeRepository, owner_id: str, query: Query) -> set[int]:
    """The ids of the text candidates alone (tools/bench_episodes.py reports the pool size)."""
    if not has_fts5(episodes.connection):
        words = [w for g in query.groups for w in g.surface]
        return set(episodes.pg_candidates(owner_id, words, GROUP_CAP * len(query.groups)))
    hits = episodes.candidate_rows(owner_id, _fts_expressions(owner_id, query), GROUP_CAP)
    return {hit[0] for hit in hits}


def _resolve_time(search: _Search, query: Query, now: datetime) -> tuple[Window | None, Query]:
    """The query's time span; "before / after the race" is found among the episodes."""
    episodes, owner_id = search.episodes, search.owner_id
    if query.wants_first:
        oldest = episodes.oldest(owner_id)
        if oldest is None:
            return query.window, query
        start = oldest.replace(hour=0, minute=0, second=0, microsecond=0)
        return Window(start, start + timedelta(days=1)), query
    anchor = query.anchor
    if anchor is None:
        return query.window, query
    surface: list[str] = []
    for word in anchor.event:
        surface.extend([word, *RELATED_SURFACE.get(stem(word), ())])
    limit = query.window.end if query.window is not None else now
    if has_fts5(episodes.connection):
        match = fts_any(owner_key(owner_id), surface)
        found = [h[5] for h in episodes.candidate_rows(owner_id, [match], GROUP_CAP)]
    else:
        ids = episodes.pg_candidates(owner_id, surface, GROUP_CAP)
        found = [row.occurred_at for row in episodes.rows(owner_id, ids)]
    times = [moment for moment in found if moment <= limit]
    if not times:
        return query.window, query
    moment = max(times)
    window = (
        Window(moment - anchor.span, moment)
        if anchor.direction == "before"
        else Window(moment + timedelta(seconds=1), moment + anchor.span)
    )
    event_stems = {stem(w) for w in anchor.event}
    remaining = tuple(g for g in query.groups if g.stem not in event_stems)
    types = query.types - {"race"} if "race" in event_stems else query.types
    trimmed = Query(query.text, remaining, query.names, types, window, None, query.wants_recent)
    return window, trimmed


def _filters(filters: Mapping[str, Any] | None) -> dict[str, Any]:
    if not filters:
        return {}
    unknown = set(filters) - FILTER_KEYS
    if unknown:
        raise InvalidInput(f"unknown recall filter(s) {sorted(unknown)}; use {sorted(FILTER_KEYS)}")
    checked: dict[str, Any] = {}
    for key, value in filters.items():
        if key in ("since", "until"):
            if not isinstance(value, datetime) or value.tzinfo is None:
                raise InvalidInput(f"filter {key} must be a timezone-aware datetime")
            checked[key] = value
        elif isinstance(value, (list, tuple, set, frozenset)):
            checked[key] = {str(v).lower() for v in value}
        else:
            checked[key] = {str(value).lower()}
    return checked


def _passes(candidate: Candidate, filters: dict[str, Any]) -> bool:
    for key, wanted in filters.items():
        if key == "since" and candidate.occurred_at < wanted:
            return False
        if key == "until" and candidate.occurred_at >= wanted:
            return False
        if key == "type" and candidate.type not in wanted:
            return False
        if key == "outcome" and (candidate.row[3] or "") not in wanted:
            return False
        if key in ("location", "item") and str(candidate.meta.get(key, "")).lower() not in wanted:
            return False
        if key == "person":
            people = {str(candidate.meta.get(k, "")).lower() for k in ("person", "npc")}
            if not people & wanted:
                return False
    return True
