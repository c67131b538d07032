"""Score what the vault learns from real words: precision (vague apart) and recall per source.

    .venv/bin/python tools/eval_learning.py [--activities PATH] [--show]

Each labelled speaker is learned into a fresh vault file through the public API, exactly as an
app would: a persona speaker's own turns as one conversation, a MemoryBank user's queries as one
conversation per day, the runner's activities one by one (`ingest_activity`, episodes and
consolidation included). The facts the coach model would read (prompt facts, confidence >= 0.5)
are mapped to label keys (tools/learning_labels/README.md) and compared with the labels.

The training log has no licence, so it is not in the repository: give a local copy of
`GetStravaData/Data/activities.csv` from github.com/MichaelDik/CoachAgent with `--activities`
or the VAULT_TRAINING_LOG environment variable; without it that source is skipped.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "tools" / "learning_labels"
DATA = ROOT.parent / "shared" / "data"
PERSONA_CSV = DATA / "synthetic-persona-chat" / "valid.csv"
MEMORYBANK_JSON = DATA / "memorybank-en" / "memory_bank_en.json"
START = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)

sys.path.insert(0, str(ROOT))
from vault import open_vault  # noqa: E402

_ALIASES = {
    "dance": "dancing",
    "weight training": "strength training",
    "gym": "strength training",
    "lifting": "strength training",
    "weights": "strength training",
    "bike": "cycling",
    "biking": "cycling",
    "jogging": "running",
    "hikes": "hiking",
    "walks": "walking",
    "stay-at-home mom": "stay-at-home parent",
    "stay-at-home dad": "stay-at-home parent",
    "rock climbing": "climbing",
}
_SOCIAL = re.compile(r"group runs|with (?:a |the )?(?:group|club|friends|others)|running club")


def _alias(value: str) -> str:
    value = value.strip().lower()
    return _ALIASES.get(value, value)


def fact_key(text: str) -> str:
    """The label key a stored fact carries (`other:<text>` when it carries none)."""
    t = text.strip().lower()
    if _SOCIAL.search(t):
        return "social:group"
    rules: list[tuple[str, str]] = [
        (r"primary sport: (.+)", "sport"),
        (r"goal: (.+)", "goal"),
        (r"level: (.+)", "level"),
        (r"typical duration: (.+)", "duration"),
        (r"dislikes (.+)", "dislike"),
        (r"(?:likes|also does|does|enjoys) (.+)", "activity"),
        (r"works as an? (.+)", "job"),
        (r"works (?:at|in|on) (?:an?|the) (.+)", "job"),
        (r"works in (.+)", "job"),
        (r"is an? (student|retired|stay-at-home .+)", "job"),
        (r"is (retired)", "job"),
        (r"has (?:a )?recurring (.+?) (?:issue|pain|injury)", "injury"),
        (r"has (?:an? )?(.+?) (?:issue|pain|injury)", "injury"),
        (r"prefers (\w+) sessions", "time"),
    ]
    for pattern, kind in rules:
        match = re.fullmatch(pattern, t)
        if match:
            return f"{kind}:{_alias(match.group(1))}"
    diet = re.fullmatch(r"(?:eats (?:an? )?(.+?)(?: diet)?|is (vegan|vegetarian|pescatarian))", t)
    if diet:
        return f"diet:{diet.group(1) or diet.group(2)}"
    if t == "works out regularly":
        return "activity:working out"
    if t == "is not working":
        return "job:none"
    if t == "has kids":
        return "family:kids"
    if t in {"has a partner", "lives with a partner"}:
        return "family:partner"
    if t == "busy schedule":
        return "schedule:busy"
    if t in {"works shifts", "works night shifts"}:
        return "schedule:shift work"
    return f"other:{t}"


def _covers(key: str, labels: set[str]) -> bool:
    labels = {_key_alias(label) for label in labels}
    if key in labels:
        return True
    kind, _, value = key.partition(":")
    return kind == "sport" and f"activity:{value}" in labels


def _key_alias(key: str) -> str:
    kind, _, value = key.partition(":")
    return f"{kind}:{_alias(value)}" if value else key


@dataclass
class Tally:
    stored: int = 0
    correct: int = 0
    vague: int = 0
    wrong: list[str] = field(default_factory=list)
    required: int = 0
    found: int = 0
    missed: list[str] = field(default_factory=list)
    low: int = 0  # facts kept below the prompt's 0.5
    seen: list[str] = field(default_factory=list)

    def add(
        self, who: str, facts: list[tuple[str, float]], label: dict[str, Any], vague: set[str]
    ) -> None:
        required = {_key_alias(k) for k in label.get("required", [])}
        allowed = required | {_key_alias(k) for k in label.get("acceptable", [])}
        keys = []
        for text, confidence in facts:
            self.seen.append(f"{who}: {confidence:.2f} {text}")
            if confidence < 0.5:
                self.low += 1
                continue
            key = fact_key(text)
            keys.append(key)
            self.stored += 1
            if _covers(key, allowed):
                self.correct += 1
            elif key in vague:
                self.vague += 1
            else:
                self.wrong.append(f"{who}: {text}")
        self.required += len(required)
        for need in sorted(required):
            if any(
                k == need or (k.startswith("sport:") and need == "activity:" + k[6:]) for k in keys
            ):
                self.found += 1
            else:
                self.missed.append(f"{who}: {need}")

    def row(self, name: str) -> str:
        judged = self.correct + len(self.wrong)
        precision = self.correct / judged if judged else 1.0
        vague = self.vague / self.stored if self.stored else 0.0
        recall = self.found / self.required if self.required else 1.0
        return (
            f"| {name} | {self.stored} | {precision:.2f} ({self.correct}/{judged}) | "
            f"{vague:.0%} | {recall:.2f} ({self.found}/{self.required}) | {self.low} |"
        )


def _labels(name: str) -> tuple[dict[str, Any], set[str]]:
    data = yaml.safe_load((LABELS / f"{name}.yaml").read_text(encoding="utf-8"))
    return data["speakers"], set(data.get("vague", []))


def _learned(feed: Any) -> list[tuple[str, float]]:
    with tempfile.TemporaryDirectory() as tmp:
        vault = open_vault(Path(tmp) / "eval.db", upgrade=True)
        try:
            now = feed(vault)
            return [(f.text, f.confidence) for f in vault.facts("a", now)]
        finally:
            vault.close()


def persona(split: str = "persona") -> Tally:
    speakers, vague = _labels(split)
    rows = list(csv.DictReader(PERSONA_CSV.open(encoding="utf-8")))
    tally = Tally()
    for who, label in speakers.items():
        conversation, user = int(who[1:].split("u")[0]), who.split("u")[1]
        lines = rows[conversation]["Best Generated Conversation"].split("\n")
        own = [line.split(":", 1)[1].strip() for line in lines if line.startswith(f"User {user}:")]
        turns = [
            {"role": "user", "text": t, "at": START + timedelta(minutes=i)}
            for i, t in enumerate(own)
        ]

        def feed(vault: Any, turns: list[dict[str, Any]] = turns) -> datetime:
            vault.ingest_conversation("a", turns, now=START + timedelta(hours=1))
            return START + timedelta(hours=1)

        tally.add(who, _learned(feed), label, vague)
    return tally


def memorybank() -> Tally:
    speakers, vague = _labels("memorybank")
    users = {name.strip(): v for name, v in json.loads(MEMORYBANK_JSON.read_text("utf-8")).items()}
    tally = Tally()
    for who, label in speakers.items():
        history = users[who]["history"]

        def feed(vault: Any, history: dict[str, Any] = history) -> datetime:
            moment = START
            for day, turns in sorted(history.items()):
                at = datetime.fromisoformat(day).replace(hour=20, tzinfo=timezone.utc)
                chat = [
                    {"role": "user", "text": t["query"], "at": at + timedelta(minutes=i)}
                    for i, t in enumerate(turns)
                ]
                moment = at + timedelta(hours=1)
                vault.ingest_conversation("a", chat, now=moment)
            return moment

        tally.add(who, _learned(feed), label, vague)
    return tally


def _activities(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    found = []
    for row in rows[1:]:
        when = datetime.strptime(row[1], "%b %d, %Y, %I:%M:%S %p").replace(tzinfo=timezone.utc)
        minutes = float(row[5]) / 60 if row[5] else None
        found.append(
            {
                "id": row[0],
                "started_at": when,
                "name": row[2] or None,
                "sport": row[3] or None,
                "description": row[4] or None,
                "private_note": row[10] or None,
                "duration_min": minutes,
            }
        )
    return sorted(found, key=lambda a: a["started_at"])


def training_log(path: Path) -> Tally:
    speakers, vague = _labels("training_log")
    activities = _activities(path)

    def feed(vault: Any) -> datetime:
        for activity in activities:
            vault.ingest_activity("a", activity)
        return activities[-1]["started_at"] + timedelta(hours=1)

    tally = Tally()
    tally.add("runner", _learned(feed), speakers["runner"], vague)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--activities", type=Path, default=os.environ.get("VAULT_TRAINING_LOG"))
    parser.add_argument("--show", action="store_true", help="list wrong facts and misses")
    parser.add_argument("--facts", action="store_true", help="list every fact kept")
    args = parser.parse_args()
    results = {
        "persona chats, dev (30 speakers)": persona(),
        "persona chats, held out (30 speakers)": persona("persona_blind"),
        "long multi-day chats (15 users)": memorybank(),
    }
    if args.activities:
        results["training log (1040 activities)"] = training_log(Path(args.activities))
    print("| source | prompt facts | precision | vague | recall | kept below 0.5 |")
    print("|---|---|---|---|---|---|")
    for name, tally in results.items():
        print(tally.row(name))
    if args.show:
        for name, tally in results.items():
            print(f"\n## {name}")
            for line in tally.wrong:
                print("  wrong  ", line)
            for line in tally.missed:
                print("  missed ", line)
    if args.facts:
        for name, tally in results.items():
            print(f"\n## {name}")
            for line in tally.seen:
                print("  ", line)


if __name__ == "__main__":
    main()
