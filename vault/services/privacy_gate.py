"""The one privacy gate every write of text passes through, with one explicit opt-out.

Every public write path hands what it is about to store to `check` (or one of the helpers that
list an input's fields) before its transaction writes anything: facts, patterns and notes with
their `source_ref` and tags, episodes (text, type, outcome, ref, meta keys and values),
knowledge (kind, name, aliases, attributes), vault-export documents, memories.yaml files and
whatever an extractor found in a message, a conversation or an activity. A refused field is
InvalidInput naming it, and nothing is written.

Two rules, both reading the text normalized (`vault.extraction.privacy.normalized`):
- the free text of a fact, pattern or note passes `text_problem` (personal data, another
  person's name, words addressed to a model, a slot value that is not a value);
- every other field passes `personal_data_problem` (personal data and words addressed to a
  model; names are allowed, since an episode may name a race or a game's character and
  knowledge is about named things).

`trusted=True` (CLI `--trusted`) skips the gate for an entry its author vouches for; the flag
must be a real bool, so a truthy string cannot switch the filter off by accident.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from vault.domain.document import ExportDocument
from vault.domain.episodes import EpisodeIn, KnowledgeIn
from vault.domain.errors import InvalidInput, PrivacyRefused
from vault.domain.models import Candidate, FactIn, Retraction
from vault.extraction.privacy import addresses_model, find_pii, text_problem

_NUMERIC_ID = re.compile(r"\d{1,20}")
# (where, text, whether it is free memory text held to the stricter rule)
Field = tuple[str, str, bool]


def personal_data_problem(text: str) -> str | None:
    """Why a field that is not memory text may not be stored, or None.

    Slug fields (an episode's type and outcome) join words with `_`: they are read both as
    written and with `_` as a space, so `my_password_x` is read as "my password x".
    """
    for form in (text, text.replace("_", " ")) if "_" in text else (text,):
        if addresses_model(form):
            return "the text addresses the model, not the athlete"
        kinds = sorted({span.kind for span in find_pii(form) if span.kind != "name"})
        if kinds:
            return "holds personal data (" + ", ".join(kinds) + ")"
    return None


def require_bool(trusted: object) -> bool:
    if not isinstance(trusted, bool):
        raise InvalidInput(f"trusted must be True or False, got {trusted!r}")
    return trusted


def check(fields: Iterable[Field], *, trusted: bool) -> None:
    """InvalidInput for the first field the gate refuses (none when `trusted`)."""
    if require_bool(trusted):
        return
    for where, text, memory_text in fields:
        if where.endswith("ref") and _NUMERIC_ID.fullmatch(text):
            continue  # an app's numeric id (a Strava activity id has 10-11 digits), not a phone
        problem = text_problem(text) if memory_text else personal_data_problem(text)
        if problem is not None:
            raise PrivacyRefused(f"{where} refused: {problem}")


# -- the fields of each kind of input


def candidate_fields(candidates: Iterable[Candidate], label: str = "candidate") -> Iterator[Field]:
    for position, candidate in enumerate(candidates, 1):
        if isinstance(candidate, Retraction):
            continue
        where = f"{label} {position}"
        yield f"{where} text", candidate.text, True
        if candidate.source_ref:
            yield f"{where} source_ref", candidate.source_ref, False
        if isinstance(candidate, FactIn):
            for tag in sorted(candidate.tags or ()):
                yield f"{where} tag", tag, False
            if candidate.evidence:
                yield f"{where} evidence", candidate.evidence, False


def episode_fields(episodes: Iterable[EpisodeIn], label: str = "episode") -> Iterator[Field]:
    for position, episode in enumerate(episodes, 1):
        where = f"{label} {position}"
        yield f"{where} text", episode.text, False
        yield f"{where} type", episode.type, False
        if episode.outcome:
            yield f"{where} outcome", episode.outcome, False
        if episode.ref:
            yield f"{where} ref", episode.ref, False
        yield from _mapping_fields(f"{where} meta", episode.meta)


def knowledge_fields(items: Iterable[KnowledgeIn]) -> Iterator[Field]:
    for position, item in enumerate(items, 1):
        where = f"knowledge {position}"
        yield f"{where} kind", item.kind, False
        yield f"{where} name", item.name, False
        for alias in item.aliases:
            yield f"{where} alias", alias, False
        yield from _mapping_fields(f"{where} attributes", item.attributes)


def document_fields(doc: ExportDocument) -> Iterator[Field]:
    rows: list[tuple[str, Any, str]] = [
        *(("facts", r, r.text) for r in doc.facts),
        *(("patterns", r, r.text) for r in doc.patterns),
        *(("notes", r, r.text) for r in doc.notes),
        *(("archive", r, r.original_text) for r in doc.archive),
    ]
    for table, row, text in rows:
        where = f"{table} id {row.id}"
        yield f"{where} text", text, True
        if getattr(row, "source_ref", None):
            yield f"{where} source_ref", row.source_ref, False
        for tag in getattr(row, "tags", ()) or ():
            yield f"{where} tag", tag, False


def memories_file_fields(memories: Iterable[Any], archived: Iterable[Any]) -> Iterator[Field]:
    """memories.yaml entries (`content`, `source_reference`, `tags`; archived `original_content`)."""
    for memory in memories:
        where = f"memory {memory.id!r}"
        yield f"{where} content", memory.content, True
        if memory.source_reference:
            yield f"{where} source_reference", memory.source_reference, False
        for tag in memory.tags or ():
            yield f"{where} tag", tag, False
    for entry in archived:
        yield f"archived {entry.id!r} original_content", entry.original_content, True
        if entry.reason:
            yield f"archived {entry.id!r} reason", entry.reason, False


def _mapping_fields(where: str, mapping: Mapping[str, Any]) -> Iterator[Field]:
    for key, value in mapping.items():
        yield f"{where} key", str(key), False
        if isinstance(value, str):
            yield f"{where} {key!s}", value, False
        elif isinstance(value, Mapping):
            yield from _mapping_fields(f"{where} {key!s}", value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, str):
                    yield f"{where} {key!s}", item, False
                elif isinstance(item, Mapping):
                    yield from _mapping_fields(f"{where} {key!s}", item)


def candidate_problem(candidate: Candidate) -> str | None:
    """Why the gate refuses one candidate (its text, source_ref or a tag), or None: for paths
    that leave refused items out and report them instead of failing (the engine's rows)."""
    for where, text, memory_text in candidate_fields([candidate], label="item"):
        problem = text_problem(text) if memory_text else personal_data_problem(text)
        if problem is not None:
            return f"{where.removeprefix('item 1 ')}: {problem}"
    return None


def passes(fields: Iterable[Field]) -> bool:
    """Whether the gate would let these fields through (for learning paths, which drop what
    the gate refuses instead of failing the whole message)."""
    try:
        check(fields, trusted=False)
    except InvalidInput:
        return False
    return True
