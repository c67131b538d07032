"""vault: an embedded, SQLite-first memory layer for an LLM coach.

    from vault import open_vault, FactIn
    with open_vault("vault.db", upgrade=True) as v:
        v.merge("ana", [FactIn(text="primary sport: running", confidence=0.8)])
        print(v.top_facts("ana"))

Memory and learning are methods of `Vault`; episodes, knowledge, transfer (export, import,
copy, backup) and administration are `v.episodes`, `v.knowledge`, `v.transfer`, `v.admin`.
"""

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
