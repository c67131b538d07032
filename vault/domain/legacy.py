"""The engine's pre-vault `athlete_memory` table, as revision 0002 keeps it. Pure.

Revision 0002 renames the engine's table to `legacy_athlete_memory` and revision 0007 queues its
rows for adoption; what a row means is `vault.domain.engine_document`.
"""

from __future__ import annotations

LEGACY_TABLE = "athlete_memory"
RENAMED_TABLE = "legacy_athlete_memory"
