"""How the MEMORY block shows one item, stored with the item (revision 0016).

The engine's `athlete_memory` view builds the block's document in SQL, and its token budget is
a sum of these counts (vault.storage.engine_view). `vault.prompt.memory_block.item_pieces`
computes them; storage receives that function, as it cannot count tokens itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple


class InlinePieces(NamedTuple):
    """An item's inline text (None: the same as its text) and the cl100k tokens of " text"
    inside a line and of " text\\n" at the end of one."""

    text: str | None
    tokens: int
    tokens_last: int


PieceCounter = Callable[[str], InlinePieces]
