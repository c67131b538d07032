"""Recall@1/3/10 and MRR of `Vault.recall` against plain FTS5 BM25 on the generated conversations.

    python tools/eval_episodes.py [dev|blind ...]

Every turn of a conversation becomes one episode of an owner named after the conversation (type
`conversation`, occurred_at = the turn's time, no metadata: conversations do not come with any).
Each question is asked as of the conversation's `asked_at`. The baseline is what one gets from
SQLite out of the box: an FTS5 table (unicode61, no stemming) over the same turns, the question's
words ORed, ordered by `bm25()`. A question counts as found at k when one of its answer turns is
among the first k results; MRR uses the rank within the first 10 (0 beyond).
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
import tempfile
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vault import open_vault

DATA = ROOT / "tests/data/episodes"
KS = (1, 3, 10)


def _metrics(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks) or 1
    out = {f"recall@{k}": sum(1 for r in ranks if r is not None and r <= k) / n for k in KS}
    out["mrr"] = sum(1.0 / r for r in ranks if r is not None and r <= 10) / n
    return out


def _rank(found: list[str], answers: list[str]) -> int | None:
    for position, ref in enumerate(found, start=1):
        if ref in answers:
            return position
    return None


def baseline(data: dict) -> list[int | None]:
    ranks: list[int | None] = []
    by_conversation = {c["id"]: c for c in data["conversations"]}
    for conversation_id, conversation in by_conversation.items():
        raw = sqlite3.connect(":memory:")
        raw.execute("CREATE VIRTUAL TABLE t USING fts5(ref UNINDEXED, text)")
        raw.executemany(
            "INSERT INTO t(ref, text) VALUES (?, ?)",
            [(turn["id"], turn["text"]) for turn in conversation["turns"]],
        )
        for q in data["questions"]:
            if q["conversation"] != conversation_id:
                continue
            words = re.findall(r"\w+", q["question"].lower())
            match = " OR ".join(f'"{w}"' for w in words)
            found = [
                r[0]
                for r in raw.execute(
                    "SELECT ref FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10", (match,)
                )
            ]
            ranks.append(_rank(found, q["answers"]))
        raw.close()
    return ranks


def ours(data: dict, *, verbose: bool = False) -> list[int | None]:
    ranks: list[int | None] = []
    with (
        tempfile.TemporaryDirectory() as folder,
        open_vault(Path(folder) / "eval.db", upgrade=True) as v,
    ):
        for conversation in data["conversations"]:
            items = [
                {
                    "text": t["text"],
                    "type": "conversation",
                    "at": t["at"],
                    "ref": t["id"],
                    "meta": {"role": t["role"]},
                }
                for t in conversation["turns"]
            ]
            v.episodes.add(
                conversation["id"], items, now=datetime.fromisoformat(conversation["asked_at"])
            )
        asked = {c["id"]: datetime.fromisoformat(c["asked_at"]) for c in data["conversations"]}
        for q in data["questions"]:
            found = v.episodes.recall(
                q["conversation"], q["question"], k=10, now=asked[q["conversation"]]
            )
            rank = _rank([e.ref or "" for e in found], q["answers"])
            ranks.append(rank)
            if verbose and (rank is None or rank > 1):
                print(f"  miss ({rank}) [{q['kind']}] {q['question']}")
                for e in found[:3]:
                    print(f"      {e.score:.3f} {e.text[:80]}")
    return ranks


def report(split: str, verbose: bool = False) -> dict[str, dict[str, float]]:
    data = json.loads((DATA / f"{split}.json").read_text(encoding="utf-8"))
    results = {
        "fts5_bm25": _metrics(baseline(data)),
        "vault_recall": _metrics(ours(data, verbose=verbose)),
    }
    turns = sum(len(c["turns"]) for c in data["conversations"])
    print(
        f"{split}: {len(data['conversations'])} conversations, {turns} turns, {len(data['questions'])} questions"
    )
    for name, values in results.items():
        print(f"  {name:13s} " + "  ".join(f"{k} {v:.3f}" for k, v in values.items()))
    return results


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    for split in args or ["dev"]:
        report(split, verbose="-v" in sys.argv)
