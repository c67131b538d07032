"""The privacy gate: what a field is decides what the gate does, on every write the services make.

The gate sits in the services, not in the facade: `merge`, `add_episodes`, `store_knowledge`,
`interchange.restore` and `interchange.import_memories_yaml` screen what they are given
themselves, so a caller composing them in its own unit of work
(`with vault.unit_of_work() as uow: restore(uow, doc)`) passes the same gate as `vault import`.
Each takes `trusted=False`; `trusted=True` (CLI `--trusted`) skips the gate for an entry its
author vouches for, and must be a real bool, so a truthy string cannot switch it off by accident.

Three rules (vault.extraction.privacy), by field:
- memory text (a fact's, pattern's or note's text; a document's or memories.yaml file's
  texts): refused when it holds personal data, another person's name, words addressed to a
  model, or a slot value that is not a value (`PrivacyRefused` naming the field);
- speech (an episode's text, type, outcome and metadata, knowledge, a fact's evidence words):
  personal data redacted in place (`[phone]`, `[card]`, ...), never refused for it;
- identifiers and labels (`ref`, `source_ref`, metadata keys, ids under an `id` / `ref` key,
  tags): never read as phone numbers; refused when they hold an e-mail address, a card
  number, an IBAN or a credential (tags: any personal data).
Every value is read: numbers, lists and mappings at any depth, whole texts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from vault.domain.document import ExportDocument
from vault.domain.episodes import EpisodeIn, KnowledgeIn
from vault.domain.errors import InvalidInput, PrivacyRefused
from vault.domain.models import Candidate, FactIn, Retraction
from vault.extraction.privacy import (
    SPEECH_KINDS,
    find_pii,
    identifier_problem,
    names_cut,
    redact_speech,
    text_problem,
)

Kinds = tuple[str, ...]  # the kinds of personal data redacted from one item

# A metadata key naming an identifier: its value is opaque (an activity id is no phone number).
_ID_KEY = re.compile(r"(?:^|[_\s.-])(?:id|ids|ref|refs|uuid|guid|hash)$|^(?:id|ref|uuid)$")
# A metadata key naming contact data: its number is read as a phone number too.
_CONTACT_KEY = re.compile(r"phone|mobile|tel|cell|fax|whatsapp|contact|number", re.IGNORECASE)


def require_bool(trusted: object) -> bool:
    if not isinstance(trusted, bool):
        raise InvalidInput(f"trusted must be True or False, got {trusted!r}")
    return trusted


def _refuse(where: str, problem: str) -> PrivacyRefused:
    return PrivacyRefused(f"{where} refused: {problem}")


# -- the three rules, one field each


def memory_text(where: str, text: str) -> None:
    problem = text_problem(text)
    if problem is not None:
        raise _refuse(where, problem)


def verbatim_memory_text(where: str, text: str) -> None:
    """Memory text stored exactly as given (a restored document, a memories.yaml file): a name
    even after a relation word is refused, since there is no cut version to store."""
    memory_text(where, text)
    if names_cut(text) is not None:
        raise _refuse(where, "names another person")


def identifier(where: str, text: str) -> None:
    problem = identifier_problem(text)
    if problem is not None:
        raise _refuse(where, problem)


def label(where: str, text: str) -> None:
    """A tag (`kind:entity`) or a short label: no personal data of any speech kind, read with
    its `_`, `:` and `-` as spaces too (`pw:hunter2`, `my_password_x`)."""
    for form in dict.fromkeys((text, re.sub(r"[_:]", " ", text))):
        kinds = sorted({s.kind for s in find_pii(form) if s.kind in SPEECH_KINDS})
        if kinds:
            raise _refuse(where, "holds personal data (" + ", ".join(kinds) + ")")


def speech(text: str) -> tuple[str, Kinds]:
    return redact_speech(text)


def _slug(text: str) -> tuple[str, Kinds]:
    """A slug (`long_run`) read with spaces, redacted, and joined again."""
    spaced = text.replace("_", " ")
    redacted, kinds = redact_speech(spaced)
    return (redacted.replace(" ", "_").lower() if kinds else text), kinds


def value(where: str, key: str, item: Any) -> tuple[Any, Kinds]:
    """A metadata or attribute value at any depth, screened by what its key says it is."""
    if isinstance(item, str):
        if _ID_KEY.search(key.lower()):
            identifier(where, item)
            return item, ()
        return speech(item)
    if isinstance(item, bool) or item is None:
        return item, ()
    if isinstance(item, (int, float)):
        written = str(item)
        if _ID_KEY.search(key.lower()):
            identifier(where, written)
            return item, ()
        if isinstance(item, int):
            if identifier_problem(written) is not None:
                return "[card]", ("card",)
            # under a phone key the key is the cue: a number of a phone's length is one
            if _CONTACT_KEY.search(key) and 7 <= len(written.lstrip("-")) <= 15:
                return "[phone]", ("phone",)
        return item, ()
    if isinstance(item, Mapping):
        return mapping(where, item)
    if isinstance(item, (list, tuple)):
        found: list[Any] = []
        seen: Kinds = ()
        for position, element in enumerate(item):
            cleaned, more = value(f"{where}[{position}]", key, element)
            found.append(cleaned)
            seen += more
        return (tuple(found) if isinstance(item, tuple) else found), seen
    return item, ()


def mapping(where: str, items: Mapping[Any, Any]) -> tuple[dict[str, Any], Kinds]:
    cleaned: dict[str, Any] = {}
    kinds: Kinds = ()
    for key, item in items.items():
        name = str(key)
        identifier(f"{where} key {name[:40]!r}", name)
        cleaned[name], more = value(f"{where} {name}", name, item)
        kinds += more
    return cleaned, kinds


# -- each kind of input


def screen_candidate(candidate: Candidate, where: str = "candidate") -> Candidate:
    """The candidate with its evidence words redacted, or PrivacyRefused naming the field."""
    if isinstance(candidate, Retraction):
        return candidate
    memory_text(f"{where} text", candidate.text)
    cut = names_cut(candidate.text)
    if cut is not None:  # "my wife Sarah runs too" is kept as "my wife runs too"
        data = candidate.model_dump()
        data["text"] = cut
        candidate = type(candidate).model_validate(data)
    if candidate.source_ref:
        identifier(f"{where} source_ref", candidate.source_ref)
    if not isinstance(candidate, FactIn):
        return candidate
    for tag in sorted(candidate.tags or ()):
        label(f"{where} tag", tag)
    if candidate.evidence:
        words, kinds = speech(candidate.evidence)
        if kinds:
            return candidate.model_copy(update={"evidence": words})
    return candidate


def screen_candidates(
    candidates: Iterable[Candidate], *, trusted: bool, label_: str = "candidate"
) -> list[Candidate]:
    """Every candidate screened (PrivacyRefused for the first refused one), unless `trusted`."""
    if require_bool(trusted):
        return list(candidates)
    return [screen_candidate(c, f"{label_} {n}") for n, c in enumerate(candidates, 1)]


def kept_candidates(
    candidates: Iterable[Candidate], refused: list[str] | None = None
) -> list[Candidate]:
    """The candidates the gate lets through (screened); each refused one is left out and its
    reason appended to `refused` (learning paths: one bad clause never fails a message)."""
    kept: list[Candidate] = []
    for number, candidate in enumerate(candidates, 1):
        try:
            kept.append(screen_candidate(candidate, f"item {number}"))
        except PrivacyRefused as error:
            if refused is not None:
                refused.append(error.problem)
    return kept


def candidate_problem(candidate: Candidate) -> str | None:
    """Why the gate refuses one candidate (its text, source_ref or a tag), or None: for paths
    that leave refused items out and report them instead of failing (the engine's rows)."""
    try:
        screen_candidate(candidate, "item")
    except PrivacyRefused as error:
        return error.problem.removeprefix("item ").replace(" refused: ", ": ", 1)
    return None


def screen_episode(episode: EpisodeIn, where: str = "episode") -> tuple[EpisodeIn, Kinds]:
    """The episode with personal data redacted in its text, type, outcome and metadata, and
    the kinds redacted; PrivacyRefused when its ref or a metadata key holds an identifier's
    forbidden kinds."""
    if episode.ref:
        identifier(f"{where} ref", episode.ref)
    text, kinds = speech(episode.text)
    kind, more = _slug(episode.type)
    kinds += more
    outcome = episode.outcome
    if outcome:
        outcome, more = _slug(outcome)
        kinds += more
    meta, more = mapping(f"{where} meta", episode.meta)
    kinds += more
    if not kinds:
        return episode, ()
    update = {"text": text, "type": kind, "outcome": outcome, "meta": meta}
    return EpisodeIn.model_validate(episode.model_dump(by_alias=True) | update), _unique(kinds)


def screen_knowledge(item: KnowledgeIn, where: str = "knowledge") -> tuple[KnowledgeIn, Kinds]:
    """A knowledge row with personal data redacted in every field (names are its point)."""
    kind, kinds = _slug(item.kind)
    name, more = speech(item.name)
    kinds += more
    aliases = []
    for alias in item.aliases:
        cleaned, more = speech(alias)
        aliases.append(cleaned)
        kinds += more
    attributes, more = mapping(f"{where} attributes", item.attributes)
    kinds += more
    if not kinds:
        return item, ()
    update = {"kind": kind, "name": name, "aliases": tuple(aliases), "attributes": attributes}
    return KnowledgeIn.model_validate(item.model_dump() | update), _unique(kinds)


def check_document(doc: ExportDocument) -> None:
    """A vault-export document's memory texts, source_refs and tags, or PrivacyRefused."""
    rows: list[tuple[str, Any, str]] = [
        *(("facts", r, r.text) for r in doc.facts),
        *(("patterns", r, r.text) for r in doc.patterns),
        *(("notes", r, r.text) for r in doc.notes),
        *(("archive", r, r.original_text) for r in doc.archive),
    ]
    for table, row, text in rows:
        where = f"{table} id {row.id}"
        verbatim_memory_text(f"{where} text", text)
        if getattr(row, "source_ref", None):
            identifier(f"{where} source_ref", row.source_ref)
        for tag in getattr(row, "tags", ()) or ():
            label(f"{where} tag", tag)


def check_memories_file(memories: Iterable[Any], archived: Iterable[Any]) -> None:
    """memories.yaml entries (`content`, `source_reference`, `tags`; archived
    `original_content` and `reason`), or PrivacyRefused."""
    for memory in memories:
        where = f"memory {memory.id!r}"
        verbatim_memory_text(f"{where} content", memory.content)
        if memory.source_reference:
            identifier(f"{where} source_reference", memory.source_reference)
        for tag in memory.tags or ():
            label(f"{where} tag", tag)
    for entry in archived:
        verbatim_memory_text(f"archived {entry.id!r} original_content", entry.original_content)
        if entry.reason:
            label(f"archived {entry.id!r} reason", entry.reason)


def _unique(kinds: Kinds) -> Kinds:
    return tuple(sorted(set(kinds)))
