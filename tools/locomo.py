"""LoCoMo (snap-research, CC BY-NC 4.0) as recall data: episodes and questions, read from a path.

The data itself is never in this repository: tools take the path of `locomo10.json`. Each turn
is one episode of the conversation's owner (`sample_id`): text "speaker: text" plus its image
caption, `ref` = the dialogue id (`D3:14`), occurred_at = the session's date and time, meta
`speaker` and `session`. Questions of categories 1-4 with evidence are kept (5, adversarial,
has no answer in the conversation); evidence ids are cleaned of the data's few typos
("D:11:26", "D30:05", several ids in one string) and ids that name no turn are dropped.

BLIND names the two conversations kept out of development (chosen before any ranking ran on
LoCoMo: the fourth and eighth of the file's ten; run them once, at the end).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from vault.domain.episode_query import STOPWORDS

BLIND = frozenset({"conv-43", "conv-48"})
KINDS = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


@dataclass(frozen=True)
class Question:
    owner: str
    text: str
    kind: str
    evidence: tuple[str, ...]
    # with messages="exact": per evidence turn, the messages that count as finding it
    groups: tuple[tuple[str, ...], ...] = ()


def session_time(value: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> that moment, UTC."""
    return datetime.strptime(value.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def _turn_text(turn: dict[str, Any]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    caption = turn.get("blip_caption")
    if caption:
        text += f" [shared a photo: {caption}]"
    return text


def _clean_ids(raw: list[str], known: set[str]) -> tuple[str, ...]:
    found: list[str] = []
    for item in raw:
        for piece in re.split(r"[;,\s]+", item):
            match = re.fullmatch(r"D:?(\d+):0*(\d+)", piece.strip())
            if match:
                ref = f"D{match.group(1)}:{match.group(2)}"
                if ref in known and ref not in found:
                    found.append(ref)
    return tuple(found)


_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")


def as_messages(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The turns cut into one message per sentence, the way people write in a messaging app:
    `D3:14.2` is the third message of turn D3:14, each a few seconds after the one before,
    turns a minute apart. A stand-in for real chats' bursts (LoCoMo's turns alternate
    speakers), used to measure bursts on development data."""
    found: list[dict[str, Any]] = []
    for index, row in enumerate(rows):
        speaker, _, said = row["text"].partition(": ")
        pieces = [p for p in _SENTENCE.split(said) if p.strip()] or [said]
        for number, piece in enumerate(pieces):
            found.append(
                {
                    **row,
                    "text": f"{speaker}: {piece}",
                    "ref": f"{row['ref']}.{number}",
                    "at": row["at"] + timedelta(minutes=index % 1000, seconds=5 * number),
                }
            )
    return found


def answer_messages(turn_ref: str, messages: list[dict[str, Any]], answer: str) -> tuple[str, ...]:
    """The messages of an evidence turn that hold the answer: those sharing the most of the
    answer's content words (at least one); every message of the turn when none does (a date
    answering "when", a yes or no). A stand-in for evidence labelled per message, as in real
    chats, where finding the burst's first "omg" does not find what was asked."""
    wanted = _content_words(answer)
    mine = [m for m in messages if m["ref"].partition(".")[0] == turn_ref]
    counts = [len(wanted & _content_words(m["text"].partition(": ")[2])) for m in mine]
    best = max(counts, default=0)
    if best == 0:
        return tuple(m["ref"] for m in mine)
    return tuple(m["ref"] for m, n in zip(mine, counts) if n == best)


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2 and w not in STOPWORDS}


def load(
    path: Path, split: str = "dev", messages: bool | str = False
) -> tuple[dict[str, list[dict[str, Any]]], list[Question], dict[str, datetime]]:
    """Episodes per owner, questions, and when each owner is asked (a day after its last
    session). `split`: "dev" (eight conversations), "blind" (BLIND) or "all". With
    `messages`, each turn becomes one message per sentence (`as_messages`); with
    `messages="exact"` each question's evidence is the messages holding its answer
    (`answer_messages`), not any message of the evidence turn."""
    samples = json.loads(Path(path).read_text(encoding="utf-8"))
    episodes: dict[str, list[dict[str, Any]]] = {}
    questions: list[Question] = []
    asked: dict[str, datetime] = {}
    for sample in samples:
        owner = sample["sample_id"]
        if (split == "dev" and owner in BLIND) or (split == "blind" and owner not in BLIND):
            continue
        conversation = sample["conversation"]
        rows: list[dict[str, Any]] = []
        last = None
        for key, turns in conversation.items():
            if not re.fullmatch(r"session_\d+", key) or not isinstance(turns, list):
                continue
            at = session_time(conversation[f"{key}_date_time"])
            last = at if last is None or at > last else last
            for turn in turns:
                rows.append(
                    {
                        "text": _turn_text(turn),
                        "ref": turn["dia_id"],
                        "at": at,
                        "type": "conversation",
                        "meta": {"speaker": turn["speaker"], "session": key},
                    }
                )
        episodes[owner] = as_messages(rows) if messages else rows
        asked[owner] = (last or datetime(2024, 1, 1, tzinfo=UTC)) + timedelta(days=1)
        known = {r["ref"] for r in rows}
        for qa in sample["qa"]:
            if qa.get("category") not in KINDS:
                continue
            evidence = _clean_ids(qa.get("evidence") or [], known)
            if not evidence:
                continue
            groups: tuple[tuple[str, ...], ...] = ()
            if messages == "exact":
                answer = str(qa.get("answer", ""))
                groups = tuple(answer_messages(e, episodes[owner], answer) for e in evidence)
            questions.append(
                Question(owner, qa["question"], KINDS[qa["category"]], evidence, groups)
            )
    return episodes, questions, asked
