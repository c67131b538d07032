"""Score what the vault learns from real words: precision (vague apart) and recall per source.

    .venv/bin/python tools/eval_learning.py [--activities PATH] [--locomo PATH] [--blind] [--show]

Sources, each split into dev and blind by tools/learning_split.py (blind is run once, at the end):
- Multi-Session Chat (MSC, ../shared/data/msc-personasummary, validation files, CC BY 4.0): each
  speaker's utterances of sessions 1-4, one session per day three days apart; the labels are the
  `persona_text` a person wrote for each utterance, scored by tools/person_facts.py.
- LoCoMo (`--locomo PATH` to locomo10.json, CC BY-NC, never committed): each speaker's turns per
  session at the session's date; the labels are the per-session observations, same scorer.
- Synthetic-Persona-Chat, MemoryBank and the training log: hand labels in tools/learning_labels/.

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
# ../shared/data beside the checkout (a worktree under wt/NN looks two levels up)
DATA = Path(
    os.environ.get("VAULT_SHARED_DATA")
    or next(
        (p / "shared" / "data" for p in ROOT.parents if (p / "shared" / "data").is_dir()),
        ROOT.parent / "shared" / "data",
    )
)
PERSONA_CSV = DATA / "synthetic-persona-chat" / "valid.csv"
MEMORYBANK_JSON = DATA / "memorybank-en" / "memory_bank_en.json"
START = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)

MSC_DIR = DATA / "msc-personasummary"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
from learning_split import is_blind, split  # noqa: E402
from person_facts import is_vague, kinds_of, supports  # noqa: E402

from vault import open_vault  # noqa: E402

BLOCK = 0.5

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
    "ping pong": "table tennis",
    "pregnant": "pregnancy",
}
_SOCIAL = re.compile(
    r"group (?:runs|rides)|with (?:a |the )?(?:group|club|friends|others)|running club"
)


def _alias(value: str) -> str:
    value = value.strip().lower().removeprefix("the ")  # "works in the army": job:army
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
        (r"works for (?:an? |the )?(.+)", "job"),
        (r"is an? (student|retired|stay-at-home .+)", "job"),
        (r"is (retired)", "job"),
        (r"has (?:a )?recurring (.+?) (?:issue|pain|injury)", "injury"),
        (r"has (?:an? )?(.+?) (?:issue|pain|injury)", "injury"),
        (r"prefers (\w+) sessions", "time"),
        (r"is (pregnant)", "health"),
    ]
    for pattern, kind in rules:
        match = re.fullmatch(pattern, t)
        if match:
            return f"{kind}:{_alias(match.group(1))}"
    diet = re.fullmatch(r"(?:eats (?:an? )?(.+?)(?: diet)?|is (vegan|vegetarian|pescatarian))", t)
    if diet:
        return f"diet:{diet.group(1) or diet.group(2)}"
    if t.startswith("teaches "):  # "teaches kindergarten", "teaches piano": a teacher
        return "job:teacher"
    if t == "works out regularly":
        return "activity:working out"
    if t == "is not working":
        return "job:none"
    if t in {"has kids", "has grandchildren"}:  # a grandparent has children
        return "family:kids"
    if t in {"has a partner", "lives with a partner"}:
        return "family:partner"
    if t == "busy schedule":
        return "schedule:busy"
    if t in {"works shifts", "works night shifts"}:
        return "schedule:shift work"
    health = re.fullmatch(r"(?:has|had) (?:an? )?(.+)", t)  # "has a disability", "had cancer"
    if health:
        return f"health:{_alias(health.group(1))}"
    return f"other:{t}"


def _covers(key: str, labels: set[str]) -> bool:
    labels = {_key_alias(label) for label in labels}
    if key in labels:
        return True
    kind, _, value = key.partition(":")
    return kind == "sport" and f"activity:{value}" in labels


def _narrowed(key: str, labels: set[str]) -> str:
    """A job title the speaker narrowed counts as the labelled one: English compounds put the
    head last, so `job:elementary school teacher` is `job:teacher` when that is labelled."""
    kind, _, title = key.partition(":")
    if kind != "job" or key in labels:
        return key
    for label in sorted(labels, key=len, reverse=True):  # the most specific labelled title
        if label.startswith("job:") and title.endswith(" " + label[4:]):
            return label
    return key


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
            key = _narrowed(fact_key(text), allowed)
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
                _narrowed(k, {need}) == need
                or (k.startswith("sport:") and need == "activity:" + k[6:])
                for k in keys
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


FRESH_PERSONA_SETS = {
    "persona_fresh": "31 fresh speakers (conversations 300-317)",
    "persona_fresh2": "31 more fresh speakers (conversations 200-218)",
    "persona_fresh3": "42 more fresh speakers (conversations 400-421)",
    "persona_fresh4": "37 more fresh speakers (conversations 600-624)",
}


def memorybank(part: str = "dev") -> Tally:
    speakers, vague = _labels("memorybank")
    speakers = {k: v for k, v in speakers.items() if is_blind("memorybank", k) == (part == "blind")}
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


_DATE_FORMATS = ("%b %d, %Y, %I:%M:%S %p", "%d %b %Y, %H:%M:%S")  # Strava exports, by locale


def _activities(path: Path) -> list[dict[str, Any]]:
    """A Strava bulk export's activities, by its header's names (exports differ in columns)."""
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    found = []
    for row in rows:
        when = _export_time(row["Activity Date"])
        elapsed = row.get("Elapsed Time")
        found.append(
            {
                "id": row["Activity ID"],
                "started_at": when,
                "name": row.get("Activity Name") or None,
                "sport": row.get("Activity Type") or None,
                "description": row.get("Activity Description") or None,
                "private_note": row.get("Activity Private Note") or None,
                "duration_min": float(elapsed) / 60 if elapsed else None,
            }
        )
    return sorted(found, key=lambda a: a["started_at"])


def _export_time(text: str) -> datetime:
    for layout in _DATE_FORMATS:
        try:
            return datetime.strptime(text, layout).replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    raise ValueError(f"activity date in no known layout: {text!r}")


def _log_tally(
    tally: Tally, who: str, activities: list[dict[str, Any]], label: Any, vague: set[str]
) -> None:
    if not activities:
        raise SystemExit(f"{who}: the export holds no activities")

    def feed(vault: Any) -> datetime:
        for activity in activities:
            vault.ingest_activity("a", activity)
        return activities[-1]["started_at"] + timedelta(hours=1)

    tally.add(who, _learned(feed), label, vague)


def training_log(path: Path) -> Tally:
    speakers, vague = _labels("training_log")
    tally = Tally()
    _log_tally(tally, "runner", _activities(path), speakers["runner"], vague)
    return tally


def training_logs(folder: Path, part: str) -> Tally:
    """The logs of tools/learning_labels/training_logs.yaml in `part` found in `folder`."""
    data = yaml.safe_load((LABELS / "training_logs.yaml").read_text(encoding="utf-8"))
    vague = set(data.get("vague", []))
    tally = Tally()
    for name, label in data["logs"].items():
        path = folder / f"{name}.csv"
        if label["split"] != part:
            continue
        if not path.is_file():
            print(f"(skipped {name}: no {path})", file=sys.stderr)
            continue
        _log_tally(tally, name, _activities(path), label, vague)
    return tally


@dataclass
class AutoTally:
    """Scores against person-written facts (tools/person_facts.py)."""

    block: int = 0
    block_correct: int = 0
    block_vague: int = 0
    stored: int = 0
    stored_correct: int = 0
    gold: int = 0
    recalled: int = 0
    recalled_any: int = 0  # by any stored fact, block or not: what belief holds back
    speakers: int = 0
    by_kind: dict[str, list[int]] = field(default_factory=dict)
    wrong: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)

    def add(
        self,
        who: str,
        facts: list[tuple[str, float]],
        written: list[str],
        given: list[str] | None = None,
    ) -> None:
        """`written`: the speaker's own person-written facts (recall's denominator and support);
        `given`: other person-written facts about the speaker (support only)."""
        self.speakers += 1
        sentences = _sentences(written)
        support = sentences + _sentences(given or [])
        block = []
        stored = [text for text, _ in facts]
        for text, confidence in facts:
            self.seen.append(f"{who}: {confidence:.2f} {text}")
            ok = any(supports(s, text) for s in support)
            vague = is_vague(text)
            self.stored += 1
            self.stored_correct += ok and not vague
            if confidence < BLOCK:
                continue
            block.append(text)
            self.block += 1
            if vague:
                self.block_vague += 1
            elif ok:
                self.block_correct += 1
            else:
                said = " | ".join(WHY.get((who, text), []))[:300]
                self.wrong.append(f"{who}: {confidence:.2f} {text}   <- {said}")
        for sentence in sentences:
            kinds = kinds_of(sentence)
            if not kinds:
                continue
            hit = any(supports(sentence, text) for text in block)
            self.recalled_any += any(supports(sentence, text) for text in stored)
            self.gold += 1
            self.recalled += hit
            for kind in kinds:
                row = self.by_kind.setdefault(kind, [0, 0])
                row[0] += hit
                row[1] += 1
            if not hit:
                self.missed.append(f"{who}: [{','.join(sorted(kinds))}] {sentence}")

    def row(self, name: str) -> str:
        judged = self.block - self.block_vague
        precision = self.block_correct / judged if judged else 1.0
        judged_all = self.stored
        precision_all = self.stored_correct / judged_all if judged_all else 1.0
        vague = self.block_vague / self.block if self.block else 0.0
        recall = self.recalled / self.gold if self.gold else 1.0
        kinds = " ".join(f"{k} {v[0] / v[1]:.2f}" for k, v in sorted(self.by_kind.items()) if v[1])
        return (
            f"| {name} | {self.block} | {precision:.2f} ({self.block_correct}/{judged}) | "
            f"{precision_all:.2f} ({self.stored_correct}/{judged_all}) | {vague:.0%} | "
            f"{recall:.2f} ({self.recalled}/{self.gold}) | "
            f"{self.recalled_any / self.gold if self.gold else 1.0:.2f} | {kinds} |"
        )


def _sentences(written: list[str]) -> list[str]:
    seen: dict[str, str] = {}
    for text in written:
        for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
            key = sentence.strip().lower().rstrip(".!? ")
            if key and key not in seen:
                seen[key] = sentence.strip()
    return list(seen.values())


def _learn_many(feeds: dict[str, Any]) -> dict[str, list[tuple[str, float]]]:
    """Learn every speaker into one vault file (one athlete each): {speaker: [(text, conf)]}."""
    found: dict[str, list[tuple[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        vault = open_vault(Path(tmp) / "eval.db", upgrade=True)
        try:
            for who, feed in feeds.items():
                now = feed(vault, who)
                facts = vault.facts(who, now)
                found[who] = [(f.text, f.confidence) for f in facts]
                if WHY:
                    cited = vault.why([f.id for f in facts])
                    for f in facts:
                        WHY[(who, f.text)] = [e.words or "" for e in cited[f.id]]
        finally:
            vault.close()
    return found


MSC_SESSION_GAP = timedelta(days=3)
WHY: dict[tuple[str, str], list[str]] = {}  # filled when --show asks for the words


# `--messages`: each turn cut into one message per sentence, seconds apart, the way people write
# in a messaging app (a stand-in: MSC and LoCoMo turns are whole paragraphs)
AS_MESSAGES = False
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def _as_typed(texts: list[str], at: datetime, gap: timedelta) -> list[dict[str, Any]]:
    """The speaker's turns as user messages: one per turn, or one per sentence with --messages."""
    turns = []
    for i, text in enumerate(texts):
        pieces = _SENTENCE_END.split(text) if AS_MESSAGES else [text]
        for j, piece in enumerate(pieces):
            turns.append(
                {"role": "user", "text": piece, "at": at + i * gap + timedelta(seconds=5 * j)}
            )
    return turns


def msc(part: str, limit: int | None = None) -> AutoTally:
    """Multi-Session Chat speakers of `part`, four sessions each, scored on persona_text."""
    sessions = []
    for number in (1, 2, 3, 4):
        path = MSC_DIR / f"session_{number}_valid.jsonl"
        rows = [json.loads(line) for line in path.open(encoding="utf-8")]
        sessions.append({row["initial_data_id"]: row["dialog"] for row in rows})
    dialogues = split("msc", sorted(sessions[0], key=lambda i: int(i.split("_")[1])), part)
    if limit:
        dialogues = dialogues[:limit]
    feeds: dict[str, Any] = {}
    written: dict[str, list[str]] = {}
    # the persona each speaker was given (people wrote it too): support for precision only
    given: dict[str, list[str]] = {}
    first = MSC_DIR / "session_2_valid.jsonl"
    initial = {
        row["initial_data_id"]: row["init_personachat"]["init_personas"]
        for row in map(json.loads, first.open(encoding="utf-8"))
    }
    for dialogue in dialogues:
        for bot in ("bot_0", "bot_1"):
            who = f"msc-{dialogue.split('_')[1]}-{bot[-1]}"
            per_session = [
                [u["text"] for u in session.get(dialogue, []) if u["id"] == bot]
                for session in sessions
            ]
            written[who] = [
                u["persona_text"]
                for session in sessions
                for u in session.get(dialogue, [])
                if u["id"] == bot and u.get("persona_text")
            ]
            given[who] = initial[dialogue][int(bot[-1])] if dialogue in initial else []

            def feed(vault: Any, who: str, per_session: list[list[str]] = per_session) -> datetime:
                moment = START
                for number, texts in enumerate(per_session):
                    at = START + number * MSC_SESSION_GAP
                    turns = _as_typed(texts, at, timedelta(minutes=2))
                    moment = at + timedelta(hours=1)
                    if turns:
                        vault.ingest_conversation(who, turns, now=moment)
                return moment

            feeds[who] = feed
    tally = AutoTally()
    for who, facts in _learn_many(feeds).items():
        tally.add(who, facts, written[who], given[who])
    return tally


def _first_person(text: str, name: str) -> str:
    text = re.sub(rf"^{re.escape(name)}'s\b", "My", text.strip())
    text = re.sub(rf"^{re.escape(name)}\b", "I", text)
    return re.sub(r"^(?:She|He)\b", "I", text)


def _locomo_time(text: str) -> datetime:
    return datetime.strptime(text, "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)


def locomo(path: Path, part: str) -> AutoTally:
    """LoCoMo speakers of `part`, every session at its date, scored on the observations."""
    data = json.loads(path.read_text(encoding="utf-8"))
    chosen = set(split("locomo", [d["sample_id"] for d in data], part))
    feeds: dict[str, Any] = {}
    written: dict[str, list[str]] = {}
    for sample in data:
        if sample["sample_id"] not in chosen:
            continue
        chat = sample["conversation"]
        numbers = sorted(int(k.split("_")[1]) for k in chat if re.fullmatch(r"session_\d+", k))
        for speaker in (chat["speaker_a"], chat["speaker_b"]):
            who = f"{sample['sample_id']}-{speaker}".lower()
            # observations name the speaker in the third person: read them as the speaker's
            # own ("Caroline is ..." -> "I is ..."), so the label rule's first person applies
            written[who] = [
                _first_person(item[0], speaker)
                for key, observed in sample["observation"].items()
                for item in observed.get(speaker, [])
            ]
            per_session = [
                (
                    _locomo_time(chat[f"session_{n}_date_time"]),
                    [t["text"] for t in chat[f"session_{n}"] if t["speaker"] == speaker],
                )
                for n in numbers
            ]

            def feed(vault: Any, who: str, per_session: list[Any] = per_session) -> datetime:
                moment = START
                for at, texts in per_session:
                    turns = _as_typed(texts, at, timedelta(minutes=1))
                    moment = at + timedelta(hours=1)
                    if turns:
                        vault.ingest_conversation(who, turns, now=moment)
                return moment

            feeds[who] = feed
    tally = AutoTally()
    for who, facts in _learn_many(feeds).items():
        tally.add(who, facts, written[who])
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--activities", type=Path, default=os.environ.get("VAULT_TRAINING_LOG"))
    parser.add_argument("--locomo", type=Path, default=os.environ.get("VAULT_LOCOMO"))
    parser.add_argument(
        "--logs",
        type=Path,
        default=os.environ.get("VAULT_TRAINING_LOGS"),
        help="a folder of Strava exports named as in tools/learning_labels/training_logs.yaml",
    )
    parser.add_argument("--blind", action="store_true", help="score the blind part (run once)")
    parser.add_argument(
        "--only",
        help="one source: msc, locomo, persona, memorybank, log, logs",
    )
    parser.add_argument("--limit", type=int, help="at most this many MSC dialogues")
    parser.add_argument("--show", action="store_true", help="list wrong facts and misses")
    parser.add_argument("--facts", action="store_true", help="list every fact kept")
    parser.add_argument(
        "--messages",
        action="store_true",
        help="MSC and LoCoMo: one message per sentence, as typed in a messaging app",
    )
    args = parser.parse_args()
    global AS_MESSAGES
    AS_MESSAGES = args.messages
    part = "blind" if args.blind else "dev"
    if args.show:
        WHY[("", "")] = []  # non-empty: collect the evidence words of each fact

    def wanted(name: str) -> bool:
        return args.only in (None, name)

    auto: dict[str, AutoTally] = {}
    if wanted("msc"):
        auto[f"Multi-Session Chat, {part}"] = msc(part, args.limit)
    if wanted("locomo") and args.locomo:
        auto[f"LoCoMo long chats, {part}"] = locomo(Path(args.locomo), part)
    results: dict[str, Tally] = {}
    if wanted("persona"):
        results[f"persona chats, {part}"] = persona("persona_blind" if args.blind else "persona")
    # speakers labelled and never examined: each set is scored once, asked for by name
    for name, title in FRESH_PERSONA_SETS.items():
        if args.only == name:
            results[f"persona chats, {title}"] = persona(name)
    if wanted("memorybank"):
        results[f"MemoryBank multi-day chats, {part}"] = memorybank(part)
    if wanted("log") and args.activities and not args.blind:
        results["training log (1040 activities), dev"] = training_log(Path(args.activities))
    if wanted("logs") and args.logs:
        results[f"more runners' logs, {part}"] = training_logs(Path(args.logs), part)
    if auto:
        print(
            "| source | block facts | block precision | all-facts precision | vague | recall "
            "| recall, all facts | recall by kind |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for name, tally in auto.items():
            print(tally.row(name))
        print()
    if results:
        print("| source | block facts | block precision | vague | recall | kept below 0.5 |")
        print("|---|---|---|---|---|---|")
        for name, tally in results.items():
            print(tally.row(name))
    both: dict[str, Any] = {**auto, **results}
    if args.show:
        for name, any_tally in both.items():
            print(f"\n## {name}")
            for line in any_tally.wrong:
                print("  wrong  ", line)
            for line in any_tally.missed:
                print("  missed ", line)
    if args.facts:
        for name, any_tally in both.items():
            print(f"\n## {name}")
            for line in any_tally.seen:
                print("  ", line)


if __name__ == "__main__":
    main()
