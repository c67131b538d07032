"""Embeddings an app plugs in: the `Embedder` protocol, the stored vector format, similarity.

vault ships no model. An app hands recall and the episode writes its own embedder (a
sentence-transformers model, the device's model, a hosted API): anything with a `model` name,
a dimension `dim` and `embed(texts) -> vectors`. Vectors are stored tagged with that name and
dimension and only ever compared with vectors of the same pair (a new model means
`vault episode reembed`, never a mix).

Similarity is cosine over float32 values: with numpy installed (the `vectors` extra) one
matrix product for all candidates, otherwise plain Python (the same figures to 1e-6).
"""

from __future__ import annotations

import importlib
import math
import sys
from array import array
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from vault.domain.errors import InvalidInput

MODEL_MAX = 100  # characters of a model name (the episode_vectors.model column)
_LITTLE = sys.byteorder == "little"


Embed = Callable[[str], Sequence[float]]
"""An app's embedding function: text -> vector (any fixed length)."""


@runtime_checkable
class Embedder(Protocol):
    """An app's embedding model: `model` names it (and its version), `dim` is its vector length."""

    @property
    def model(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> Sequence[Sequence[float]]:
        """One vector of `dim` finite numbers per text, in order."""
        ...


class FunctionEmbedder:
    """An `Embedder` over a one-text function (the older `embed=` / `model=` arguments)."""

    def __init__(
        self, function: Callable[[str], Sequence[float]], model: str, dim: int | None = None
    ):
        self.function = function
        self.model = model
        self._dim = dim

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = len(self.function("dimension probe"))
        return self._dim

    def embed(self, texts: Sequence[str]) -> Sequence[Sequence[float]]:
        return [self.function(text) for text in texts]


def checked(embedder: Any) -> Embedder:
    """`embedder` if it keeps the protocol's promises about its name and dimension."""
    if not isinstance(embedder, Embedder):
        raise InvalidInput("an embedder needs `model`, `dim` and `embed(texts)` (vault.Embedder)")
    model, dim = embedder.model, embedder.dim
    if not isinstance(model, str) or not model.strip() or len(model) > MODEL_MAX:
        raise InvalidInput(
            f"embedder model must be a name of 1 to {MODEL_MAX} characters, got {model!r}"
        )
    if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
        raise InvalidInput(f"embedder dim must be a whole number >= 1, got {dim!r}")
    return embedder


def embed_all(embedder: Embedder, texts: Sequence[str]) -> list[bytes]:
    """The texts' vectors, packed (see `pack`); a vector of the wrong length is InvalidInput."""
    if not texts:
        return []
    vectors = list(embedder.embed(list(texts)))
    if len(vectors) != len(texts):
        raise InvalidInput(
            f"embedder {embedder.model!r} gave {len(vectors)} vectors for {len(texts)} texts"
        )
    return [pack(vector, embedder.dim, embedder.model) for vector in vectors]


def pack(vector: Sequence[float], dim: int, model: str = "embedder") -> bytes:
    """float32 little-endian bytes of a vector of `dim` finite numbers."""
    values = array("f", (float(v) for v in vector))
    if len(values) != dim:
        raise InvalidInput(
            f"embedder {model!r} gave a vector of {len(values)} values, its dim is {dim}"
        )
    if not all(math.isfinite(v) for v in values):
        raise InvalidInput(f"embedder {model!r} gave a vector with a value that is not finite")
    if not _LITTLE:
        values.byteswap()
    return values.tobytes()


def unpack(blob: bytes) -> array[float]:
    values = array("f")
    values.frombytes(blob)
    if not _LITTLE:
        values.byteswap()
    return values


def cosines(query: Sequence[float], blobs: Sequence[bytes]) -> list[float]:
    """Cosine similarity of `query` with each packed vector (0 for an all-zero vector)."""
    if not blobs:
        return []
    numpy = _numpy()
    if numpy is not None:
        matrix = numpy.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), -1)
        wanted = numpy.asarray(query, dtype="<f4")
        norms = numpy.linalg.norm(matrix, axis=1) * float(numpy.linalg.norm(wanted))
        dots = matrix @ wanted
        safe = numpy.where(norms > 0, norms, 1.0)
        return [float(v) for v in numpy.where(norms > 0, dots / safe, 0.0)]
    return [cosine(query, unpack(blob)) for blob in blobs]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two equal-length vectors (0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def _numpy() -> Any:
    try:
        return importlib.import_module("numpy")
    except ImportError:
        return None


def resolve_embedder(
    embedder: Embedder | None, embed: Embed | None = None, model: str = "app"
) -> Embedder | None:
    """The embedder to use: `embedder`, else the one-text function `embed` named `model`."""
    if embedder is not None:
        return checked(embedder)
    if embed is not None:
        return checked(FunctionEmbedder(embed, model))
    return None
