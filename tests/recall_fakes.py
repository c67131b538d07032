"""A small deterministic embedder for tests: the real vector code path, no model, no network."""

from __future__ import annotations

import re
import struct
from collections.abc import Sequence


class WordEmbedder:
    """Each word adds 1 to one of `dim` slots (the sum of its letters' codes): texts sharing
    words point the same way. `marker` fills the last slot, so a test can find its bytes."""

    def __init__(self, model: str = "fake-words", dim: int = 8, marker: float = 0.0) -> None:
        self.model = model
        self.dim = dim
        self.marker = marker
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        found = []
        for text in texts:
            vector = [0.0] * self.dim
            for word in re.findall(r"[a-z]+", text.lower()):
                vector[sum(map(ord, word)) % (self.dim - 1)] += 1.0
            vector[-1] = self.marker
            found.append(vector)
        return found


def marker_bytes(marker: float) -> bytes:
    """How the marker value looks inside a stored vector (float32 little-endian)."""
    return struct.pack("<f", marker)
