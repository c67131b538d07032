"""recall@5 / recall@10 by method on real multi-day conversations (MemoryBank English).

    python tools/eval_recall.py [--data DIR] [--labels tools/recall_labels.jsonl] [--markdown]

DIR holds `memory_bank_en.json` and `probing_questions_en.jsonl` (MemoryBank, MIT; default
../shared/data/memorybank-en beside the repository). Every `{query, response}` pair of a user's
day becomes one episode of that user (`ref` = `YYYY-MM-DD/i`, occurred_at = that day 20:00 UTC
plus i minutes, meta `speaker` = the user's name and `session` = the day), written with
`Vault.import_episodes`. Each question is asked through recall with k=10 as of 2023-05-10 (the
questions come after the ten days). Evidence and how it was labelled: tools/recall_labels.md.

Methods, each adding one part to the one above it (the rows of docs/recall.md):
- `fts5 bm25`: plain SQLite FTS5 (porter) over the same texts, the question's words ORed,
  ordered by bm25(): what SQLite gives out of the box.
- `vault ranking` and the rows below: `vault.services.recall.recall` with the features of
  `RecallOptions` switched on one at a time.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sqlite3
import sys
import tempfile
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from vault import open_vault  # noqa: E402
from vault.domain.embedding import cosines  # noqa: E402
from vault.domain.errors import PrivacyRefused  # noqa: E402
from vault.services import recall as recalling  # noqa: E402
from vault.storage.repositories.episodes import EpisodeRepository  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared/data/memorybank-en"
ASKED_AT = datetime(2023, 5, 10, 12, 0, tzinfo=UTC)
KS = (5, 10)


def load(data: Path) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[str]]]:
    """Episodes per user and questions per user (user names trimmed)."""
    bank = json.loads((data / "memory_bank_en.json").read_text(encoding="utf-8"))
    episodes: dict[str, list[dict[str, Any]]] = {}
    for raw_name, user in bank.items():
        name = raw_name.strip()
        rows = []
        for day, turns in user["history"].items():
            start = datetime.fromisoformat(day).replace(hour=20, tzinfo=UTC)
            for index, turn in enumerate(turns):
                rows.append(
                    {
                        "text": f"{name}: {turn['query']}\nAI: {turn['response']}",
                        "ref": f"{day}/{index}",
                        "at": start + timedelta(minutes=index),
                        "type": "conversation",
                        "meta": {"speaker": name, "session": day},
                    }
                )
        episodes[name] = rows
    questions: dict[str, list[str]] = {}
    for line in (data / "probing_questions_en.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            for name, asked in json.loads(line).items():
                questions[name.strip()] = asked
    return episodes, questions


def load_labels(path: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def score(found: list[str], evidence: list[list[str]], k: int) -> float:
    """The share of evidence groups with a turn among the first k refs found (a message
    `D3:14.2` of a turn cut into messages stands for its turn `D3:14`, unless the group
    names messages)."""
    top = set(found[:k])
    top |= {ref.partition(".")[0] for ref in top if ref.startswith("D")}
    return sum(1 for group in evidence if top & set(group)) / len(evidence)


def fts5_bm25(episodes: dict[str, list[dict[str, Any]]]) -> Any:
    raw = sqlite3.connect(":memory:")
    raw.execute(
        "CREATE VIRTUAL TABLE t USING fts5(owner UNINDEXED, ref UNINDEXED, text, "
        "tokenize='porter unicode61')"
    )
    for name, rows in episodes.items():
        raw.executemany(
            "INSERT INTO t VALUES (?, ?, ?)", [(name, r["ref"], r["text"]) for r in rows]
        )

    def ask(name: str, question: str) -> list[str]:
        words = re.findall(r"\w+", question.lower())
        match = " OR ".join(f'"{w}"' for w in words)
        return [
            r[0]
            for r in raw.execute(
                "SELECT ref FROM t WHERE t MATCH ? AND owner = ? ORDER BY bm25(t) LIMIT 10",
                (match, name),
            )
        ]

    return ask


def vault_method(
    connection: Any,
    options: Any,
    asked_at: dict[str, datetime],
    embedder: Any = None,
    weights: Any = recalling.DEFAULT_WEIGHTS,
) -> Any:
    repository = EpisodeRepository(connection)

    def ask(name: str, question: str) -> list[str]:
        request = recalling.RecallRequest(
            name,
            question,
            asked_at[name],
            k=10,
            options=options,
            embedder=embedder,
            weights=weights,
        )
        found = recalling.recall(repository, request)
        return [e.ref or "" for e in found]

    return ask


def vectors_alone(connection: Any, embedder: Any) -> Any:
    """The embedder alone: the owner's turns by cosine with the question, best first."""
    repository = EpisodeRepository(connection)

    def ask(name: str, question: str) -> list[str]:
        stored = repository.owner_vectors(name, embedder.model, embedder.dim, 100_000)
        ids = list(stored)
        wanted = embedder.embed([question])[0]
        similarity = dict(zip(ids, cosines(wanted, [stored[i] for i in ids])))
        best = sorted(ids, key=lambda i: (-similarity[i], -i))[:10]
        refs = {row.id: row.ref for row in repository.rows(name, best)}
        return [refs[i] for i in best]

    return ask


def load_embedder(spec: str) -> Any:
    module, _, attribute = spec.partition(":")
    found = getattr(importlib.import_module(module), attribute or "EMBEDDER")
    return found() if isinstance(found, type) else found


def methods() -> list[tuple[str, Any]]:
    """(row name, RecallOptions) in the order each part is added."""
    base = recalling.RecallOptions.plain()
    rows = [("vault ranking (names, synonyms, recency)", base)]
    for label, change in recalling.RecallOptions.steps():
        base = replace(base, **change)
        rows.append((label, base))
    return rows


def locomo_labels(questions: list[Any]) -> list[dict[str, Any]]:
    """LoCoMo questions as rows of the scorer: each evidence turn is its own group."""
    return [
        {
            "user": q.owner,
            "question": q.text,
            "kind": q.kind,
            "evidence": [list(g) for g in q.groups] or [[e] for e in q.evidence],
        }
        for q in questions
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--labels", type=Path, default=ROOT / "tools/recall_labels.jsonl")
    parser.add_argument(
        "--locomo", type=Path, metavar="LOCOMO10_JSON", help="measure on LoCoMo instead"
    )
    parser.add_argument("--split", choices=("dev", "blind", "all"), default="dev")
    parser.add_argument(
        "--messages", action="store_true", help="LoCoMo turns cut into one message per sentence"
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="LoCoMo cut into messages (implies --messages), a turn found only by a message "
        "holding its answer",
    )
    parser.add_argument("--trusted", action="store_true", help="import past the privacy gate")
    parser.add_argument("--only", action="append", default=[], help="methods whose label starts so")
    parser.add_argument("--misses", action="store_true", help="print the questions missed at 10")
    parser.add_argument(
        "--embedder",
        action="append",
        default=[],
        metavar="MODULE:NAME",
        help="also measure this vault.Embedder alone and fused (repeatable)",
    )
    parser.add_argument(
        "--vector-weight",
        action="append",
        type=float,
        default=[],
        metavar="W",
        help="also fuse the embedder at this weight of the vector part (repeatable)",
    )
    args = parser.parse_args()
    if args.locomo is not None:
        import locomo

        episodes, asked_questions, asked_at = locomo.load(
            args.locomo, args.split, "exact" if args.exact else args.messages
        )
        labels = locomo_labels(asked_questions)
    else:
        episodes, questions = load(args.data)
        asked_at = dict.fromkeys(episodes, ASKED_AT)
        labels = [
            {**row, "question": questions[row["user"]][row["question"]], "kind": "all"}
            for row in load_labels(args.labels)
            if row["evidence"]
        ]
    results: list[tuple[str, dict[str, dict[int, float]]]] = []
    refused = 0
    with tempfile.TemporaryDirectory() as folder:
        vault = open_vault(Path(folder) / "eval.db", upgrade=True)
        embedders = [load_embedder(spec) for spec in args.embedder]
        for name, rows in episodes.items():
            try:
                vault.episodes.import_stream(name, rows, now=asked_at[name], trusted=args.trusted)
            except PrivacyRefused:
                refused += 1
                vault.episodes.import_stream(name, rows, now=asked_at[name], trusted=True)
        for embedder in embedders:
            vault.episodes.reembed(embedder)  # the last one's vectors stay: measure one at a time
            break
        askers = [("fts5 bm25 (porter), the question's words ORed", fts5_bm25(episodes))]
        with vault.engine.connect() as connection:
            askers += [
                (label, vault_method(connection, options, asked_at)) for label, options in methods()
            ]
            for embedder in embedders[:1]:
                default = recalling.RecallOptions()
                askers += [
                    (f"`{embedder.model}` vectors alone", vectors_alone(connection, embedder)),
                    (
                        f"default + `{embedder.model}` vectors fused",
                        vault_method(connection, default, asked_at, embedder),
                    ),
                ]
                askers += [
                    (
                        f"default + `{embedder.model}` vectors fused at {weight}",
                        vault_method(
                            connection,
                            default,
                            asked_at,
                            embedder,
                            replace(recalling.DEFAULT_WEIGHTS, vector=weight),
                        ),
                    )
                    for weight in args.vector_weight
                ]
            if args.only:
                askers = [a for a in askers if any(a[0].startswith(o) for o in args.only)]
            for label, ask in askers:
                totals: dict[str, dict[int, float]] = {}
                missed = []
                for row in labels:
                    found = ask(row["user"], row["question"])
                    for kind in {"all", row["kind"]}:
                        bucket = totals.setdefault(kind, dict.fromkeys(KS, 0.0))
                        for k in KS:
                            bucket[k] += score(found, row["evidence"], k)
                    if score(found, row["evidence"], 10) < 1:
                        missed.append(
                            f"  {row['user']} [{row['kind']}] {row['question']} -> "
                            f"{found[:10]} want {row['evidence']}"
                        )
                results.append(
                    (
                        label,
                        {
                            kind: {k: v / counts_for(labels, kind) for k, v in bucket.items()}
                            for kind, bucket in totals.items()
                        },
                    )
                )
                if args.misses:
                    print(label, *missed, sep="\n")
        vault.engine.dispose()
    print(
        f"{len(labels)} questions, {sum(map(len, episodes.values()))} turns, "
        f"{len(episodes)} owners"
        + (f" ({refused} imported only with --trusted)" if refused else "")
        + "\n"
    )
    kinds = sorted({r["kind"] for r in labels} - {"all"})
    header = "| method | recall@5 | recall@10 |" + "".join(f" {kind} @5 / @10 |" for kind in kinds)
    print(header + "\n|" + "---|" * (3 + len(kinds)))
    for label, figures in results:
        cells = "".join(f" {figures[kind][5]:.3f} / {figures[kind][10]:.3f} |" for kind in kinds)
        print(f"| {label} | {figures['all'][5]:.3f} | {figures['all'][10]:.3f} |{cells}")


def counts_for(labels: list[dict[str, Any]], kind: str) -> int:
    return len(labels) if kind == "all" else sum(1 for r in labels if r["kind"] == kind)


if __name__ == "__main__":
    main()
