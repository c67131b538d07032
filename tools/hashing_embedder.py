"""A model-free embedder for measuring the vector path: hashed character trigrams of each
word (256 dimensions, signed, L2-normalised). Deterministic, no weights, no network.

It is not a language model: it stands in for one to measure the fusion and the code path
(`tools/eval_recall.py --embedder tools.hashing_embedder:EMBEDDER`); an app plugs in a real
model through the same `vault.Embedder` protocol.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


class HashingEmbedder:
    model = "hashing-trigram-256"
    dim = 256

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> list[float]:
        vector = [0.0] * self.dim
        for word in _WORD.findall(text.lower()):
            padded = f"<{word}>"
            for i in range(len(padded) - 2):
                digest = hashlib.blake2b(padded[i : i + 3].encode(), digest_size=4).digest()
                slot = int.from_bytes(digest[:2], "little") % self.dim
                vector[slot] += 1.0 if digest[2] & 1 else -1.0
        norm = math.sqrt(sum(v * v for v in vector))
        return [v / norm for v in vector] if norm else vector


EMBEDDER = HashingEmbedder()
