"""Repositories: they read and write through the unit of work's connection and never commit."""

from vault.storage.repositories.archive import ArchiveRepository
from vault.storage.repositories.athletes import AthleteRepository
from vault.storage.repositories.memory import MemoryRepository

__all__ = ["AthleteRepository", "ArchiveRepository", "MemoryRepository"]
