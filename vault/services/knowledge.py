"""Knowledge: static facts about named things (NPCs, places, gear), parsed from JSON documents,
stored, and looked up by the names a context mentions."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from vault.domain.episodes import Knowledge, KnowledgeIn, name_key
from vault.domain.errors import InvalidInput
from vault.domain.models import validated
from vault.storage.repositories.episodes import KnowledgeRepository
from vault.storage.uow import UnitOfWork


def parse_knowledge(document: Any, where: str = "input") -> list[KnowledgeIn]:
    """Knowledge rows from a JSON document.

    Accepted shapes: a list of `{"kind", "name", "attributes"?, "aliases"?}` objects (other keys
    become attributes), or an object mapping a kind to a list of such objects (without `kind`)
    or to an object mapping names to attributes.
    """
    items: list[KnowledgeIn] = []
    if isinstance(document, list):
        entries = [(None, entry) for entry in document]
    elif isinstance(document, dict):
        entries = []
        for kind, value in document.items():
            if isinstance(value, list):
                entries.extend((kind, entry) for entry in value)
            elif isinstance(value, dict):
                entries.extend((kind, {"name": n, "attributes": a}) for n, a in value.items())
            else:
                raise InvalidInput(f"{where}: {kind!r} must hold a list or an object")
    else:
        raise InvalidInput(f"{where}: expected a JSON list or object")
    for number, (kind, entry) in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise InvalidInput(f"{where}: entry {number} is not an object")
        data = dict(entry)
        data.setdefault("kind", kind)
        attributes = data.pop("attributes", None)
        extra = {k: data.pop(k) for k in list(data) if k not in ("kind", "name", "aliases")}
        if attributes is None:
            attributes = extra
        elif not isinstance(attributes, dict):
            raise InvalidInput(f"{where}: entry {number}: attributes must be an object")
        else:
            attributes = {**extra, **attributes}
        data["attributes"] = attributes
        data["aliases"] = tuple(data.get("aliases") or ())
        try:
            items.append(validated(KnowledgeIn, data))
        except InvalidInput as error:
            raise InvalidInput(f"{where}: entry {number}: {error}") from None
    return items


def load_knowledge_files(paths: Sequence[Path]) -> list[KnowledgeIn]:
    """Parse JSON knowledge files (a directory means every *.json in it, sorted)."""
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    items: list[KnowledgeIn] = []
    for file in files:
        try:
            document = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise InvalidInput(f"cannot read {file}: {error}") from None
        except json.JSONDecodeError as error:
            raise InvalidInput(f"{file}: not JSON ({error.msg}, line {error.lineno})") from None
        items.extend(parse_knowledge(document, str(file)))
    return items


def store_knowledge(
    uow: UnitOfWork, items: Sequence[KnowledgeIn], now: datetime
) -> tuple[int, int]:
    """Insert or replace knowledge rows; (added, updated)."""
    return KnowledgeRepository(uow.connection).upsert(items, now)


def context_keys(context: str, longest: int = 4) -> list[str]:
    """Every run of 1..`longest` words of `context`, lower-cased: the names it may hold."""
    tokens = re.findall(r"[^\W_][\w'&.-]*", context.lower())
    tokens = [t.rstrip(".").removesuffix("'s") for t in tokens]
    keys = {
        name_key(" ".join(tokens[i : i + n]))
        for n in range(1, longest + 1)
        for i in range(len(tokens) - n + 1)
    }
    return sorted(k for k in keys if k)


def lookup_knowledge(repository: KnowledgeRepository, context: str) -> list[Knowledge]:
    """Knowledge rows named (by name or alias) in `context`."""
    return repository.lookup(context_keys(context))
