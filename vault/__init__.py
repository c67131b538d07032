"""vault: an embedded, SQLite-first memory layer for an LLM coach.

    from vault import open_vault, FactIn
    with open_vault("vault.db", upgrade=True) as v:
        v.merge("ana", [FactIn(text="primary sport: running", confidence=0.8)])
        print(v.top_facts("ana"))

Memory and learning are methods of `Vault`; episodes, knowledge, transfer (export, import,
copy, backup) and administration are `v.episodes`, `v.knowledge`, `v.transfer`, `v.admin`.

The names below are imported when first used (PEP 562), so `vault --version` and other
programs that need one corner of the package do not load all of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vault._exports import lazy_exports

__version__ = "0.1.0"  # the one place the version is written (pyproject reads it from here)

# public name -> the module that defines it
_HOMES = {
    "Vault": "vault.api",
    "open_vault": "vault.api",
    "Embedder": "vault.domain.embedding",
    **dict.fromkeys(["Episode", "EpisodeIn", "Knowledge", "KnowledgeIn"], "vault.domain.episodes"),
    **dict.fromkeys(
        [
            "AthleteNotFound",
            "BudgetExceeded",
            "BusyError",
            "ConflictError",
            "ExtractionError",
            "FactNotFound",
            "InvalidInput",
            "LegacyImportError",
            "NotAVaultFile",
            "SchemaOutOfDate",
            "SchemaTooNew",
            "StorageError",
            "VaultError",
        ],
        "vault.domain.errors",
    ),
    **dict.fromkeys(
        [
            "Archived",
            "AthleteMemory",
            "AthleteSummary",
            "DecayResult",
            "Fact",
            "FactIn",
            "ForgetResult",
            "Ignored",
            "ListItem",
            "MergeResult",
            "NoteIn",
            "PatternIn",
            "Retraction",
        ],
        "vault.domain.models",
    ),
    **dict.fromkeys(
        ["ArchiveReason", "Category", "Kind", "Level", "Source"], "vault.domain.vocabulary"
    ),
}

__all__ = [
    "ArchiveReason",
    "Archived",
    "AthleteMemory",
    "AthleteNotFound",
    "AthleteSummary",
    "BudgetExceeded",
    "BusyError",
    "Category",
    "ConflictError",
    "DecayResult",
    "Embedder",
    "Episode",
    "EpisodeIn",
    "ExtractionError",
    "Fact",
    "FactIn",
    "FactNotFound",
    "ForgetResult",
    "Ignored",
    "InvalidInput",
    "Kind",
    "Knowledge",
    "KnowledgeIn",
    "LegacyImportError",
    "Level",
    "ListItem",
    "MergeResult",
    "NotAVaultFile",
    "NoteIn",
    "PatternIn",
    "Retraction",
    "SchemaOutOfDate",
    "SchemaTooNew",
    "Source",
    "StorageError",
    "Vault",
    "VaultError",
    "open_vault",
]


__getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals())


if TYPE_CHECKING:  # what type checkers and IDEs see
    from vault.api import Vault, open_vault
    from vault.domain.embedding import Embedder
    from vault.domain.episodes import Episode, EpisodeIn, Knowledge, KnowledgeIn
    from vault.domain.errors import (
        AthleteNotFound,
        BudgetExceeded,
        BusyError,
        ConflictError,
        ExtractionError,
        FactNotFound,
        InvalidInput,
        LegacyImportError,
        NotAVaultFile,
        SchemaOutOfDate,
        SchemaTooNew,
        StorageError,
        VaultError,
    )
    from vault.domain.models import (
        Archived,
        AthleteMemory,
        AthleteSummary,
        DecayResult,
        Fact,
        FactIn,
        ForgetResult,
        Ignored,
        ListItem,
        MergeResult,
        NoteIn,
        PatternIn,
        Retraction,
    )
    from vault.domain.vocabulary import ArchiveReason, Category, Kind, Level, Source
