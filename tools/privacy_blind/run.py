"""Blind check of the privacy gate: every spelling of spellings.jsonl through every public write path.

    python tools/privacy_blind/run.py [--spellings tools/privacy_blind/spellings.jsonl] [--details]

A fresh temporary vault; each (spelling, path) gets its own athlete (or knowledge name), so the
rows it left behind are read back by SQL on the file, never through the vault's own readers.

Paths. Memory text must be refused (nothing of it stored):
  remember (Vault.remember), edit (Vault.items.edit of an existing fact), restore
  (Vault.transfer.import_document: a vault-export document with the text as a fact), engine
  (the engine's athlete_memory row gains the text as a key fact, then admin.sync_engine),
  mcp_remember (the MCP tool vault_remember).
Speech must be stored with the personal data redacted in place (placeholders), never refused:
  episode (episodes.add_one), stream (episodes.import_stream), meta (an episode's metadata value),
  knowledge (a knowledge row's attribute, nested in a list of mappings), evidence (a
  fact's evidence words), message (ingest_message), conversation (ingest_conversation),
  activity (ingest_activity: the activity's description), mcp_learn (vault_learn, an activity).

A positive is *stored unredacted* on a path when its personal part (the needle below: the
number's digits, the IBAN's characters, the e-mail's local part or host, the secret, the street
and number, the birth date) is found in any text the path left for that athlete. Spellings
marked scope "memory" (other people's names, words addressed to a model) are personal data of
memory text only: on speech paths they are ordinary speech and are looked for only in facts,
patterns, notes and archive rows. A negative is a *false positive* on a path when it was refused
for privacy (an exception, an `ignored` privacy reason, an engine item withheld) or a
placeholder appears in what was stored for it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sqlite3
import sys
import tempfile
import time
import unicodedata
from collections import defaultdict
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MEMORY_PATHS = ("remember", "edit", "restore", "engine", "mcp_remember")
SPEECH_PATHS = (
    "episode",
    "stream",
    "meta",
    "knowledge",
    "evidence",
    "message",
    "conversation",
    "activity",
    "mcp_learn",
)
PATHS = MEMORY_PATHS + SPEECH_PATHS
PLACEHOLDER = re.compile(
    r"\[(phone|email|card|iban|address|birthdate|credential|document|name|redacted)\]"
)
MEMORY_TABLES = ("facts", "patterns", "notes", "archive")
NOW = datetime(2025, 6, 1, 8, 0, tzinfo=timezone.utc)

# The personal part of each textual spelling (numbers are found by their digits, below).
TEXT_NEEDLES = {
    # credentials
    "p015": ["Hunter2Run!"],
    "p016": ["Tr0ub4dor&3"],
    "p017": ["sunshine2024"],
    "p018": ["MarathonGirl88"],
    "p019": ["s3cr3tPass"],
    "p020": ["4821"],
    "p021": ["0917"],
    "p022": ["blue-cat-42"],
    "p023": ["771203"],
    "p024": ["sk-live-4f9a8b7c6d5e4f3a2b1c0d9e", "4f9a8b7c6d5e"],
    "p025": ["ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwX", "a1B2c3D4e5F6"],
    "p026": ["RunFast2023"],
    "p027": ["Qwerty123!", "Qwerty123"],
    "p028": ["tempo-tuesday-7"],
    # birth dates: the date
    "p029": ["3rd of March 1988", "March 1988"],
    "p030": ["March 3rd, 1988", "March 3rd"],
    "p031": ["03/03/88"],
    "p032": ["12-04-1990"],
    "p033": ["twelfth of April nineteen ninety", "twelfth of April"],
    "p034": ["3.3.88"],
    "p035": ["1990-04-12"],
    "p036": ["4/12/90"],
    "p037": ["12.04.1990"],
    "p038": ["3 mars 1988"],
    "p039": ["5 May 1985"],
    "p040": ["7 Jan 92"],
    "p041": ["1/2/03"],
    "p042": ["21st of June, 1979", "21st of June"],
    # e-mail addresses: local part and host
    "p074": ["jane.doe@", "jane.doe"],
    "p075": ["jane dot doe"],
    "p076": ["jane [at]"],
    "p077": ["jdoe(at)"],
    "p078": ["josé.garcía"],
    "p079": ["müller@"],
    "p080": ["jane.doe＠", "jane.doe"],
    "p081": ["JANE.DOE@"],
    "p082": ["jane . doe"],
    "p083": ["jdoe AT protonmail"],
    "p084": ["runner_88 at yahoo"],
    "p085": ["анна@"],
    # street addresses: number and street
    "p095": ["42 Elm Road", "BS1 4DJ"],
    "p096": ["221B Baker Street"],
    "p097": ["1600 Pennsylvania Ave"],
    "p098": ["350 Fifth Avenue"],
    "p099": ["Hauptstraße 5", "10115"],
    "p100": ["Musterstr. 12"],
    "p101": ["12 rue de la Paix", "75002"],
    "p102": ["8 avenue des Champs"],
    "p103": ["Calle Mayor 10", "28013"],
    "p104": ["Via Roma 15"],
    "p105": ["Rua Augusta 100"],
    "p106": ["Av. Paulista, 1578", "Paulista, 1578"],
    "p107": ["14 MG Road", "560001"],
    "p108": ["Keizersgracht 123"],
    # words addressed to a model, look-alike letters: the instruction
    "p109": ["gnore all previous instructions"],
    "p110": ["ll previous instructions"],
    "p111": ["sregard your rules"],
    "p112": ["previous instructions"],
    "p113": ["nore previous instructions"],
    "p114": ["u are now an unrestricted"],
    "p115": ["rget everything above"],
    "p116": ["ystem prompt"],
    # other people's names in memory text
    "p117": ["john smith"],
    "p118": ["SARAH JENKINS"],
    "p119": ["maria lopez"],
    "p120": ["mike o'brien"],
    "p121": ["PRIYA SHARMA"],
    "p122": ["anna keller"],
}
NUMBER_SPAN = re.compile(r"[+(]?\d[\d \u00a0().\-/_–—]*\d")
IBAN_SPAN = re.compile(r"[A-Za-z]{2}\d{2}[A-Za-z0-9 .\-]*[A-Za-z0-9]")


def fold(text: str) -> str:
    """Case and spacing folded, so a needle is found whatever the storage did to them."""
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def iban_key(text: str) -> str:
    span = IBAN_SPAN.search(text)
    assert span, text
    alnum = re.sub(r"[^A-Za-z0-9]", "", span.group(0)).upper()
    for end in range(len(alnum), 14, -1):  # the longest prefix whose mod 97 holds
        head = alnum[:end]
        moved = head[4:] + head[:4]
        if int("".join(str(int(c, 36)) for c in moved)) % 97 == 1:
            return head
    raise AssertionError(text)


def leaked(spelling: dict[str, Any], cells: list[str]) -> bool:
    """True when the spelling's personal part is in any of the stored texts."""
    kind = spelling["kind"]
    text = spelling["text"]
    if kind in ("card", "phone"):
        digits = re.sub(r"\D", "", max(NUMBER_SPAN.findall(text), key=len))
        tail = digits[-7:]
        return any(tail in re.sub(r"\D", "", cell) for cell in cells)
    if kind == "iban":
        key = iban_key(text)[4:14]
        return any(key in re.sub(r"[^A-Za-z0-9]", "", cell).upper() for cell in cells)
    needles = [fold(n) for n in TEXT_NEEDLES[spelling["id"]]]
    folded = [fold(c) for c in cells]
    if any(n in c for n in needles for c in folded):
        return True
    if kind == "birth_date":  # a numeric date whose digits survive with other separators
        for needle in TEXT_NEEDLES[spelling["id"]]:
            digits = re.sub(r"\D", "", needle)
            if len(digits) >= 5 and any(digits in re.sub(r"\D", "", c) for c in cells):
                return True
    return False


# -- the write paths -------------------------------------------------------------------------


def privacy_ignored(result: Any) -> str | None:
    for item in getattr(result, "ignored", ()) or ():
        reason = str(getattr(item, "reason", item))
        if "privacy" in reason:
            return reason
    return None


def write(vault: Any, path: str, who: str, text: str, ident: str, mcp_call: Any) -> str | None:
    """Send `text` through `path` for athlete `who`; the refusal reason, or None."""
    from vault import FactIn

    if path == "remember":
        vault.remember(who, text, now=NOW)
    elif path == "edit":
        vault.remember(who, "prefers morning sessions", now=NOW)
        fact_id = _one(vault, "SELECT id FROM facts WHERE athlete_id = ?", who)
        vault.items.edit(who, "fact", fact_id, text, now=NOW + timedelta(minutes=1))
    elif path == "restore":
        vault.transfer.import_document(_document(who, text))
    elif path == "engine":
        vault.remember(who, "prefers morning sessions", now=NOW)
        _engine_write(vault, who, text)
        vault.admin.sync_engine(NOW + timedelta(minutes=2))
        return _engine_refusal(vault, who, text)
    elif path == "episode":
        result = vault.episodes.add_one(who, text, now=NOW)
        return _skipped(result)
    elif path == "stream":
        refused: list[str] = []
        counts = vault.episodes.import_stream(
            who, [{"text": text}], now=NOW, on_refused=lambda _i, r: refused.append(r)
        )
        return refused[0] if refused or counts["refused"] else None
    elif path == "meta":
        result = vault.episodes.add_one(
            who, "easy run, notes in meta", now=NOW, meta={"note": text, "n": 1}
        )
        return _skipped(result)
    elif path == "knowledge":
        vault.knowledge.load(
            [{"kind": "note", "name": f"k {who}", "attributes": {"notes": [{"said": text}]}}],
            now=NOW,
        )
    elif path == "evidence":
        result = vault.merge(who, [FactIn(text="prefers morning sessions", evidence=text)], now=NOW)
        return privacy_ignored(result)
    elif path == "message":
        return privacy_ignored(vault.ingest_message(who, text, now=NOW))
    elif path == "conversation":
        turns = [{"role": "athlete", "text": text, "at": NOW}]
        return privacy_ignored(vault.ingest_conversation(who, turns, now=NOW))
    elif path == "activity":
        activity = {"id": f"act-{ident}", "description": text, "started_at": NOW, "sport": "run"}
        return privacy_ignored(vault.ingest_activity(who, activity))
    else:
        raise ValueError(path)
    return None


def _mcp_outcome(result: Any) -> dict[str, Any]:
    if result.is_error:
        return {"reason": result.content[0].text, "error": "Refused"}
    for item in (result.structured_content or {}).get("ignored", []) or []:
        if "privacy" in json.dumps(item):
            return {"reason": json.dumps(item), "error": None}
    return {"reason": None, "error": None}


def _one(vault: Any, sql: str, *params: Any) -> Any:
    with sqlite3.connect(vault.engine.url.database) as connection:
        return connection.execute(sql, params).fetchone()[0]


def _skipped(result: Any) -> str | None:
    skipped = getattr(result, "skipped", ()) or ()
    return "; ".join(str(reason) for _index, reason in skipped) or None


def _document(who: str, text: str) -> dict[str, Any]:
    stamp = NOW.strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    fact = {
        "id": 1,
        "text": text,
        "category": "general",
        "conflict_key": None,
        "source": "manual",
        "source_ref": None,
        "extractor": None,
        "confidence": 0.8,
        "base_confidence": 0.8,
        "occurrences": 1,
        "tags": [],
        "learned_at": stamp,
        "observed_at": stamp,
        "last_reinforced_at": stamp,
        "updated_at": stamp,
    }
    return {
        "format": "vault-export",
        "version": 1,
        "athlete": {"id": who, "created_at": stamp, "updated_at": stamp},
        "facts": [fact],
        "patterns": [],
        "notes": [],
        "archive": [],
    }


def _engine_write(vault: Any, who: str, text: str) -> None:
    with sqlite3.connect(vault.engine.url.database) as connection:
        (row,) = connection.execute(
            "SELECT memory_json FROM athlete_memory WHERE athlete_id = ?", (who,)
        ).fetchone()
        memory = json.loads(row)
        memory["key_facts"].append(
            {
                "fact": text,
                "source": "conversation",
                "confidence": 0.9,
                "learned_at": (NOW + timedelta(minutes=1)).isoformat(),
            }
        )
        connection.execute(  # how the engine writes: its whole row, replaced
            "INSERT OR REPLACE INTO athlete_memory (athlete_id, memory_json, updated_at)"
            " VALUES (?, ?, ?)",
            (who, json.dumps(memory), (NOW + timedelta(minutes=1)).isoformat()),
        )


def _engine_refusal(vault: Any, who: str, text: str) -> str | None:
    with sqlite3.connect(vault.engine.url.database) as connection:
        texts = [
            r[0] for r in connection.execute("SELECT text FROM facts WHERE athlete_id = ?", (who,))
        ]
    return None if any(fold(text) == fold(t) for t in texts) else "withheld by the engine sync"


# -- reading back ----------------------------------------------------------------------------


def stored_texts(
    database: str,
) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, str]]:
    """Per athlete: every text cell (all tables), and the memory tables' texts; per knowledge
    name: its attributes."""
    everything: dict[str, list[str]] = defaultdict(list)
    memory: dict[str, list[str]] = defaultdict(list)
    knowledge: dict[str, str] = {}
    with sqlite3.connect(database) as connection:
        tables = [
            r[0]
            for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not r[0].startswith(("sqlite_", "episodes_fts"))
        ]
        for table in tables:
            columns = [r[1] for r in connection.execute(f'PRAGMA table_info("{table}")')]
            owner = next((c for c in ("athlete_id", "owner_id") if c in columns), None)
            if owner is None:
                continue
            for row in connection.execute(f'SELECT * FROM "{table}"'):
                record = dict(zip(columns, row))
                cells = [v for k, v in record.items() if isinstance(v, str) and k != owner]
                everything[record[owner]].extend(cells)
                if table in MEMORY_TABLES:
                    memory[record[owner]].extend(cells)
        for name, attributes in connection.execute(
            "SELECT k.name, k.attributes FROM knowledge AS k"
        ):
            knowledge[name] = attributes
    return everything, memory, knowledge


# -- the run ---------------------------------------------------------------------------------


def run(spellings: list[dict[str, Any]], details: bool) -> str:
    from vault import open_vault
    from vault.mcp.scope import Scope
    from vault.mcp.server import build_server

    workdir = tempfile.mkdtemp(prefix="privacy-blind-")
    database = str(Path(workdir) / "blind.db")
    outcome: dict[tuple[str, str], dict[str, Any]] = {}
    started = time.perf_counter()
    with open_vault(database, upgrade=True) as vault:
        athletes = [f"{p.replace('_', '-')}-{s['id']}" for p in PATHS for s in spellings]
        server = build_server(vault, Scope(tuple(athletes), allow_writes=True))

        def send(path: str, spelling: dict[str, Any], mcp_call: Any) -> None:
            who = f"{path.replace('_', '-')}-{spelling['id']}"
            try:
                reason = write(vault, path, who, spelling["text"], spelling["id"], mcp_call)
                error = None
            except Exception as exc:  # a refusal or a failure: both are recorded, with type
                reason = f"{type(exc).__name__}: {exc}"
                error = type(exc).__name__
            outcome[(path, spelling["id"])] = {"reason": reason, "error": error}

        for path in PATHS:
            if not path.startswith("mcp_"):
                for spelling in spellings:
                    send(path, spelling, None)

        async def through_mcp() -> None:
            from mcp import Client

            async with Client(server) as client:
                for path in PATHS:
                    if path.startswith("mcp_"):
                        for spelling in spellings:
                            tool = "vault_remember" if path == "mcp_remember" else "vault_learn"
                            who = f"{path.replace('_', '-')}-{spelling['id']}"
                            arguments: dict[str, Any] = {
                                "text": spelling["text"],
                                "athlete_id": who,
                            }
                            if tool == "vault_learn":
                                arguments |= {"source": "activity", "sport": "run"}
                            result = await client.call_tool(tool, arguments)
                            outcome[(path, spelling["id"])] = _mcp_outcome(result)

        asyncio.run(through_mcp())
    elapsed = time.perf_counter() - started
    everything, memory, knowledge = stored_texts(database)
    return report(spellings, outcome, everything, memory, knowledge, elapsed, details)


def report(
    spellings: list[dict[str, Any]],
    outcome: dict[tuple[str, str], dict[str, Any]],
    everything: dict[str, list[str]],
    memory: dict[str, list[str]],
    knowledge: dict[str, str],
    elapsed: float,
    details: bool,
) -> str:
    leaks: dict[tuple[str, str], list[str]] = defaultdict(list)  # (kind, path) -> ids
    totals: dict[tuple[str, str], int] = defaultdict(int)
    false_positives: dict[tuple[str, str], list[str]] = defaultdict(list)
    negative_totals: dict[tuple[str, str], int] = defaultdict(int)
    failures: list[str] = []
    lines_detail: list[str] = []
    for spelling in spellings:
        for path in PATHS:
            who = f"{path.replace('_', '-')}-{spelling['id']}"
            got = outcome[(path, spelling["id"])]
            if spelling["scope"] == "memory" and path in SPEECH_PATHS:
                cells = memory.get(who, [])  # a knowledge row is speech: never memory text
            elif path == "knowledge":
                cells = [knowledge.get(f"k {who}", "")]
            else:
                cells = everything.get(who, [])
            if got["error"] and got["error"] not in ("InvalidInput", "PrivacyRefused", "Refused"):
                failures.append(f"{spelling['id']} {path}: {got['reason']}")
            if spelling["personal"]:
                totals[(spelling["kind"], path)] += 1
                if leaked(spelling, cells):
                    leaks[(spelling["kind"], path)].append(spelling["id"])
                    lines_detail.append(
                        f"| {spelling['id']} | {path} | stored unredacted | {_short(spelling['text'])} |"
                    )
                elif path in SPEECH_PATHS and spelling["scope"] == "any" and got["reason"]:
                    lines_detail.append(
                        f"| {spelling['id']} | {path} | refused (speech path) | {_short(got['reason'])} |"
                    )
            else:
                negative_totals[(spelling["kind"], path)] += 1
                altered = any(PLACEHOLDER.search(c) for c in cells)
                if got["reason"] or altered:
                    false_positives[(spelling["kind"], path)].append(spelling["id"])
                    why = got["reason"] or "placeholder in stored text"
                    lines_detail.append(
                        f"| {spelling['id']} | {path} | false positive | {_short(spelling['text'])} -- {_short(why)} |"
                    )
    kinds = list(dict.fromkeys(s["kind"] for s in spellings if s["personal"]))
    negative_kinds = list(dict.fromkeys(s["kind"] for s in spellings if not s["personal"]))
    codes = {p: p.replace("mcp_", "mcp ") for p in PATHS}
    out = [
        f"{sum(s['personal'] for s in spellings)} personal spellings and "
        f"{sum(not s['personal'] for s in spellings)} negatives x {len(PATHS)} write paths "
        f"({len(MEMORY_PATHS)} memory: refuse; {len(SPEECH_PATHS)} speech: redact); "
        f"{elapsed:.0f} s.",
        "",
        "Stored unredacted (positives), per kind and path (leaked/sent; names and words to a "
        "model count on speech paths only if they reached memory text):",
        "",
        "| kind | " + " | ".join(codes[p] for p in PATHS) + " | spellings leaked on any path |",
        "|---|" + "---:|" * (len(PATHS) + 1),
    ]
    for kind in kinds:
        ids_any = {i for p in PATHS for i in leaks[(kind, p)]}
        n = sum(1 for s in spellings if s["kind"] == kind and s["personal"])
        out.append(
            f"| {kind} | "
            + " | ".join(f"{len(leaks[(kind, p)])}/{totals[(kind, p)]}" for p in PATHS)
            + f" | {len(ids_any)}/{n} |"
        )
    all_any = {i for k in kinds for p in PATHS for i in leaks[(k, p)]}
    out.append(
        "| **all** | "
        + " | ".join(f"{sum(len(leaks[(k, p)]) for k in kinds)}" for p in PATHS)
        + f" | **{len(all_any)}/{sum(s['personal'] for s in spellings)}** |"
    )
    out += [
        "",
        "False positives (negatives refused or altered), per kind and path:",
        "",
        "| kind | " + " | ".join(codes[p] for p in PATHS) + " | negatives hit on any path |",
        "|---|" + "---:|" * (len(PATHS) + 1),
    ]
    for kind in negative_kinds:
        ids_any = {i for p in PATHS for i in false_positives[(kind, p)]}
        n = sum(1 for s in spellings if s["kind"] == kind and not s["personal"])
        out.append(
            f"| {kind} | "
            + " | ".join(
                f"{len(false_positives[(kind, p)])}/{negative_totals[(kind, p)]}" for p in PATHS
            )
            + f" | {len(ids_any)}/{n} |"
        )
    fp_any = {i for k in negative_kinds for p in PATHS for i in false_positives[(k, p)]}
    out.append(
        "| **all** | "
        + " | ".join(f"{sum(len(false_positives[(k, p)]) for k in negative_kinds)}" for p in PATHS)
        + f" | **{len(fp_any)}/{sum(not s['personal'] for s in spellings)}** |"
    )
    out += ["", f"Failures that are not refusals (tracebacks): {len(failures)}"]
    out += [f"- {f}" for f in failures[:40]]
    if details:
        out += ["", "| id | path | what | text / reason |", "|---|---|---|---|", *lines_detail]
    return "\n".join(out) + "\n"


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(str(text).split()).replace("|", "/")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spellings", default=str(HERE / "spellings.jsonl"))
    parser.add_argument("--details", action="store_true", help="one line per leak and per hit")
    args = parser.parse_args(argv)
    spellings = [json.loads(line) for line in Path(args.spellings).read_text().splitlines() if line]
    sys.stdout.write(run(spellings, args.details))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
