"""WordLlama without torch and without network, for measuring (tools/eval_recall.py
--embedder tools.wordllama_embedder:EMBEDDER): the PyPI package `wordllama` 0.4.0.post1 (MIT,
by Lee Miller, the model's author; github.com/dleemiller/WordLlama) ships its l2_supercat
model in the wheel: a static token-embedding table (32,000 Llama-2 tokens x 256 dims, float32,
`wordllama/weights/l2_supercat_256.safetensors`) and its tokenizer
(`wordllama/tokenizers/l2_supercat_tokenizer_config.json`). A text's vector is the average of
its tokens' vectors, L2-normalised here. Needs: pip install wordllama (numpy, safetensors,
tokenizers, toml, pydantic, requests; no torch). Not part of vault.

`WordLlama.load()` with its defaults finds the shipped weights but looks for the tokenizer
under `wordllama/tokenizer/` (singular) while the wheel has it under `tokenizers/`, so it
downloads the tokenizer from Hugging Face into ~/.cache/wordllama on first use. Loading with
`cache_dir` set to the package's own folder and `disable_download=True` reads both shipped
files and never touches the network (checked with the network namespace removed).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np


class WordLlamaEmbedder:
    model = "wordllama-l2_supercat-256@0.4.0.post1"
    dim = 256

    def __init__(self) -> None:
        root = logging.getLogger()
        level, handlers = root.level, list(root.handlers)
        import wordllama  # its import calls logging.basicConfig(level=INFO): undone below
        from wordllama import WordLlama

        root.setLevel(level)
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        self._model = WordLlama.load(
            cache_dir=Path(wordllama.__file__).parent, disable_download=True
        )

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors = self._model.embed(list(texts), norm=False)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
        return vectors.tolist()


EMBEDDER = WordLlamaEmbedder


def _latency(path: Path) -> None:
    """Load time, then p50 / p99 of embedding one LoCoMo dev question at a time."""
    import sys
    import time

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import locomo

    started = time.perf_counter()
    embedder = EMBEDDER()
    loaded = time.perf_counter() - started
    questions = [q.text for q in locomo.load(path, "dev", False)[1]]
    for text in questions[:20]:  # warm-up
        embedder.embed([text])
    times = []
    for text in questions:
        started = time.perf_counter()
        embedder.embed([text])
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
    print(
        f"load {loaded * 1000:.0f} ms; one question ({len(times)}): "
        f"p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {times[-1]:.3f} ms"
    )


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=_latency.__doc__)
    parser.add_argument("locomo", type=Path, metavar="LOCOMO10_JSON")
    _latency(parser.parse_args().locomo)
