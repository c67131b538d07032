"""Items stored without their token counts get them (revision 0016).

Vault counts every item it writes. Items written before revision 0016, or by another program,
are counted when the file is upgraded (`vault upgrade`, `open_vault(upgrade=True)`), in the
upgrade's own transaction (`vault.storage.migrations.upgrade`). Until then the engine's
`athlete_memory` view leaves such an item out, and `vault doctor` says how many there are.
"""

from __future__ import annotations

from sqlalchemy import Connection

from vault.domain.vocabulary import Kind
from vault.prompt.memory_block import item_pieces
from vault.storage.repositories import MemoryRepository

BATCH = 5000  # items read and written per statement pair (bounded memory on large files)


def count_all(connection: Connection) -> int:
    """Count every item stored without its token counts, in the caller's transaction; how
    many were counted."""
    memory = MemoryRepository(connection)
    counted = 0
    for kind in (Kind.FACT, Kind.PATTERN, Kind.NOTE):
        after = 0
        while found := memory.uncounted(kind, after, BATCH):
            memory.set_counts(kind, [(a, i, item_pieces(text)) for a, i, text in found])
            after = found[-1][1]
            counted += len(found)
    return counted
