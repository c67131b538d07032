"""One privacy gate on every public write path, found by introspection.

Every public attribute of `Vault`, every CLI command and every service function that takes a
unit of work (the composition path: `with v.unit_of_work() as uow: restore(uow, doc)`) is
either a write path listed here (and tested: personal data is refused where the field is memory
text or an identifier, redacted in place where it is speech, never stored; `trusted` lets it
through where the path offers that opt-out) or listed as not writing caller text, with the
reason. A new method, command or service function in neither list fails the listing tests, so
it cannot skip the gate unnoticed.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from tests.conftest import T0
from vault import FactIn, InvalidInput, Vault
from vault.cli import main
from vault.domain.episodes import EpisodeIn, KnowledgeIn
from vault.facade.admin import Admin
from vault.facade.episodes import Episodes
from vault.facade.items import Items
from vault.facade.knowledge import KnowledgeBase
from vault.facade.transfer import Transfer

SECRET = "hunter2zq"
PII = f"my password {SECRET}"  # a credential: refused or redacted on every path
CARD = "4111.1111.1111.1111"  # a card, spelled with dots
# (what is written, what must never be found stored)
PERSONAL = [(PII, SECRET), (f"card {CARD}", CARD)]


def _memories_yaml(content: str, ref: str = "act_1") -> str:
    return (
        f'memories:\n  - {{id: m1, type: preference, content: "{content}", source: manual, '
        f'source_reference: "{ref}", created_at: "2025-01-01T00:00:00Z", '
        f'updated_at: "2025-01-02T00:00:00Z", confidence: high}}\n'
    )


def _document(vault: Vault, text: str) -> dict[str, Any]:
    vault.merge("doc", [FactIn(text="goal: 10k")], now=T0, trusted=True)
    document = vault.transfer.export("doc")
    vault.delete_athlete("doc")
    document["facts"][0]["text"] = text
    return document


def _a_fact(vault: Vault) -> int:
    vault.merge("ana", [FactIn(text="goal: 10k")], now=T0, trusted=True)
    return vault.facts("ana", T0)[0].id


Write = Callable[[Vault, str, bool], object]

# Paths that store what the caller gives: each takes (vault, text, trusted). Names are the
# facade's: `merge` on Vault, `episodes.add` on v.episodes, and so on.
WRITES: dict[str, list[Write]] = {
    "merge": [
        lambda v, s, t: v.merge("ana", [FactIn(text=s)], now=T0, trusted=t),
        lambda v, s, t: v.merge("ana", [FactIn(text="goal: 10k", source_ref=s)], now=T0, trusted=t),
        lambda v, s, t: v.merge(
            "ana", [{"kind": "note", "text": "knee ok", "source_ref": s}], now=T0, trusted=t
        ),
        lambda v, s, t: v.merge(
            "ana", [FactIn(text="has knee issue", tags={f"pw:{s}"})], now=T0, trusted=t
        ),
    ],
    "remember": [lambda v, s, t: v.remember("ana", s, now=T0, trusted=t)],
    "transfer.import_document": [
        lambda v, s, t: v.transfer.import_document(_document(v, s), trusted=t)
    ],
    "transfer.import_documents": [
        lambda v, s, t: v.transfer.import_documents([_document(v, s)], trusted=t)
    ],
    "transfer.import_memories_yaml": [
        lambda v, s, t: v.transfer.import_memories_yaml(
            _memories_yaml(s), "ana", now=T0, trusted=t
        ),
        lambda v, s, t: v.transfer.import_memories_yaml(
            _memories_yaml("goal: 10k", s), "ana", now=T0, trusted=t
        ),
    ],
    "episodes.add": [
        lambda v, s, t: v.episodes.add("ana", [{"text": s}], now=T0, trusted=t),
        lambda v, s, t: v.episodes.add("ana", [{"text": "long run", "ref": s}], now=T0, trusted=t),
        lambda v, s, t: v.episodes.add(
            "ana", [{"text": "long run", "outcome": s}], now=T0, trusted=t
        ),
        lambda v, s, t: v.episodes.add(
            "ana", [{"text": "long run", "meta": {"person": s}}], now=T0, trusted=t
        ),
    ],
    "episodes.add_one": [lambda v, s, t: v.episodes.add_one("ana", s, now=T0, trusted=t)],
    "episodes.import_stream": [
        lambda v, s, t: v.episodes.import_stream(
            "ana", [{"text": "easy"}, {"text": s}], now=T0, trusted=t
        )
    ],
    "episodes.from_activity": [
        lambda v, s, t: v.episodes.from_activity(
            "ana",
            {"id": "a1", "date": "2026-03-01", "description": f"knee pain, {s}"},
            now=T0,
            trusted=t,
        )
    ],
    "items.edit": [lambda v, s, t: v.items.edit("ana", "fact", _a_fact(v), s, now=T0, trusted=t)],
    "knowledge.load": [
        lambda v, s, t: v.knowledge.load(
            [{"kind": "shoe", "name": "Pegasus", "attributes": {"note": s}}], now=T0, trusted=t
        ),
        lambda v, s, t: v.knowledge.load(
            [{"kind": "shoe", "name": "Pegasus", "aliases": [s]}], now=T0, trusted=t
        ),
    ],
}

# Fields that are speech: personal data is redacted in place there, never refused for it.
SPEECH = {
    ("episodes.add", 0),  # text
    ("episodes.add", 2),  # outcome
    ("episodes.add", 3),  # meta value
    ("episodes.add_one", 0),
    ("episodes.import_stream", 0),
    ("episodes.from_activity", 0),
    ("knowledge.load", 0),  # attribute
    ("knowledge.load", 1),  # alias
}

# Learning paths: they store what an extractor made of the input, never the input itself;
# what the gate refuses is dropped (like the extractor's own scrub), so nothing of it is stored.
LEARNING: dict[str, Callable[[Vault, str], object]] = {
    "ingest_message": lambda v, s: v.ingest_message("ana", f"I run every morning, {s}", now=T0),
    "ingest_conversation": lambda v, s: v.ingest_conversation(
        "ana", [{"role": "user", "text": f"I love trail running. {s}"}], now=T0
    ),
    "ingest_activity": lambda v, s: v.ingest_activity(
        "ana",
        {"id": "a1", "date": "2026-03-01", "description": f"knee pain after the run, {s}"},
        now=T0,
    ),
    "learn_patterns": lambda v, s: v.learn_patterns(
        "ana",
        [{"id": f"a{i}", "date": f"2026-02-{i + 1:02d}", "description": s} for i in range(8)],
        now=T0,
    ),
    "bootstrap": lambda v, s: v.bootstrap("ana", {"sport": "running", "goal": s}, now=T0),
}

NOT_WRITES = {
    # reads
    "facts",
    "memory",
    "top_facts",
    "patterns",
    "notes",
    "archive",
    "history",
    "summary",
    "summaries",
    "memory_block",
    "contract",
    "relevance_ranker",
    "relevant",
    "extract_message",
    "engine",
    "decay_policy",
    "why",
    "admin.doctor",
    "admin.erasure_pending",
    "admin.facts_due_count",
    "admin.athlete_count",
    "admin.stats",
    "admin.sql",
    "admin.engine_writes_waiting",
    "admin.engine_items_left_out",
    "transfer.export",
    "transfer.export_all",
    "episodes.recall",
    "episodes.topics",
    "episodes.sections",
    "episodes.vector_models",
    "episodes.newest",
    "episodes.count",
    "knowledge.for_context",
    "knowledge.read_files",
    # erase or lower what is stored, never add text
    "decay",
    "forget",
    "delete_athlete",
    "cleanup_archive",
    "episodes.forget",
    "episodes.expire",
    "episodes.cleanup_archive",
    "admin.erase",
    "items.reject",
    "items.delete",
    # vectors of episodes, and facts consolidated from sessions, already stored (their text
    # passed the gate on the way in)
    "episodes.reembed",
    "consolidate",
    # the engine's rows go through privacy_gate.candidate_problem item by item
    # (test_engine_rows_pass_the_gate below)
    "admin.sync_engine",
    # whole-vault copies: rows already stored passed the gate (or were vouched for) on the way in
    "transfer.copy_to",
    "transfer.backup",
    # plumbing: a caller composing repository calls itself calls privacy_gate.check itself
    "unit_of_work",
    "close",
    "busy_retry",
}
# the facade's rooms: `Vault` itself, then each resource object (`v.episodes`, ...)
RESOURCES: dict[str, type] = {
    "": Vault,
    "items": Items,
    "episodes": Episodes,
    "knowledge": KnowledgeBase,
    "transfer": Transfer,
    "admin": Admin,
}


def _public_paths() -> set[str]:
    """Every public method, as `name` on Vault or `resource.name` (the resources themselves,
    built on first use, are not methods)."""
    paths = {n for n in vars(Vault) if not n.startswith("_") and n not in RESOURCES}
    for resource, cls in RESOURCES.items():
        if resource:
            paths |= {f"{resource}.{n}" for n in dir(cls) if not n.startswith("_")}
    return paths


def _method(path: str) -> Any:
    owner, _, name = path.rpartition(".")
    return getattr(RESOURCES[owner], name)


def test_every_public_write_path_is_listed() -> None:
    public = _public_paths()
    listed = set(WRITES) | set(LEARNING) | NOT_WRITES
    assert public - listed == set(), (
        "a new public method: add it to WRITES (with a gate test) or NOT_WRITES"
    )
    assert listed - public == set()


@pytest.mark.parametrize("name", sorted(WRITES))
def test_write_paths_offer_the_same_explicit_trusted_opt_out(name: str) -> None:
    parameter = inspect.signature(_method(name)).parameters.get("trusted")
    assert parameter is not None and parameter.kind is inspect.Parameter.KEYWORD_ONLY
    assert parameter.default is False


def _stored_anywhere(vault: Vault, needle: str) -> list[str]:
    """Every table (whatever branch added it) whose rows hold `needle`, read generically."""
    from sqlalchemy import MetaData

    found = []
    metadata = MetaData()
    metadata.reflect(vault.engine)
    with vault.engine.connect() as connection:
        for table in metadata.sorted_tables:
            for row in connection.execute(table.select()):
                if needle.lower() in " ".join(str(v) for v in row).lower():
                    found.append(table.name)
                    break
    return found


@pytest.mark.parametrize(
    ("name", "case"), [(n, i) for n in sorted(WRITES) for i in range(len(WRITES[n]))]
)
@pytest.mark.parametrize(("pii", "needle"), PERSONAL)
def test_each_write_path_refuses_or_redacts_personal_data_and_stores_none_of_it(
    vault: Vault, name: str, case: int, pii: str, needle: str
) -> None:
    write = WRITES[name][case]
    if (name, case) in SPEECH:
        write(vault, pii, False)  # speech: kept, with the personal data replaced in place
        assert _stored_anywhere(vault, "[credential]" if needle == SECRET else "[card]") != []
    else:
        with pytest.raises(InvalidInput, match="refused"):
            write(vault, pii, False)
    assert _stored_anywhere(vault, needle) == []
    with pytest.raises(InvalidInput, match="trusted must be True or False"):
        write(vault, pii, "yes")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "case"), [(n, i) for n in sorted(WRITES) for i in range(len(WRITES[n]))]
)
def test_trusted_lets_a_vouched_entry_through(vault: Vault, name: str, case: int) -> None:
    WRITES[name][case](vault, PII, True)
    assert _stored_anywhere(vault, SECRET) != []


@pytest.mark.parametrize("name", sorted(LEARNING))
def test_learning_paths_store_nothing_the_gate_refuses(vault: Vault, name: str) -> None:
    try:
        LEARNING[name](vault, PII)
    except InvalidInput:
        pass  # refused outright (e.g. a profile goal that is no value): nothing written either
    assert _stored_anywhere(vault, SECRET) == []


# -- the command line: every command is a write with --trusted, or listed as not writing text

CLI_WRITES = {  # command -> how to make it write PII
    "remember": lambda path: ["remember", "ana", PII],
    "import-yaml": lambda path: ["import-yaml", str(path), "--athlete", "ana"],
    "episode add": lambda path: ["episode", "add", "ana", PII],
    "episode import": lambda path: ["episode", "import", "ana", str(path)],
    "knowledge load": lambda path: ["knowledge", "load", str(path)],
    "import": lambda path: ["import", str(path), "--strict"],  # --strict: refused, exit 1
}
CLI_SPEECH = {"episode add", "episode import", "knowledge load"}  # redacted, not refused
CLI_LEARNING = {"ingest", "bootstrap", "demo"}  # extractor output only, through the gate
# serves agents: its write tools call the gated facade methods, never with trusted=True
# (tests/mcp/test_write_tools.py refuses personal data through the protocol)
# the memory page's forms call v.items.edit (gated, never trusted), forget and delete
# (tests/ui/test_page.py refuses personal data through the page)
CLI_SERVERS = {"mcp", "ui"}
CLI_NOT_WRITES = {
    "backup",
    "cleanup",
    "copy",
    "datasette-metadata",
    "decay",
    "delete",
    "doctor",
    "erase",
    "export",
    "facts",
    "forget",
    "history",
    "prompt",
    "recall",
    "relevant",
    "sql",
    "stats",
    "upgrade",
    "episode forget",
    "episode expire",
    "episode cleanup",
    "episode list",
    "knowledge show",
    "episode reembed",
    "consolidate",
}


def _commands(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    context = click.Context(group)
    found: dict[str, click.Command] = {}
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None
        full = f"{prefix}{name}"
        if isinstance(command, click.Group):
            found.update(_commands(command, f"{full} "))
        else:
            found[full] = command
    return found


def test_every_cli_command_is_listed_and_every_write_takes_trusted() -> None:
    commands = _commands(main)
    listed = set(CLI_WRITES) | CLI_LEARNING | CLI_SERVERS | CLI_NOT_WRITES
    assert set(commands) - listed == set(), "a new command: add it to CLI_WRITES or CLI_NOT_WRITES"
    for name in CLI_WRITES:
        assert "trusted" in {p.name for p in commands[name].params}, name


def _cli_input(name: str, tmp_path: Path, vault: Vault) -> Path:
    path = tmp_path / "input"
    if name == "import-yaml":
        path.write_text(_memories_yaml(PII))
    elif name == "episode import":
        path.write_text(json.dumps({"text": PII}) + "\n")
    elif name == "knowledge load":
        path = tmp_path / "k.json"
        path.write_text(
            json.dumps([{"kind": "shoe", "name": "Pegasus", "attributes": {"note": PII}}])
        )
    elif name == "import":
        path.write_text(json.dumps(_document(vault, PII)))
    return path


@pytest.mark.parametrize("name", sorted(CLI_WRITES))
def test_cli_writes_refuse_or_redact_personal_data_unless_trusted(
    vault: Vault, vault_url: str, tmp_path: Path, name: str
) -> None:
    path = _cli_input(name, tmp_path, vault)
    runner = CliRunner()
    result = runner.invoke(main, ["--db", vault_url, *CLI_WRITES[name](path)])
    if name in CLI_SPEECH:
        assert result.exit_code == 0, result.output
        assert _stored_anywhere(vault, "[credential]") != []
    else:
        assert result.exit_code == 1, result.output
        assert "refused" in result.output and len(result.output.strip().splitlines()) == 1
    assert _stored_anywhere(vault, SECRET) == []
    trusted = runner.invoke(main, ["--db", vault_url, *CLI_WRITES[name](path), "--trusted"])
    assert trusted.exit_code == 0, trusted.output
    assert _stored_anywhere(vault, SECRET) != []


def test_one_candidate_is_judged_on_every_field_for_paths_that_leave_refusals_out() -> None:
    from vault import NoteIn
    from vault.services.privacy_gate import candidate_problem

    assert candidate_problem(FactIn(text="goal: 10k")) is None
    assert candidate_problem(FactIn(text=PII)) == "text: holds personal data (credential)"
    assert (
        candidate_problem(NoteIn(text="knee ok", source_ref=CARD))
        == "source_ref: holds personal data (card)"
    )
    assert candidate_problem(FactIn(text="has knee issue", tags={f"pw:{PII}"})) is not None


def test_engine_rows_pass_the_gate(tmp_path: Path) -> None:
    """What the on-device engine writes to athlete_memory is filtered item by item."""
    import sqlite3
    from contextlib import closing

    from vault import open_vault

    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running", now=T0)
    row = {
        "key_facts": [
            {
                "fact": PII,
                "source": "conversation",
                "confidence": 0.9,
                "learned_at": "2026-03-01T08:00:00Z",
            }
        ],
        "patterns": [f"card {CARD}"],
        "coaching_notes": [],
    }
    with closing(sqlite3.connect(path)) as raw:
        raw.execute(
            "INSERT OR REPLACE INTO athlete_memory (athlete_id, memory_json, updated_at) "
            "VALUES (?1, ?2, CURRENT_TIMESTAMP)",
            ("ana", json.dumps(row)),
        )
        raw.commit()
    with open_vault(path) as vault:
        report = vault.admin.sync_engine(now=T0)
        assert sum("privacy" in line for line in report.lines) == 2
        assert _stored_anywhere(vault, SECRET) == []
        assert _stored_anywhere(vault, CARD) == []


# -- the composition path: services a caller runs in its own unit of work pass the same gate


def _composed(step: Callable[[Any, str, bool], object]) -> Write:
    def write(v: Vault, s: str, trusted: bool) -> None:
        with v.unit_of_work() as uow:
            step(uow, s, trusted)
            uow.commit()

    return write


def _service_writes() -> dict[str, list[Write]]:
    from vault.services import episodes, interchange, knowledge, memory
    from vault.services.interchange import memories_yaml

    return {
        "vault.services.memory.merge": [
            _composed(lambda u, s, t: memory.merge(u, "ana", [FactIn(text=s)], T0, trusted=t))
        ],
        "vault.services.interchange.restore.restore": [
            _composed(lambda u, s, t: interchange.restore(u, _doc_for(s), trusted=t))
        ],
        "vault.services.interchange.memories_yaml.import_memories_yaml": [
            _composed(
                lambda u, s, t: memories_yaml.import_memories_yaml(
                    u, _memories_yaml(s), "ana", now=T0, trusted=t
                )
            )
        ],
        "vault.services.episodes.add_episodes": [
            _composed(
                lambda u, s, t: episodes.add_episodes(u, "ana", [EpisodeIn(text=s)], T0, trusted=t)
            ),
            _composed(
                lambda u, s, t: episodes.add_episodes(
                    u, "ana", [EpisodeIn(text="run", ref=s)], T0, trusted=t
                )
            ),
        ],
        "vault.services.knowledge.store_knowledge": [
            _composed(
                lambda u, s, t: knowledge.store_knowledge(
                    u,
                    [KnowledgeIn(kind="shoe", name="Pegasus", attributes={"n": [{"x": s}]})],
                    T0,
                    trusted=t,
                )
            )
        ],
    }


SERVICE_SPEECH = {
    ("vault.services.episodes.add_episodes", 0),
    ("vault.services.knowledge.store_knowledge", 0),
}
SERVICE_NOT_WRITES = {
    # the engine's rows: item by item through privacy_gate.candidate_problem, then merge's gate
    "vault.services.engine_sync.apply_engine_writes",
    "vault.services.engine_sync.apply_waiting_of",
    "vault.services.engine_sync.sync",
    # facts consolidated from stored sessions: merged through merge's gate
    "vault.services.consolidation.run",
    # an edit's new text is merged through merge's gate (its facade path, items.edit, is
    # enumerated above); a removal writes no text
    "vault.services.corrections.edit",
    "vault.services.corrections.remove",
    # the erasure record: keyed hashes of what was removed, never a text
    "vault.services.erasure.record_erasure",
    "vault.services.erasure.record_athlete_erasure",
    "vault.services.erasure.erased_items",
    "vault.services.erasure.erased_since",
    "vault.services.erasure.athlete_erased_at",
    # merge's own plumbing: rows of a merge plan that merge's gate passed
    "vault.services.evidence.carried_over",
    "vault.services.evidence.unseen",  # reads which evidence is new
    "vault.services.evidence.record",
    # erase, lower or read what is stored; vectors of stored episodes
    "vault.services.episodes.reembed",
    "vault.services.episodes.forget_episodes",
    "vault.services.episodes.expire_episodes",
    "vault.services.episodes.cleanup_episode_archive",
    "vault.services.interchange.export.export_athlete",
    "vault.services.interchange.export.read_document",
    "vault.services.interchange.restore.import_document",  # the same function as restore
    "vault.services.memory.decay",
    "vault.services.memory.forget",
    "vault.services.memory.delete_athlete",
    "vault.services.memory.cleanup_archive",
    "vault.services.memory.fact_history",
}
_DOC: dict[str, Any] = {}


def _doc_for(text: str) -> dict[str, Any]:
    document = json.loads(json.dumps(_DOC["doc"]))
    document["facts"][0]["text"] = text
    return document


def _unit_of_work_functions() -> set[str]:
    """Every public function of vault.services whose first parameter is a unit of work."""
    import importlib
    import pkgutil

    import vault.services

    found = set()
    for info in pkgutil.walk_packages(vault.services.__path__, "vault.services."):
        module = importlib.import_module(info.name)
        for name, function in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(function):
                continue
            if function.__module__ != module.__name__:
                continue
            if list(inspect.signature(function).parameters)[:1] == ["uow"]:
                found.add(f"{module.__name__}.{name}")
    return found


def test_every_service_taking_a_unit_of_work_is_listed() -> None:
    listed = set(_service_writes()) | SERVICE_NOT_WRITES
    assert _unit_of_work_functions() - listed == set(), (
        "a new service function: add it to _service_writes (with a gate test) or SERVICE_NOT_WRITES"
    )
    assert listed - _unit_of_work_functions() == set()


@pytest.mark.parametrize(
    ("name", "case"),
    [(n, i) for n, steps in sorted(_service_writes().items()) for i in range(len(steps))],
)
@pytest.mark.parametrize(("pii", "needle"), PERSONAL)
def test_composed_service_calls_pass_the_same_gate(
    vault: Vault, name: str, case: int, pii: str, needle: str
) -> None:
    _DOC["doc"] = _document(vault, "goal: 10k")
    write = _service_writes()[name][case]
    if (name, case) in SERVICE_SPEECH:
        write(vault, pii, False)
    else:
        with pytest.raises(InvalidInput, match="refused"):
            write(vault, pii, False)
    assert _stored_anywhere(vault, needle) == []
    with pytest.raises(InvalidInput, match="trusted must be True or False"):
        write(vault, pii, "yes")  # type: ignore[arg-type]
    write(vault, pii, True)
    assert _stored_anywhere(vault, needle) != []
