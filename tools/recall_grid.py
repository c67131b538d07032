"""Try RecallOptions variants on one import: `python tools/recall_grid.py LOCOMO '{"spread": 0.05}' ...`
(dev split; prints recall@5 / @10 overall and per kind for each variant)."""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import eval_recall  # noqa: E402
import locomo  # noqa: E402

from vault import open_vault  # noqa: E402
from vault.services import recall as recalling  # noqa: E402


def main() -> None:
    path, *variants = sys.argv[1:]
    messages = "--messages" in variants
    owners = [v.split("=", 1)[1].split(",") for v in variants if v.startswith("--owners=")]
    embedder_spec = [v.split("=", 1)[1] for v in variants if v.startswith("--embedder=")]
    variants = [v for v in variants if not v.startswith("--")]
    episodes, questions, asked = locomo.load(Path(path), "dev", messages)
    if owners:
        episodes = {o: rows for o, rows in episodes.items() if o in owners[0]}
        questions = [q for q in questions if q.owner in owners[0]]
    embedder = eval_recall.load_embedder(embedder_spec[0]) if embedder_spec else None
    labels = eval_recall.locomo_labels(questions)
    with tempfile.TemporaryDirectory() as folder:
        vault = open_vault(Path(folder) / "grid.db", upgrade=True)
        for name, rows in episodes.items():
            vault.episodes.import_stream(name, rows, now=asked[name], trusted=True)
        if embedder is not None:
            vault.episodes.reembed(embedder)
        with vault.engine.connect() as connection:
            for variant in variants:
                change = json.loads(variant)
                fused = change.pop("embedder", False)
                options = replace(recalling.RecallOptions(), **change)
                ask = eval_recall.vault_method(
                    connection, options, asked, embedder if fused else None
                )
                totals: dict[str, list[float]] = {}
                for row in labels:
                    found = ask(row["user"], row["question"])
                    for kind in ("all", row["kind"]):
                        bucket = totals.setdefault(kind, [0.0, 0.0, 0.0])
                        bucket[0] += eval_recall.score(found, row["evidence"], 5)
                        bucket[1] += eval_recall.score(found, row["evidence"], 10)
                        bucket[2] += 1
                cells = "  ".join(
                    f"{kind} {b[0] / b[2]:.3f}/{b[1] / b[2]:.3f}"
                    for kind, b in sorted(totals.items())
                )
                print(variant, cells, flush=True)
        vault.engine.dispose()


if __name__ == "__main__":
    main()
