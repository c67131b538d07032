"""The dev / blind split of every source tools/eval_learning.py scores, fixed before any output.

A unit (a Multi-Session Chat dialogue, a LoCoMo conversation, a MemoryBank user) is blind when
the SHA-256 of its id, read as a number, is 0 modulo `BLIND_EVERY`: about one in four, decided by
the id alone, so neither the extractor's output nor anyone's choice moves a unit across. Blind
units are scored once, at the end of a round of work (`eval_learning.py --blind`); dev units are
tuned on. The persona chats keep their earlier hand-labelled split (persona.yaml dev,
persona_blind.yaml held out); the one training log is dev (the held-out logs are elsewhere).
"""

from __future__ import annotations

import hashlib

BLIND_EVERY = 4


def is_blind(source: str, unit_id: str) -> bool:
    """True when `unit_id` of `source` ("msc", "locomo", "memorybank") belongs to the blind part."""
    digest = hashlib.sha256(f"{source}:{unit_id}".encode()).hexdigest()
    return int(digest, 16) % BLIND_EVERY == 0


def split(source: str, unit_ids: list[str], part: str) -> list[str]:
    """The ids of `part` ("dev" or "blind"), in the given order."""
    if part not in {"dev", "blind"}:
        raise ValueError(f"part must be dev or blind, got {part!r}")
    return [u for u in unit_ids if is_blind(source, u) == (part == "blind")]
