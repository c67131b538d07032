"""The MEMORY block of the engine guide, byte for byte, inside a hard token budget.

Layout (each line ends with "\\n"; a section with no items is left out; no items at all gives ""):

    MEMORY:
    - Facts: primary sport: running | has recurring knee issue
    - Patterns: tends to skip after rest days
    - Notes: responds well to encouragement after hard sessions

Selection: facts with confidence >= 0.5, at most 15; at most 5 patterns and 5 notes; each
section in priority order (`vault.prompt.items`). Item text goes through `items.inline`, so a
"|" becomes "/" and line breaks or control characters become a space: no item can forge
another item or line.

Budget: the whole text, header included, never has more tokens than `budget`. While it would,
items are dropped whole, never cut, in `DROP_ORDER`: facts from the lowest priority up, then
notes from the lowest up, then patterns from the lowest up. The block keeps the longest tail of
that order that fits; a dropped item is never replaced by a lower-priority one that would fit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from pydantic import BaseModel, ConfigDict

from vault.domain.errors import InvalidInput
from vault.domain.limits import MAX_FACTS, MAX_LIST_ITEMS, PROMPT_BUDGET_TOKENS, PROMPT_FLOOR
from vault.domain.models import AthleteMemory, PromptRow
from vault.domain.pieces import InlinePieces
from vault.domain.vocabulary import Kind
from vault.prompt.items import Item, inline, ranked
from vault.prompt.tokens import DEFAULT_ENCODING, check_encoding, count_each

DEFAULT_BUDGET = (
    PROMPT_BUDGET_TOKENS  # the athlete-memory plan §7: what is left for memory in 1024 tokens
)

HEADER = "MEMORY:\n"
LABELS: dict[Kind, str] = {
    Kind.FACT: "- Facts: ",
    Kind.PATTERN: "- Patterns: ",
    Kind.NOTE: "- Notes: ",
}
SEPARATOR = " | "
SECTION_ORDER = (Kind.FACT, Kind.PATTERN, Kind.NOTE)
DROP_ORDER = (Kind.FACT, Kind.NOTE, Kind.PATTERN)


class DropReason(str, Enum):
    """Why an active item is not in the block."""

    BELOW_THRESHOLD = "below_threshold"  # a fact under confidence 0.5
    CAP = "cap"  # past the 15 facts / 5 patterns / 5 notes
    EMPTY = "empty"  # no printable text once made inline-safe
    BUDGET = "budget"  # removed so the block fits its token budget


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


# Dropped and Included are frozen dataclasses, not models: a block makes several per call on
# the hot path (a dataclass costs ~0.8 µs, a model's `model_construct` ~2.7 µs); MemoryBlock
# serializes them like models (`model_dump_json`).
@dataclass(frozen=True, slots=True)
class Dropped:
    """One item left out of the block, with its stored text and the reason."""

    kind: Kind
    id: int
    text: str
    confidence: float
    reason: DropReason


@dataclass(frozen=True, slots=True)
class Included:
    """Ids of the items in the block, in the order they appear."""

    facts: tuple[int, ...] = ()
    patterns: tuple[int, ...] = ()
    notes: tuple[int, ...] = ()

    def of(self, kind: Kind) -> tuple[int, ...]:
        """The ids shown for one kind."""
        return {Kind.FACT: self.facts, Kind.PATTERN: self.patterns, Kind.NOTE: self.notes}[kind]


class MemoryBlock(_Frozen):
    """The text the model receives, its size, and what was shown and left out."""

    text: str
    tokens: int
    budget: int
    encoding: str
    included: Included
    dropped: tuple[Dropped, ...]


def layout(sections: dict[Kind, Sequence[str]]) -> str:
    """The engine guide's text for already inline-safe item texts; "" when there is nothing to show."""
    lines = [
        f"{LABELS[kind]}{SEPARATOR.join(sections[kind])}\n"
        for kind in SECTION_ORDER
        if sections.get(kind)
    ]
    return HEADER + "".join(lines) if lines else ""


def render_memory_block(
    memory: AthleteMemory, *, budget: int = DEFAULT_BUDGET, encoding: str = DEFAULT_ENCODING
) -> MemoryBlock:
    """Render `memory` as the engine guide's MEMORY block of at most `budget` tokens.

    Raises:
        InvalidInput: `budget` is not a positive whole number, or `encoding` cannot be loaded.
    """
    _check_budget(budget)
    return render_within(memory, budget, encoding)


def render_rows(
    rows: Mapping[Kind, Sequence[PromptRow]],
    *,
    budget: int = DEFAULT_BUDGET,
    encoding: str = DEFAULT_ENCODING,
) -> MemoryBlock:
    """`render_memory_block` for each kind's rows already in priority order (the hot path:
    `vault.storage.queries.prompt_rows` reads them in one statement)."""
    _check_budget(budget)
    return _render(rows, budget, encoding)


def render_within(memory: AthleteMemory, budget: int, encoding: str) -> MemoryBlock:
    """`render_memory_block` without the argument check: a budget of 0 gives the empty block."""
    ranked_rows = {
        Kind.FACT: _rows(Kind.FACT, memory.facts),
        Kind.PATTERN: _rows(Kind.PATTERN, memory.patterns),
        Kind.NOTE: _rows(Kind.NOTE, memory.notes),
    }
    return _render(ranked_rows, budget, encoding)


def _rows(kind: Kind, items: Sequence[Item]) -> list[PromptRow]:
    return [PromptRow(kind, i.id, i.text, i.confidence) for i in ranked(items)]


def _check_budget(budget: int) -> None:
    if isinstance(budget, bool) or not isinstance(budget, int) or budget <= 0:
        raise InvalidInput(f"the memory token budget must be a positive integer, got {budget!r}")


_Shown = dict[Kind, list[tuple[PromptRow, str]]]


def _render(
    ranked_rows: Mapping[Kind, Sequence[PromptRow]], budget: int, encoding: str
) -> MemoryBlock:
    check_encoding(encoding)  # a bad encoding name fails here, even for an empty memory
    shown, dropped = _select(ranked_rows)
    sizes = _sizes(shown, encoding)
    queue = [(kind, pair) for kind in DROP_ORDER for pair in reversed(shown[kind])]
    cut, kept = 0, shown
    tokens = sizes.of(kept)
    while tokens > budget and cut < len(queue):  # the common case, everything fits, skips this
        cut += 1
        gone = {(kind, item.id) for kind, (item, _) in queue[:cut]}
        kept = {
            k: [(i, t) for i, t in pairs if (k, i.id) not in gone] for k, pairs in shown.items()
        }
        tokens = sizes.of(kept)
    dropped += [_dropped(item, DropReason.BUDGET) for _, (item, _) in queue[:cut]]
    included = Included(
        facts=tuple(i.id for i, _ in kept[Kind.FACT]),
        patterns=tuple(i.id for i, _ in kept[Kind.PATTERN]),
        notes=tuple(i.id for i, _ in kept[Kind.NOTE]),
    )
    return MemoryBlock.model_construct(
        text=layout({kind: [t for _, t in pairs] for kind, pairs in kept.items()}),
        tokens=tokens,
        budget=budget,
        encoding=encoding,
        included=included,
        dropped=tuple(dropped),
    )


@dataclass(frozen=True, slots=True)
class _Sizes:
    """The tokens of each piece of the block, so that the block of any subset of its items is
    counted by addition.

    Exact because cl100k's pattern cuts the block at every boundary between these pieces: an
    item's text is inline (no white space at its ends, no line break), and every piece but the
    header starts with a space, which no part of the pattern takes after a non-space
    character. Only the line break after a section's last item can join that item's final
    punctuation ("!\\n"), so the last item is counted with it.
    tests/unit/test_prompt_memory_block.py compares the sum with a count of the whole text."""

    header: int
    labels: dict[Kind, int]
    separator: int
    items: dict[str, tuple[int, int]]  # by inline text: (inside a line, last of its line)

    def of(self, kept: _Shown) -> int:
        total = 0
        for kind in SECTION_ORDER:
            pairs = kept[kind]
            if pairs:
                sizes = [self.items[text] for _, text in pairs]
                inside = sum(size for size, _ in sizes[:-1])
                total += self.labels[kind] + inside + sizes[-1][1]
                total += self.separator * (len(pairs) - 1)
        return total + self.header if total else 0


def _sizes(shown: _Shown, encoding: str) -> _Sizes:
    # keyed by text, not id: a memory built by hand may repeat an id
    texts = list(dict.fromkeys(text for kind in SECTION_ORDER for _, text in shown[kind]))
    fixed = [HEADER, *(LABELS[kind].rstrip(" ") for kind in SECTION_ORDER), SEPARATOR.rstrip(" ")]
    counts = count_each(
        [*fixed, *(f" {text}" for text in texts), *(f" {text}\n" for text in texts)], encoding
    )
    header, *labels, separator = counts[: len(fixed)]
    inside, last = counts[len(fixed) : len(fixed) + len(texts)], counts[len(fixed) + len(texts) :]
    return _Sizes(
        header=header,
        labels=dict(zip(SECTION_ORDER, labels)),
        separator=separator,
        items={text: (a, b) for text, a, b in zip(texts, inside, last)},
    )


def item_pieces(text: str) -> InlinePieces:
    """How the block shows a stored item: its inline text (None when unchanged) and its two
    token counts (`_Sizes`), which the engine's `athlete_memory` view adds up."""
    shown = inline(text)
    inside, last = count_each([f" {shown}", f" {shown}\n"], DEFAULT_ENCODING)
    return InlinePieces(None if shown == text else shown, inside, last)


_CAPS = {Kind.FACT: MAX_FACTS, Kind.PATTERN: MAX_LIST_ITEMS, Kind.NOTE: MAX_LIST_ITEMS}


def _select(ranked_rows: Mapping[Kind, Sequence[PromptRow]]) -> tuple[_Shown, list[Dropped]]:
    """Apply the floor, the caps and the empty-text rule; keep priority order."""
    shown: _Shown = {}
    dropped: list[Dropped] = []
    for kind in SECTION_ORDER:
        kept: list[tuple[PromptRow, str]] = []
        shown[kind] = kept
        cap, floored = _CAPS[kind], kind is _FACT
        for row in ranked_rows[kind]:
            if floored and not PROMPT_FLOOR <= row.confidence < math.inf:  # NaN fails too
                dropped.append(_dropped(row, _BELOW_THRESHOLD))
                continue
            text = inline(row.text)
            if not text:
                dropped.append(_dropped(row, _EMPTY))
            elif len(kept) >= cap:
                dropped.append(_dropped(row, _CAP))
            else:
                kept.append((row, text))
    return shown, dropped


# looked up once: an enum member read costs ~0.1 µs, and the block reads them per item
_FACT = Kind.FACT
_BELOW_THRESHOLD, _EMPTY, _CAP = DropReason.BELOW_THRESHOLD, DropReason.EMPTY, DropReason.CAP


def _dropped(row: PromptRow, reason: DropReason) -> Dropped:
    # the row's values are already valid (read from the vault or from validated models)
    return Dropped(row.kind, row.id, row.text, row.confidence, reason)
