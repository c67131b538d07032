"""Real conversations and a real training log through the privacy gate, as a new user imports them.

    python tools/privacy_corpus.py --shared ../shared/data --locomo PATH/locomo10.json \
        --activities PATH/activities.csv [--changes changes.jsonl] [--vault]

Each conversation becomes one athlete's episodes (one turn = one episode, "speaker: text", a
LoCoMo turn's image caption appended), each activity of the training log one episode with its
own activity id as `ref`. Prints, per source: conversations, turns, turns the gate changed
(redacted), refused items, and with `--vault` imports every source into a fresh vault through
`v.episodes.import_stream` WITHOUT `trusted` and checks every turn was stored. `--changes`
writes each change (source, conversation, turn, before, after) for review by hand; the
reviewed labels are in tools/privacy_labels.jsonl and docs/reliability.md. Nothing is
downloaded; the data paths are arguments (LoCoMo's text is CC BY-NC and never committed).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vault.extraction.privacy import redact_speech  # noqa: E402

Conversation = tuple[str, str, list[str]]  # (source, conversation id, turns)


def shared_corpora(root: Path) -> Iterator[Conversation]:
    bank = json.loads((root / "memorybank-en" / "memory_bank_en.json").read_text())
    for user, data in bank.items():
        turns = []
        for _day, pairs in sorted(data["history"].items()):
            for pair in pairs:
                turns += [f"{user}: {pair['query']}", f"assistant: {pair['response']}"]
        yield "memorybank", user, turns
    for path in sorted((root / "msc-personasummary").glob("session_*_valid.jsonl")):
        with path.open() as lines:
            for number, line in enumerate(lines):
                dialog = json.loads(line)["dialog"]
                turns = [f"{t['id']}: {t['text']}" for t in dialog]
                yield "msc", f"{path.stem}:{number}", turns
    with (root / "synthetic-persona-chat" / "valid.csv").open(newline="") as handle:
        for number, row in enumerate(csv.DictReader(handle)):
            text = row["Best Generated Conversation"]
            turns = [line.strip() for line in text.splitlines() if line.strip()]
            yield "persona-chat", str(number), turns


def locomo(path: Path) -> Iterator[Conversation]:
    for sample in json.loads(path.read_text()):
        conversation = sample["conversation"]
        turns = []
        for key in sorted(
            (k for k in conversation if k.startswith("session_") and k[8:].isdigit()),
            key=lambda k: int(k[8:]),
        ):
            for turn in conversation[key]:
                text = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    text += f" [shares a photo: {turn['blip_caption']}]"
                turns.append(text)
        yield "locomo", sample["sample_id"], turns


def activities(path: Path) -> Iterator[tuple[str, str, list[dict[str, object]]]]:
    """The training log: one episode per activity (name, type and notes), its id as ref."""
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    col = {name: header.index(name) for name in dict.fromkeys(header)}
    episodes = []
    for row in body:
        parts = [row[col["Activity Name"]], row[col["Activity Description"]]]
        note = row[col["Activity Private Note"]] if "Activity Private Note" in col else ""
        text = ". ".join(p for p in (*parts, note) if p.strip()) or row[col["Activity Type"]]
        episodes.append(
            {
                "text": text,
                "type": "session",
                "ref": row[col["Activity ID"]],
                "meta": {
                    "activity_id": int(row[col["Activity ID"]]),
                    "sport": row[col["Activity Type"]],
                },
            }
        )
    yield "coachagent", "activities", episodes


def measure(
    conversations: list[Conversation], changes: list[dict[str, object]]
) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for source, conversation, turns in conversations:
        row = table.setdefault(source, {"conversations": 0, "turns": 0, "changed": 0})
        row["conversations"] += 1
        row["turns"] += len(turns)
        for index, turn in enumerate(turns):
            after, kinds = redact_speech(turn)
            if kinds:
                row["changed"] += 1
                changes.append(
                    {"source": source, "conversation": conversation, "turn": index,
                     "kinds": kinds, "before": turn, "after": after}
                )  # fmt: skip
    return table


def import_all(
    conversations: list[Conversation], logs: list[tuple[str, str, list[dict[str, object]]]]
) -> None:
    from vault import open_vault

    with tempfile.TemporaryDirectory() as folder:
        with open_vault(Path(folder) / "v.db", upgrade=True) as vault:
            total, started = 0, time.perf_counter()
            for number, (source, _conversation, turns) in enumerate(conversations):
                owner = f"{source}-{number}"
                counts = vault.episodes.import_stream(owner, ({"text": t} for t in turns))
                assert counts["episodes"] == len(turns), (owner, counts)
                total += len(turns)
            for source, _name, episodes in logs:
                counts = vault.episodes.import_stream(source, episodes)
                assert counts["episodes"] == len(episodes), (source, counts)
                total += len(episodes)
            elapsed = time.perf_counter() - started
    print(f"imported {total} episodes without trusted, every one kept: {total / elapsed:,.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, help="the shared data folder")
    parser.add_argument("--locomo", type=Path, help="locomo10.json")
    parser.add_argument("--activities", type=Path, help="the training log's activities.csv")
    parser.add_argument("--changes", type=Path, help="write every change here (JSON lines)")
    parser.add_argument("--vault", action="store_true", help="also import into a fresh vault")
    args = parser.parse_args()
    conversations: list[Conversation] = []
    if args.shared:
        conversations += shared_corpora(args.shared)
    if args.locomo:
        conversations += locomo(args.locomo)
    logs = list(activities(args.activities)) if args.activities else []
    changes: list[dict[str, object]] = []
    started = time.perf_counter()
    table = measure(conversations, changes)
    for source, _name, episodes in logs:
        table[source] = {"conversations": 1, "turns": len(episodes), "changed": 0}
        for index, episode in enumerate(episodes):
            after, kinds = redact_speech(str(episode["text"]))
            if kinds:
                table[source]["changed"] += 1
                changes.append({"source": source, "conversation": "activities", "turn": index,
                                "kinds": kinds, "before": episode["text"], "after": after})  # fmt: skip
    elapsed = time.perf_counter() - started
    turns = sum(row["turns"] for row in table.values())
    print(f"{'source':<14}{'conversations':>14}{'turns':>9}{'changed':>9}{'share':>9}")
    for source, row in table.items():
        share = row["changed"] / row["turns"] if row["turns"] else 0.0
        print(
            f"{source:<14}{row['conversations']:>14}{row['turns']:>9}{row['changed']:>9}{share:>9.3%}"
        )
    print(f"redaction: {elapsed / max(turns, 1) * 1e6:,.1f} µs per turn over {turns} turns")
    if args.changes:
        with args.changes.open("w") as out:
            for change in changes:
                out.write(json.dumps(change, ensure_ascii=False) + "\n")
    if args.vault:
        import_all(conversations, logs)


if __name__ == "__main__":
    main()
