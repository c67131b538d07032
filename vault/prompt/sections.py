"""The episodic-memory design's labelled prompt sections: stable knowledge, then past experience for this moment.

    KNOWLEDGE:
    - primary sport: running
    - has recurring knee issue

    PAST EXPERIENCE:
    - tends to skip after rest days

KNOWLEDGE lists the top facts (confidence >= 0.5, priority order, `knowledge_limit` of them):
what the coach "read in the book" about this athlete. PAST EXPERIENCE lists up to
`experience_limit` (the episodic-memory design: 3) of the remaining items with confidence >= 0.3 (other facts,
patterns and notes) that the injected `rank` callable finds relevant to `context`; an item is
never shown twice. A blank context asks for nothing, so PAST EXPERIENCE is then left out.

The relevance ranking is injected rather than imported so this module stays pure and testable;
bind `now` when passing `vault.extraction.relevance.rank_relevant`:

    rank = lambda items, context, limit: rank_relevant(items, context, now, limit)

Texts go through `items.inline`. Empty sections are left out; nothing at all gives "".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from vault.domain.errors import InvalidInput
from vault.domain.limits import ACTIVE_FLOOR, PROMPT_FLOOR
from vault.domain.models import AthleteMemory
from vault.prompt.items import Item, confidence_of, inline, ranked

KNOWLEDGE_LABEL = "KNOWLEDGE:"
EXPERIENCE_LABEL = "PAST EXPERIENCE:"
KNOWLEDGE_LIMIT = 5
EXPERIENCE_LIMIT = 3

Ranker = Callable[[Sequence[Item], str, int], Sequence[Item]]
"""`rank(items, context, limit)`: at most `limit` of `items`, most relevant first."""


def render_sections(
    memory: AthleteMemory,
    context: str,
    *,
    rank: Ranker,
    knowledge_limit: int = KNOWLEDGE_LIMIT,
    experience_limit: int = EXPERIENCE_LIMIT,
) -> str:
    """The KNOWLEDGE and PAST EXPERIENCE sections for `memory` in `context`.

    Raises:
        InvalidInput: a limit is negative.
    """
    if knowledge_limit < 0 or experience_limit < 0:
        raise InvalidInput("section limits must not be negative")
    knowledge = [
        fact
        for fact in ranked(memory.facts)
        if confidence_of(fact) >= PROMPT_FLOOR and inline(fact.text)
    ][:knowledge_limit]
    shown = {_key(fact) for fact in knowledge}
    everything: list[Item] = [*memory.facts, *memory.patterns, *memory.notes]
    pool: list[Item] = [
        item
        for item in ranked(everything)
        if _key(item) not in shown and confidence_of(item) >= ACTIVE_FLOOR and inline(item.text)
    ]
    experience: list[Item] = []
    if context.strip() and pool and experience_limit:
        allowed = {_key(item) for item in pool}
        for item in rank(pool, context, experience_limit):
            # Trust the ranker's order, not its membership or its length.
            if _key(item) in allowed and len(experience) < experience_limit:
                allowed.discard(_key(item))
                experience.append(item)
    blocks = [
        _section(label, chosen)
        for label, chosen in ((KNOWLEDGE_LABEL, knowledge), (EXPERIENCE_LABEL, experience))
        if chosen
    ]
    return "\n".join(blocks)


def _key(item: Item) -> tuple[str, int]:
    return (item.kind.value, item.id)


def _section(label: str, items: Sequence[Item]) -> str:
    return label + "\n" + "".join(f"- {inline(item.text)}\n" for item in items)
