"""The recall evaluation (tools/eval_episodes.py) holds its floors on both splits.

Floors sit a little under the measured figures (docs/episodes.md): recall@10 at least 10
points above plain FTS5 BM25 on the dev split tuned on and on the blind split never tuned on.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _evaluation() -> object:
    spec = importlib.util.spec_from_file_location("eval_episodes", ROOT / "tools/eval_episodes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("split", ["dev", "blind"])
def test_recall_beats_plain_bm25_by_ten_points(split: str) -> None:
    results = _evaluation().report(split)  # type: ignore[attr-defined]
    ours, bm25 = results["vault_recall"], results["fts5_bm25"]
    assert ours["recall@10"] >= bm25["recall@10"] + 0.10
    assert ours["mrr"] > bm25["mrr"]
    assert ours["recall@10"] >= (0.95 if split == "dev" else 0.85)
