"""vault: an embedded, SQLite-first memory layer for an LLM coach.

    from vault import open_vault, FactIn
    with open_vault("vault.db", upgrade=True) as v:
        v.merge("ana", [FactIn(text="primary sport: running", confidence=0.8)])
        print(v.top_facts("ana"))
"""

from typing import TYPE_CHECKING

from vault.lazy import exports

if TYPE_CHECKING:
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

# each name is imported from its module on first use (vault.lazy.exports): `vault prompt`
# never loads the episode models
_SOURCES = {
    "Vault": "vault.api",
    "open_vault": "vault.api",
    "Embedder": "vault.domain.embedding",
    "Episode": "vault.domain.episodes",
    "EpisodeIn": "vault.domain.episodes",
    "Knowledge": "vault.domain.episodes",
    "KnowledgeIn": "vault.domain.episodes",
    "AthleteNotFound": "vault.domain.errors",
    "BudgetExceeded": "vault.domain.errors",
    "BusyError": "vault.domain.errors",
    "ConflictError": "vault.domain.errors",
    "ExtractionError": "vault.domain.errors",
    "FactNotFound": "vault.domain.errors",
    "InvalidInput": "vault.domain.errors",
    "LegacyImportError": "vault.domain.errors",
    "NotAVaultFile": "vault.domain.errors",
    "SchemaOutOfDate": "vault.domain.errors",
    "SchemaTooNew": "vault.domain.errors",
    "StorageError": "vault.domain.errors",
    "VaultError": "vault.domain.errors",
    "Archived": "vault.domain.models",
    "AthleteMemory": "vault.domain.models",
    "AthleteSummary": "vault.domain.models",
    "DecayResult": "vault.domain.models",
    "Fact": "vault.domain.models",
    "FactIn": "vault.domain.models",
    "ForgetResult": "vault.domain.models",
    "Ignored": "vault.domain.models",
    "ListItem": "vault.domain.models",
    "MergeResult": "vault.domain.models",
    "NoteIn": "vault.domain.models",
    "PatternIn": "vault.domain.models",
    "Retraction": "vault.domain.models",
    "ArchiveReason": "vault.domain.vocabulary",
    "Category": "vault.domain.vocabulary",
    "Kind": "vault.domain.vocabulary",
    "Level": "vault.domain.vocabulary",
    "Source": "vault.domain.vocabulary",
}
__getattr__ = exports(__name__, _SOURCES)
